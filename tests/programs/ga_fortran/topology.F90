! The process-grid queries of the GA Fortran API: ga_get_proc_grid and
! nga_get_proc_grid, nga_proc_topology and ga_proc_topology, and
! ga_get_proc_index/nga_get_proc_index, on a regular matrix and 3-D array
! and on ScaLAPACK-style block-cyclic matrices with row and column process
! grids. Every rank checks that the grid holds the processes that own
! data, that their places are distinct, inside the grid and agree with
! nga_distribution, and that the index of a proc-grid array is its
! topology; rank 0 prints every grid and place (one process past the grid
! too).
program topology
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer me, np, g, i

  call start_mpi_ga()
  me = ga_nodeid()
  np = ga_nnodes()
  call ok(ma_init(MT_F_DBL, 100000, 100000), 'ma_init')

  call ok(nga_create(MT_F_DBL, 2, (/ 12, 10 /), 'matrix', (/ -1, -1 /), g), 'create matrix')
  call places(g, 2, .false., 'matrix')
  call ok(ga_destroy(g), 'destroy matrix')
  call ok(nga_create(MT_F_INT, 3, (/ 8, 6, 4 /), 'cube', (/ -1, -1, -1 /), g), 'create cube')
  call places(g, 3, .false., 'cube')
  call ok(ga_destroy(g), 'destroy cube')
  g = cyclic(np, 1)
  call places(g, 2, .true., 'rows')
  call ok(ga_destroy(g), 'destroy rows')
  g = cyclic(1, np)
  call places(g, 2, .true., 'columns')
  call ok(ga_destroy(g), 'destroy columns')

  call finish('topology')
  call ga_terminate()
  call mpi_finalize(i)

contains

  subroutine places(g, nd, pgrid, name)
    integer g, nd
    logical pgrid
    character(len=*) name
    integer grid(3), grid2(3), c(3), ix(3), ix2(3), lo(3), hi(3), p, r, q
    integer owners, olo(3, 0:3), oc(3, 0:3), a, b
    call ga_get_proc_grid(g, grid)
    call nga_get_proc_grid(g, grid2)
    call ok(all(grid(1:nd) .eq. grid2(1:nd)), 'nga_get_proc_grid')
    if (me .eq. 0) print '(a,a,3(1x,i0))', name, ' grid', grid(1:nd)
    owners = 0
    do p = 0, np
      c = -1
      call nga_proc_topology(g, p, c)
      call ok(all(c(1:nd) .ge. 0 .and. c(1:nd) .lt. grid(1:nd)), 'topology inside the grid')
      if (nd .eq. 2) then
        call ga_proc_topology(g, p, r, q)
        call ok(r .eq. c(1) .and. q .eq. c(2), 'ga_proc_topology')
      end if
      ix = -1
      if (pgrid) then
        call ga_get_proc_index(g, p, ix)
        call nga_get_proc_index(g, p, ix2)
        call ok(all(ix(1:nd) .eq. c(1:nd)), 'index is the topology')
        call ok(all(ix2(1:nd) .eq. ix(1:nd)), 'nga_get_proc_index')
        if (me .eq. 0) print '(2x,a,i0,6(1x,i0))', 'p', p, c(1:nd), ix(1:nd)
      else
        if (me .eq. 0) print '(2x,a,i0,3(1x,i0))', 'p', p, c(1:nd)
      end if
      if (p .eq. np .or. pgrid) cycle
      call nga_distribution(g, p, lo, hi)
      if (hi(1) .lt. lo(1)) cycle
      olo(1:nd, owners) = lo(1:nd)
      oc(1:nd, owners) = c(1:nd)
      owners = owners + 1
    end do
    if (pgrid) then
      call ok(product(grid(1:nd)) .eq. np, 'a proc grid holds every process')
      return
    end if
    call ok(product(grid(1:nd)) .eq. owners, 'the grid holds the owners')
    do a = 0, owners - 1
      do b = a + 1, owners - 1
        call ok(any(oc(1:nd, a) .ne. oc(1:nd, b)), 'distinct places')
        call ok(all((oc(1:nd, a) .eq. oc(1:nd, b)) .eqv. (olo(1:nd, a) .eq. olo(1:nd, b))), &
                'places agree with nga_distribution')
      end do
    end do
  end subroutine places

  integer function cyclic(rows, cols)
    integer rows, cols
    cyclic = ga_create_handle()
    call ga_set_data(cyclic, 2, (/ 12, 10 /), MT_F_DBL)
    call ga_set_block_cyclic_proc_grid(cyclic, (/ 3, 4 /), (/ rows, cols /))
    call ok(ga_allocate(cyclic), 'allocate cyclic')
  end function cyclic

end program topology

#include "tally.inc"
