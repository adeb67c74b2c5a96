! The core GA Fortran calls checked against serial Fortran arrays:
! creation (2-D, n-D, handle-based, duplicate), inquiry, distribution and
! locate, put/get/acc on whole arrays and strided patches (2-D and 3-D),
! non-blocking transfers, scatter/gather, read_inc, brdcst/dgop/igop.
! Run on any number of compute ranks beside a ga-server.
program basic
  implicit none
  include 'mafdecls.fh'
  include 'global.fh'
  include 'ga-mpi.fh'
  integer me
  integer n, m
  parameter (n = 20, m = 13)
  double precision a(n, m), buf(n, m), one(n, m), alpha, x(3)
  integer np, g_a, g_b, g_i, g_h, i, j, k, p, nv, owner, np2
  integer ilo, ihi, jlo, jhi, typ, d1, d2, ndim
  integer cover(n, m), map(5, 64), rmap(6, 64), procs(64)
  integer dims3(3), lo3(3), hi3(3), ld3(2), chunk3(3)
  integer ia(5, 4, 3), ib(5, 4, 3), ic(3, 3, 2)
  integer lo(2), hi(2), ld(1), iv(8), jv(8), subs(3, 4), ivals(4), isum(3)
  double precision vals(8), got(8)
  integer nb1, nb2, t0, t
  character(len=16) aname
  logical good

  call ga_initialize()
  call start_tally()
  me = ga_nodeid()
  np = ga_nnodes()
  call ok(np .ge. 1 .and. me .ge. 0 .and. me .lt. np, 'nodeid/nnodes')
  call ok(ga_initialized(), 'ga_initialized')
  call ok(.not. ga_uses_ma(), 'ga_uses_ma is false')

  ! --- 2-D double array, default distribution
  call ok(ga_create(MT_F_DBL, n, m, 'A', 0, 0, g_a), 'ga_create')
  call ok(ga_valid_handle(g_a), 'ga_valid_handle')
  call ga_inquire(g_a, typ, d1, d2)
  call ok(typ .eq. MT_F_DBL .and. d1 .eq. n .and. d2 .eq. m, 'ga_inquire')
  call ok(ga_ndim(g_a) .eq. 2, 'ga_ndim')
  call ga_inquire_name(g_a, aname)
  call ok(aname .eq. 'A', 'ga_inquire_name')

  ! Every element owned exactly once; ga_locate agrees.
  cover = 0
  do p = 0, np - 1
    call ga_distribution(g_a, p, ilo, ihi, jlo, jhi)
    if (ihi .ge. ilo .and. jhi .ge. jlo) then
      call ok(ilo .ge. 1 .and. ihi .le. n .and. jlo .ge. 1 .and. jhi .le. m, &
        'distribution inside the array')
      cover(ilo:ihi, jlo:jhi) = cover(ilo:ihi, jlo:jhi) + 1
      good = ga_locate(g_a, ilo, jhi, owner)
      call ok(good .and. owner .eq. p, 'ga_locate finds the owner')
    end if
  end do
  call ok(all(cover .eq. 1), 'blocks cover the array once')
  call ok(.not. ga_locate(g_a, n + 1, 1, owner), 'ga_locate outside is false')

  ! ga_locate_region over the whole array names every block once.
  call ok(ga_locate_region(g_a, 1, n, 1, m, map, np2), 'ga_locate_region')
  cover = 0
  do k = 1, np2
    cover(map(1, k):map(2, k), map(3, k):map(4, k)) = &
      cover(map(1, k):map(2, k), map(3, k):map(4, k)) + 1
    call ga_distribution(g_a, map(5, k), ilo, ihi, jlo, jhi)
    call ok(map(1, k) .ge. ilo .and. map(2, k) .le. ihi .and. &
      map(3, k) .ge. jlo .and. map(4, k) .le. jhi, 'region inside its owner')
  end do
  call ok(all(cover .eq. 1), 'regions cover the array once')

  ! Rank 0 puts everything; everyone gets it back.
  do j = 1, m
    do i = 1, n
      a(i, j) = i + 100 * j
    end do
  end do
  if (me .eq. 0) call ga_put(g_a, 1, n, 1, m, a, n)
  call ga_sync()
  buf = 0
  call ga_get(g_a, 1, n, 1, m, buf, n)
  call ok(all(buf .eq. a), 'ga_get of the whole array')

  ! A strided patch into a larger buffer leaves the rest alone.
  buf = -1
  call ga_get(g_a, 3, 7, 2, 5, buf, n)
  call ok(all(buf(1:5, 1:4) .eq. a(3:7, 2:5)), 'ga_get of a patch')
  call ok(all(buf(6:n, :) .eq. -1) .and. all(buf(:, 5:m) .eq. -1), &
    'ga_get writes only the patch')
  call ga_sync()

  ! Each rank overwrites its own columns with nga_put (ld = n).
  do j = 1, m
    if (mod(j, np) .eq. me) then
      lo(1) = 1
      lo(2) = j
      hi(1) = n
      hi(2) = j
      ld(1) = n
      buf(:, j) = -a(:, j)
      call nga_put(g_a, lo, hi, buf(1, j), ld)
    end if
  end do
  call ga_sync()
  lo(1) = 1
  lo(2) = 1
  hi(1) = n
  hi(2) = m
  ld(1) = n
  call nga_get(g_a, lo, hi, buf, ld)
  call ok(all(buf .eq. -a), 'nga_put of columns by every rank')

  ! Accumulate: everyone adds (rank+1) * 1 to an inner patch of zeros
  ! (once every rank has read the array).
  call ga_sync()
  buf = 0
  if (me .eq. 0) call ga_put(g_a, 1, n, 1, m, buf, n)
  call ga_sync()
  one = 1
  alpha = me + 1
  call ga_acc(g_a, 2, n - 1, 3, m, one, n, alpha)
  call ga_sync()
  call ga_get(g_a, 1, n, 1, m, buf, n)
  call ok(all(buf(2:n-1, 3:m) .eq. dble(np * (np + 1) / 2)), 'ga_acc sum')
  call ok(all(buf(1, :) .eq. 0) .and. all(buf(n, :) .eq. 0) .and. &
    all(buf(:, 1:2) .eq. 0), 'ga_acc touches only the patch')

  ! Non-blocking put/get/acc.
  call ga_sync()
  if (me .eq. 0) then
    lo(1) = 1
    lo(2) = 1
    hi(1) = n
    hi(2) = m
    call nga_nbput(g_a, lo, hi, a, ld, t)
    call nga_nbwait(t)
  end if
  call ga_sync()
  buf = 0
  lo(1) = 4
  lo(2) = 2
  hi(1) = 9
  hi(2) = 11
  call nga_nbget(g_a, lo, hi, buf, ld, t)
  call nga_nbwait(t)
  call ok(all(buf(1:6, 1:10) .eq. a(4:9, 2:11)), 'nga_nbget')
  ! The same through nga_nbtest polling.
  buf = 0
  call nga_nbget(g_a, lo, hi, buf, ld, t)
  do while (nga_nbtest(t) .eq. 0)
  end do
  call ok(all(buf(1:6, 1:10) .eq. a(4:9, 2:11)), 'nga_nbget completed by nga_nbtest')
  call ga_sync()
  alpha = 2
  call nga_nbacc(g_a, lo, hi, one, ld, alpha, t)
  call nga_nbwait(t)
  call ga_sync()
  call ga_get(g_a, 1, n, 1, m, buf, n)
  one = a
  one(4:9, 2:11) = one(4:9, 2:11) + 2 * np
  call ok(all(buf .eq. one), 'nga_nbacc')

  ! Scatter / gather on the 2-D array.
  call ga_sync()
  nv = 8
  do k = 1, nv
    iv(k) = mod(3 * k, n) + 1
    jv(k) = mod(5 * k, m) + 1
    vals(k) = 1000 + k
  end do
  if (me .eq. 0) call ga_scatter(g_a, vals, iv, jv, nv)
  call ga_sync()
  call ga_gather(g_a, got, iv, jv, nv)
  call ok(all(got(1:nv) .eq. vals(1:nv)), 'ga_scatter then ga_gather')
  call ga_sync()
  alpha = 0.5d0
  call ga_scatter_acc(g_a, vals, iv, jv, nv, alpha)
  call ga_sync()
  call ga_gather(g_a, got, iv, jv, nv)
  call ok(all(got(1:nv) .eq. vals(1:nv) * (1 + 0.5d0 * np)), 'ga_scatter_acc')

  ! --- 3-D integer array with nga_* calls
  dims3(1) = 5
  dims3(2) = 4
  dims3(3) = 3
  chunk3 = -1
  call ok(nga_create(MT_F_INT, 3, dims3, 'I3', chunk3, g_i), 'nga_create 3-D')
  call nga_inquire(g_i, typ, ndim, lo3)
  call ok(typ .eq. MT_F_INT .and. ndim .eq. 3 .and. all(lo3 .eq. dims3), 'nga_inquire')
  do k = 1, 3
    do j = 1, 4
      do i = 1, 5
        ia(i, j, k) = i + 10 * j + 100 * k
      end do
    end do
  end do
  lo3 = 1
  hi3 = dims3
  ld3 = [5, 4]
  if (me .eq. 0) call nga_put(g_i, lo3, hi3, ia, ld3)
  call ga_sync()
  ib = 0
  call nga_get(g_i, lo3, hi3, ib, ld3)
  call ok(all(ib .eq. ia), 'nga_get 3-D whole')
  lo3(1) = 2
  lo3(2) = 1
  lo3(3) = 2
  hi3(1) = 4
  hi3(2) = 3
  hi3(3) = 3
  ld3(1) = 3
  ld3(2) = 3
  ic = 0
  call nga_get(g_i, lo3, hi3, ic, ld3)
  call ok(all(ic .eq. ia(2:4, 1:3, 2:3)), 'nga_get 3-D patch')

  ! Coverage by nga_distribution and nga_locate_region.
  isum = 0
  do p = 0, np - 1
    call nga_distribution(g_i, p, lo3, hi3)
    if (all(hi3 .ge. lo3)) isum(1) = isum(1) + product(hi3 - lo3 + 1)
  end do
  call ok(isum(1) .eq. 60, 'nga_distribution covers 60 elements')
  lo3 = 1
  hi3 = dims3
  call ok(nga_locate_region(g_i, lo3, hi3, rmap, procs, np2), 'nga_locate_region')
  do k = 1, np2
    isum(2) = isum(2) + product(rmap(4:6, k) - rmap(1:3, k) + 1)
    good = nga_locate(g_i, rmap(1:3, k), owner)
    call ok(good .and. owner .eq. procs(k), 'nga_locate agrees with the region')
  end do
  call ok(isum(2) .eq. 60, 'nga_locate_region covers 60 elements')

  ! nga_scatter / nga_gather / read_inc on the integer array.
  call ga_sync()
  do k = 1, 4
    subs(1, k) = k
    subs(2, k) = 5 - k
    subs(3, k) = mod(k, 3) + 1
    ivals(k) = -k
  end do
  if (me .eq. np - 1) call nga_scatter(g_i, ivals, subs, 4)
  call ga_sync()
  ivals = 0
  call nga_gather(g_i, ivals, subs, 4)
  call ok(ivals(1) .eq. -1 .and. ivals(4) .eq. -4, 'nga_scatter then nga_gather')
  call ga_sync()
  lo3 = 5
  lo3(2) = 4
  lo3(3) = 3
  t0 = ia(5, 4, 3)
  do k = 1, 10
    t = nga_read_inc(g_i, lo3, 3)
  end do
  call ga_sync()
  call nga_get(g_i, lo3, lo3, t, ld3)
  call ok(t .eq. t0 + 30 * np, 'nga_read_inc total')

  ! --- handle-based creation, duplicate, compare
  g_h = ga_create_handle()
  d1 = n
  lo(1) = n
  lo(2) = m
  call ga_set_data(g_h, 2, lo, MT_F_DBL)
  call ga_set_array_name(g_h, 'H')
  hi(1) = n
  hi(2) = 1
  call ga_set_chunk(g_h, hi)
  call ok(ga_allocate(g_h), 'ga_allocate')
  call ga_inquire_name(g_h, aname)
  call ok(aname .eq. 'H', 'name set by ga_set_array_name')
  call ga_distribution(g_h, me, ilo, ihi, jlo, jhi)
  call ok(ihi .lt. ilo .or. (ilo .eq. 1 .and. ihi .eq. n), 'ga_set_chunk keeps whole columns')
  if (me .eq. 0) call ga_put(g_h, 1, n, 1, m, a, n)
  call ga_sync()
  buf = 0
  call ga_get(g_h, 1, n, 1, m, buf, n)
  call ok(all(buf .eq. a), 'put/get through a ga_create_handle handle')
  call ok(ga_duplicate(g_a, g_b, 'B'), 'ga_duplicate')
  call ok(ga_compare_distr(g_a, g_b), 'duplicate has the same distribution')
  call ga_inquire(g_b, typ, d1, d2)
  call ok(typ .eq. MT_F_DBL .and. d1 .eq. n .and. d2 .eq. m, 'duplicate shape')

  ! ga_fence completes this rank's puts at their targets.
  call ga_sync()
  call ga_init_fence()
  buf(1, 1) = -7
  call ga_put(g_a, n - me, n - me, m, m, buf, n)
  call ga_fence()
  call ga_sync()
  call ga_get(g_a, n - np + 1, n, m, m, got, n)
  call ok(all(got(1:np) .eq. -7), 'ga_init_fence / ga_fence')

  ! --- collectives
  x(1) = me + 1
  x(2) = -(me + 1)
  x(3) = me
  call ga_dgop(1, x, 3, '+')
  call ok(x(1) .eq. np * (np + 1) / 2 .and. x(2) .eq. -x(1), 'ga_dgop +')
  x(1) = -(me + 1)
  call ga_dgop(1, x, 1, 'absmax')
  call ok(x(1) .eq. np, 'ga_dgop absmax')
  isum(1) = me
  isum(2) = me
  call ga_igop(2, isum, 1, 'max')
  call ok(isum(1) .eq. np - 1, 'ga_igop max')
  ivals = 0
  if (me .eq. np - 1) ivals = 77
  call ga_brdcst(3, ivals, 4 * 8, np - 1)
  call ok(all(ivals .eq. 77), 'ga_brdcst')
  ! The compute ranks' communicator is not MPI_COMM_WORLD (whose Fortran
  ! handle is 0 in Open MPI): the ga-server rank is not part of it.
  call ok(ga_mpi_comm() .ne. 0, 'ga_mpi_comm is not MPI_COMM_WORLD')

  call ok(ga_destroy(g_b), 'ga_destroy duplicate')
  call ok(ga_destroy(g_h), 'ga_destroy handle array')
  call ok(ga_destroy(g_i), 'ga_destroy 3-D')
  call ok(ga_destroy(g_a), 'ga_destroy')
  call ok(.not. ga_valid_handle(g_a), 'destroyed handle is invalid')
  call finish('basic')
  call ga_terminate()
end program basic

include 'tally.inc'
