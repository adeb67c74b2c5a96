! Ghost cells and periodic transfers from Fortran: nga_create_ghosts_irreg
! (a blocking chosen per rank count, so Debian's GA and ours lay the array
! out alike), ga_has_ghosts, ga_update_ghosts with corners,
! nga_access_ghosts through dbl_mb, nga_update_ghost_dir on every side of
! both dimensions with and without corners, nga_get_ghost_block and
! nga_periodic_get/put/acc across the array's edges. Every rank checks
! against the periodic image of a serial model; rank 0 prints per-rank
! digests for the harness to compare with Debian's GA.
program ghosts
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n1 = 10, n2 = 12
  double precision model(n1, n2), pbuf(4, 3), gbuf(6, 5), blk(3, 3), alpha
  double precision sums(8), s, v, img
  integer dims(2), width(2), nblock(2), map(8), lo(2), hi(2), ld(1)
  integer gd(2), gld(1), g_a, g_b, idx, i, j, a, b, me, np, ierr, k
  integer blo(2), bhi(2), dimension, idir, side(2), nbad, nupd
  logical flag, want

  call start_mpi_ga()
  ! Debian's GA takes its ghost-update buffers from MA.
  call ok(ma_init(MT_F_DBL, 200000, 200000), 'ma_init')
  me = ga_nodeid()
  np = ga_nnodes()

  dims = (/ n1, n2 /)
  width = (/ 1, 2 /)
  select case (np)
  case (1)
    nblock = (/ 1, 1 /)
    map(1:2) = (/ 1, 1 /)
  case (2)
    nblock = (/ 1, 2 /)
    map(1:3) = (/ 1, 1, 7 /)
  case (3)
    nblock = (/ 3, 1 /)
    map(1:4) = (/ 1, 4, 7, 1 /)
  case default
    nblock = (/ 2, 2 /)
    map(1:4) = (/ 1, 6, 1, 7 /)
  end select
  call ok(nga_create_ghosts_irreg(MT_F_DBL, 2, dims, width, 'ghosts', map, nblock, g_a), &
    'nga_create_ghosts_irreg')
  call ok(ga_has_ghosts(g_a), 'ga_has_ghosts on a ghost array')
  call ok(nga_create(MT_F_DBL, 2, dims, 'plain', nblock, g_b), 'nga_create')
  call ok(.not. ga_has_ghosts(g_b), 'ga_has_ghosts on a plain array')
  call ok(ga_destroy(g_b), 'ga_destroy plain')

  do j = 1, n2
    do i = 1, n1
      model(i, j) = 100d0 * j + i + 0.5d0
    end do
  end do
  lo = (/ 1, 1 /)
  hi = dims
  ld(1) = n1
  if (me .eq. 0) call nga_put(g_a, lo, hi, model, ld)
  call ga_sync()
  call nga_update_ghosts(g_a)
  call ok(nga_has_ghosts(g_a), 'nga_has_ghosts')
  call ga_ghost_barrier()

  call nga_distribution(g_a, me, blo, bhi)
  call nga_access_ghosts(g_a, gd, idx, gld)
  call ok(gd(1) .eq. bhi(1) - blo(1) + 3 .and. gd(2) .eq. bhi(2) - blo(2) + 5, &
    'nga_access_ghosts dims')
  call ok(gld(1) .eq. gd(1), 'nga_access_ghosts ld')
  nbad = 0
  s = 0
  do b = 1, gd(2)
    do a = 1, gd(1)
      v = dbl_mb(idx + (a - 1) + (b - 1) * gld(1))
      if (v .ne. model(wrap(blo(1) - 1 + a - 1, n1), wrap(blo(2) - 2 + b - 1, n2))) nbad = nbad + 1
      s = s + v * (a + (b - 1) * gd(1))
    end do
  end do
  call ok(nbad .eq. 0, 'ga_update_ghosts')
  call per_rank('2d framed after update', s)

  ! A 3 x 3 patch one cell into the frame, from local memory.
  lo = (/ blo(1) - 1, blo(2) - 1 /)
  hi = (/ blo(1) + 1, blo(2) + 1 /)
  ld(1) = 3
  call nga_get_ghost_block(g_a, lo, hi, blk, ld)
  nbad = 0
  do b = 1, 3
    do a = 1, 3
      if (blk(a, b) .ne. model(wrap(lo(1) + a - 1, n1), wrap(lo(2) + b - 1, n2))) nbad = nbad + 1
    end do
  end do
  call ok(nbad .eq. 0, 'nga_get_ghost_block')

  ! One side at a time: frame reset to -1, then updated and checked.
  do dimension = 1, 2
    do idir = -1, 1, 2
      do k = 0, 1
        flag = k .eq. 1
        do b = 1, gd(2)
          do a = 1, gd(1)
            if (a .le. width(1) .or. a .gt. gd(1) - width(1) .or. &
                b .le. width(2) .or. b .gt. gd(2) - width(2)) &
              dbl_mb(idx + (a - 1) + (b - 1) * gld(1)) = -1d0
          end do
        end do
        call ga_sync()
        call ok(nga_update_ghost_dir(g_a, dimension, idir, flag), 'nga_update_ghost_dir')
        nbad = 0
        nupd = 0
        s = 0
        do b = 1, gd(2)
          do a = 1, gd(1)
            side(1) = 0
            side(2) = 0
            if (a .le. width(1)) side(1) = -1
            if (a .gt. gd(1) - width(1)) side(1) = 1
            if (b .le. width(2)) side(2) = -1
            if (b .gt. gd(2) - width(2)) side(2) = 1
            if (side(1) .eq. 0 .and. side(2) .eq. 0) cycle
            want = side(dimension) .eq. idir
            if (.not. flag .and. side(3 - dimension) .ne. 0) want = .false.
            v = dbl_mb(idx + (a - 1) + (b - 1) * gld(1))
            img = model(wrap(blo(1) - 1 + a - 1, n1), wrap(blo(2) - 2 + b - 1, n2))
            if (want .and. v .ne. img) nbad = nbad + 1
            if (.not. want .and. v .ne. -1d0) nbad = nbad + 1
            if (v .ne. -1d0) then
              nupd = nupd + 1
              s = s + v * (a + (b - 1) * gd(1))
            end if
          end do
        end do
        call ok(nbad .eq. 0, 'nga_update_ghost_dir cells')
        call ok(nupd .gt. 0, 'nga_update_ghost_dir updated something')
        call per_rank('2d side', s)
      end do
    end do
  end do
  ! The whole frame again, after the side updates left parts at -1.
  call ga_update_ghosts(g_a)
  nbad = 0
  do b = 1, gd(2)
    do a = 1, gd(1)
      v = dbl_mb(idx + (a - 1) + (b - 1) * gld(1))
      if (v .ne. model(wrap(blo(1) - 1 + a - 1, n1), wrap(blo(2) - 2 + b - 1, n2))) nbad = nbad + 1
    end do
  end do
  call ok(nbad .eq. 0, 'ga_update_ghosts after side updates')
  call nga_release_ghosts(g_a)
  call ga_sync()

  ! Periodic get across the low row edge and the high column edge.
  lo = (/ -1, 10 /)
  hi = (/ 3, 14 /)
  ld(1) = 6
  gbuf = -7d0
  call nga_periodic_get(g_a, lo, hi, gbuf, ld)
  nbad = 0
  do b = 1, 5
    do a = 1, 6
      if (a .le. 5) then
        if (gbuf(a, b) .ne. model(wrap(lo(1) + a - 1, n1), wrap(lo(2) + b - 1, n2))) nbad = nbad + 1
      else
        if (gbuf(a, b) .ne. -7d0) nbad = nbad + 1
      end if
    end do
  end do
  call ok(nbad .eq. 0, 'nga_periodic_get')
  call ga_sync()
  ! Put by the last rank and accumulate by all, both wrapping.
  lo = (/ 9, -1 /)
  hi = (/ 12, 1 /)
  ld(1) = 4
  do b = 1, 3
    do a = 1, 4
      pbuf(a, b) = -(10d0 * b + a)
    end do
  end do
  if (me .eq. np - 1) call nga_periodic_put(g_a, lo, hi, pbuf, ld)
  call ga_sync()
  do b = 1, 3
    do a = 1, 4
      model(wrap(lo(1) + a - 1, n1), wrap(lo(2) + b - 1, n2)) = pbuf(a, b)
    end do
  end do
  lo = (/ 0, 11 /)
  hi = (/ 3, 13 /)
  alpha = 0.5d0
  call nga_periodic_acc(g_a, lo, hi, pbuf, ld, alpha)
  call ga_sync()
  do b = 1, 3
    do a = 1, 4
      model(wrap(lo(1) + a - 1, n1), wrap(lo(2) + b - 1, n2)) = &
        model(wrap(lo(1) + a - 1, n1), wrap(lo(2) + b - 1, n2)) + 0.5d0 * np * pbuf(a, b)
    end do
  end do
  call compare('nga_periodic_put and acc')
  call ok(ga_destroy(g_a), 'ga_destroy')

  call finish('ghosts')
  call ga_terminate()
  call mpi_finalize(ierr)

contains

  integer function wrap(x, n)
    integer x, n
    wrap = modulo(x - 1, n) + 1
  end function wrap

  subroutine per_rank(what, mine)
    character(len=*) what
    double precision mine
    integer p
    sums = 0
    sums(me + 1) = mine
    call ga_dgop(1, sums, np, '+')
    if (me .eq. 0) print '(a24,8(1x,f0.2))', what, (sums(p), p = 1, np)
  end subroutine per_rank

  subroutine compare(what)
    character(len=*) what
    double precision whole(n1, n2)
    integer wlo(2), whi(2), wld(1), x, y
    double precision t
    wlo = 1
    whi = (/ n1, n2 /)
    wld(1) = n1
    call nga_get(g_a, wlo, whi, whole, wld)
    call ok(all(whole .eq. model), what)
    t = 0
    do y = 1, n2
      do x = 1, n1
        t = t + whole(x, y) * (x + n1 * (y - 1))
      end do
    end do
    if (me .eq. 0) print '(a24,1x,f0.2)', 'after periodic put/acc', t
  end subroutine compare

end program ghosts

#include "tally.inc"
