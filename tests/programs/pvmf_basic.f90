! The PVM Fortran API on every rank of one mpiexec job (run with N ranks,
! N given as the first argument): task ids and the sibling index API,
! virtual machine configuration (one host per call, cycling), options,
! contexts, buffers, the send/receive family with INTEGER data, psend and
! precv, and the error codes bad arguments give.
! Ends with 'pvmf_basic rank R: N passed, M failed'.
program pvmf_basic
  implicit none
  include 'fpvm3.h'
  integer npass, nfail
  common /tally/ npass, nfail
  integer mytid, tid2, ptid, ntids, nexpect, me, nxt, prv, i, t, idum
  integer info, bufid, bytes, tag, src, old, val, ctx, ctx2, b, numt
  integer nhost, narch, dtid, speed, nh1, dtid1, nh, na, dt, sp
  integer sv(1), tids(0:63), ivals(12), iout(12), iwide(10), atid, atag, alen
  character(len=64) hname, h1
  character(len=16) arch
  character(len=3) arch3
  character(len=300) longname
  character(len=16) argtxt

  npass = 0
  nfail = 0
  call get_command_argument(1, argtxt)
  read (argtxt, *) nexpect

  ! ---- task ids ---------------------------------------------------------
  call pvmfmytid(mytid)
  call ok(mytid > 0, 'pvmfmytid gives a positive tid')
  call pvmfmytid(tid2)
  call ok(tid2 == mytid, 'pvmfmytid is stable')
  call pvmfparent(ptid)
  call ok(ptid == PvmNoParent, 'no parent under mpiexec')
  call pvmftidtohost(mytid, dtid)
  call ok(dtid == iand(mytid, 1073479680), 'pvmftidtohost is the host part')
  call ok(dtid > 0, 'host part positive')
  call pvmfpstat(mytid, info)
  call ok(info == PvmOk, 'pvmfpstat of self')

  ! ---- siblings: count, index API, out-of-range indices ------------------
  idum = 12345
  call pvmfsiblings(ntids, -1, idum)
  call ok(ntids == nexpect, 'pvmfsiblings counts every rank')
  call ok(idum == 12345, 'index -1 leaves sibling unchanged')
  call find_siblings(mytid, ntids, tids, me)
  call ok(me >= 0, 'own tid is among the siblings')
  call pvmfsiblings(ntids, ntids, t)
  call ok(t == PvmNoTask, 'index ntids gives PvmNoTask')
  call pvmfsiblings(ntids, -2, t)
  call ok(t == PvmNoTask, 'index -2 gives PvmNoTask')
  do i = 0, ntids - 1
    call pvmfpstat(tids(i), info)
    call ok(info == PvmOk, 'pvmfpstat of a sibling')
  end do
  nxt = mod(me + 1, ntids)
  prv = mod(me + ntids - 1, ntids)

  ! ---- configuration: one host per call, then the cycle starts again ----
  hname = repeat('x', 64)
  arch = repeat('x', 16)
  call pvmfconfig(nhost, narch, dtid, hname, arch, speed, info)
  call ok(info == 1, 'pvmfconfig reports one host')
  call ok(nhost >= 1 .and. narch >= 1, 'pvmfconfig counts')
  call ok(dtid > 0, 'pvmfconfig host tid')
  call ok(speed > 0, 'pvmfconfig speed')
  call ok(len_trim(hname) > 0 .and. len_trim(hname) < 64, 'host name set')
  call ok(hname(64:64) == ' ', 'host name blank-padded')
  call ok(arch == 'LINUX64', 'architecture name')
  call ok(arch(8:16) == ' ', 'architecture blank-padded')
  h1 = hname
  dtid1 = dtid
  nh1 = nhost
  do i = 2, nh1
    call pvmfconfig(nhost, narch, dtid, hname, arch, speed, info)
    call ok(info == 1 .and. nhost == nh1, 'pvmfconfig next host')
  end do
  call pvmfconfig(nhost, narch, dtid, hname, arch, speed, info)
  call ok(dtid == dtid1 .and. hname == h1, 'cycle starts again')
  ! Reset in the middle of a cycle (when there is one) with nhost = -1.
  if (nh1 > 1) then
    nhost = -1
    call pvmfconfig(nhost, narch, dtid, hname, arch, speed, info)
    call ok(dtid == dtid1 .and. hname == h1, 'nhost=-1 restarts')
    do i = 2, nh1
      call pvmfconfig(nhost, narch, dtid, hname, arch, speed, info)
    end do
  end if
  call pvmfconfig(nh, na, dt, hname, arch3, sp, info)
  call ok(arch3 == 'LIN', 'a short CHARACTER is cut')

  ! ---- options ------------------------------------------------------------
  call pvmfgetopt(PVMAUTOERR, val)
  call ok(val == 1, 'PvmAutoErr defaults to 1')
  call pvmfsetopt(PVMAUTOERR, 0, old)
  call ok(old == 1, 'pvmfsetopt returns the old value')
  call pvmfgetopt(PVMAUTOERR, val)
  call ok(val == 0, 'pvmfgetopt sees the new value')
  call pvmfgetopt(999, val)
  call ok(val == PvmBadParam, 'unknown option')
  call pvmfsetopt(PVMROUTE, PVMROUTEDIRECT, old)
  call ok(old >= 0, 'PvmRoute settable')

  ! ---- bad arguments (quiet: PvmAutoErr is 0) -------------------------
  call pvmfinitsend(PVMDEFAULT, bufid)
  call ok(bufid > 0, 'pvmfinitsend')
  sv(1) = mytid
  call pvmfpack(INTEGER4, sv, 1, 1, info)
  call ok(info == PvmOk, 'pack one INTEGER4')
  call pvmfsend(tids(nxt), -5, info)
  call ok(info == PvmBadParam, 'negative tag to pvmfsend')
  call pvmfsend(-7, 1, info)
  call ok(info == PvmBadParam, 'bad tid to pvmfsend')
  call pvmfrecv(-1, -7, bufid)
  call ok(bufid == PvmBadParam, 'tag -7 to pvmfrecv')
  call pvmfnrecv(-1, -3, bufid)
  call ok(bufid == PvmBadParam, 'tag -3 to pvmfnrecv')
  call pvmfprobe(-1, -3, bufid)
  call ok(bufid == PvmBadParam, 'tag -3 to pvmfprobe')
  call pvmfpack(99, sv, 1, 1, info)
  call ok(info == PvmBadParam, 'unknown data type to pvmfpack')
  call pvmfunpack(-1, sv, 1, 1, info)
  call ok(info == PvmBadParam, 'unknown data type to pvmfunpack')
  call pvmfpack(INTEGER4, sv, -1, 1, info)
  call ok(info == PvmBadParam, 'negative count to pvmfpack')
  call pvmfpack(INTEGER4, sv, 1, 0, info)
  call ok(info == PvmBadParam, 'stride 0 to pvmfpack')
  call pvmftrecv(-1, 1, 0, -5, bufid)
  call ok(bufid == PvmBadParam, 'negative usec to pvmftrecv')
  call pvmfsetcontext(-1, old)
  call ok(old == PvmBadParam, 'negative context')
  call pvmffreebuf(98765, info)
  call ok(info == PvmNoSuchBuf, 'freeing an unknown buffer')
  call pvmfinitsend(77, bufid)
  call ok(bufid == PvmBadParam, 'unknown encoding')
  call pvmfpsend(tids(nxt), 1, ivals, 1, 99, info)
  call ok(info == PvmBadParam, 'unknown data type to pvmfpsend')
  longname = repeat('a', 300)
  call pvmfspawn(longname, PVMTASKDEFAULT, '*', 1, t, numt)
  call ok(numt == PvmBadParam, 'task name longer than 256')
  call pvmfspawn('   ', PVMTASKDEFAULT, '*', 1, t, numt)
  call ok(numt < 0, 'blank task name')
  call pvmfspawn('x', PVMTASKDEFAULT, '*', 0, t, numt)
  call ok(numt == PvmBadParam, 'ntask 0')
  call pvmfperror('fortran perror check', info)
  call ok(info == PvmOk, 'pvmfperror')
  ! With PvmAutoErr 1 the errors are printed (rank 0 only, to keep the
  ! output short): one found by C, one by the Fortran layer.
  call pvmfsetopt(PVMAUTOERR, 1, old)
  call ok(old == 0, 'PvmAutoErr back to 1')
  if (me == 0) then
    call pvmfsend(tids(nxt), -9, info)
    call ok(info == PvmBadParam, 'reported bad tag')
    call pvmfpack(42, sv, 1, 1, info)
    call ok(info == PvmBadParam, 'reported bad type')
  end if

  ! ---- buffers --------------------------------------------------------
  call pvmfmkbuf(PVMRAW, b)
  call ok(b > 0, 'pvmfmkbuf')
  call pvmfsetsbuf(b, old)
  call ok(old > 0, 'pvmfsetsbuf returns the previous buffer')
  call pvmfgetsbuf(bufid)
  call ok(bufid == b, 'pvmfgetsbuf')
  call pvmfsetsbuf(old, idum)
  call ok(idum == b, 'pvmfsetsbuf back')
  call pvmffreebuf(b, info)
  call ok(info == PvmOk, 'pvmffreebuf')
  call pvmfgetrbuf(bufid)
  call ok(bufid >= 0, 'pvmfgetrbuf')

  ! ---- contexts -------------------------------------------------------
  call pvmfgetcontext(ctx)
  call ok(ctx == 0, 'base context')
  call pvmfnewcontext(ctx2)
  call ok(ctx2 > 0, 'pvmfnewcontext')
  call pvmfsetcontext(ctx2, old)
  call ok(old == 0, 'pvmfsetcontext returns the old context')
  call pvmfgetcontext(ctx)
  call ok(ctx == ctx2, 'pvmfgetcontext')
  call pvmfsetcontext(0, old)
  call ok(old == ctx2, 'back to the base context')
  call pvmffreecontext(ctx2, info)
  call ok(info == PvmOk, 'pvmffreecontext')

  ! ---- send / recv / bufinfo around the ring ------------------------------
  do i = 1, 12
    ivals(i) = me * 1000 + i
  end do
  call pvmfinitsend(PVMDEFAULT, bufid)
  call pvmfpack(INTEGER4, ivals, 12, 1, info)
  call ok(info == PvmOk, 'pack 12 INTEGER4')
  call pvmfsend(tids(nxt), 11, info)
  call ok(info == PvmOk, 'pvmfsend')
  call pvmfrecv(tids(prv), 11, bufid)
  call ok(bufid > 0, 'pvmfrecv')
  call pvmfbufinfo(bufid, bytes, tag, src, info)
  call ok(info == PvmOk .and. tag == 11, 'pvmfbufinfo tag')
  call ok(src == tids(prv), 'pvmfbufinfo source')
  call ok(bytes >= 48, 'pvmfbufinfo length')
  iout = 0
  call pvmfunpack(INTEGER4, iout, 12, 1, info)
  call ok(info == PvmOk, 'unpack 12 INTEGER4')
  call ok(all(iout == ivals - me * 1000 + prv * 1000), 'ring values')
  call pvmfsetopt(PVMAUTOERR, 0, old)
  call pvmfunpack(INTEGER4, iout, 1, 1, info)
  call ok(info == PvmNoData, 'unpack past the end')
  call pvmfsetopt(PVMAUTOERR, old, idum)

  ! Strided INTEGER4: every 3rd of 10 packed, unpacked every 2nd.
  do i = 1, 10
    iwide(i) = 100 * me + i
  end do
  call pvmfinitsend(PVMRAW, bufid)
  call pvmfpack(INTEGER4, iwide, 4, 3, info)
  call pvmfsend(tids(nxt), 12, info)
  call pvmfrecv(tids(prv), 12, bufid)
  iout = -1
  call pvmfunpack(INTEGER4, iout, 4, 2, info)
  call ok(info == PvmOk, 'strided unpack')
  call ok(iout(1) == 100 * prv + 1 .and. iout(3) == 100 * prv + 4 .and. &
          iout(5) == 100 * prv + 7 .and. iout(7) == 100 * prv + 10, &
          'strided values')
  call ok(iout(2) == -1 .and. iout(8) == -1, 'stride gaps untouched')

  ! nrecv and trecv with nothing to receive.
  call pvmfnrecv(-1, 99, bufid)
  call ok(bufid == 0, 'pvmfnrecv with nothing there')
  call pvmftrecv(-1, 98, 0, 200000, bufid)
  call ok(bufid == 0, 'pvmftrecv times out')

  ! probe: tag 21 is sent before tag 20; once 20 is in, 21 is waiting.
  call pvmfinitsend(PVMDEFAULT, bufid)
  sv(1) = mytid
  call pvmfpack(INTEGER4, sv, 1, 1, info)
  call pvmfsend(tids(nxt), 21, info)
  call pvmfsend(tids(nxt), 20, info)
  call pvmfrecv(tids(prv), 20, bufid)
  call ok(bufid > 0, 'recv tag 20')
  call pvmfprobe(tids(prv), 21, bufid)
  call ok(bufid > 0, 'pvmfprobe finds tag 21')
  call pvmfbufinfo(bufid, bytes, tag, src, info)
  call ok(tag == 21 .and. src == tids(prv), 'probed message info')
  call pvmfnrecv(tids(prv), 21, bufid)
  call ok(bufid > 0, 'pvmfnrecv takes it')
  call pvmfunpack(INTEGER4, sv, 1, 1, info)
  call ok(sv(1) == tids(prv), 'probed message content')

  ! trecv with sec = -1 waits without limit: the sender sleeps first.
  if (mod(me, 2) == 0) call pvmfsleep(1)
  call pvmfinitsend(PVMDEFAULT, bufid)
  sv(1) = me
  call pvmfpack(INTEGER4, sv, 1, 1, info)
  call pvmfsend(tids(nxt), 30, info)
  call pvmftrecv(tids(prv), 30, -1, 0, bufid)
  call ok(bufid > 0, 'pvmftrecv sec=-1 blocks until the message')
  call pvmfunpack(INTEGER4, sv, 1, 1, info)
  call ok(sv(1) == prv, 'blocking trecv content')
  call pvmfinitsend(PVMDEFAULT, bufid)
  call pvmfpack(INTEGER4, sv, 1, 1, info)
  call pvmfsend(tids(nxt), 31, info)
  call pvmftrecv(tids(prv), 31, 30, 0, bufid)
  call ok(bufid > 0, 'pvmftrecv within its limit')

  ! psend / precv: 5 items sent, room for 12.
  call pvmfpsend(tids(nxt), 40, ivals, 5, INTEGER4, info)
  call ok(info == PvmOk, 'pvmfpsend')
  iout = 0
  call pvmfprecv(tids(prv), 40, iout, 12, INTEGER4, atid, atag, alen, info)
  call ok(info == PvmOk, 'pvmfprecv')
  call ok(atid == tids(prv) .and. atag == 40, 'pvmfprecv source and tag')
  call ok(alen == 20, 'pvmfprecv length in bytes')
  call ok(iout(1) == prv * 1000 + 1 .and. iout(5) == prv * 1000 + 5 &
          .and. iout(6) == 0, 'pvmfprecv data')

  ! mcast from rank 0 to the others.
  if (me == 0) then
    call pvmfinitsend(PVMDEFAULT, bufid)
    sv(1) = ntids
    call pvmfpack(INTEGER4, sv, 1, 1, info)
    call pvmfmcast(ntids - 1, tids(1), 50, info)
    call ok(info == PvmOk, 'pvmfmcast')
  else
    call pvmfrecv(tids(0), 50, bufid)
    call pvmfunpack(INTEGER4, sv, 1, 1, info)
    call ok(sv(1) == ntids, 'mcast content')
  end if

  ! notify and catchout are accepted.
  call pvmfnotify(PVMTASKEXIT, 60, 1, tids(nxt), info)
  call ok(info == PvmOk, 'pvmfnotify')
  call pvmfcatchout(1, info)
  call ok(info == PvmOk, 'pvmfcatchout')

  ! Everyone is done with messages before anyone leaves.
  call pvmfinitsend(PVMDEFAULT, bufid)
  call pvmfpack(INTEGER4, sv, 1, 1, info)
  call pvmfsend(tids(nxt), 70, info)
  call pvmfrecv(tids(prv), 70, bufid)

  call pvmf_finish('pvmf_basic rank', me)
end program pvmf_basic

include 'pvmf_tally.inc'
