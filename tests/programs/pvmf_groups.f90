! The PVM group routines from Fortran on four ranks: join, size, instance
! and tid lookups, barrier, freeze, broadcast, reduce (PvmSum, PvmMax,
! PvmMin and a Fortran reduce function), scatter, gather, leave, and the
! codes bad group arguments give. pvmfreduce gets INTEGER and REAL*8 data,
! so this compiles with -fallow-argument-mismatch, like legacy codes.
! Ends with 'pvmf_groups inst I: N passed, M failed'.
program pvmf_groups
  implicit none
  include 'fpvm3.h'
  integer npass, nfail
  common /tally/ npass, nfail
  external PvmSum, PvmMax, PvmMin, myprod
  integer mytid, inum, n, i, k, t, x, info, bufid, root, old
  integer tids(0:3), iv(2), imin(2), iroot(2), sv(2), res(2), all(8)
  integer data(8), src, bytes, tag
  double precision dv(2), pv(1)

  npass = 0
  nfail = 0
  call pvmfmytid(mytid)
  call pvmfjoingroup('fgroup', inum)
  call ok(inum >= 0 .and. inum < 4, 'instance number')
  call pvmfbarrier('fgroup', 4, info)
  call ok(info == PvmOk, 'barrier of four')
  call pvmfgsize('fgroup', n)
  call ok(n == 4, 'group size')
  call pvmfgetinst('fgroup', mytid, i)
  call ok(i == inum, 'pvmfgetinst of self')
  call pvmfgettid('fgroup', inum, t)
  call ok(t == mytid, 'pvmfgettid of own instance')
  do k = 0, 3
    call pvmfgettid('fgroup  ', k, tids(k))
    call ok(tids(k) > 0, 'every instance has a tid')
    do i = 0, k - 1
      call ok(tids(i) /= tids(k), 'instances are different tasks')
    end do
  end do

  ! Bad arguments.
  call pvmfgettid('fgroup', 17, t)
  call ok(t == PvmNoInst, 'no instance 17')
  call pvmfjoingroup('fgroup', x)
  call ok(x == PvmDupGroup, 'joining twice')
  call pvmfgsize('no such group', x)
  call ok(x == PvmNoGroup, 'unknown group')
  call pvmfjoingroup(repeat('g', 32), x)
  call ok(x == PvmBadParam, 'group name of 32 characters')
  call pvmfgsize(repeat('g', 31), x)
  call ok(x == PvmNoGroup, 'group name of 31 characters is valid')
  call pvmfjoingroup('   ', x)
  call ok(x == PvmNullGroup, 'blank group name')

  call pvmffreezegroup('fgroup', 4, info)
  call ok(info == PvmOk, 'pvmffreezegroup')

  ! Broadcast from instance 0 to the others.
  if (inum == 0) then
    call pvmfinitsend(PVMDEFAULT, bufid)
    sv = (/ 42, mytid /)
    call pvmfpack(INTEGER4, sv, 2, 1, info)
    call pvmfbcast('fgroup', 5, info)
    call ok(info == PvmOk, 'pvmfbcast')
  else
    call pvmfrecv(-1, 5, bufid)
    call pvmfbufinfo(bufid, bytes, tag, src, info)
    call pvmfunpack(INTEGER4, sv, 2, 1, info)
    call ok(sv(1) == 42 .and. sv(2) == tids(0) .and. src == tids(0), &
            'broadcast content')
  end if

  ! Reductions to instance 0 (and one to instance 2).
  iv = (/ inum + 1, 10 * (inum + 1) /)
  call pvmfreduce(PvmSum, iv, 2, INTEGER4, 6, 'fgroup', 0, info)
  call ok(info == PvmOk, 'reduce PvmSum')
  if (inum == 0) then
    call ok(iv(1) == 10 .and. iv(2) == 100, 'PvmSum result')
  else
    call ok(iv(1) == inum + 1, 'non-root data unchanged')
  end if
  dv = (/ dble(inum), -dble(inum) /)
  call pvmfreduce(PvmMax, dv, 2, REAL8, 7, 'fgroup', 0, info)
  call ok(info == PvmOk, 'reduce PvmMax')
  if (inum == 0) call ok(dv(1) == 3d0 .and. dv(2) == 0d0, 'PvmMax result')
  imin = (/ inum + 1, 10 * (inum + 1) /)
  call pvmfreduce(PvmMin, imin, 2, INTEGER4, 8, 'fgroup', 0, info)
  if (inum == 0) call ok(imin(1) == 1 .and. imin(2) == 10, 'PvmMin result')
  pv(1) = inum + 1
  call pvmfreduce(myprod, pv, 1, REAL8, 9, 'fgroup', 0, info)
  call ok(info == PvmOk, 'reduce with a Fortran function')
  if (inum == 0) call ok(pv(1) == 24d0, 'Fortran function result')
  root = 2
  iroot = (/ inum, 1 /)
  call pvmfreduce(PvmSum, iroot, 2, INTEGER4, 10, 'fgroup', root, info)
  if (inum == root) call ok(iroot(1) == 6 .and. iroot(2) == 4, 'sum at instance 2')
  call pvmfsetopt(PVMAUTOERR, 0, old)
  call pvmfreduce(PvmSum, iv, 2, 99, 11, 'fgroup', 0, info)
  call ok(info == PvmBadParam, 'reduce of an unknown data type')
  call pvmfreduce(PvmSum, iv, 2, INTEGER4, 11, repeat('h', 40), 0, info)
  call ok(info == PvmBadParam, 'reduce with a too long group name')
  call pvmfsetopt(PVMAUTOERR, old, x)

  ! Scatter from instance 0, gather to instance 0.
  data = (/ (k, k = 1, 8) /)
  res = 0
  call pvmfscatter(res, data, 2, INTEGER4, 12, 'fgroup', 0, info)
  call ok(info == PvmOk, 'pvmfscatter')
  call ok(res(1) == 2 * inum + 1 .and. res(2) == 2 * inum + 2, 'scattered part')
  sv = (/ 10 * inum, 10 * inum + 1 /)
  all = -1
  call pvmfgather(all, sv, 2, INTEGER4, 13, 'fgroup', 0, info)
  call ok(info == PvmOk, 'pvmfgather')
  if (inum == 0) then
    call ok(all(1) == 0 .and. all(2) == 1 .and. all(3) == 10 .and. &
            all(6) == 21 .and. all(7) == 30 .and. all(8) == 31, 'gathered data')
  end if

  call pvmfbarrier('fgroup', -1, info)
  call ok(info == PvmOk, 'barrier of all')
  call pvmflvgroup('fgroup', info)
  call ok(info == PvmOk, 'pvmflvgroup')
  call pvmflvgroup('fgroup', info)
  call ok(info < 0, 'leaving twice')

  ! Instance 0 leaves PVM last.
  call pvmfinitsend(PVMDEFAULT, bufid)
  if (inum /= 0) then
    call pvmfsend(tids(0), 20, info)
  else
    do k = 1, 3
      call pvmfrecv(-1, 20, bufid)
    end do
  end if
  call pvmf_finish('pvmf_groups inst', inum)
end program pvmf_groups

! A reduce function: x(i) = x(i) * y(i) for REAL*8.
subroutine myprod(datatype, x, y, num, info)
  implicit none
  include 'fpvm3.h'
  integer datatype, num, info, i
  double precision x(num), y(num)
  if (datatype /= REAL8) then
    info = PvmBadParam
    return
  end if
  do i = 1, num
    x(i) = x(i) * y(i)
  end do
  info = PvmOk
end subroutine myprod

include 'pvmf_tally.inc'
