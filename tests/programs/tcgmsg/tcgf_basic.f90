! TCGMSG from Fortran (INTEGER is 8 bytes: built with -fdefault-integer-8):
! pbeginf, nnodes/nodeid, a snd/rcv ring, igop and dgop, brdcst from every
! root, mdtob/mitob, tcgtime, then pend (exit status 0).
program tcgf_basic
  implicit none
  include 'tcgmsg.fh'
  include 'msgtypesf.h'
  integer npass, nfail
  common /tally/ npass, nfail
  integer me, nn, next, prev, lenmes, from, root, i
  integer buf(8), ival(3), itype
  double precision dval(2), t1, t2
  npass = 0
  nfail = 0
  call pbeginf()
  me = nodeid()
  nn = nnodes()
  next = mod(me + 1, nn)
  prev = mod(me + nn - 1, nn)
  call ok(kind(me) == 8, 'INTEGER is 8 bytes')

  ! ring: node 0 starts a token, every node adds its number
  itype = 3 + msgint
  if (me == 0) then
    buf(1) = 100
    call snd(itype, buf, mitob(1), next, 1)
    call rcv(itype, buf, mitob(8), lenmes, prev, from, 1)
    call ok(buf(1) == 100 + nn*(nn-1)/2, 'ring sum back at node 0')
  else
    call rcv(itype, buf, mitob(8), lenmes, prev, from, 1)
    call ok(lenmes == mitob(1), 'ring message length')
    call ok(from == prev, 'ring nodefrom')
    buf(1) = buf(1) + me
    call snd(itype, buf, mitob(1), next, 1)
  end if

  ! igop and dgop
  ival(1) = me + 1
  ival(2) = me
  ival(3) = -me
  call igop(5, ival, 3, '+')
  call ok(ival(1) == nn*(nn+1)/2, 'igop + element 1')
  ival(1) = me
  ival(2) = -me
  ival(3) = me
  call igop(5, ival(1), 1, 'max')
  call igop(5, ival(2), 1, 'absmax ')
  call igop(5, ival(3), 1, 'min')
  call ok(ival(1) == nn - 1, 'igop max')
  call ok(ival(2) == nn - 1, 'igop absmax')
  call ok(ival(3) == 0, 'igop min')
  dval(1) = 0.5d0 * (me + 1)
  dval(2) = -dble(me)
  call dgop(6 + msgdbl, dval, 2, '+')
  call ok(abs(dval(1) - 0.25d0*nn*(nn+1)) < 1d-12, 'dgop + element 1')
  call ok(abs(dval(2) + 0.5d0*nn*(nn-1)) < 1d-12, 'dgop + element 2')
  dval(1) = -dble(me) - 1d0
  call dgop(6, dval, 1, 'absmin')
  call ok(abs(dval(1) - 1d0) < 1d-12, 'dgop absmin')

  ! brdcst from every root
  do root = 0, nn - 1
    do i = 1, 8
      buf(i) = -1
    end do
    if (me == root) then
      do i = 1, 8
        buf(i) = root*10 + i
      end do
    end if
    call brdcst(7, buf, mitob(8), root)
    call ok(buf(1) == root*10 + 1 .and. buf(8) == root*10 + 8, 'brdcst')
  end do

  call ok(mdtob(2) == 16, 'mdtob')
  t1 = tcgtime()
  t2 = tcgtime()
  call ok(t2 > t1, 'tcgtime increases')
  call synch(1)
  print '(a,i0,a,i0,a,i0,a)', 'tcgf_basic node ', me, ': ', npass, ' passed, ', nfail, ' failed'
  if (nfail > 0) stop 1
  call pend()
  print *, 'not reached'
end program tcgf_basic

include '../pvmf_tally.inc'
