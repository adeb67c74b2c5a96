! Array properties, user element types and field access of the GA Fortran
! API: ga_set_property/nga_set_property ('read_only', 'read_cache') and
! the unset routines, nga_register_type/nga_deregister_type (and an
! array of a registered 12-byte type: create, inquire, put, get), and
! nga_get_field/nga_put_field with their non-blocking forms on the real
! and imaginary parts of a double complex matrix (one column of it) and
! vector. Every result is checked on every rank against a serial model;
! rank 0 prints the type codes and the fields.
program props
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n1 = 6, n2 = 5
  integer me, g, i, j, t1, t2, t3, r1, r2, r3, h
  double complex z(n1, n2), got(n1, n2), v(9)
  double precision f(n1), want(n1)
  integer(4) rec(3, 6), recback(3, 6)

  call start_mpi_ga()
  me = ga_nodeid()
  call ok(ma_init(MT_F_DBL, 100000, 100000), 'ma_init')

  t1 = nga_register_type(24)
  t2 = nga_register_type(8)
  r1 = nga_deregister_type(t1)
  r2 = nga_deregister_type(t1)
  r3 = nga_deregister_type(MT_F_DBL)
  t3 = nga_register_type(12)
  call ok(t2 .gt. t1 .and. t3 .eq. t1, 'register')
  call ok(r1 .eq. 0 .and. r2 .ne. 0 .and. r3 .ne. 0, 'deregister')
  if (me .eq. 0) print '(a,6(1x,i0))', 'types', t1, t2, r1, r2, r3, t3
  r1 = nga_deregister_type(t2)

  ! An array of the 12-byte type t3: elements of three 4-byte integers.
  call ok(nga_create(t3, 1, (/ 6 /), 'records', (/ 0 /), g), 'create records')
  call nga_inquire(g, i, j, h)
  call ok(i .eq. t3 .and. j .eq. 1 .and. h .eq. 6, 'inquire records')
  do j = 1, 6
    rec(:, j) = (/ int(j, 4), int(10 * j, 4), int(-j, 4) /)
  end do
  if (me .eq. 0) call nga_put(g, (/ 1 /), (/ 6 /), rec, (/ 1 /))
  call ga_sync()
  recback = 0
  call nga_get(g, (/ 2 /), (/ 5 /), recback, (/ 1 /))
  call ok(all(recback(:, 1:4) .eq. rec(:, 2:5)), 'records read back')
  if (me .eq. 0) print '(a,i0,a,*(1x,i0))', 'records of type ', i, ':', recback(:, 1:4)
  call ok(ga_destroy(g), 'destroy records')
  r1 = nga_deregister_type(t3)

  do j = 1, n2
    do i = 1, n1
      z(i, j) = dcmplx(dble(10 * i + j), -dble(10 * i + j) - 0.5d0)
    end do
  end do
  call ok(nga_create(MT_F_DCPL, 2, (/ n1, n2 /), 'z', (/ 0, 0 /), g), 'create z')
  if (me .eq. 0) call ga_put(g, 1, n1, 1, n2, z, n1)
  call ga_sync()

  call ga_set_property(g, 'read_only')
  call ga_get(g, 1, n1, 1, n2, got, n1)
  call ok(all(got .eq. z), 'get read_only')
  call ga_unset_property(g)
  call nga_set_property(g, 'read_cache')
  call ga_get(g, 1, n1, 1, n2, got, n1)
  call ok(all(got .eq. z), 'get read_cache')
  call nga_unset_property(g)
  if (me .eq. 0) print '(a)', 'properties read back'

  ! Rows 2..5 of column 3: real parts, then imaginary parts (non-blocking).
  f = -1
  call nga_get_field(g, (/ 2, 3 /), (/ 5, 3 /), 0, 8, f, (/ n1 /))
  want = -1
  want(1:4) = dble(z(2:5, 3))
  call ok(all(f .eq. want), 'get_field real')
  if (me .eq. 0) print '(a,*(1x,f0.1))', 'field real', f(1:4)
  call nga_nbget_field(g, (/ 2, 3 /), (/ 5, 3 /), 8, 8, f, (/ n1 /), h)
  call nga_nbwait(h)
  want(1:4) = dimag(z(2:5, 3))
  call ok(all(f .eq. want), 'nbget_field imag')
  if (me .eq. 0) print '(a,*(1x,f0.1))', 'field imag', f(1:4)

  f(1:4) = (/ 1d0, 2d0, 3d0, 4d0 /)
  call ga_sync()
  if (me .eq. ga_nnodes() - 1) then
    call nga_put_field(g, (/ 2, 3 /), (/ 5, 3 /), 0, 8, f, (/ n1 /))
    call nga_nbput_field(g, (/ 2, 4 /), (/ 5, 4 /), 8, 8, f, (/ n1 /), h)
    call nga_nbwait(h)
  end if
  call ga_sync()
  call ga_get(g, 1, n1, 1, n2, got, n1)
  do i = 2, 5
    z(i, 3) = dcmplx(f(i - 1), dimag(z(i, 3)))
    z(i, 4) = dcmplx(dble(z(i, 4)), f(i - 1))
  end do
  call ok(all(got .eq. z), 'put_field')
  if (me .eq. 0) print '(a,*(1x,f0.1))', 'after put_field', got(2:5, 3), got(2:5, 4)
  call ok(ga_destroy(g), 'destroy z')

  do i = 1, 9
    v(i) = dcmplx(dble(i), dble(2 * i))
  end do
  call ok(nga_create(MT_F_DCPL, 1, (/ 9 /), 'v', (/ 0 /), g), 'create v')
  if (me .eq. 0) call ga_put(g, 1, 9, 1, 1, v, 9)
  call ga_sync()
  f = -1
  call nga_get_field(g, (/ 3 /), (/ 8 /), 8, 8, f, (/ 1 /))
  call ok(all(f .eq. dimag(v(3:8))), 'get_field vector')
  if (me .eq. 0) print '(a,*(1x,f0.1))', 'vector imag', f
  call ok(ga_destroy(g), 'destroy v')

  call finish('props')
  call ga_terminate()
  call mpi_finalize(i)
end program props

#include "tally.inc"
