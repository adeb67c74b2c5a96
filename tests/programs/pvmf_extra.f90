! The rarer PVM Fortran routines on two ranks of one mpiexec job: the
! mailbox (put, recv, get the class list one class per call, delete),
! message handlers, signals, the task list one task per call, and the host
! queries and controls a fixed MPI job answers (mstat, archcode, addhost,
! delhost, startpvmd, hostsync).
! Ends with 'pvmf_extra rank R: N passed, M failed'.
program pvmf_extra
  implicit none
  include 'fpvm3.h'
  integer npass, nfail
  common /tally/ npass, nfail
  integer hcount, hval
  common /hseen/ hcount, hval
  integer hfun
  external hfun
  integer mytid, ntids, me, other, i, k, info, bufid, idx, old
  integer nhost, narch, dtid, speed, cod, st, hid, mid, b
  integer nt, nt1, tid, ptid, tdtid, flag, first, seen
  integer ncl, nent, idxs(8), owners(8), flgs(8), ncl1
  integer cs, cu, ds, du
  integer ivals(3), iout(3), tids(0:7)
  character(len=64) hname, cname, cname1
  character(len=16) arch
  character(len=32) aout
  character(len=300) longname

  npass = 0
  nfail = 0
  hcount = 0
  hval = 0

  call pvmfmytid(mytid)
  call pvmfsiblings(ntids, -1, i)
  call ok(ntids == 2, 'run on two ranks')
  call find_siblings(mytid, ntids, tids, me)
  other = tids(1 - me)

  ! Errors below are expected: do not print them.
  call pvmfsetopt(PVMAUTOERR, 0, old)

  ! ---- pvmfnotify checks its count as pvm_notify does ---------------------
  call pvmfnotify(PVMTASKEXIT, 70, 0, tids, info)
  call ok(info == PVMBADPARAM, 'pvmfnotify task exit with no tids')
  call pvmfnotify(PVMTASKEXIT, 70, -1, tids, info)
  call ok(info == PVMBADPARAM, 'pvmfnotify task exit with a negative count')
  call pvmfnotify(PVMHOSTDELETE, 70, 0, tids, info)
  call ok(info == PVMBADPARAM, 'pvmfnotify host delete with no hosts')
  call pvmfnotify(PVMHOSTADD, 71, -1, tids, info)
  call ok(info == 0, 'pvmfnotify host add for every event')

  ! ---- host queries -----------------------------------------------------
  call pvmfconfig(nhost, narch, dtid, hname, arch, speed, info)
  call ok(info == 1, 'pvmfconfig first host')
  nhost = -1
  call pvmfconfig(nhost, narch, dtid, hname, arch, speed, info)
  call pvmfmstat(hname, st)
  call ok(st == PvmOk, 'pvmfmstat of a host of the machine')
  call pvmfmstat('no.such.host', st)
  call ok(st == PvmNoHost, 'pvmfmstat of an unknown host')
  longname = repeat('h', 300)
  call pvmfmstat(longname, st)
  call ok(st == PvmBadParam, 'pvmfmstat of a too long name')

  call pvmfarchcode('LINUX64', cod)
  call ok(cod == 4230209, 'pvmfarchcode LINUX64')
  call pvmfarchcode('LINUX64     ', cod)
  call ok(cod == 4230209, 'pvmfarchcode trims blanks')
  call pvmfarchcode('CRAY', cod)
  call ok(cod == PvmNotFound, 'pvmfarchcode of an absent architecture')

  call pvmfaddhost(hname, info)
  call ok(info == PvmDupHost, 'pvmfaddhost of a host already there')
  call pvmfaddhost('no.such.host', info)
  call ok(info == PvmCantStart, 'pvmfaddhost of another host')
  call pvmfaddhost(' ', info)
  call ok(info == PvmBadParam, 'pvmfaddhost of a blank name')
  call pvmfdelhost(hname, info)
  call ok(info == PvmNotImpl, 'pvmfdelhost of a host of the machine')
  call pvmfdelhost('no.such.host', info)
  call ok(info == PvmNoHost, 'pvmfdelhost of an unknown host')
  call pvmfstartpvmd('-d0 hostfile', 0, info)
  call ok(info == PvmDupHost, 'pvmfstartpvmd: a machine runs')

  call pvmftidtohost(mytid, dtid)
  cs = -1
  cu = -1
  ds = -1
  du = -1
  call pvmfhostsync(dtid, cs, cu, ds, du, info)
  call ok(info == PvmOk, 'pvmfhostsync of own host')
  call ok(cs > 1600000000, 'pvmfhostsync clock seconds')
  call ok(cu >= 0 .and. cu < 1000000, 'pvmfhostsync clock microseconds')
  call ok(ds == 0 .and. du == 0, 'pvmfhostsync delta')
  cs = -7
  call pvmfhostsync(mytid, cs, cu, ds, du, info)
  call ok(info == PvmNoHost, 'pvmfhostsync of a task tid')
  call ok(cs == -7, 'pvmfhostsync failure leaves outputs')

  ! ---- task list: one task per call -------------------------------------
  nt = -1
  call pvmftasks(0, nt, tid, ptid, tdtid, flag, aout, info)
  call ok(info == 1, 'pvmftasks first task')
  call ok(nt == ntids, 'pvmftasks counts the ranks')
  nt1 = nt
  first = tid
  seen = 0
  do k = 1, nt1
    if (k > 1) call pvmftasks(0, nt, tid, ptid, tdtid, flag, aout, info)
    call ok(info == 1 .and. nt == nt1, 'pvmftasks next task')
    do i = 0, ntids - 1
      if (tid == tids(i)) seen = seen + 1
    end do
    call ok(ptid == 0, 'pvmftasks parent of a rank')
    call ok(tdtid == iand(tid, 1073479680), 'pvmftasks host of a task')
    call ok(aout == ' ', 'pvmftasks program of a rank is blank')
  end do
  call ok(seen == ntids, 'pvmftasks reports every rank once')
  ! The cycle ended: the next call starts over.
  call pvmftasks(0, nt, tid, ptid, tdtid, flag, aout, info)
  call ok(info == 1 .and. tid == first, 'pvmftasks starts a new cycle')
  ! ntask = -1 restarts in the middle of a cycle.
  nt = -1
  call pvmftasks(0, nt, tid, ptid, tdtid, flag, aout, info)
  call ok(info == 1 .and. tid == first, 'pvmftasks reset with -1')
  nt = -1
  call pvmftasks(mytid, nt, tid, ptid, tdtid, flag, aout, info)
  call ok(info == 1 .and. nt == 1 .and. tid == mytid, 'pvmftasks of self')
  nt = -1
  call pvmftasks(dtid, nt, tid, ptid, tdtid, flag, aout, info)
  call ok(info == 1 .and. nt >= 1 .and. tdtid == dtid, 'pvmftasks of a host')
  nt = -1
  call pvmftasks(0, nt, tid, ptid, tdtid, flag, aout, info)
  nt = -1

  ! ---- signals ----------------------------------------------------------
  call pvmfsendsig(mytid, 0, info)
  call ok(info == PvmOk, 'pvmfsendsig 0 checks only')
  call pvmfsendsig(mytid, 28, info)
  call ok(info == PvmOk, 'pvmfsendsig SIGWINCH to self')
  call pvmfsendsig(other, 28, info)
  call ok(info == PvmOk, 'pvmfsendsig SIGWINCH to the other rank')
  call pvmfsendsig(mytid, 99, info)
  call ok(info == PvmBadParam, 'pvmfsendsig of an invalid signal')
  call pvmfsendsig(0, 28, info)
  call ok(info == PvmBadParam, 'pvmfsendsig to tid 0')

  ! ---- message handlers -------------------------------------------------
  mid = 0
  call pvmfaddmhf(-1, 88, -1, mid, hfun, hid)
  call ok(hid >= 0, 'pvmfaddmhf gives a handler id')
  call pvmfaddmhf(mytid, 88, -1, mid, hfun, info)
  call ok(info == PvmExists, 'pvmfaddmhf of an overlapping handler')
  call pvmfinitsend(PVMDEFAULT, bufid)
  call pvmfpack(INTEGER4, 42, 1, 1, info)
  call pvmfsend(mytid, 88, info)
  do i = 1, 100000
    if (hcount > 0) exit
    call pvmfprobe(mytid, 4321, b)
  end do
  call ok(hcount == 1, 'the handler ran once')
  call ok(hval == 42, 'the handler unpacked its message')
  call pvmfdelmhf(hid, info)
  call ok(info == PvmOk, 'pvmfdelmhf')
  call pvmfdelmhf(hid, info)
  call ok(info == PvmNotFound, 'pvmfdelmhf twice')
  call pvmfsend(mytid, 88, info)
  call pvmfrecv(mytid, 88, b)
  call ok(b > 0, 'without a handler the message is received')
  call ok(hcount == 1, 'the removed handler did not run')

  ! ---- mailbox ----------------------------------------------------------
  if (me == 0) then
    ivals = (/ 7, 8, 9 /)
    call pvmfinitsend(PVMDEFAULT, bufid)
    call pvmfpack(INTEGER4, ivals, 3, 1, info)
    call pvmfputinfo('fx-shared   ', bufid, PVMMBOXDEFAULT, idx)
    call ok(idx == 0, 'pvmfputinfo gives index 0')
    ! The owner replaces its own entry.
    call pvmfputinfo('fx-shared', bufid, PVMMBOXDEFAULT, idx)
    call ok(idx == 0, 'pvmfputinfo again by the owner')
    call pvmfputinfo('fx-r0', bufid, PVMMBOXDEFAULT, idx)
    call ok(idx == 0, 'pvmfputinfo second class')
    call pvmfputinfo(' ', bufid, PVMMBOXDEFAULT, idx)
    call ok(idx == PvmBadParam, 'pvmfputinfo blank name')
    call pvmfputinfo(longname, bufid, PVMMBOXDEFAULT, idx)
    call ok(idx == PvmBadParam, 'pvmfputinfo too long name')
    ! Tell the other rank the entries are there, wait until it is done.
    call pvmfsend(other, 5, info)
    call pvmfrecv(other, 6, b)
    call pvmfdelinfo('fx-shared', 0, PVMMBOXDEFAULT, info)
    call ok(info == PvmOk, 'pvmfdelinfo by the owner')
    call pvmfdelinfo('fx-r0', 0, PVMMBOXDEFAULT, info)
    call ok(info == PvmOk, 'pvmfdelinfo second class')
    call pvmfrecvinfo('fx-shared', 0, PVMMBOXDEFAULT, b)
    call ok(b == PvmNotFound, 'pvmfrecvinfo after delete')
    call pvmfdelinfo('fx-shared', 0, PVMMBOXDEFAULT, info)
    call ok(info == PvmNotFound, 'pvmfdelinfo twice')
  else
    call pvmfrecv(other, 5, b)
    iout = 0
    call pvmfrecvinfo('fx-shared', 0, PVMMBOXDEFAULT, b)
    call ok(b > 0, 'pvmfrecvinfo gives a buffer')
    call pvmfgetrbuf(k)
    call ok(k == b, 'pvmfrecvinfo makes it the receive buffer')
    call pvmfunpack(INTEGER4, iout, 3, 1, info)
    call ok(info == PvmOk .and. all(iout == (/ 7, 8, 9 /)), &
            'pvmfrecvinfo contents')
    call pvmfrecvinfo('fx-none', 0, PVMMBOXDEFAULT, b)
    call ok(b == PvmNotFound, 'pvmfrecvinfo of an absent class')
    call pvmfdelinfo('fx-shared', 0, PVMMBOXDEFAULT, info)
    call ok(info == PvmDenied, 'pvmfdelinfo by another task')
    call pvmfinitsend(PVMDEFAULT, bufid)
    call pvmfputinfo('fx-shared', bufid, PVMMBOXDEFAULT, idx)
    call ok(idx == PvmDenied, 'pvmfputinfo over another task''s entry')

    ! The class list, one class per call.
    ncl = -1
    cname = repeat('x', 64)
    call pvmfgetmboxinfo('fx-*', cname, ncl, nent, idxs, owners, flgs, info)
    call ok(info == PvmOk .and. ncl == 2, 'pvmfgetmboxinfo counts classes')
    call ok(nent == 1 .and. idxs(1) == 0, 'pvmfgetmboxinfo entries')
    call ok(owners(1) == other, 'pvmfgetmboxinfo owner')
    call ok(cname(64:64) == ' ', 'pvmfgetmboxinfo name blank-padded')
    cname1 = cname
    call pvmfgetmboxinfo('fx-*', cname, ncl1, nent, idxs, owners, flgs, info)
    call ok(info == PvmOk .and. ncl1 == 2, 'pvmfgetmboxinfo second class')
    call ok(cname /= cname1, 'pvmfgetmboxinfo another class')
    call ok((cname == 'fx-r0' .and. cname1 == 'fx-shared') .or. &
            (cname == 'fx-shared' .and. cname1 == 'fx-r0'), &
            'pvmfgetmboxinfo class names')
    ! The cycle ended: the next call starts over.
    call pvmfgetmboxinfo('fx-*', cname, ncl, nent, idxs, owners, flgs, info)
    call ok(info == PvmOk .and. cname == cname1, 'pvmfgetmboxinfo new cycle')
    ncl = -1
    call pvmfgetmboxinfo('nomatch-*', cname, ncl, nent, idxs, owners, &
                         flgs, info)
    call ok(info == PvmNotFound .and. ncl == 0, 'pvmfgetmboxinfo no match')
    ncl = -1
    call pvmfinitsend(PVMDEFAULT, bufid)
    call pvmfsend(other, 6, info)
  end if

  call pvmfsetopt(PVMAUTOERR, old, i)

  ! Everyone is done with messages before anyone leaves.
  call pvmfinitsend(PVMDEFAULT, bufid)
  call pvmfsend(other, 70, info)
  call pvmfrecv(other, 70, b)

  call pvmf_finish('pvmf_extra rank', me)
end program pvmf_extra

! The message handler: counts its calls and unpacks one INTEGER.
integer function hfun(mid)
  implicit none
  include 'fpvm3.h'
  integer mid, info, v, bytes, tag, src
  integer hcount, hval
  common /hseen/ hcount, hval
  call pvmfbufinfo(mid, bytes, tag, src, info)
  v = -1
  if (info == PvmOk .and. tag == 88) call pvmfunpack(INTEGER4, v, 1, 1, info)
  hcount = hcount + 1
  hval = v
  hfun = 0
end function hfun

include 'pvmf_tally.inc'
