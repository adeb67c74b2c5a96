! A shared task counter with nga_read_inc / ga_read_inc: every task number
! is handed out exactly once across the ranks; concurrent ga_acc from
! every rank loses no update.
program counter
  implicit none
  include 'mafdecls.fh'
  include 'global.fh'
  integer me
  integer ntask, nacc
  parameter (ntask = 400, nacc = 40)
  integer taken(ntask), np, g_c, g_s, t, mine, k, one(1), lo(1), hi(1)
  integer dims(1), chunk(1), total(1), ld(1), t2
  double precision ones(8, 8), buf(8, 8), alpha

  call ga_initialize()
  call start_tally()
  me = ga_nodeid()
  np = ga_nnodes()

  dims(1) = 2
  chunk(1) = 0
  call ok(nga_create(MT_F_INT, 1, dims, 'counter', chunk, g_c), 'nga_create counter')
  total = 0
  lo(1) = 1
  hi(1) = 2
  if (me .eq. 0) call nga_put(g_c, lo, hi, (/ 0, 0 /), ld)
  call ga_sync()

  taken = 0
  mine = 0
  one(1) = 1
  do
    t = nga_read_inc(g_c, one, 1)
    if (t .ge. ntask) exit
    taken(t + 1) = taken(t + 1) + 1
    mine = mine + 1
  end do
  call ga_igop(1, taken, ntask, '+')
  call ok(all(taken .eq. 1), 'every task handed out exactly once')
  total(1) = mine
  call ga_igop(1, total, 1, '+')
  call ok(total(1) .eq. ntask, 'tasks taken add up')
  call ga_sync()
  one(1) = 1
  call nga_get(g_c, one, one, t, ld)
  call ok(t .eq. ntask + np, 'counter after the loop')

  ! The 2-D form on a 1-D array (j = 1), incremented by 5.
  do k = 1, 7
    t2 = ga_read_inc(g_c, 2, 1, 5)
  end do
  call ga_sync()
  one(1) = 2
  call nga_get(g_c, one, one, t, ld)
  call ok(t .eq. 35 * np, 'ga_read_inc total')

  ! Concurrent accumulates.
  call ok(ga_create(MT_F_DBL, 8, 8, 'sum', 0, 0, g_s), 'ga_create sum')
  buf = 0
  if (me .eq. 0) call ga_put(g_s, 1, 8, 1, 8, buf, 8)
  call ga_sync()
  ones = 1
  alpha = 1
  do k = 1, nacc
    call ga_acc(g_s, 1, 8, 1, 8, ones, 8, alpha)
  end do
  call ga_sync()
  call ga_get(g_s, 1, 8, 1, 8, buf, 8)
  call ok(all(buf .eq. dble(nacc * np)), 'no accumulate lost')
  call ok(ga_destroy(g_s) .and. ga_destroy(g_c), 'ga_destroy')
  call finish('counter')
  call ga_terminate()
end program counter

include 'tally.inc'
