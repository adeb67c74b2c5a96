! Block-cyclic arrays in Fortran: ga_set_block_cyclic,
! ga_set_block_cyclic_proc_grid and ga_set_tiled_proc_grid on a 7x5
! double precision array in 2x2 blocks. Rank 0 prints ga_total_blocks,
! ga_get_block_info and nga_distribution of every block; every rank checks
! nga_put, nga_get and nga_acc against a serial model and reads its own
! blocks in place through dbl_mb (nga_access_block, or
! nga_access_block_grid on arrays with a process grid) with the ld it is
! given. With the argument "layout" only the layout is printed and
! checked. Prints "cyclic: N checks passed, M failed" on rank 0.
program cyclic
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer me, np, ierr, kind
  logical layout_only
  character(len=16) arg
  integer npass, nfail, mme
  common /tally/ npass, nfail, mme

  npass = 0
  nfail = 0
  ierr = 0
  call mpi_init(ierr)
  call ga_initialize()
  call ok(ma_init(MT_F_DBL, 100000, 100000), 'ma_init')
  me = ga_nodeid()
  np = ga_nnodes()
  mme = me
  arg = ' '
  if (command_argument_count() .ge. 1) call get_command_argument(1, arg)
  layout_only = arg .eq. 'layout'
  do kind = 0, 2
    call one_kind(kind)
  end do
  call finish('cyclic')
  call ga_terminate()
  call mpi_finalize(ierr)

contains

  double precision function model(i, j)
    integer i, j
    model = 100.0d0 * i + j + 0.25d0
  end function model

  subroutine one_kind(kind)
    integer kind
    integer g, dims(2), blk(2), pg(2), nb(2), bd(2), total, b, lo(2), hi(2), ld(1)
    integer i, j, bi, bj, holder, idx, sub(2), nbad, nwrong
    double precision v(7, 5), w(7, 5), ones(5, 3), alpha, add
    character(len=12) label
    if (kind .eq. 0) label = 'block_cyclic'
    if (kind .eq. 1) label = 'proc_grid'
    if (kind .eq. 2) label = 'tiled'
    dims(1) = 7
    dims(2) = 5
    blk(1) = 2
    blk(2) = 2
    pg(1) = 1
    pg(2) = np
    if (np .eq. 2) then
      pg(1) = 2
      pg(2) = 1
    end if
    if (np .eq. 4) then
      pg(1) = 2
      pg(2) = 2
    end if
    g = ga_create_handle()
    call ga_set_data(g, 2, dims, MT_F_DBL)
    call ga_set_array_name(g, trim(label))
    if (kind .eq. 0) call ga_set_block_cyclic(g, blk)
    if (kind .eq. 1) call ga_set_block_cyclic_proc_grid(g, blk, pg)
    if (kind .eq. 2) call ga_set_tiled_proc_grid(g, blk, pg)
    call ok(ga_allocate(g), 'ga_allocate')
    total = ga_total_blocks(g)
    call ga_get_block_info(g, nb, bd)
    call ok(total .eq. nb(1) * nb(2), 'ga_total_blocks')
    if (me .eq. 0) then
      print '(a,a,i0,a,i0,a,i0,a,i0,a,i0)', trim(label), ': ', total, ' blocks ', &
        nb(1), ' x ', nb(2), ' of ', bd(1), ' x ', bd(2)
      do b = 0, total - 1
        call nga_distribution(g, b, lo, hi)
        print '(a,a,i0,a,i0,a,i0,a,i0,a,i0,a)', trim(label), ' block ', b, ': (', &
          lo(1), ':', hi(1), ',', lo(2), ':', hi(2), ')'
      end do
    end if
    if (layout_only) then
      call ok(ga_destroy(g), 'ga_destroy')
      return
    end if

    do j = 1, 5
      do i = 1, 7
        v(i, j) = model(i, j)
      end do
    end do
    call ga_zero(g)
    call ga_sync()
    lo = [1, 1]
    hi = [7, 5]
    ld = [7]
    if (me .eq. 0) call nga_put(g, lo, hi, v, ld)
    call ga_sync()
    call nga_get(g, lo, hi, w, ld)
    call ok(all(w .eq. v), 'values after nga_put')
    call ga_sync()
    ones = 1.0d0
    alpha = me + 1
    lo = [2, 2]
    hi = [6, 4]
    ld = [5]
    call nga_acc(g, lo, hi, ones, ld, alpha)
    call ga_sync()
    lo = [1, 1]
    hi = [7, 5]
    ld = [7]
    call nga_get(g, lo, hi, w, ld)
    add = np * (np + 1) / 2.0d0
    nbad = 0
    do j = 1, 5
      do i = 1, 7
        if (i .ge. 2 .and. i .le. 6 .and. j .ge. 2 .and. j .le. 4) then
          if (w(i, j) .ne. v(i, j) + add) nbad = nbad + 1
        else
          if (w(i, j) .ne. v(i, j)) nbad = nbad + 1
        end if
      end do
    end do
    call ok(nbad .eq. 0, 'values after nga_acc')
    call ga_sync()

    nwrong = 0
    do bj = 0, nb(2) - 1
      do bi = 0, nb(1) - 1
        b = bi + nb(1) * bj
        if (kind .eq. 0) then
          holder = mod(b, np)
        else
          holder = mod(bi, pg(1)) + pg(1) * mod(bj, pg(2))
        end if
        if (holder .ne. me) cycle
        call nga_distribution(g, b, lo, hi)
        if (kind .eq. 0) then
          call nga_access_block(g, b, idx, ld)
        else
          sub(1) = bi
          sub(2) = bj
          call nga_access_block_grid(g, sub, idx, ld)
        end if
        do j = lo(2), hi(2)
          do i = lo(1), hi(1)
            if (dbl_mb(idx + (i - lo(1)) + (j - lo(2)) * ld(1)) .ne. w(i, j)) &
              nwrong = nwrong + 1
          end do
        end do
        if (kind .eq. 0) then
          call nga_release_block(g, b)
        else
          call nga_release_block_grid(g, sub)
        end if
      end do
    end do
    call ok(nwrong .eq. 0, 'own blocks read in place')
    call ok(ga_destroy(g), 'ga_destroy')
  end subroutine one_kind

end program cyclic

#include "tally.inc"
