! Irregular distributions: ga_create_irreg and nga_create_irreg place the
! blocks where the map says (block (i,j) on process (i-1) + nblock1*(j-1)),
! and put/get across the uneven block boundaries match a serial array.
program irreg
  implicit none
  include 'mafdecls.fh'
  include 'global.fh'
  integer me
  integer n, m
  parameter (n = 20, m = 9)
  double precision a(n, m), buf(n, m)
  integer np, g_a, g_b, i, j, k, p, nb1, nb2, ilo, ihi, jlo, jhi
  integer map1(4), map2(2), dims(3), nblock(3), map(8), lo(3), hi(3), ld(2)
  integer ia(6, 5, 4), ib(6, 5, 4), elo, ehi, last3
  logical good

  call ga_initialize()
  call start_tally()
  me = ga_nodeid()
  np = ga_nnodes()

  ! Row blocks of growing height: starts 1, 2, 4, 7 (as many as ranks, up
  ! to 4); with 4 ranks, a 2 x 2 grid instead.
  if (np .eq. 4) then
    nb1 = 2
    nb2 = 2
    map1(1) = 1
    map1(2) = 8
    map2(1) = 1
    map2(2) = 4
  else
    nb1 = min(np, 4)
    nb2 = 1
    do k = 1, nb1
      map1(k) = (k - 1) * k / 2 + 1
    end do
    map2(1) = 1
  end if
  call ok(ga_create_irreg(MT_F_DBL, n, m, 'irr', map1, nb1, map2, nb2, g_a), &
    'ga_create_irreg')
  do j = 1, nb2
    do i = 1, nb1
      p = (i - 1) + nb1 * (j - 1)
      call ga_distribution(g_a, p, ilo, ihi, jlo, jhi)
      elo = map1(i)
      ehi = n
      if (i .lt. nb1) ehi = map1(i + 1) - 1
      call ok(ilo .eq. elo .and. ihi .eq. ehi, 'irregular row block')
      elo = map2(j)
      ehi = m
      if (j .lt. nb2) ehi = map2(j + 1) - 1
      call ok(jlo .eq. elo .and. jhi .eq. ehi, 'irregular column block')
    end do
  end do
  do p = nb1 * nb2, np - 1
    call ga_distribution(g_a, p, ilo, ihi, jlo, jhi)
    call ok(ihi .lt. ilo, 'a rank without a block owns nothing')
  end do

  ! Every rank puts a band of rows that crosses block boundaries.
  do j = 1, m
    do i = 1, n
      a(i, j) = i * 0.5d0 - j * 3
    end do
  end do
  do i = 1, n
    if (mod(i, np) .eq. me) call ga_put(g_a, i, i, 1, m, a(i, 1), n)
  end do
  call ga_sync()
  buf = 0
  call ga_get(g_a, 1, n, 1, m, buf, n)
  call ok(all(buf .eq. a), 'rows put by every rank across irregular blocks')
  buf = 0
  call ga_get(g_a, 2, 15, 3, 8, buf, n)
  call ok(all(buf(1:14, 1:6) .eq. a(2:15, 3:8)), 'irregular patch get')

  ! 3-D: dimension 1 split unevenly over the ranks, dimension 3 in two.
  dims(1) = 6
  dims(2) = 5
  dims(3) = 4
  nblock(2) = 1
  nblock(3) = 1
  if (np .ge. 2) nblock(3) = 2
  nblock(1) = max(1, min(3, np / nblock(3)))
  map(1) = 1
  map(2) = 2
  map(3) = 5
  k = nblock(1) + 1
  map(k) = 1
  k = k + 1
  map(k) = 1
  if (nblock(3) .eq. 2) then
    k = k + 1
    map(k) = 4
  end if
  last3 = map(k)
  call ok(nga_create_irreg(MT_F_INT, 3, dims, 'irr3', map, nblock, g_b), &
    'nga_create_irreg')
  do i = 1, 6
    do j = 1, 5
      do k = 1, 4
        ia(i, j, k) = i * 100 + j * 10 + k
      end do
    end do
  end do
  lo = 1
  hi = dims
  ld(1) = 6
  ld(2) = 5
  if (me .eq. 0) call nga_put(g_b, lo, hi, ia, ld)
  call ga_sync()
  ib = 0
  call nga_get(g_b, lo, hi, ib, ld)
  call ok(all(ib .eq. ia), 'nga_create_irreg put/get')
  ! Block (1,1,last) is on process nblock(1)*(nblock(3)-1) and starts at
  ! map of dimension 3.
  p = nblock(1) * (nblock(3) - 1)
  call nga_distribution(g_b, p, lo, hi)
  call ok(lo(1) .eq. 1 .and. lo(3) .eq. last3 .and. hi(3) .eq. 4, &
    'nga_create_irreg block placement')
  good = ga_destroy(g_b) .and. ga_destroy(g_a)
  call ok(good, 'ga_destroy')
  call finish('irreg')
  call ga_terminate()
end program irreg

include 'tally.inc'
