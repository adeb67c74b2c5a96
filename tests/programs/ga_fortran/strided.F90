! nga_strided_put, nga_strided_get and nga_strided_acc with a skip in
! every dimension, on a 3-D double precision array and a 2-D integer
! array (skip 1 in one dimension): every rank checks the selected
! elements against a serial model and that the elements between them and
! the padding of its buffer are untouched; rank 0 prints a digest of each
! array after each step, for the harness to compare with Debian's GA.
program strided
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n1 = 9, n2 = 10, n3 = 11
  double precision model(n1, n2, n3), whole(n1, n2, n3)
  double precision buf(6, 4, 4), pbuf(5, 3, 3), abuf(3, 3, 5), alpha
  integer imodel(12, 15), iwhole(12, 15), ibuf(7, 8), ialpha
  integer dims(3), chunk(3), lo(3), hi(3), skip(3), ld(2)
  integer g_a, g_i, i, j, k, a, b, c, nbad, npad, me, np
  integer ierr

  ! Debian's GA needs MPI started by the program.
  call start_mpi_ga()
  me = ga_nodeid()
  np = ga_nnodes()

  dims = (/ n1, n2, n3 /)
  chunk = 0
  call ok(nga_create(MT_F_DBL, 3, dims, 'strided3', chunk, g_a), 'nga_create 3-D')
  do k = 1, n3
    do j = 1, n2
      do i = 1, n1
        model(i, j, k) = 1000d0 * k + 10d0 * j + i + 0.5d0
      end do
    end do
  end do
  lo = (/ 1, 1, 1 /)
  hi = dims
  ld = (/ n1, n2 /)
  if (me .eq. 0) call nga_put(g_a, lo, hi, model, ld)
  call ga_sync()
  call digest3('3d filled')

  ! Get: 3,5,7,9 / 1,4,7,10 / 2,6,10 into a 6 x 4 x 4 buffer.
  lo = (/ 3, 1, 2 /)
  hi = (/ 9, 10, 11 /)
  skip = (/ 2, 3, 4 /)
  ld = (/ 6, 4 /)
  buf = -7d0
  call nga_strided_get(g_a, lo, hi, skip, buf, ld)
  nbad = 0
  npad = 0
  do c = 1, 4
    do b = 1, 4
      do a = 1, 6
        if (a .le. 4 .and. c .le. 3) then
          if (buf(a, b, c) .ne. model(1 + 2 * a, 1 + 3 * (b - 1), 2 + 4 * (c - 1))) nbad = nbad + 1
        else
          if (buf(a, b, c) .ne. -7d0) npad = npad + 1
        end if
      end do
    end do
  end do
  call ok(nbad .eq. 0, '3-D strided get')
  call ok(npad .eq. 0, '3-D strided get left the padding alone')
  call ga_sync()

  ! Put by the last rank (hi off the lattice).
  lo = (/ 1, 2, 1 /)
  hi = (/ 9, 9, 10 /)
  skip = (/ 2, 4, 5 /)
  ld = (/ 5, 3 /)
  do c = 1, 3
    do b = 1, 3
      do a = 1, 5
        pbuf(a, b, c) = -(100d0 * c + 10d0 * b + a)
      end do
    end do
  end do
  if (me .eq. np - 1) call nga_strided_put(g_a, lo, hi, skip, pbuf, ld)
  call ga_sync()
  do c = 1, 2
    do b = 1, 2
      do a = 1, 5
        model(1 + 2 * (a - 1), 2 + 4 * (b - 1), 1 + 5 * (c - 1)) = pbuf(a, b, c)
      end do
    end do
  end do
  call compare3('3-D strided put')
  call digest3('3d after strided put')

  ! Every rank has read the array before it changes again.
  call ga_sync()
  ! Accumulate from every rank.
  lo = (/ 2, 1, 3 /)
  hi = (/ 8, 10, 11 /)
  skip = (/ 3, 4, 2 /)
  ld = (/ 3, 3 /)
  do c = 1, 5
    do b = 1, 3
      do a = 1, 3
        abuf(a, b, c) = (me + 1) * (1d0 + a + 2 * b + 4 * c)
      end do
    end do
  end do
  alpha = 0.5d0
  call nga_strided_acc(g_a, lo, hi, skip, abuf, ld, alpha)
  call ga_sync()
  do c = 1, 5
    do b = 1, 3
      do a = 1, 3
        model(2 + 3 * (a - 1), 1 + 4 * (b - 1), 3 + 2 * (c - 1)) = &
          model(2 + 3 * (a - 1), 1 + 4 * (b - 1), 3 + 2 * (c - 1)) + &
          0.5d0 * (np * (np + 1) / 2) * (1d0 + a + 2 * b + 4 * c)
      end do
    end do
  end do
  call compare3('3-D strided acc')
  call digest3('3d after strided acc')
  call ok(ga_destroy(g_a), 'ga_destroy 3-D')

  ! 2-D integers: skip 1 in the first (contiguous) dimension, then in
  ! the second.
  dims(1) = 12
  dims(2) = 15
  call ok(nga_create(MT_F_INT, 2, dims, 'strided2', chunk, g_i), 'nga_create 2-D')
  call ga_zero(g_i)
  imodel = 0
  lo(1:2) = (/ 2, 1 /)
  hi(1:2) = (/ 8, 15 /)
  skip(1:2) = (/ 1, 2 /)
  ld(1) = 7
  do b = 1, 8
    do a = 1, 7
      ibuf(a, b) = a + 10 * b
    end do
  end do
  if (me .eq. 0) call nga_strided_put(g_i, lo, hi, skip, ibuf, ld)
  call ga_sync()
  do b = 1, 8
    do a = 1, 7
      imodel(1 + a, 1 + 2 * (b - 1)) = ibuf(a, b)
    end do
  end do
  lo(1:2) = (/ 1, 3 /)
  hi(1:2) = (/ 12, 9 /)
  skip(1:2) = (/ 3, 1 /)
  ld(1) = 7
  ialpha = 2
  call nga_strided_acc(g_i, lo, hi, skip, ibuf, ld, ialpha)
  call ga_sync()
  do b = 1, 7
    do a = 1, 4
      imodel(1 + 3 * (a - 1), 2 + b) = imodel(1 + 3 * (a - 1), 2 + b) + 2 * np * ibuf(a, b)
    end do
  end do
  lo(1:2) = (/ 1, 1 /)
  hi(1:2) = (/ 12, 15 /)
  ld(1) = 12
  call nga_get(g_i, lo, hi, iwhole, ld)
  nbad = count(iwhole .ne. imodel)
  call ok(nbad .eq. 0, '2-D integer strided put and acc')
  if (me .eq. 0) then
    k = 0
    do j = 1, 15
      do i = 1, 12
        k = k + iwhole(i, j) * (i + 12 * (j - 1))
      end do
    end do
    print '(a28,1x,i0)', '2d int after put/acc        ', k
  end if
  call ok(ga_destroy(g_i), 'ga_destroy 2-D')

  call finish('strided')
  call ga_terminate()
  call mpi_finalize(ierr)

contains

  subroutine compare3(what)
    character(len=*) what
    integer wlo(3), whi(3), wld(2)
    wlo = 1
    whi = (/ n1, n2, n3 /)
    wld = (/ n1, n2 /)
    call nga_get(g_a, wlo, whi, whole, wld)
    call ok(all(whole .eq. model), what)
  end subroutine compare3

  subroutine digest3(step)
    character(len=*) step
    integer wlo(3), whi(3), wld(2), x, y, z
    double precision s
    wlo = 1
    whi = (/ n1, n2, n3 /)
    wld = (/ n1, n2 /)
    call nga_get(g_a, wlo, whi, whole, wld)
    s = 0
    do z = 1, n3
      do y = 1, n2
        do x = 1, n1
          s = s + whole(x, y, z) * (x + n1 * (y - 1) + n1 * n2 * (z - 1))
        end do
      end do
    end do
    if (me .eq. 0) print '(a28,1x,f0.2)', step, s
  end subroutine digest3

end program strided

#include "tally.inc"
