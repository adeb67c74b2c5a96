! The element-wise and diagonal arithmetic of the GA Fortran API, in both
! spellings (ga_ and nga_): abs_value, add_constant, recip, the
! elem_multiply/divide/maximum/minimum family and median, whole and on
! lo/hi patches; scale_rows/cols (Fortran rows: the first index); the
! diagonal routines; norm1, norm_infinity; step_max and step_bound_info.
! On double precision and integer 6 x 5 arrays (and double complex for
! abs_value, elem_maximum and norm1), every result is checked on every
! rank against a serial model; rank 0 prints the norms and steps.
! Argument "debian" leaves out the patch forms of the step routines,
! which Debian's GA 5.8 gets wrong (see tests/tests/ga_elementwise.rs).
program elementwise
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n1 = 6, n2 = 5
  double precision da(n1, n2), db(n1, n2), dc(n1, n2), dw(n1, n2), dm(n1, n2)
  integer ia(n1, n2), ib(n1, n2), ic(n1, n2), iw(n1, n2), im(n1, n2)
  double complex za(n1, n2), zb(n1, n2), zw(n1, n2)
  double precision alpha, norm, want
  integer ialpha, i, j, me
  integer g_da, g_db, g_dc, g_dw, g_ia, g_ib, g_ic, g_iw, g_za, g_zb, g_zw
  integer dims(2), chunk(2), pa(2, 2), pb(2, 2), pc(2, 2)
  logical debian
  character(len=16) arg

  call start_mpi_ga()
  me = ga_nodeid()
  debian = .false.
  if (command_argument_count() .ge. 1) then
    call get_command_argument(1, arg)
    debian = arg .eq. 'debian'
  end if
  call ok(ma_init(MT_F_DBL, 100000, 100000), 'ma_init')

  dims = (/ n1, n2 /)
  chunk = 0
  do j = 1, n2
    do i = 1, n1
      ia(i, j) = mod(i + 2 * j, 7) - 3
      ib(i, j) = (1 + mod(i + j, 4)) * (1 - 2 * mod(i + j, 2))
      ic(i, j) = 2 * mod(i * j, 3) - 2
      za(i, j) = dcmplx(dble(ia(i, j)), 0.5d0)
      zb(i, j) = dcmplx(dble(ib(i, j)), 0.25d0)
    end do
  end do
  da = 1.25d0 * ia
  db = 1.25d0 * ib
  dc = 1.25d0 * ic
  ! Patches of one shape (3 x 4) in a, b and c.
  pa = reshape((/ 1, 1, 3, 4 /), (/ 2, 2 /))
  pb = reshape((/ 4, 2, 6, 5 /), (/ 2, 2 /))
  pc = reshape((/ 3, 1, 5, 4 /), (/ 2, 2 /))

  call ok(nga_create(MT_F_DBL, 2, dims, 'da', chunk, g_da), 'create da')
  call ok(ga_duplicate(g_da, g_db, 'db'), 'dup db')
  call ok(ga_duplicate(g_da, g_dc, 'dc'), 'dup dc')
  call ok(ga_duplicate(g_da, g_dw, 'dw'), 'dup dw')
  call ok(nga_create(MT_F_INT, 2, dims, 'ia', chunk, g_ia), 'create ia')
  call ok(ga_duplicate(g_ia, g_ib, 'ib'), 'dup ib')
  call ok(ga_duplicate(g_ia, g_ic, 'ic'), 'dup ic')
  call ok(ga_duplicate(g_ia, g_iw, 'iw'), 'dup iw')
  call ok(nga_create(MT_F_DCPL, 2, dims, 'za', chunk, g_za), 'create za')
  call ok(ga_duplicate(g_za, g_zb, 'zb'), 'dup zb')
  call ok(ga_duplicate(g_za, g_zw, 'zw'), 'dup zw')
  if (me .eq. 0) then
    call ga_put(g_da, 1, n1, 1, n2, da, n1)
    call ga_put(g_db, 1, n1, 1, n2, db, n1)
    call ga_put(g_dc, 1, n1, 1, n2, dc, n1)
    call ga_put(g_ia, 1, n1, 1, n2, ia, n1)
    call ga_put(g_ib, 1, n1, 1, n2, ib, n1)
    call ga_put(g_ic, 1, n1, 1, n2, ic, n1)
    call ga_put(g_za, 1, n1, 1, n2, za, n1)
    call ga_put(g_zb, 1, n1, 1, n2, zb, n1)
  end if
  call ga_sync()

  ! Double precision, whole arrays.
  call ga_copy(g_da, g_dw)
  call ga_abs_value(g_dw)
  call dcheck(g_dw, abs(da), 'ga_abs_value')
  call ga_copy(g_da, g_dw)
  alpha = 2.5d0
  call nga_add_constant(g_dw, alpha)
  call dcheck(g_dw, da + alpha, 'nga_add_constant')
  call ga_copy(g_db, g_dw)
  call ga_recip(g_dw)
  call dcheck(g_dw, 1d0 / db, 'ga_recip')
  call ga_elem_multiply(g_da, g_db, g_dw)
  call dcheck(g_dw, da * db, 'ga_elem_multiply')
  call nga_elem_divide(g_da, g_db, g_dw)
  call dcheck(g_dw, da / db, 'nga_elem_divide')
  call ga_elem_maximum(g_da, g_db, g_dw)
  call dcheck(g_dw, max(da, db), 'ga_elem_maximum')
  call nga_elem_minimum(g_da, g_db, g_dw)
  call dcheck(g_dw, min(da, db), 'nga_elem_minimum')
  call ga_median(g_da, g_db, g_dc, g_dw)
  call dcheck(g_dw, max(min(da, db), min(max(da, db), dc)), 'ga_median')

  ! Double precision, patches.
  call ga_copy(g_da, g_dw)
  call ga_abs_value_patch(g_dw, pb(:, 1), pb(:, 2))
  dw = da
  dw(4:6, 2:5) = abs(da(4:6, 2:5))
  call dcheck(g_dw, dw, 'ga_abs_value_patch')
  call ga_copy(g_da, g_dw)
  call nga_add_constant_patch(g_dw, pb(:, 1), pb(:, 2), alpha)
  dw = da
  dw(4:6, 2:5) = da(4:6, 2:5) + alpha
  call dcheck(g_dw, dw, 'nga_add_constant_patch')
  call ga_copy(g_db, g_dw)
  call nga_recip_patch(g_dw, pb(:, 1), pb(:, 2))
  dw = db
  dw(4:6, 2:5) = 1d0 / db(4:6, 2:5)
  call dcheck(g_dw, dw, 'nga_recip_patch')
  call ga_zero(g_dw)
  call ga_elem_multiply_patch(g_da, pa(:, 1), pa(:, 2), g_db, pb(:, 1), pb(:, 2), &
                              g_dw, pc(:, 1), pc(:, 2))
  dw = 0
  dw(3:5, 1:4) = da(1:3, 1:4) * db(4:6, 2:5)
  call dcheck(g_dw, dw, 'ga_elem_multiply_patch')
  call ga_zero(g_dw)
  call nga_elem_divide_patch(g_da, pa(:, 1), pa(:, 2), g_db, pb(:, 1), pb(:, 2), &
                             g_dw, pc(:, 1), pc(:, 2))
  dw = 0
  dw(3:5, 1:4) = da(1:3, 1:4) / db(4:6, 2:5)
  call dcheck(g_dw, dw, 'nga_elem_divide_patch')
  call ga_zero(g_dw)
  call ga_elem_maximum_patch(g_da, pa(:, 1), pa(:, 2), g_db, pb(:, 1), pb(:, 2), &
                             g_dw, pc(:, 1), pc(:, 2))
  dw = 0
  dw(3:5, 1:4) = max(da(1:3, 1:4), db(4:6, 2:5))
  call dcheck(g_dw, dw, 'ga_elem_maximum_patch')
  call ga_zero(g_dw)
  call nga_elem_minimum_patch(g_da, pa(:, 1), pa(:, 2), g_db, pb(:, 1), pb(:, 2), &
                              g_dw, pc(:, 1), pc(:, 2))
  dw = 0
  dw(3:5, 1:4) = min(da(1:3, 1:4), db(4:6, 2:5))
  call dcheck(g_dw, dw, 'nga_elem_minimum_patch')
  call ga_zero(g_dw)
  call nga_median_patch(g_da, pa(:, 1), pa(:, 2), g_db, pb(:, 1), pb(:, 2), &
                        g_dc, pa(:, 1), pa(:, 2), g_dw, pc(:, 1), pc(:, 2))
  dw = 0
  dw(3:5, 1:4) = max(min(da(1:3, 1:4), db(4:6, 2:5)), &
                     min(max(da(1:3, 1:4), db(4:6, 2:5)), dc(1:3, 1:4)))
  call dcheck(g_dw, dw, 'nga_median_patch')

  ! Integers.
  call ga_copy(g_ia, g_iw)
  call nga_abs_value(g_iw)
  call icheck(g_iw, abs(ia), 'nga_abs_value')
  ialpha = -4
  call ga_copy(g_ia, g_iw)
  call ga_add_constant(g_iw, ialpha)
  call icheck(g_iw, ia + ialpha, 'ga_add_constant')
  call ga_copy(g_ib, g_iw)
  call ga_recip_patch(g_iw, pa(:, 1), pa(:, 2))
  iw = ib
  iw(1:3, 1:4) = 1 / ib(1:3, 1:4)
  call icheck(g_iw, iw, 'ga_recip_patch')
  call nga_elem_multiply(g_ia, g_ib, g_iw)
  call icheck(g_iw, ia * ib, 'nga_elem_multiply')
  call ga_elem_divide(g_ia, g_ib, g_iw)
  call icheck(g_iw, ia / ib, 'ga_elem_divide')
  call nga_elem_maximum(g_ia, g_ib, g_iw)
  call icheck(g_iw, max(ia, ib), 'nga_elem_maximum')
  call ga_elem_minimum(g_ia, g_ib, g_iw)
  call icheck(g_iw, min(ia, ib), 'ga_elem_minimum')
  call nga_median(g_ia, g_ib, g_ic, g_iw)
  call icheck(g_iw, max(min(ia, ib), min(max(ia, ib), ic)), 'nga_median')
  call ga_zero(g_iw)
  call ga_median_patch(g_ia, pa(:, 1), pa(:, 2), g_ib, pb(:, 1), pb(:, 2), &
                       g_ic, pa(:, 1), pa(:, 2), g_iw, pc(:, 1), pc(:, 2))
  iw = 0
  iw(3:5, 1:4) = max(min(ia(1:3, 1:4), ib(4:6, 2:5)), &
                     min(max(ia(1:3, 1:4), ib(4:6, 2:5)), ic(1:3, 1:4)))
  call icheck(g_iw, iw, 'ga_median_patch')
  call ga_copy(g_ia, g_iw)
  call nga_abs_value_patch(g_iw, pc(:, 1), pc(:, 2))
  iw = ia
  iw(3:5, 1:4) = abs(ia(3:5, 1:4))
  call icheck(g_iw, iw, 'nga_abs_value_patch')
  call ga_copy(g_ia, g_iw)
  call ga_add_constant_patch(g_iw, pc(:, 1), pc(:, 2), ialpha)
  iw = ia
  iw(3:5, 1:4) = ia(3:5, 1:4) + ialpha
  call icheck(g_iw, iw, 'ga_add_constant_patch')
  call ga_zero(g_iw)
  call nga_elem_multiply_patch(g_ia, pa(:, 1), pa(:, 2), g_ib, pb(:, 1), pb(:, 2), &
                               g_iw, pc(:, 1), pc(:, 2))
  iw = 0
  iw(3:5, 1:4) = ia(1:3, 1:4) * ib(4:6, 2:5)
  call icheck(g_iw, iw, 'nga_elem_multiply_patch')
  call ga_zero(g_iw)
  call ga_elem_divide_patch(g_ia, pa(:, 1), pa(:, 2), g_ib, pb(:, 1), pb(:, 2), &
                            g_iw, pc(:, 1), pc(:, 2))
  iw = 0
  iw(3:5, 1:4) = ia(1:3, 1:4) / ib(4:6, 2:5)
  call icheck(g_iw, iw, 'ga_elem_divide_patch')
  call ga_zero(g_iw)
  call nga_elem_maximum_patch(g_ia, pa(:, 1), pa(:, 2), g_ib, pb(:, 1), pb(:, 2), &
                              g_iw, pc(:, 1), pc(:, 2))
  iw = 0
  iw(3:5, 1:4) = max(ia(1:3, 1:4), ib(4:6, 2:5))
  call icheck(g_iw, iw, 'nga_elem_maximum_patch')
  call ga_zero(g_iw)
  call ga_elem_minimum_patch(g_ia, pa(:, 1), pa(:, 2), g_ib, pb(:, 1), pb(:, 2), &
                             g_iw, pc(:, 1), pc(:, 2))
  iw = 0
  iw(3:5, 1:4) = min(ia(1:3, 1:4), ib(4:6, 2:5))
  call icheck(g_iw, iw, 'ga_elem_minimum_patch')

  ! Double complex.
  call ga_copy(g_za, g_zw)
  call ga_abs_value(g_zw)
  call zcheck(g_zw, dcmplx(abs(za), 0d0), 'ga_abs_value complex')
  call nga_elem_maximum(g_za, g_zb, g_zw)
  zw = za
  where (abs(za) .lt. abs(zb)) zw = zb
  call zcheck(g_zw, zw, 'nga_elem_maximum complex')
  call ga_norm1(g_za, norm)
  call ok(abs(norm - sum(abs(za))) .lt. 1d-9, 'ga_norm1 complex')
  if (me .eq. 0) print '(a,f12.6)', 'complex norm1', norm

  ! Norms.
  call ga_norm1(g_da, norm)
  call ok(abs(norm - sum(abs(da))) .lt. 1d-9, 'ga_norm1')
  if (me .eq. 0) print '(a,f12.6)', 'norm1', norm
  call nga_norm_infinity(g_da, norm)
  call ok(abs(norm - maxval(abs(da))) .lt. 1d-9, 'nga_norm_infinity')
  if (me .eq. 0) print '(a,f12.6)', 'norm_infinity', norm
  call nga_norm1(g_ia, norm)
  call ok(abs(norm - sum(abs(ia))) .lt. 1d-9, 'nga_norm1 integer')
  call ga_norm_infinity(g_ia, norm)
  call ok(abs(norm - maxval(abs(ia))) .lt. 1d-9, 'ga_norm_infinity integer')

  call matrices()
  call steps(debian)
  call finish('elementwise')
  call ga_terminate()
  call mpi_finalize(i)

contains

  subroutine dcheck(g, want, what)
    integer g
    double precision want(n1, n2), got(n1, n2)
    character(len=*) what
    call ga_get(g, 1, n1, 1, n2, got, n1)
    call ok(maxval(abs(got - want)) .lt. 1d-9, what)
  end subroutine dcheck

  subroutine icheck(g, want, what)
    integer g, want(n1, n2), got(n1, n2)
    character(len=*) what
    call ga_get(g, 1, n1, 1, n2, got, n1)
    call ok(all(got .eq. want), what)
  end subroutine icheck

  subroutine zcheck(g, want, what)
    integer g
    double complex want(n1, n2), got(n1, n2)
    character(len=*) what
    call ga_get(g, 1, n1, 1, n2, got, n1)
    call ok(maxval(abs(got - want)) .lt. 1d-9, what)
  end subroutine zcheck

  ! scale_rows/cols on the 6 x 5 array; the diagonal routines on a
  ! 5 x 5 one.
  subroutine matrices()
    integer g_r, g_c, g_s, g_v, k
    double precision vr(n1), vc(n2), s(5, 5), w(5, 5), v(5), got(5)
    double precision shift
    do k = 1, n1
      vr(k) = 0.5d0 * k - 1d0
    end do
    do k = 1, n2
      vc(k) = 3d0 - k
    end do
    call ok(nga_create(MT_F_DBL, 1, (/ n1 /), 'vr', (/ 0 /), g_r), 'create vr')
    call ok(nga_create(MT_F_DBL, 1, (/ n2 /), 'vc', (/ 0 /), g_c), 'create vc')
    if (me .eq. 0) then
      call nga_put(g_r, (/ 1 /), (/ n1 /), vr, (/ 1 /))
      call nga_put(g_c, (/ 1 /), (/ n2 /), vc, (/ 1 /))
    end if
    call ga_sync()
    call ga_copy(g_da, g_dw)
    call ga_scale_rows(g_dw, g_r)
    do j = 1, n2
      dw(:, j) = da(:, j) * vr
    end do
    call dcheck(g_dw, dw, 'ga_scale_rows')
    call ga_copy(g_da, g_dw)
    call nga_scale_cols(g_dw, g_c)
    do j = 1, n2
      dw(:, j) = da(:, j) * vc(j)
    end do
    call dcheck(g_dw, dw, 'nga_scale_cols')

    call ok(nga_create(MT_F_DBL, 2, (/ 5, 5 /), 's', (/ 0, 0 /), g_s), 'create s')
    call ok(nga_create(MT_F_DBL, 1, (/ 5 /), 'v', (/ 0 /), g_v), 'create v')
    do j = 1, 5
      do k = 1, 5
        s(k, j) = 10d0 * k + j
      end do
      v(j) = -j
    end do
    if (me .eq. 0) then
      call ga_put(g_s, 1, 5, 1, 5, s, 5)
      call nga_put(g_v, (/ 1 /), (/ 5 /), v, (/ 1 /))
    end if
    call ga_sync()
    call ga_set_diagonal(g_s, g_v)
    w = s
    do k = 1, 5
      w(k, k) = v(k)
    end do
    call scheck(g_s, w, 'ga_set_diagonal')
    call nga_add_diagonal(g_s, g_v)
    do k = 1, 5
      w(k, k) = w(k, k) + v(k)
    end do
    call scheck(g_s, w, 'nga_add_diagonal')
    shift = 0.75d0
    call ga_shift_diagonal(g_s, shift)
    do k = 1, 5
      w(k, k) = w(k, k) + shift
    end do
    call scheck(g_s, w, 'ga_shift_diagonal')
    call ga_zero(g_v)
    call nga_get_diag(g_s, g_v)
    call nga_get(g_v, (/ 1 /), (/ 5 /), got, (/ 1 /))
    call ok(all((/ (got(k) .eq. w(k, k), k = 1, 5) /)), 'nga_get_diag')
    call nga_zero_diagonal(g_s)
    do k = 1, 5
      w(k, k) = 0
    end do
    call scheck(g_s, w, 'nga_zero_diagonal')
    call ok(ga_destroy(g_r) .and. ga_destroy(g_c), 'destroy vectors')
    call ok(ga_destroy(g_s) .and. ga_destroy(g_v), 'destroy s, v')
  end subroutine matrices

  subroutine scheck(g, want, what)
    integer g
    double precision want(5, 5), got(5, 5)
    character(len=*) what
    call ga_get(g, 1, 5, 1, 5, got, 5)
    call ok(maxval(abs(got - want)) .lt. 1d-12, what)
  end subroutine scheck

  ! step_max and step_bound_info on double precision vectors.
  subroutine steps(debian)
    logical debian
    integer, parameter :: n = 12
    integer g_x, g_d, g_l, g_u, k, lo, hi, pass
    double precision x(n), d(n), l(n), u(n), st, b0, w0, b1, smax, bmin, bmax, t
    do k = 1, n
      x(k) = 1 + mod(k, 5)
      d(k) = (mod(k, 3) - 1) * (0.5d0 + mod(k, 4))
      l(k) = 0
      u(k) = 8 + mod(k, 3)
    end do
    call ok(nga_create(MT_F_DBL, 1, (/ n /), 'x', (/ 0 /), g_x), 'create x')
    call ok(ga_duplicate(g_x, g_d, 'd'), 'dup d')
    call ok(ga_duplicate(g_x, g_l, 'l'), 'dup l')
    call ok(ga_duplicate(g_x, g_u, 'u'), 'dup u')
    if (me .eq. 0) then
      call nga_put(g_x, (/ 1 /), (/ n /), x, (/ 1 /))
      call nga_put(g_d, (/ 1 /), (/ n /), d, (/ 1 /))
      call nga_put(g_l, (/ 1 /), (/ n /), l, (/ 1 /))
      call nga_put(g_u, (/ 1 /), (/ n /), u, (/ 1 /))
    end if
    call ga_sync()
    do pass = 1, 2
      if (pass .eq. 2 .and. debian) exit
      lo = 1
      hi = n
      if (pass .eq. 2) then
        lo = 3
        hi = 10
      end if
      smax = 1d307
      bmin = 1d307
      bmax = -1d307
      do k = lo, hi
        t = 1d307
        if (d(k) .lt. 0) then
          smax = min(smax, -x(k) / d(k))
          t = (l(k) - x(k)) / d(k)
        else if (d(k) .gt. 0) then
          t = (u(k) - x(k)) / d(k)
        end if
        bmin = min(bmin, t)
        bmax = max(bmax, t)
      end do
      if (pass .eq. 1) then
        call ga_step_max(g_x, g_d, st)
        call nga_step_bound_info(g_x, g_d, g_l, g_u, b0, w0, b1)
      else
        call nga_step_max_patch(g_x, (/ lo /), (/ hi /), g_d, (/ lo /), (/ hi /), st)
        call ga_step_bound_info_patch(g_x, (/ lo /), (/ hi /), g_d, (/ lo /), (/ hi /), &
                                      g_l, (/ lo /), (/ hi /), g_u, (/ lo /), (/ hi /), b0, w0, b1)
      end if
      call ok(abs(st - smax) .lt. 1d-12, 'step_max')
      call ok(abs(b0 - bmin) .lt. 1d-12 .and. abs(w0 - bmin) .lt. 1d-12 .and. &
              abs(b1 - bmax) .lt. 1d-12 * max(1d0, abs(bmax)), 'step_bound_info')
      if (me .eq. 0) print '(a,i0,4(1x,es12.5))', 'steps ', pass, st, b0, w0, b1
    end do
    call ok(ga_destroy(g_x) .and. ga_destroy(g_d), 'destroy x, d')
    call ok(ga_destroy(g_l) .and. ga_destroy(g_u), 'destroy l, u')
  end subroutine steps

end program elementwise

#include "tally.inc"
