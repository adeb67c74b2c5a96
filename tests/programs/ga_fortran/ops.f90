! The array-wide and patch operations against serial Fortran: ga_zero,
! ga_fill, ga_scale, ga_copy, ga_add, ga_ddot, ga_dgemm (N/T forms,
! alpha and beta), ga_transpose, ga_symmetrize, ga_copy_patch (plain
! and transposed), ga_ddot_patch, ga_add_patch, ga_scale_patch,
! ga_fill_patch, ga_zero_patch and their nga_ forms.
program ops
  implicit none
  include 'mafdecls.fh'
  include 'global.fh'
  integer me
  integer n, m, k
  parameter (n = 12, m = 9, k = 7)
  double precision a(n, k), at(k, n), b(k, m), bt(m, k), c(n, m), c0(n, m)
  double precision x(n, m), y(n, m), z(n, m), s(n, n), r(n, m), rs(n, n)
  double precision alpha, beta, d, tol
  integer np, g_a, g_at, g_b, g_bt, g_c, g_x, g_y, g_z, g_s, g_t
  integer i, j, lo(2), hi(2), lo2(2), hi2(2)

  tol = 1d-9
  call ga_initialize()
  call start_tally()
  me = ga_nodeid()
  np = ga_nnodes()
  do j = 1, k
    do i = 1, n
      a(i, j) = i + 2 * j + 0.5d0
    end do
  end do
  at = transpose(a)
  do j = 1, m
    do i = 1, k
      b(i, j) = i - j * 0.25d0
    end do
  end do
  bt = transpose(b)
  do j = 1, m
    do i = 1, n
      x(i, j) = i * 0.1d0 + j
      y(i, j) = j * 0.2d0 - i
      c0(i, j) = i + j
    end do
  end do

  call ok(ga_create(MT_F_DBL, n, k, 'A', 0, 0, g_a), 'create A')
  call ok(ga_create(MT_F_DBL, k, n, 'At', 0, 0, g_at), 'create At')
  call ok(ga_create(MT_F_DBL, k, m, 'B', 0, 0, g_b), 'create B')
  call ok(ga_create(MT_F_DBL, m, k, 'Bt', 0, 0, g_bt), 'create Bt')
  call ok(ga_create(MT_F_DBL, n, m, 'C', 0, 0, g_c), 'create C')
  call ok(ga_create(MT_F_DBL, n, m, 'X', 0, 0, g_x), 'create X')
  call ok(ga_duplicate(g_x, g_y, 'Y'), 'duplicate Y')
  call ok(ga_duplicate(g_x, g_z, 'Z'), 'duplicate Z')
  if (me .eq. 0) then
    call ga_put(g_a, 1, n, 1, k, a, n)
    call ga_put(g_at, 1, k, 1, n, at, k)
    call ga_put(g_b, 1, k, 1, m, b, k)
    call ga_put(g_bt, 1, m, 1, k, bt, m)
    call ga_put(g_x, 1, n, 1, m, x, n)
    call ga_put(g_y, 1, n, 1, m, y, n)
  end if
  call ga_sync()

  ! zero, fill, scale, copy, add
  call ga_zero(g_z)
  call ga_get(g_z, 1, n, 1, m, r, n)
  call ok(all(r .eq. 0), 'ga_zero')
  d = 2.5d0
  call ga_fill(g_z, d)
  call ga_get(g_z, 1, n, 1, m, r, n)
  call ok(all(r .eq. 2.5d0), 'ga_fill')
  d = -2
  call ga_copy(g_x, g_z)
  call ga_scale(g_z, d)
  call ga_get(g_z, 1, n, 1, m, r, n)
  call ok(all(r .eq. -2 * x), 'ga_copy then ga_scale')
  alpha = 3
  beta = -0.5d0
  call ga_add(alpha, g_x, beta, g_y, g_z)
  call ga_get(g_z, 1, n, 1, m, r, n)
  call ok(maxval(abs(r - (3 * x - 0.5d0 * y))) .lt. tol, 'ga_add')

  ! ddot
  d = ga_ddot(g_x, g_y)
  call ok(abs(d - sum(x * y)) .lt. tol * abs(sum(x * y)) + tol, 'ga_ddot')

  ! dgemm, four transpose combinations, alpha and beta
  alpha = 1
  beta = 0
  call ga_dgemm('N', 'N', n, m, k, alpha, g_a, g_b, beta, g_c)
  call ga_get(g_c, 1, n, 1, m, r, n)
  c = matmul(a, b)
  call ok(maxval(abs(r - c)) .lt. tol * maxval(abs(c)), 'ga_dgemm N N')
  call ga_dgemm('T', 'N', n, m, k, alpha, g_at, g_b, beta, g_c)
  call ga_get(g_c, 1, n, 1, m, r, n)
  call ok(maxval(abs(r - c)) .lt. tol * maxval(abs(c)), 'ga_dgemm T N')
  call ga_dgemm('n', 't', n, m, k, alpha, g_a, g_bt, beta, g_c)
  call ga_get(g_c, 1, n, 1, m, r, n)
  call ok(maxval(abs(r - c)) .lt. tol * maxval(abs(c)), 'ga_dgemm N T')
  call ga_sync()
  if (me .eq. 0) call ga_put(g_c, 1, n, 1, m, c0, n)
  call ga_sync()
  alpha = 2
  beta = 0.5d0
  call ga_dgemm('T', 'T', n, m, k, alpha, g_at, g_bt, beta, g_c)
  call ga_get(g_c, 1, n, 1, m, r, n)
  c = 2 * matmul(a, b) + 0.5d0 * c0
  call ok(maxval(abs(r - c)) .lt. tol * maxval(abs(c)), 'ga_dgemm T T alpha beta')

  ! matmul on patches: C(1:4,1:5) = 2 A(2:5,1:3) B(1:3,2:6) + 0.5 C,
  ! then with both factors taken transposed from At and Bt.
  call ga_sync()
  if (me .eq. 0) call ga_put(g_c, 1, n, 1, m, c0, n)
  call ga_sync()
  alpha = 2
  beta = 0.5d0
  call ga_matmul_patch('N', 'N', alpha, beta, g_a, 2, 5, 1, 3, g_b, 1, 3, 2, 6, &
    g_c, 1, 4, 1, 5)
  call ga_get(g_c, 1, n, 1, m, r, n)
  c = c0
  c(1:4, 1:5) = 2 * matmul(a(2:5, 1:3), b(1:3, 2:6)) + 0.5d0 * c0(1:4, 1:5)
  call ok(maxval(abs(r - c)) .lt. tol * maxval(abs(c)), 'ga_matmul_patch N N')
  beta = 0
  lo = [1, 2]
  hi = [3, 5]
  lo2 = [2, 1]
  hi2 = [6, 3]
  call nga_matmul_patch('T', 'T', alpha, beta, g_at, lo, hi, g_bt, lo2, hi2, &
    g_c, (/ 6, 3 /), (/ 9, 7 /))
  call ga_get(g_c, 1, n, 1, m, r, n)
  c(6:9, 3:7) = 2 * matmul(transpose(at(1:3, 2:5)), transpose(bt(2:6, 1:3)))
  call ok(maxval(abs(r - c)) .lt. tol * maxval(abs(c)), 'nga_matmul_patch T T')

  ! transpose and symmetrize
  call ok(ga_create(MT_F_DBL, k, n, 'T', 0, 0, g_t), 'create T')
  call ga_transpose(g_a, g_t)
  call ga_get(g_t, 1, k, 1, n, at, k)
  call ok(all(at .eq. transpose(a)), 'ga_transpose')
  call ok(ga_create(MT_F_DBL, n, n, 'S', 0, 0, g_s), 'create S')
  do j = 1, n
    do i = 1, n
      s(i, j) = i * 10 + j * j
    end do
  end do
  if (me .eq. 0) call ga_put(g_s, 1, n, 1, n, s, n)
  call ga_sync()
  call ga_symmetrize(g_s)
  call ga_get(g_s, 1, n, 1, n, rs, n)
  call ok(maxval(abs(rs - 0.5d0 * (s + transpose(s)))) .lt. tol, 'ga_symmetrize')

  ! patch operations
  call ga_zero(g_z)
  call ga_copy_patch('N', g_x, 2, 5, 1, 3, g_z, 1, 4, 2, 4)
  call ga_get(g_z, 1, n, 1, m, r, n)
  call ok(all(r(1:4, 2:4) .eq. x(2:5, 1:3)) .and. all(r(5:n, :) .eq. 0) .and. &
    all(r(:, 1) .eq. 0), 'ga_copy_patch')
  call ga_zero(g_z)
  call ga_copy_patch('T', g_x, 1, 3, 2, 6, g_z, 4, 8, 5, 7)
  call ga_get(g_z, 1, n, 1, m, r, n)
  call ok(all(r(4:8, 5:7) .eq. transpose(x(1:3, 2:6))), 'ga_copy_patch transposed')
  d = ga_ddot_patch(g_x, 'N', 2, 6, 3, 4, g_y, 'N', 1, 5, 6, 7)
  call ok(abs(d - sum(x(2:6, 3:4) * y(1:5, 6:7))) .lt. 1d-9 * abs(d) + tol, &
    'ga_ddot_patch')
  lo = [2, 3]
  hi = [6, 4]
  lo2 = [1, 6]
  hi2 = [5, 7]
  d = nga_ddot_patch(g_x, 'n', lo, hi, g_y, 'n', lo2, hi2)
  call ok(abs(d - sum(x(2:6, 3:4) * y(1:5, 6:7))) .lt. 1d-9 * abs(d) + tol, &
    'nga_ddot_patch')
  call ga_sync()
  if (me .eq. 0) call ga_put(g_z, 1, n, 1, m, c0, n)
  call ga_sync()
  alpha = 1
  beta = 2
  call ga_add_patch(alpha, g_x, 1, 4, 1, 4, beta, g_y, 5, 8, 2, 5, g_z, 3, 6, 6, 9)
  call ga_get(g_z, 1, n, 1, m, r, n)
  z = c0
  z(3:6, 6:9) = x(1:4, 1:4) + 2 * y(5:8, 2:5)
  call ok(maxval(abs(r - z)) .lt. tol, 'ga_add_patch')
  d = 3
  call ga_scale_patch(g_z, 1, 2, 1, m, d)
  z(1:2, :) = 3 * z(1:2, :)
  d = 7
  call ga_fill_patch(g_z, n, n, 1, m, d)
  z(n, :) = 7
  call ga_zero_patch(g_z, 5, 5, 2, 3)
  z(5, 2:3) = 0
  call ga_get(g_z, 1, n, 1, m, r, n)
  call ok(maxval(abs(r - z)) .lt. tol, 'ga_scale_patch, ga_fill_patch, ga_zero_patch')
  lo = [2, 2]
  hi = [3, 3]
  d = -1
  call nga_fill_patch(g_z, lo, hi, d)
  z(2:3, 2:3) = -1
  d = 4
  call nga_scale_patch(g_z, lo, hi, d)
  z(2:3, 2:3) = -4
  lo(1) = n - 1
  lo(2) = m
  hi(1) = n
  hi(2) = m
  call nga_zero_patch(g_z, lo, hi)
  z(n - 1:n, m) = 0
  call ga_get(g_z, 1, n, 1, m, r, n)
  call ok(maxval(abs(r - z)) .lt. tol, 'nga_fill_patch, nga_scale_patch, nga_zero_patch')
  lo = [1, 1]
  hi = [3, 2]
  lo2 = [10, 8]
  hi2 = [12, 9]
  call nga_copy_patch('N', g_x, lo, hi, g_y, lo2, hi2)
  alpha = 1
  beta = -1
  call nga_add_patch(alpha, g_y, lo2, hi2, beta, g_x, lo, hi, g_z, lo, hi)
  call ga_get(g_z, 1, 3, 1, 2, r, n)
  call ok(all(r(1:3, 1:2) .eq. 0), 'nga_copy_patch then nga_add_patch')

  call ok(ga_destroy(g_s) .and. ga_destroy(g_t) .and. ga_destroy(g_z) .and. &
    ga_destroy(g_y) .and. ga_destroy(g_x) .and. ga_destroy(g_c) .and. &
    ga_destroy(g_bt) .and. ga_destroy(g_b) .and. ga_destroy(g_at) .and. &
    ga_destroy(g_a), 'ga_destroy')
  call finish('ops')
  call ga_terminate()
end program ops

include 'tally.inc'
