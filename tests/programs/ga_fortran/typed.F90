! The typed spellings and the remaining small routines of the GA Fortran
! API. For each element type (integer, real, double precision, complex,
! double complex; typed_pass.inc): ga_Xfill_patch, nga_Xfill_patch,
! ga_Xscal, ga_Xscale, nga_Xscale, ga_Xscal_patch, nga_Xscale_patch,
! ga_Xadd, nga_Xadd, ga_Xadd_patch, nga_Xadd_patch, ga_Xdot, nga_Xdot,
! ga_Xdot_patch, nga_Xdot_patch, ga_Xgemm and ga_matmul, each checked on
! every rank against a serial model. Then the reductions by type code and
! of complex values (ga_gop, ga_cgop, ga_zgop and their pgroup and nga_
! forms), and the inquiries: ga_check_handle, ga_verify_handle, the debug
! flag, ga_get_dimension, ga_nblock, ga_locate_nnodes, the masked and
! message syncs, ga_version, ga_timer, ga_uses_proc_grid,
! ga_copy_patch_dp, ga_ddot_patch_dp, ga_print_patch and nga_print_patch.
! Rank 0 prints the dots, reductions and patches. Argument "debian" leaves
! out what Debian's GA 5.8 gets wrong (see tests/tests/ga_typed.rs):
! ga_iscal, ga_iscale, ga_iscal_patch, ga_copy_patch_dp, ga_ddot_patch_dp
! and ga_print_patch.
program typed
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n1 = 7, n2 = 5
  integer me, nproc, ierr
  logical debian, first_argument_is
  external first_argument_is

  call start_mpi_ga()
  debian = first_argument_is('debian')
  me = ga_nodeid()
  nproc = ga_nnodes()
  call ok(ma_init(MT_F_DBL, 100000, 100000), 'ma_init')
  call pass_i(debian)
  call pass_s(debian)
  call pass_d(debian)
  call pass_c(debian)
  call pass_z(debian)
  call reductions()
  call queries()
  call finish('typed')
  call ga_terminate()
  call mpi_finalize(ierr)

contains

#include "typed_i.inc"
#include "typed_s.inc"
#include "typed_d.inc"
#include "typed_c.inc"
#include "typed_z.inc"

  ! The letter of an element type's routines.
  character(len=1) function letter(mt)
    integer mt
    letter = 'i'
    if (mt .eq. MT_F_REAL) letter = 's'
    if (mt .eq. MT_F_DBL) letter = 'd'
    if (mt .eq. MT_F_SCPL) letter = 'c'
    if (mt .eq. MT_F_DCPL) letter = 'z'
  end function letter

  ! Reductions over all processes and over the world group, checked
  ! against the sums each rank can work out.
  subroutine reductions()
    double precision x(3)
    integer ix(2), k, world, s
    complex c(2)
    double complex z(2)
    s = nproc * (nproc + 1) / 2
    world = ga_pgroup_get_world()
    do k = 1, 2
      x = (/ dble(me + 1), 0.5d0, -dble(me) /)
      if (k .eq. 1) call ga_gop(MT_F_DBL, x, 3, '+')
      if (k .eq. 2) call ga_pgroup_gop(world, MT_F_DBL, x, 3, '+')
      call ok(x(1) .eq. s .and. x(2) .eq. 0.5d0 * nproc .and. x(3) .eq. nproc - s, 'gop dbl')
      ix = (/ me, -me /)
      if (k .eq. 1) call nga_gop(MT_F_INT, ix, 2, 'max')
      if (k .eq. 2) call nga_pgroup_gop(world, MT_F_INT, ix, 2, 'max')
      call ok(ix(1) .eq. nproc - 1 .and. ix(2) .eq. 0, 'gop int max')
      z = (/ dcmplx(dble(me + 1), 1d0), dcmplx(0d0, -dble(me)) /)
      if (k .eq. 1) call ga_zgop(MT_F_DCPL, z, 2, '+')
      if (k .eq. 2) call ga_pgroup_zgop(world, MT_F_DCPL, z, 2, '+')
      call ok(z(1) .eq. dcmplx(dble(s), dble(nproc)) .and. z(2) .eq. dcmplx(0d0, dble(nproc - s)), &
              'zgop')
      c = (/ cmplx(real(me + 1), 2.0), cmplx(-1.0, real(me)) /)
      if (k .eq. 1) call nga_cgop(MT_F_SCPL, c, 2, '+')
      if (k .eq. 2) call nga_pgroup_cgop(world, MT_F_SCPL, c, 2, '+')
      call ok(c(1) .eq. cmplx(real(s), 2.0 * nproc) .and. c(2) .eq. cmplx(-real(nproc), real(s - nproc)), &
              'cgop')
      z = (/ dcmplx(1d0, dble(me)), dcmplx(0.5d0, 0d0) /)
      if (k .eq. 1) call ga_gop(MT_F_DCPL, z, 2, '+')
      if (k .eq. 2) call ga_pgroup_gop(world, MT_F_DCPL, z, 2, '+')
      call ok(z(1) .eq. dcmplx(dble(nproc), dble(s - nproc)) .and. z(2) .eq. dcmplx(0.5d0 * nproc, 0d0), &
              'gop dcpl')
    end do
    if (me .eq. 0) print *, 'reductions ', x, ix, z, c
  end subroutine reductions

  ! The inquiries and small services on a 7 x 5 double precision array.
  subroutine queries()
    double precision a(n1, n2), t0, t1, d, want
    double precision ga_timer, ga_ddot_patch_dp
    logical ga_locate_nnodes, nga_locate_nnodes
    external ga_timer, ga_ddot_patch_dp, ga_locate_nnodes, nga_locate_nnodes
    integer g, g2, i, j, nb(2), np, np2, map(5, 64), major, minor, patch
    integer dims(2), chunk(2)
    dims = (/ n1, n2 /)
    chunk = 0
    do j = 1, n2
      do i = 1, n1
        a(i, j) = dble(10 * i + j)
      end do
    end do
    call ok(nga_create(MT_F_DBL, 2, dims, 'q', chunk, g), 'create q')
    call ok(ga_duplicate(g, g2, 'q2'), 'duplicate q2')
    if (me .eq. 0) call ga_put(g, 1, n1, 1, n2, a, n1)
    call ga_sync()

    call ga_check_handle(g, 'queries')
    call ok(ga_verify_handle(g) .and. nga_verify_handle(g2), 'verify_handle')
    call ok(ga_get_dimension(g) .eq. 2 .and. nga_get_dimension(g2) .eq. 2, 'get_dimension')
    call ok(.not. ga_get_debug(), 'debug off at first')
    call ga_set_debug(.true.)
    call ok(ga_get_debug() .and. nga_get_debug(), 'debug on')
    call nga_set_debug(.false.)
    call ok(.not. ga_get_debug(), 'debug off again')
    call ga_nblock(g, nb)
    call ok(nb(1) .ge. 1 .and. nb(2) .ge. 1 .and. nb(1) * nb(2) .le. nproc, 'nblock')
    call ok(ga_locate_nnodes(g, 1, n1, 1, n2, np), 'locate_nnodes')
    call ok(ga_locate_region(g, 1, n1, 1, n2, map, np2), 'locate_region')
    call ok(np .eq. np2 .and. np .eq. nb(1) * nb(2), 'locate_nnodes counts the owners')
    call ok(nga_locate_nnodes(g, (/ 2, 2 /), (/ 2, 2 /), np), 'nga_locate_nnodes')
    call ok(np .eq. 1, 'one element has one owner')
    call ok(.not. ga_locate_nnodes(g, 1, n1 + 1, 1, n2, np), 'patch outside the array')
    call ok(.not. ga_uses_proc_grid(g), 'uses_proc_grid')
    call ga_mask_sync(1, 1)
    call ga_msg_sync()
    call nga_msg_sync()
    call ga_version(major, minor, patch)
    if (me .eq. 0) print '(a,3(1x,i0))', 'version', major, minor, patch
    t0 = ga_timer()
    t1 = ga_timer()
    call ok(t1 .ge. t0, 'timer')

    call ga_zero(g2)
    if (.not. debian) then
      call ga_copy_patch_dp('N', g, 1, 3, 2, 5, g2, 2, 4, 1, 4)
      call ga_get(g2, 2, 4, 1, 4, a, n1)
      want = 0
      do j = 1, 4
        do i = 1, 3
          if (a(i, j) .ne. dble(10 * i + j + 1)) want = want + 1
        end do
      end do
      call ok(want .eq. 0, 'copy_patch_dp')
      d = ga_ddot_patch_dp(g, 'N', 1, 3, 2, 5, g2, 'N', 2, 4, 1, 4)
      call ga_get(g, 1, n1, 1, n2, a, n1)
      want = sum(a(1:3, 2:5) * rows_of(g2))
      call ok(d .eq. want, 'ddot_patch_dp')
      call ga_print_patch(g, 2, 4, 1, 3, 1)
    end if
    call ga_copy(g, g2)
    call nga_print_patch(g2, (/ 2, 1 /), (/ 3, 2 /), 0)
    call nga_print_patch(g2, (/ 1, 2 /), (/ 3, 4 /), 1)
    call ga_check_handle(g2, 'queries, before destroy')
    call ok(ga_destroy(g) .and. ga_destroy(g2), 'destroy q, q2')
    call ok(.not. ga_verify_handle(g), 'destroyed handle does not verify')
  end subroutine queries

  ! Rows 2:4, columns 1:4 of g2 as a 3 x 4 array.
  function rows_of(g2) result(r)
    integer g2
    double precision r(3, 4)
    call ga_get(g2, 2, 4, 1, 4, r, 3)
  end function rows_of

end program typed

#include "tally.inc"
