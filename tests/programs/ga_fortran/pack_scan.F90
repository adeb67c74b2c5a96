! Pack, unpack, the segmented scans, enumeration and element selection of
! the GA Fortran API, in both spellings (ga_ and nga_): pack, unpack,
! scan_add (inclusive and exclusive), scan_copy and patch_enum on 1-based
! ranges of integer and double precision vectors of an odd length, and
! nga_select_elem on a 7 x 5 matrix with one largest and one smallest
! element. Every result is checked on every rank against a serial model;
! rank 0 prints each result.
program pack_scan
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n = 23
  integer me, k

  call start_mpi_ga()
  me = ga_nodeid()
  call ok(ma_init(MT_F_DBL, 100000, 100000), 'ma_init')
  do k = 0, 1
    call vectors(k .eq. 1, 0, 1, n)
    call vectors(k .eq. 1, 3, 5, 20)
    call vectors(k .eq. 1, 5, 12, 12)
  end do
  call selection(3, 4, 6, 2)
  call selection(1, 1, 7, 5)
  call finish('pack_scan')
  call ga_terminate()
  call mpi_finalize(k)

contains

  subroutine vectors(dbl, shift, lo, hi)
    logical dbl
    integer shift, lo, hi
    integer g_a, g_b, g_m, typ, i, cnt, c, excl, m(n)
    double precision a(n), b0(n), want(n), acc, cur
    logical on
    character(len=64) what

    typ = MT_F_INT
    if (dbl) typ = MT_F_DBL
    call ok(nga_create(typ, 1, (/ n /), 'a', (/ 0 /), g_a), 'create a')
    call ok(ga_duplicate(g_a, g_b, 'b'), 'dup b')
    call ok(nga_create(MT_F_INT, 1, (/ n /), 'm', (/ 0 /), g_m), 'create m')
    do i = 1, n
      a(i) = dble(mod((i - 1) * 7, 11)) - 3d0
      b0(i) = 100 + i
      m(i) = 0
      if (mod(i - 1 + shift, 7) .eq. 2 .or. i .eq. 4 .or. i .eq. 18) m(i) = 1
    end do
    call store(g_a, dbl, a)
    call store_int(g_m, m)
    do excl = 0, 1
      call store(g_b, dbl, b0)
      if (excl .eq. 0) then
        call ga_scan_add(g_a, g_b, g_m, lo, hi, excl)
      else
        call nga_scan_add(g_a, g_b, g_m, lo, hi, excl)
      end if
      want = b0
      on = .false.
      acc = 0
      do i = lo, hi
        if (m(i) .ne. 0) then
          on = .true.
          want(i) = a(i)
          if (excl .ne. 0) want(i) = 0
          acc = a(i)
        else if (on) then
          want(i) = acc + a(i)
          if (excl .ne. 0) want(i) = acc
          acc = acc + a(i)
        end if
      end do
      write (what, '(a,l1,3(1x,i0),a,i0)') 'scan_add ', dbl, shift, lo, hi, ' excl ', excl
      call compare(g_b, dbl, want, what)
    end do
    call store(g_b, dbl, b0)
    if (dbl) then
      call nga_scan_copy(g_a, g_b, g_m, lo, hi)
    else
      call ga_scan_copy(g_a, g_b, g_m, lo, hi)
    end if
    want = b0
    cur = 0
    do i = lo, hi
      if (m(i) .ne. 0) cur = a(i)
      want(i) = cur
    end do
    write (what, '(a,l1,3(1x,i0))') 'scan_copy ', dbl, shift, lo, hi
    call compare(g_b, dbl, want, what)

    call store(g_b, dbl, b0)
    cnt = -1
    if (dbl) call ga_pack(g_a, g_b, g_m, lo, hi, cnt)
    if (.not. dbl) call nga_pack(g_a, g_b, g_m, lo, hi, cnt)
    want = b0
    c = 0
    do i = lo, hi
      if (m(i) .ne. 0) then
        c = c + 1
        want(c) = a(i)
      end if
    end do
    call ok(cnt .eq. c, 'pack count')
    write (what, '(a,l1,4(1x,i0))') 'pack ', dbl, shift, lo, hi, cnt
    call compare(g_b, dbl, want, what)
    call store(g_a, dbl, b0)
    cnt = -1
    if (dbl) then
      call nga_unpack(g_b, g_a, g_m, lo, hi, cnt)
    else
      call ga_unpack(g_b, g_a, g_m, lo, hi, cnt)
    end if
    call ok(cnt .eq. c, 'unpack count')
    want = b0
    do i = lo, hi
      if (m(i) .ne. 0) want(i) = a(i)
    end do
    write (what, '(a,l1,3(1x,i0))') 'unpack ', dbl, shift, lo, hi
    call compare(g_a, dbl, want, what)

    call enumerate(g_b, dbl, lo, hi)
    call ok(ga_destroy(g_a), 'destroy a')
    call ok(ga_destroy(g_b), 'destroy b')
    call ok(ga_destroy(g_m), 'destroy m')
  end subroutine vectors

  subroutine enumerate(g, dbl, lo, hi)
    integer g, lo, hi, i, istart, iinc
    logical dbl
    double precision want(n), dstart, dinc
    character(len=64) what
    want = -1
    call store(g, dbl, want)
    istart = -4
    iinc = 3
    dstart = 1.5d0
    dinc = -0.25d0
    if (dbl) then
      call ga_patch_enum(g, lo, hi, dstart, dinc)
    else
      call nga_patch_enum(g, lo, hi, istart, iinc)
    end if
    do i = lo, hi
      if (dbl) then
        want(i) = dstart + (i - lo) * dinc
      else
        want(i) = istart + (i - lo) * iinc
      end if
    end do
    write (what, '(a,l1,2(1x,i0))') 'patch_enum ', dbl, lo, hi
    call compare(g, dbl, want, what)
  end subroutine enumerate

  subroutine selection(mi, mj, ni, nj)
    integer mi, mj, ni, nj, g, gi, i, j, ix(2), iv, k, wix(2)
    double precision wv
    character(len=3) op
    character(len=32) what
    integer, parameter :: r = 7, s = 5
    double precision v(r, s), dv
    integer iw(r, s)
    do j = 1, s
      do i = 1, r
        v(i, j) = mod(i * 5 + j * 3, 13)
      end do
    end do
    v(mi, mj) = 50
    v(ni, nj) = -50
    iw = int(v)
    call ok(nga_create(MT_F_DBL, 2, (/ r, s /), 'sd', (/ 0, 0 /), g), 'create sd')
    call ok(nga_create(MT_F_INT, 2, (/ r, s /), 'si', (/ 0, 0 /), gi), 'create si')
    if (me .eq. 0) then
      call ga_put(g, 1, r, 1, s, v, r)
      call ga_put(gi, 1, r, 1, s, iw, r)
    end if
    call ga_sync()
    do k = 1, 4
      op = 'max'
      wv = 50
      wix = (/ mi, mj /)
      if (mod(k, 2) .eq. 0) then
        op = 'min'
        wv = -50
        wix = (/ ni, nj /)
      end if
      if (k .le. 2) then
        call nga_select_elem(g, op, dv, ix)
      else
        call nga_select_elem(gi, op, iv, ix)
        dv = iv
      end if
      write (what, '(a,a,a)') 'select ', op, merge(' double ', ' integer', k .le. 2)
      call ok(dv .eq. wv .and. all(ix .eq. wix), what)
      if (me .eq. 0) print '(a,f8.2,2(1x,i0))', trim(what), dv, ix
    end do
    call ok(ga_destroy(g), 'destroy sd')
    call ok(ga_destroy(gi), 'destroy si')
  end subroutine selection

  subroutine store(g, dbl, v)
    integer g
    logical dbl
    double precision v(n)
    integer iv(n)
    call ga_sync()
    if (me .eq. 0) then
      if (dbl) then
        call ga_put(g, 1, n, 1, 1, v, n)
      else
        iv = int(v)
        call ga_put(g, 1, n, 1, 1, iv, n)
      end if
    end if
    call ga_sync()
  end subroutine store

  subroutine store_int(g, v)
    integer g, v(n)
    call ga_sync()
    if (me .eq. 0) call ga_put(g, 1, n, 1, 1, v, n)
    call ga_sync()
  end subroutine store_int

  subroutine compare(g, dbl, want, what)
    integer g
    logical dbl
    double precision want(n), got(n)
    integer iv(n)
    character(len=*) what
    if (dbl) then
      call ga_get(g, 1, n, 1, 1, got, n)
    else
      call ga_get(g, 1, n, 1, 1, iv, n)
      got = iv
    end if
    call ok(all(got .eq. want), what)
    if (me .eq. 0) print '(a,a,*(1x,f0.2))', trim(what), ':', got
  end subroutine compare

end program pack_scan

#include "tally.inc"
