! Restricted arrays in the GA Fortran API: ga_set_restricted (the upper
! half of the processes, in reverse order) and ga_set_restricted_range
! (all but process 0) between ga_create_handle and ga_allocate keep the
! data on the listed processes only, the i-th listed holding the i-th
! block. Every rank checks that it holds data only if listed and that it
! reads back and accumulates into the whole array; rank 0 prints what
! nga_distribution gives for every process.
program restricted
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n1 = 9, n2 = 5
  double precision want(n1, n2), got(n1, n2)
  integer dims(2), lo(2), hi(2), dlo(2), dhi(2), list(4)
  integer g, me, np, n, k, p, i, j, ierr
  logical listed, mine

  call start_mpi_ga()
  me = ga_nodeid()
  np = ga_nnodes()
  call ok(ma_init(MT_F_DBL, 10000, 10000), 'ma_init')
  dims = (/ n1, n2 /)
  lo = (/ 1, 1 /)
  hi = (/ n1, n2 /)
  do j = 1, n2
    do i = 1, n1
      want(i, j) = 10 * i + j
    end do
  end do

  do k = 1, 2
    g = ga_create_handle()
    call ga_set_data(g, 2, dims, MT_F_DBL)
    if (k .eq. 1) then
      n = (np + 1) / 2
      do p = 1, n
        list(p) = np - p
      end do
      call ga_set_restricted(g, list, n)
      listed = any(list(1:n) .eq. me)
    else
      call ga_set_restricted_range(g, min(1, np - 1), np - 1)
      listed = me .ge. min(1, np - 1)
    end if
    call ok(ga_allocate(g), 'ga_allocate')
    do p = 0, np - 1
      call nga_distribution(g, p, dlo, dhi)
      if (me .eq. 0) print '(a,i2,a,i2,a,4i4)', 'array', k, ' distribution', p, ':', &
        dlo(1), dhi(1), dlo(2), dhi(2)
    end do
    call nga_distribution(g, me, dlo, dhi)
    mine = dlo(1) .le. dhi(1) .and. dlo(2) .le. dhi(2)
    call ok(mine .eqv. listed, 'holds data exactly when listed')
    if (me .eq. 0) call nga_put(g, lo, hi, want, n1)
    call ga_sync()
    call nga_get(g, lo, hi, got, n1)
    call ok(all(got .eq. want), 'read back the whole array')
    call ga_sync()
    call nga_acc(g, lo, hi, want, n1, 1d0)
    call ga_sync()
    call nga_get(g, lo, hi, got, n1)
    call ok(all(got .eq. (np + 1) * want), 'accumulated by every rank')
    call ok(ga_destroy(g), 'ga_destroy')
  end do
  call finish('restricted')
  call ga_terminate()
  call mpi_finalize(ierr)
end program restricted

#include "tally.inc"
