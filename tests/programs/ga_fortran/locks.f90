! Mutexes: a read-modify-write of a shared value by get + put is only
! safe under ga_lock; every rank does it many times and no update is
! lost. Also create/destroy rules; GA started by ga_initialize_ltd.
program locks
  implicit none
  include 'mafdecls.fh'
  include 'global.fh'
  integer me
  integer iters
  parameter (iters = 25)
  integer np, g_v, k, v(2), lo(1), hi(1), ld(1), dims(1), chunk(1)

  call ga_initialize_ltd(100000000)
  call start_tally()
  me = ga_nodeid()
  np = ga_nnodes()
  dims = [2]
  chunk = [0]
  call ok(nga_create(MT_F_INT, 1, dims, 'shared', chunk, g_v), 'nga_create')
  lo = [1]
  hi = [2]
  v = 0
  if (me .eq. 0) call nga_put(g_v, lo, hi, v, ld)
  call ok(ga_create_mutexes(2), 'ga_create_mutexes')
  call ga_sync()
  do k = 1, iters
    call ga_lock(1)
    call nga_get(g_v, lo, hi, v, ld)
    v(1) = v(1) + 1
    v(2) = v(2) + me + 1
    call nga_put(g_v, lo, hi, v, ld)
    call ga_unlock(1)
  end do
  call ga_sync()
  call nga_get(g_v, lo, hi, v, ld)
  call ok(v(1) .eq. iters * np, 'no update lost under the lock')
  call ok(v(2) .eq. iters * np * (np + 1) / 2, 'every rank updated under the lock')
  call ok(ga_destroy_mutexes(), 'ga_destroy_mutexes')
  call ok(ga_create_mutexes(1), 'mutexes can be created again')
  call ga_lock(0)
  call ga_unlock(0)
  call ok(ga_destroy_mutexes(), 'ga_destroy_mutexes again')
  call ok(ga_destroy(g_v), 'ga_destroy')
  call finish('locks')
  call ga_terminate()
end program locks

include 'tally.inc'
