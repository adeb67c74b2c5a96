! Bad input ends the job with a message naming the call and the patch in
! Fortran terms. The case is the first command-line argument:
!   patch  nga_put to a patch outside the array
!   ld     ga_get with a leading dimension smaller than the patch
!   handle ga_get on a handle that names no array
!   access ga_access of a patch this process does not own
!   type   nga_read_inc on a double precision array
program errors
  implicit none
  include 'mafdecls.fh'
  include 'global.fh'
  integer np, me, g_a, lo(2), hi(2), ld(1), idx, ldl, bad, t
  double precision buf(100)
  character(len=16) what

  call get_command_argument(1, what)
  call ga_initialize()
  me = ga_nodeid()
  np = ga_nnodes()
  if (.not. ga_create(MT_F_DBL, 10, 10, 'A', 0, 0, g_a)) &
    call ga_error('errors: ga_create failed', 1)
  call ga_sync()
  if (me .eq. 0) then
    if (what .eq. 'patch') then
      lo = [1, 3]
      hi = [10, 20]
      ld = [10]
      call nga_put(g_a, lo, hi, buf, ld)
    else if (what .eq. 'ld') then
      call ga_get(g_a, 1, 8, 1, 2, buf, 5)
    else if (what .eq. 'handle') then
      bad = g_a + 12345
      call ga_get(bad, 1, 2, 1, 2, buf, 2)
    else if (what .eq. 'access') then
      call ga_access(g_a, 1, 10, 1, 10, idx, ldl)
      if (np .eq. 1) call ga_error('errors: one rank owns everything', 1)
    else if (what .eq. 'type') then
      lo = 1
      t = nga_read_inc(g_a, lo, 1)
    end if
    print *, 'errors: the bad call returned'
  end if
  call ga_sync()
  call ga_terminate()
end program errors
