! Arrays on processor groups and ghost cells from handles, in Fortran:
! the world splits into two halves; each makes an array on its half with
! nga_create_config and one with ga_set_pgroup before ga_allocate, fills
! and reads them with the nga_ names of the whole-array routines
! (nga_fill, nga_copy, nga_scale, nga_ddot, nga_zero, nga_sync), and asks
! nga_get_pgroup and nga_distribution. A world array gets ghost cells from
! ga_set_ghosts, and nga_nbget_ghost_dir fills one side of each frame.
! Every rank records what it saw; rank 0 prints one line per rank for the
! harness to compare with Debian's GA.
program group_arrays
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: nv = 12
  integer rec(nv, 8), k, me, np, ierr, p, s, gme, gn, first
  integer g_a, g_b, g_h, g_w, dims(2), chunk(2), lo(2), hi(2), ld(1)
  integer width(2), mask(2), nbh, i, j, nbad
  double precision two, five, dot, x(6, 8), frame(9, 4)

  call start_mpi_ga()
  call ok(ma_init(MT_F_DBL, 100000, 100000), 'ma_init')
  me = ga_nodeid()
  np = ga_nnodes()
  rec = 0
  k = 0

  s = ga_pgroup_split(ga_pgroup_get_world(), 2)
  gme = ga_pgroup_nodeid(s)
  gn = ga_pgroup_nnodes(s)
  first = ga_pgroup_absolute_id(s, 0)
  call put(gme)
  call put(gn)

  dims(1) = 6
  dims(2) = 8
  ! Whole columns: the blocking then does not depend on the default
  ! splitting, where Debian's GA and ours differ for some shapes.
  chunk(1) = -1
  chunk(2) = 8
  call ok(nga_create_config(MT_F_DBL, 2, dims, 'half', chunk, s, g_a), 'nga_create_config')
  call ok(nga_get_pgroup(g_a) .eq. s, 'nga_get_pgroup')
  call nga_distribution(g_a, gme, lo, hi)
  call put(lo(1) * 100 + lo(2))
  call put(hi(1) * 100 + hi(2))
  five = 5.0d0 + first
  call nga_fill(g_a, five)
  call ok(ga_duplicate(g_a, g_b, 'copy'), 'ga_duplicate on the group')
  call nga_copy(g_a, g_b)
  two = 2.0d0
  call nga_scale(g_b, two)
  dot = nga_ddot(g_a, g_b)
  call ok(abs(dot - 48 * 2 * five * five) .lt. 1d-9, 'nga_ddot over the group')
  call put(int(dot))
  lo = [1, 1]
  hi = [6, 8]
  ld = [6]
  call nga_get(g_b, lo, hi, x, ld)
  call ok(all(x .eq. 2 * five), 'scaled copy on the group')
  call nga_zero(g_b)
  call nga_sync()
  call ok(nga_destroy(g_b), 'destroy the copy')

  g_h = ga_create_handle()
  dims(1) = 10
  call ga_set_data(g_h, 1, dims, MT_F_INT)
  call ga_set_array_name(g_h, 'by-handle')
  call ga_set_pgroup(g_h, s)
  call ok(ga_allocate(g_h), 'ga_allocate on a group')
  call ok(ga_get_pgroup(g_h) .eq. s, 'group of the array from ga_set_pgroup')
  call nga_distribution(g_h, gme, lo, hi)
  call put(lo(1) * 100 + hi(1))
  call ok(ga_destroy(g_h), 'destroy the handle array')
  call ok(ga_destroy(g_a), 'destroy the group array')

  ! Ghost cells on a handle; one side of the frame fetched.
  g_w = ga_create_handle()
  dims(1) = 7
  dims(2) = 2 * np
  call ga_set_data(g_w, 2, dims, MT_F_DBL)
  width(1) = 1
  width(2) = 1
  call ga_set_ghosts(g_w, width)
  call ok(ga_allocate(g_w), 'ga_allocate with ghost cells')
  call ok(ga_has_ghosts(g_w), 'ga_set_ghosts gave ghost cells')
  call nga_distribution(g_w, me, lo, hi)
  do j = lo(2), hi(2)
    do i = lo(1), hi(1)
      x(1, 1) = i * 100 + j
      call nga_put(g_w, (/ i, j /), (/ i, j /), x, ld)
    end do
  end do
  call ga_sync()
  mask(1) = 0
  mask(2) = 1
  call nga_nbget_ghost_dir(g_w, mask, nbh)
  call nga_nbwait(nbh)
  ! The high side along dimension 2: the column after the block.
  ld(1) = 9
  frame = -1
  call nga_get_ghost_block(g_w, (/ lo(1), hi(2) + 1 /), (/ hi(1), hi(2) + 1 /), frame, ld)
  nbad = 0
  do i = lo(1), hi(1)
    if (frame(i - lo(1) + 1, 1) .ne. i * 100 + mod(hi(2), dims(2)) + 1) nbad = nbad + 1
  end do
  call ok(nbad .eq. 0, 'nga_nbget_ghost_dir filled the high side')
  call put(nbad)
  call ga_sync()
  call ok(ga_destroy(g_w), 'destroy the ghost array')

  call print_records(rec, nv, k, np)
  call finish('group_arrays')
  call ga_terminate()
  call mpi_finalize(ierr)

contains

#include "record_put.inc"

end program group_arrays

#include "tally.inc"
