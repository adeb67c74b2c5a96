! A Fortran program calling the core C API through ISO_C_BINDING: an
! integer array travels around the ring of all ranks.
program f_ring
  use iso_c_binding
  implicit none
  interface
    integer(c_int) function mpb_init() bind(C, name='mpb_init')
      import :: c_int
    end function
    integer(c_int) function mpb_finalize() bind(C, name='mpb_finalize')
      import :: c_int
    end function
    integer(c_int) function mpb_nprocs() bind(C, name='mpb_nprocs')
      import :: c_int
    end function
    integer(c_int) function mpb_myid() bind(C, name='mpb_myid')
      import :: c_int
    end function
    integer(c_int) function mpb_world_id(rank) bind(C, name='mpb_world_id')
      import :: c_int
      integer(c_int), value :: rank
    end function
    integer(c_int) function mpb_context(name) bind(C, name='mpb_context')
      import :: c_int, c_char
      character(kind=c_char), dimension(*) :: name
    end function
    integer(c_int) function mpb_send(ctx, dest, tag, buf, len) bind(C, name='mpb_send')
      import :: c_int, c_size_t, c_ptr
      integer(c_int), value :: ctx, dest, tag
      type(c_ptr), value :: buf
      integer(c_size_t), value :: len
    end function
    integer(c_int) function mpb_recv(ctx, src, tag, buf, cap, osrc, otag, olen) bind(C, name='mpb_recv')
      import :: c_int, c_size_t, c_ptr
      integer(c_int), value :: ctx, src, tag
      type(c_ptr), value :: buf
      integer(c_size_t), value :: cap
      integer(c_int) :: osrc, otag
      integer(c_size_t) :: olen
    end function
  end interface

  integer(c_int), target :: outv(100), inv(100)
  integer(c_int) :: rc, n, me, ctx, rank, i, right, left, osrc, otag, bad
  integer(c_size_t) :: olen

  rc = mpb_init()
  n = mpb_nprocs()
  me = mpb_myid()
  rank = -1
  do i = 0, n - 1
    if (mpb_world_id(i) == me) rank = i
  end do
  ctx = mpb_context('fortran-ring' // c_null_char)
  right = mpb_world_id(mod(rank + 1, n))
  left = mpb_world_id(mod(rank + n - 1, n))
  do i = 1, 100
    outv(i) = rank * 100 + i
  end do
  rc = mpb_send(ctx, right, 3, c_loc(outv), int(400, c_size_t))
  rc = mpb_recv(ctx, -1, 3, c_loc(inv), int(400, c_size_t), osrc, otag, olen)
  bad = 0
  if (rc /= 0 .or. osrc /= left .or. otag /= 3 .or. olen /= 400) bad = bad + 1
  do i = 1, 100
    if (inv(i) /= mod(rank + n - 1, n) * 100 + i) bad = bad + 1
  end do
  rc = mpb_finalize()
  if (rc /= 0) bad = bad + 1
  if (bad == 0) then
    print '(a,i0,a)', 'f_ring rank ', rank, ': 1 passed, 0 failed'
  else
    print '(a,i0,a,i0,a)', 'f_ring rank ', rank, ': 0 passed, ', bad, ' failed'
    stop 1
  end if
end program f_ring
