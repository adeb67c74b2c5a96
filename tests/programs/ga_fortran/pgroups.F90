! Processor groups from Fortran: ga_pgroup_create from an unsorted list,
! ranks, sizes and absolute ids, ga_pgroup_dgop/igop/brdcst/sync on the
! group, ga_pgroup_split and ga_pgroup_split_irreg, and the default group
! that ga_nodeid, ga_nnodes, ga_dgop and ga_brdcst then refer to. Every
! rank records what it saw; rank 0 prints one line per rank (gathered
! over the world) for the harness to compare with Debian's GA.
program pgroups
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: nv = 14
  integer rec(nv, 8), list(2), g, s, c, k, me, np, ierr, n, r, p, iv(1), b(2)
  double precision d(1)
  integer comm
  integer*4 comm4, size4, ierr4

  call start_mpi_ga()
  me = ga_nodeid()
  np = ga_nnodes()
  rec = 0
  k = 0

  call ok(ga_pgroup_get_world() .eq. -1, 'world handle')
  call ok(ga_pgroup_get_default() .eq. -1, 'first default group')
  list(1) = np - 1
  list(2) = 0
  n = 2
  if (np .eq. 1) n = 1
  g = ga_pgroup_create(list, n)
  call put(g)
  if (me .eq. 0 .or. me .eq. np - 1) then
    r = ga_pgroup_nodeid(g)
    call put(r)
    call put(ga_pgroup_nnodes(g))
    call put(ga_pgroup_absolute_id(g, ga_pgroup_nnodes(g) - 1))
    d(1) = me + 0.5d0
    call ga_pgroup_dgop(g, 1, d, 1, '+')
    call put(int(d(1) * 10))
    iv(1) = me + 1
    call ga_pgroup_igop(g, 2, iv, 1, 'max')
    call put(iv(1))
    b = 0
    if (me .eq. np - 1) b = (/ 42, 7 /)
    call ga_pgroup_brdcst(g, 3, b, 16, ga_pgroup_nnodes(g) - 1)
    call ok(b(1) .eq. 42 .and. b(2) .eq. 7, 'group broadcast')
    call ga_pgroup_sync(g)
    call ga_mpi_comm_pgroup(comm, g)
    comm4 = int(comm, 4)
    call mpi_comm_size(comm4, size4, ierr4)
    call ok(size4 .eq. ga_pgroup_nnodes(g), 'ga_mpi_comm_pgroup size')
  else
    k = k + 5
  end if

  s = ga_pgroup_split(ga_pgroup_get_world(), 2)
  call put(s)
  call put(ga_pgroup_nodeid(s))
  call put(ga_pgroup_nnodes(s))

  c = ga_pgroup_split_irreg(ga_pgroup_get_world(), mod(me, 2))
  call put(c)
  call ga_pgroup_set_default(c)
  call ok(ga_pgroup_get_default() .eq. c, 'default group set')
  call put(ga_nodeid() * 100 + ga_nnodes())
  d(1) = me + 1
  call ga_dgop(4, d, 1, '+')
  call put(int(d(1)))
  iv(1) = -1
  if (ga_nodeid() .eq. 0) iv(1) = 100 + me
  call ga_brdcst(5, iv, 8, 0)
  call put(iv(1))
  call ga_sync()
  call ga_mpi_comm_pgroup_default(comm)
  comm4 = int(comm, 4)
  call mpi_comm_size(comm4, size4, ierr4)
  call ok(size4 .eq. ga_nnodes(), 'ga_mpi_comm_pgroup_default size')
  call ga_pgroup_set_default(ga_pgroup_get_world())
  call ok(ga_nnodes() .eq. np, 'world is the default again')
  if (me .eq. 0 .or. me .eq. np - 1) call ok(ga_pgroup_destroy(g), 'ga_pgroup_destroy')

  call print_records(rec, nv, k, np)
  call finish('pgroups')
  call ga_terminate()
  call mpi_finalize(ierr)

contains

#include "record_put.inc"

end program pgroups

#include "tally.inc"
