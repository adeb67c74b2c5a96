! A Fortran parent spawns the Fortran program pvmf_child by name (found on
! PATH): two copies anywhere (where = '*'), one on a named host; a missing
! program gives PvmNoFile. The parent multicasts the children's tids,
! checks their replies (tid, parent, sibling count and index) and gets a
! PvmTaskExit notification naming each child.
! Ends with 'pvmf_spawn parent: N passed, M failed'.
program pvmf_spawn
  implicit none
  include 'fpvm3.h'
  integer npass, nfail
  common /tally/ npass, nfail
  integer mytid, numt, info, bufid, i, j, k, n, nhost, narch, dtid, speed
  integer tids(3), more(1), bad(1), reply(4), bytes, tag, src, pos, sv(1)
  character(len=64) host
  character(len=16) arch

  npass = 0
  nfail = 0
  call pvmfmytid(mytid)
  call ok(mytid > 0, 'parent tid')

  tids = 0
  call pvmfspawn('pvmf_child', PVMTASKDEFAULT, '*', 2, tids, numt)
  call ok(numt == 2, 'two children anywhere')
  call pvmfconfig(nhost, narch, dtid, host, arch, speed, info)
  call pvmfspawn('pvmf_child  ', PVMTASKHOST, host, 1, more, numt)
  call ok(numt == 1, 'one child on a named host')
  tids(3) = more(1)
  do i = 1, 3
    call ok(tids(i) > 0 .and. tids(i) /= mytid, 'child tid')
    do j = 1, i - 1
      call ok(tids(i) /= tids(j), 'child tids differ')
    end do
    call pvmfpstat(tids(i), info)
    call ok(info == PvmOk, 'child runs')
  end do

  call pvmfsetopt(PVMAUTOERR, 0, i)
  call pvmfspawn('no_such_pvmf_program', PVMTASKDEFAULT, '*', 1, bad, numt)
  call ok(numt == 0 .and. bad(1) == PvmNoFile, 'missing program')
  call pvmfsetopt(PVMAUTOERR, 1, i)

  call pvmfnotify(PVMTASKEXIT, 77, 3, tids, info)
  call ok(info == PvmOk, 'pvmfnotify')

  call pvmfinitsend(PVMDEFAULT, bufid)
  sv(1) = 3
  call pvmfpack(INTEGER4, sv, 1, 1, info)
  call pvmfpack(INTEGER4, tids, 3, 1, info)
  call pvmfmcast(3, tids, 1, info)
  call ok(info == PvmOk, 'mcast to the children')

  do k = 1, 3
    call pvmftrecv(-1, 2, 60, 0, bufid)
    call ok(bufid > 0, 'a child answers')
    if (bufid <= 0) exit
    call pvmfbufinfo(bufid, bytes, tag, src, info)
    call pvmfunpack(INTEGER4, reply, 4, 1, info)
    call ok(reply(1) == src, 'reply comes from the tid it names')
    call ok(reply(2) == mytid, 'child sees this task as parent')
    pos = 0
    do i = 1, 3
      if (tids(i) == src) pos = i
    end do
    call ok(pos > 0, 'reply from a spawned tid')
    ! The first spawn started two siblings, the second one.
    if (pos <= 2) then
      n = 2
    else
      n = 1
    end if
    call ok(reply(3) == n, 'sibling count of the child')
    call ok(reply(4) >= 0 .and. reply(4) < n, 'sibling index of the child')
  end do

  ! Each child's exit is notified with its tid.
  do k = 1, 3
    call pvmftrecv(-1, 77, 60, 0, bufid)
    call ok(bufid > 0, 'exit notification')
    if (bufid <= 0) exit
    call pvmfunpack(INTEGER4, sv, 1, 1, info)
    pos = 0
    do i = 1, 3
      if (tids(i) == sv(1)) pos = i
    end do
    call ok(pos > 0, 'notification names a child')
  end do

  call pvmfexit(info)
  call ok(info == PvmOk, 'pvmfexit')
  print '(a,i0,a,i0,a)', 'pvmf_spawn parent: ', npass, ' passed, ', &
        nfail, ' failed'
end program pvmf_spawn

include 'pvmf_tally.inc'
