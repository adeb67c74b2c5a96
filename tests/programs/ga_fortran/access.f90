! ga_access / nga_access return indices into MA's base arrays: each rank
! writes its own block of a double precision array through dbl_mb, of an
! integer array through int_mb and of a logical array through log_mb;
! everyone reads the arrays back with ga_get. Also MA for Fortran: stack
! and heap blocks indexed in dbl_mb / int_mb, used as GA buffers.
program access
  implicit none
  include 'mafdecls.fh'
  include 'global.fh'
  integer me
  integer n, m
  parameter (n = 17, m = 11)
  double precision buf(n, m)
  integer ibuf(n, m), dims(2), chunk(2), lo(2), hi(2), ld(1)
  logical lbuf(n, m)
  integer np, g_d, g_i, g_l, i, j, k, idx, idx2, ldl, ilo, ihi, jlo, jhi
  integer hs, hh, ih, id
  logical good

  call ga_initialize()
  call start_tally()
  me = ga_nodeid()
  np = ga_nnodes()
  call ok(ma_init(MT_DBL, 100000, 100000), 'ma_init')
  call ok(ma_sizeof(MT_DBL, 3, MT_BYTE) .eq. 24, 'ma_sizeof dbl->byte')
  call ok(ma_sizeof(MT_BYTE, 9, MT_DBL) .eq. 2, 'ma_sizeof rounds up')
  call ok(ma_sizeof(MT_INT, 1, MT_BYTE) .eq. 8, 'MT_INT is 8 bytes')

  ! --- double precision through dbl_mb
  call ok(ga_create(MT_F_DBL, n, m, 'D', 0, 0, g_d), 'ga_create D')
  call ga_distribution(g_d, me, ilo, ihi, jlo, jhi)
  if (ihi .ge. ilo) then
    call ga_access(g_d, ilo, ihi, jlo, jhi, idx, ldl)
    call ok(ldl .ge. ihi - ilo + 1, 'ga_access ld covers the block')
    do j = jlo, jhi
      do i = ilo, ihi
        dbl_mb(idx + (i - ilo) + (j - jlo) * ldl) = i * 1000 + j
      end do
    end do
    call ga_release_update(g_d, ilo, ihi, jlo, jhi)
    ! A sub-patch starts further along the same block.
    if (ihi .gt. ilo) then
      call ga_access(g_d, ilo + 1, ihi, jlo, jhi, idx2, ldl)
      call ok(idx2 .eq. idx + 1, 'sub-patch index is one further')
      call ok(dbl_mb(idx2) .eq. (ilo + 1) * 1000 + jlo, 'sub-patch reads through dbl_mb')
      call ga_release(g_d, ilo + 1, ihi, jlo, jhi)
    end if
  end if
  call ga_sync()
  buf = 0
  call ga_get(g_d, 1, n, 1, m, buf, n)
  good = .true.
  do j = 1, m
    do i = 1, n
      if (buf(i, j) .ne. i * 1000 + j) good = .false.
    end do
  end do
  call ok(good, 'blocks written through dbl_mb read back with ga_get')

  ! --- integer through int_mb (nga_access)
  dims(1) = n
  dims(2) = m
  chunk = 0
  call ok(nga_create(MT_F_INT, 2, dims, 'I', chunk, g_i), 'nga_create I')
  call nga_distribution(g_i, me, lo, hi)
  if (all(hi .ge. lo)) then
    call nga_access(g_i, lo, hi, idx, ld)
    do j = lo(2), hi(2)
      do i = lo(1), hi(1)
        int_mb(idx + (i - lo(1)) + (j - lo(2)) * ld(1)) = -(i + 100 * j) - me * 100000
      end do
    end do
    call nga_release_update(g_i, lo, hi)
  end if
  call ga_sync()
  ibuf = 0
  lo = 1
  hi(1) = n
  hi(2) = m
  ld(1) = n
  call nga_get(g_i, lo, hi, ibuf, ld)
  good = .true.
  do j = 1, m
    do i = 1, n
      call ok(nga_locate(g_i, (/ i, j /), k), 'nga_locate')
      if (ibuf(i, j) .ne. -(i + 100 * j) - k * 100000) good = .false.
    end do
  end do
  call ok(good, 'blocks written through int_mb read back with nga_get')

  ! --- logical through log_mb
  call ok(nga_create(MT_F_LOG, 2, dims, 'L', chunk, g_l), 'nga_create L')
  call nga_distribution(g_l, me, lo, hi)
  if (all(hi .ge. lo)) then
    call nga_access(g_l, lo, hi, idx, ld)
    do j = lo(2), hi(2)
      do i = lo(1), hi(1)
        log_mb(idx + (i - lo(1)) + (j - lo(2)) * ld(1)) = mod(i + j, 2) .eq. 0
      end do
    end do
    call nga_release_update(g_l, lo, hi)
  end if
  call ga_sync()
  lbuf = .false.
  call ga_get(g_l, 1, n, 1, m, lbuf, n)
  good = .true.
  do j = 1, m
    do i = 1, n
      if (lbuf(i, j) .neqv. (mod(i + j, 2) .eq. 0)) good = .false.
    end do
  end do
  call ok(good, 'blocks written through log_mb read back with ga_get')

  ! --- MA stack and heap blocks as GA buffers
  call ok(ma_push_get(MT_DBL, n * m, 'stack dbl', hs, id), 'ma_push_get')
  do k = 0, n * m - 1
    dbl_mb(id + k) = k + 0.25d0
  end do
  call ok(ma_alloc_get(MT_INT, n * m, 'heap int', hh, ih), 'ma_alloc_get')
  call ok(ma_get_index(hh, idx) .and. idx .eq. ih, 'ma_get_index')
  if (me .eq. 0) call ga_put(g_d, 1, n, 1, m, dbl_mb(id), n)
  call ga_sync()
  call ga_get(g_d, 1, n, 1, m, buf, n)
  good = .true.
  do j = 1, m
    do i = 1, n
      if (buf(i, j) .ne. (i - 1) + (j - 1) * n + 0.25d0) good = .false.
    end do
  end do
  call ok(good, 'ga_put from an MA stack block')
  call ga_get(g_i, 2, n, 1, m, int_mb(ih), n - 1)
  call ok(int_mb(ih) .eq. ibuf(2, 1) .and. int_mb(ih + (n - 1) * m - 1) .eq. ibuf(n, m), &
    'ga_get into an MA heap block')
  call ok(.not. ma_free_heap(hs), 'ma_free_heap refuses a stack block')
  call ok(ma_free_heap(hh), 'ma_free_heap')
  call ok(ma_push_get(MT_DBL, 10, 'second', hh, idx2), 'second ma_push_get')
  call ok(.not. ma_pop_stack(hs), 'ma_pop_stack refuses a block under the top')
  call ok(ma_pop_stack(hh) .and. ma_pop_stack(hs), 'ma_pop_stack in order')
  ! More than the stack and the heap together (the stack may grow into
  ! free heap space, as in GA's MA).
  call ok(.not. ma_push_get(MT_DBL, 200100, 'too big', hs, id), 'stack limit enforced')

  call ok(ga_destroy(g_l) .and. ga_destroy(g_i) .and. ga_destroy(g_d), 'ga_destroy')
  call finish('access')
  call ga_terminate()
end program access

include 'tally.inc'
