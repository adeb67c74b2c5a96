! Bad calls of the typed GA Fortran routines, one per run, the routine
! named by the first argument: each must end the job; "returned" is
! printed only if it does not.
program typed_errors
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer g_d, g_z, ierr, dims(2), chunk(2)
  double precision x
  real s
  double complex z(1)
  character(len=16) arg
  call mpi_init(ierr)
  call ga_initialize()
  dims = (/ 4, 3 /)
  chunk = 0
  if (.not. nga_create(MT_F_REAL, 2, dims, 'reals', chunk, g_d)) stop 1
  if (.not. nga_create(MT_F_DBL, 2, dims, 'doubles', chunk, g_z)) stop 1
  call get_command_argument(1, arg)
  x = 2d0
  z(1) = (1d0, 0d0)
  select case (trim(arg))
  case ('ga_dscal')
    call ga_dscal(g_d, x)
  case ('nga_zadd_patch')
    call nga_zadd_patch(z, g_z, (/ 1, 1 /), (/ 2, 2 /), z, g_z, (/ 1, 1 /), (/ 2, 2 /), &
                        g_z, (/ 1, 1 /), (/ 2, 2 /))
  case ('ga_sdot')
    s = ga_sdot(g_z, g_z)
  case ('ga_zgop')
    call ga_zgop(MT_F_DCPL, z, 1, 'max')
  case ('ga_gop')
    call ga_gop(MT_F_BYTE, z, 1, '+')
  end select
  print *, 'returned'
  call ga_terminate()
  call mpi_finalize(ierr)
end program typed_errors
