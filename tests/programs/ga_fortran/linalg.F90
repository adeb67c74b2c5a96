! The linear algebra of the GA Fortran API: ga_lu_solve (and its _alt
! and _seq forms), ga_llt_solve, ga_solve, ga_spd_invert (nga_ spellings
! too), ga_cholesky, ga_llt_f/s/i, and the eigensolvers ga_diag_std,
! ga_diag, ga_diag_reuse, ga_diag_seq, ga_diag_std_seq and the direct
! ga_pdsyev, ga_pdsyevd, ga_pdsyevx, ga_pdsyevr, ga_pdsygv, on order-29
! matrices with two right-hand sides. Every rank checks every result
! against the serial LAPACK (called with INTEGER*4 arguments, since the
! program is built with -fdefault-integer-8): solutions, inverses and
! eigenvalues to 1e-9 relative to their largest element, eigenvectors
! by their residual |A v - lambda S v| below 1e-9 |A| n. Rank 0 prints
! eigenvalues and solutions to 6 decimals.
! Argument "debian" leaves out what Debian's GA 5.8 cannot do (see
! tests/tests/ga_linalg.rs).
program linalg
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n = 29, nrhs = 2
  integer*4, parameter :: n4 = n, nrhs4 = nrhs, one4 = 1, lwork4 = 64 * n
  double precision a(n, n), s(n, n), bad(n, n), sym(n, n), b(n, nrhs)
  double precision x(n, nrhs), want(n, nrhs), f(n, n), g(n, n)
  double precision w(n), ev(n), work(64 * n)
  integer*4 ipiv(n), info4
  integer g_a, g_s, g_bad, g_b, g_v, g_f, i, j, me, reuse, mout
  integer ga_cholesky, ga_llt_f, ga_llt_i
  external ga_cholesky, ga_llt_f, ga_llt_i
  logical debian
  character(len=16) arg

  call start_mpi_ga()
  me = ga_nodeid()
  arg = ' '
  call get_command_argument(1, arg)
  debian = arg .eq. 'debian'
  call ok(ma_init(MT_F_DBL, 100000, 100000), 'ma_init')

  do j = 1, n
    do i = 1, n
      a(i, j) = sin(dble(2 * i + 5 * j)) + 0.2d0 * (i - j)
      s(i, j) = 1d0 / (1d0 + abs(i - j)) + 0.01d0 * cos(dble(i + j))
      sym(i, j) = cos(0.4d0 * i * j)
    end do
    a(j, j) = a(j, j) + 7d0
    s(j, j) = s(j, j) + 3d0 + 0.1d0 * j
    sym(j, j) = sym(j, j) + 0.25d0 * j
    do i = 1, nrhs
      b(j, i) = 2d0 - j + 3d0 * i + 0.5d0 * cos(dble(i * j))
    end do
  end do
  bad = s
  bad(4, 4) = -30d0

  g_a = make('A', a, n)
  g_s = make('S', s, n)
  g_bad = make('I', bad, n)
  g_f = make('F', s, n)
  g_v = make('V', s, n)
  call ok(ga_create(MT_F_DBL, n, nrhs, 'B', 0, 0, g_b), 'create B')

  ! LU solves, parallel and sequential (check_b resets B).
  call put_b(b)
  call ga_lu_solve('N', g_a, g_b)
  call lapack_lu('N', a, want)
  call check_b('ga_lu_solve N', want)
  call ga_lu_solve_seq('n', g_a, g_b)
  call check_b('ga_lu_solve_seq N', want)
  call ga_lu_solve_seq('T', g_a, g_b)
  call lapack_lu('T', a, want)
  call check_b('ga_lu_solve_seq T', want)
  call ga_lu_solve('T', g_a, g_b)
  call check_b('ga_lu_solve T', want)
  if (.not. debian) then
    call ga_lu_solve_alt(1, g_a, g_b)
    call check_b('ga_lu_solve_alt 1', want)
  end if
  call ga_lu_solve_alt(0, g_a, g_b)
  call lapack_lu('N', a, want)
  call check_b('ga_lu_solve_alt 0', want)

  ! Cholesky solves.
  want = b
  f = s
  info4 = 0
  call dposv('L', n4, nrhs4, f, n4, want, n4, info4)
  call ok(info4 .eq. 0, 'dposv')
  call solved(ga_llt_solve(g_s, g_b), 0, 'ga_llt_solve', want)
  call solved(nga_llt_solve(g_s, g_b), 0, 'nga_llt_solve', want)
  call solved(ga_solve(g_s, g_b), 0, 'ga_solve (Cholesky)', want)
  call solved(ga_llt_solve(g_bad, g_b), 4, 'ga_llt_solve of an indefinite matrix', b)
  call lapack_lu('N', bad, want)
  call solved(nga_solve(g_bad, g_b), 4, 'nga_solve (LU)', want)

  ! The factor, the solve and the inverse from it.
  call ok(ga_cholesky('L', g_f) .eq. 0, 'ga_cholesky returns 0')
  call ga_get(g_f, 1, n, 1, n, g, n)
  f = s
  call dpotrf('L', n4, f, n4, info4)
  do j = 1, n
    do i = 1, j - 1
      f(i, j) = 0d0
    end do
  end do
  call near('ga_cholesky factor', g, f, n * n)
  want = b
  call dpotrs('L', n4, nrhs4, f, n4, want, n4, info4)
  call ga_llt_s('L', g_f, g_b, -1)
  call check_b('ga_llt_s', want)
  call ok(ga_llt_i('L', g_f, -1) .eq. 0, 'ga_llt_i returns 0')
  call ga_get(g_f, 1, n, 1, n, g, n)
  call dpotri('L', n4, f, n4, info4)
  call mirror(f)
  call near('ga_llt_i inverse', g, f, n * n)
  call put_f(s)
  call ok(ga_llt_f('U', g_f, -1) .eq. 0, 'ga_llt_f U returns 0')
  call ga_get(g_f, 1, n, 1, n, g, n)
  call ok(all((/ (g(j + 1, j) .eq. 0d0, j = 1, n - 1) /)), 'ga_llt_f U zeroes the lower triangle')
  call ok(ga_cholesky('L', g_bad) .eq. 4, 'ga_cholesky of an indefinite matrix returns 4')

  ! The inverse.
  call put_f(s)
  call ok(ga_spd_invert(g_f) .eq. 0, 'ga_spd_invert returns 0')
  call ga_get(g_f, 1, n, 1, n, g, n)
  call near('ga_spd_invert', g, f, n * n)
  call put_f(s)
  call ok(nga_spd_invert(g_f) .eq. 0, 'nga_spd_invert returns 0')
  call ok(nga_spd_invert(g_bad) .eq. 4, 'nga_spd_invert of an indefinite matrix returns 4')
  if (me .eq. 0) print '(a,3f12.6)', 'inverse(1:3,1):', g(1:3, 1)

  ! Eigenproblems.
  f = sym
  call dsyev('V', 'L', n4, f, n4, w, work, lwork4, info4)
  call ok(info4 .eq. 0, 'dsyev')
  ev = 0
  call ga_diag_std_seq(g_a_sym(), g_v, ev)
  call check_eig('ga_diag_std_seq', .false.)
  if (.not. debian) then
    ev = 0
    call ga_zero(g_v)
    call ga_diag_std(g_a_sym(), g_v, ev)
    call check_eig('ga_diag_std', .false.)
    ev = 0
    call ga_zero(g_v)
    call ga_pdsyev(g_a_sym(), g_v, ev, 0)
    call check_eig('ga_pdsyev', .false.)
    ev = 0
    call ga_zero(g_v)
    call ga_pdsyevd(g_a_sym(), g_v, ev, 4)
    call check_eig('ga_pdsyevd', .false.)
    ev = 0
    call ga_zero(g_v)
    call ga_pdsyevx(g_a_sym(), g_v, ev, 16)
    call check_eig('ga_pdsyevx', .false.)
    ! The 5 lowest pairs only.
    ev = 0
    mout = 5
    call ga_fill(g_v, 1d0)
    call ga_pdsyevr(g_a_sym(), g_v, ev, 0, mout)
    call ok(mout .eq. 5, 'ga_pdsyevr computes mout pairs')
    call near('ga_pdsyevr eigenvalues', ev(1:5), w(1:5), 5)
    call ga_get(g_v, 1, n, 1, n, g, n)
    call ok(all(g(:, 6:n) .eq. 0d0) .and. all(abs(matmul(sym, g(:, 1:5)) - g(:, 1:5) * &
      spread(ev(1:5), 1, n)) .le. 1d-9 * maxval(abs(sym)) * n), 'ga_pdsyevr vectors')
  end if
  f = sym
  g = s
  call dsygv(one4, 'V', 'L', n4, f, n4, g, n4, w, work, lwork4, info4)
  call ok(info4 .eq. 0, 'dsygv')
  ev = 0
  call ga_diag_seq(g_a_sym(), g_s, g_v, ev)
  call check_eig('ga_diag_seq', .true.)
  if (.not. debian) then
    ev = 0
    call ga_zero(g_v)
    call ga_diag(g_a_sym(), g_s, g_v, ev)
    call check_eig('ga_diag', .true.)
    ev = 0
    call ga_zero(g_v)
    call ga_pdsygv(g_a_sym(), g_s, g_v, ev)
    call check_eig('ga_pdsygv', .true.)
    do reuse = -1, 1
      ev = 0
      call ga_zero(g_v)
      call ga_diag_reuse(reuse, g_a_sym(), g_s, g_v, ev)
      call check_eig('ga_diag_reuse', .true.)
    end do
  end if

  call finish('linalg')
  call ga_terminate()
  call mpi_finalize(i)

contains

  integer function make(name, m, k)
    character(len=*) name
    integer k
    double precision m(k, k)
    integer h
    call ok(ga_create(MT_F_DBL, k, k, name, 0, 0, h), 'create '//name)
    if (ga_nodeid() .eq. 0) call ga_put(h, 1, k, 1, k, m, k)
    call ga_sync()
    make = h
  end function make

  ! The symmetric matrix of the eigenproblems, in g_a's place.
  integer function g_a_sym()
    call put_whole(g_a, sym, n)
    g_a_sym = g_a
  end function g_a_sym

  ! g_f := m once every rank has done with its old contents.
  subroutine put_f(m)
    double precision m(n, n)
    call put_whole(g_f, m, n)
  end subroutine put_f

  subroutine put_b(m)
    double precision m(n, nrhs)
    call put_whole(g_b, m, nrhs)
  end subroutine put_b

  ! The n x k array h := m, between two ga_syncs.
  subroutine put_whole(h, m, k)
    integer h, k
    double precision m(n, k)
    call ga_sync()
    if (ga_nodeid() .eq. 0) call ga_put(h, 1, n, 1, k, m, n)
    call ga_sync()
  end subroutine put_whole

  subroutine lapack_lu(t, m, out)
    character(len=1) t
    double precision m(n, n), out(n, nrhs), lu(n, n)
    lu = m
    out = b
    info4 = 0
    call dgetrf(n4, n4, lu, n4, ipiv, info4)
    call dgetrs(t, n4, nrhs4, lu, n4, ipiv, out, n4, info4)
  end subroutine lapack_lu

  subroutine near(what, got, ref, k)
    character(len=*) what
    integer k
    double precision got(k), ref(k)
    call ok(maxval(abs(got - ref)) .le. 1d-9 * max(maxval(abs(ref)), 1d-300), what)
  end subroutine near

  subroutine check_b(what, ref)
    character(len=*) what
    double precision ref(n, nrhs)
    call ga_get(g_b, 1, n, 1, nrhs, x, n)
    call near(what, x, ref, n * nrhs)
    if (me .eq. 0) print '(a,a,3f12.6)', what, ':', x(1:3, 1)
    call put_b(b)
  end subroutine check_b

  ! A solver's return code, then its solution (B is reset after).
  subroutine solved(rc, want_rc, what, ref)
    integer rc, want_rc
    character(len=*) what
    double precision ref(n, nrhs)
    call ok(rc .eq. want_rc, what//' return code')
    call check_b(what, ref)
  end subroutine solved

  subroutine mirror(m)
    double precision m(n, n)
    integer p, q
    do q = 1, n
      do p = 1, q - 1
        m(p, q) = m(q, p)
      end do
    end do
  end subroutine mirror

  subroutine check_eig(what, general)
    character(len=*) what
    logical general
    double precision v(n, n), r(n, n)
    integer k
    call near(what//' eigenvalues', ev, w, n)
    call ga_get(g_v, 1, n, 1, n, v, n)
    if (general) then
      r = matmul(sym, v) - matmul(s, v) * spread(ev, 1, n)
    else
      r = matmul(sym, v) - v * spread(ev, 1, n)
    end if
    call ok(maxval(abs(r)) .le. 1d-9 * maxval(abs(sym)) * n, what//' residual')
    if (general) then
      r = matmul(transpose(v), matmul(s, v))
    else
      r = matmul(transpose(v), v)
    end if
    do k = 1, n
      r(k, k) = r(k, k) - 1d0
    end do
    call ok(maxval(abs(r)) .le. 1d-9, what//' normalisation')
    if (me .eq. 0) print '(a,a,4f12.6)', what, ' eigenvalues:', ev(1:4)
  end subroutine check_eig

end program linalg

#include "tally.inc"
