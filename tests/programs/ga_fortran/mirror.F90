! Mirrored arrays in the GA Fortran API: an array made with
! nga_create_config on ga_pgroup_get_mirror() has one copy per node;
! ga_is_mirrored/nga_is_mirrored tell it apart, nga_merge_distr_patch
! adds the copies' patches into an ordinary array and
! ga_merge_mirrored/nga_merge_mirrored leave the sum in every copy, and
! ga_matmul_mirrored multiplies mirrored matrices copy by copy. With
! K nodes a sum of copies is K times a copy; every rank checks every
! value. Rank 0 prints a few values.
program mirror
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n1 = 6, n2 = 4
  double precision want(n1, n2), got(n1, n2)
  integer dims(2), chunk(2), lo(2), hi(2), blo(2), bhi(2)
  integer g_m, g_d, me, nodes, i, j
  integer g_x, g_y, g_z, sq(2)
  double precision x(4, 4), y(4, 4), z(4, 4)

  call start_mpi_ga()
  me = ga_nodeid()
  call ok(ma_init(MT_F_DBL, 10000, 10000), 'ma_init')
  nodes = ga_cluster_nnodes()
  dims = (/ n1, n2 /)
  chunk = 0
  call ok(nga_create_config(MT_F_DBL, 2, dims, 'M', chunk, ga_pgroup_get_mirror(), g_m), &
    'nga_create_config on the mirror group')
  call ok(nga_create(MT_F_DBL, 2, dims, 'D', chunk, g_d), 'nga_create')
  call ok(ga_is_mirrored(g_m) .eq. 1, 'ga_is_mirrored of a mirrored array')
  call ok(nga_is_mirrored(g_m) .eq. 1, 'nga_is_mirrored of a mirrored array')
  call ok(ga_is_mirrored(g_d) .eq. 0, 'ga_is_mirrored of an ordinary array')

  do j = 1, n2
    do i = 1, n1
      want(i, j) = 10 * i + j
    end do
  end do
  lo = (/ 1, 1 /)
  hi = (/ n1, n2 /)
  call ga_sync()
  if (ga_cluster_procid(ga_cluster_nodeid(), 0) .eq. me) call nga_put(g_m, lo, hi, want, n1)
  call ga_sync()
  call nga_get(g_m, lo, hi, got, n1)
  call ok(all(got .eq. want), 'each node copy holds what its node wrote')

  call ga_zero(g_d)
  call nga_merge_distr_patch(g_m, lo, hi, g_d, lo, hi)
  call nga_get(g_d, lo, hi, got, n1)
  call ok(all(got .eq. nodes * want), 'nga_merge_distr_patch of the whole array')
  call ga_zero(g_d)
  blo = (/ 4, 2 /)
  bhi = (/ 6, 4 /)
  call nga_merge_distr_patch(g_m, (/ 1, 1 /), (/ 3, 3 /), g_d, blo, bhi)
  call nga_get(g_d, lo, hi, got, n1)
  call ok(all(got(4:6, 2:4) .eq. nodes * want(1:3, 1:3)) .and. got(1, 1) .eq. 0d0, &
    'nga_merge_distr_patch of a patch into another place')
  if (me .eq. 0) print '(a,3f8.1)', 'patch merged:', got(4, 2), got(6, 4), got(1, 1)

  call ga_merge_mirrored(g_m)
  call nga_get(g_m, lo, hi, got, n1)
  call ok(all(got .eq. nodes * want), 'ga_merge_mirrored')
  call nga_merge_mirrored(g_m)
  call nga_get(g_m, lo, hi, got, n1)
  call ok(all(got .eq. nodes * nodes * want), 'nga_merge_mirrored')
  if (me .eq. 0) print '(a,3f8.1)', 'merged:', got(1, 1), got(n1, n2), got(2, 3)

  sq = (/ 4, 4 /)
  call ok(nga_create_config(MT_F_DBL, 2, sq, 'X', chunk, ga_pgroup_get_mirror(), g_x), 'create X')
  call ok(nga_create_config(MT_F_DBL, 2, sq, 'Y', chunk, ga_pgroup_get_mirror(), g_y), 'create Y')
  call ok(nga_create_config(MT_F_DBL, 2, sq, 'Z', chunk, ga_pgroup_get_mirror(), g_z), 'create Z')
  do j = 1, 4
    do i = 1, 4
      x(i, j) = i + 2 * j
      y(i, j) = i - j
    end do
  end do
  call ga_sync()
  if (ga_cluster_procid(ga_cluster_nodeid(), 0) .eq. me) then
    call nga_put(g_x, (/ 1, 1 /), sq, x, 4)
    call nga_put(g_y, (/ 1, 1 /), sq, y, 4)
  end if
  call ga_zero(g_z)
  call ga_sync()
  call ga_matmul_mirrored('N', 'N', 1d0, 0d0, g_x, 1, 4, 1, 4, g_y, 1, 4, 1, 4, &
    g_z, 1, 4, 1, 4)
  call nga_get(g_z, (/ 1, 1 /), sq, z, 4)
  call ok(all(abs(z - matmul(x, y)) .lt. 1d-12), 'ga_matmul_mirrored')
  if (me .eq. 0) print '(a,3f8.1)', 'matmul_mirrored:', z(1, 1), z(4, 4), z(2, 3)
  call ok(ga_destroy(g_z) .and. ga_destroy(g_y) .and. ga_destroy(g_x), 'destroy X, Y, Z')
  call ok(ga_destroy(g_d), 'destroy D')
  call ok(ga_destroy(g_m), 'destroy M')
  call finish('mirror')
  call ga_terminate()
  call mpi_finalize(i)
end program mirror

#include "tally.inc"
