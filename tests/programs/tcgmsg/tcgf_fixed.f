C     Fixed-form Fortran with the installed tcgmsg.fh and msgtypesf.h:
C     asynchronous snd/rcv completed by waitcom, probe, and pfcopy with a
C     blank-padded CHARACTER file name. Argument 1: a scratch directory.
      program tcgffx
      implicit none
      include 'tcgmsg.fh'
      include 'msgtypesf.h'
      integer npass, nfail
      common /tally/ npass, nfail
      integer probe
      external probe
      integer me, nn, next, prev, lenmes, from, ival, jval, i
      character*200 dir
      character*256 fname
      npass = 0
      nfail = 0
      call pbeginf()
      me = nodeid()
      nn = nnodes()
      next = mod(me + 1, nn)
      prev = mod(me + nn - 1, nn)
      call getarg(1, dir)
C     asynchronous ring of one integer
      jval = -1
      call rcv(9 + msgint, jval, mitob(1), lenmes, prev, from, 0)
      ival = 1000 + me
      call snd(9 + msgint, ival, mitob(1), next, 0)
      call waitcom(-1)
      call ok(jval .eq. 1000 + prev, 'async ring value')
C     probe: node 0 sends to itself
      if (me .eq. 0) then
         call ok(probe(12, -1) .eq. 0, 'probe before send')
         call snd(12, ival, mitob(1), 0, 1)
         call ok(probe(12, 0) .eq. 1, 'probe after send')
         call rcv(12, jval, mitob(1), lenmes, 0, from, 1)
         call ok(jval .eq. ival .and. from .eq. 0, 'self message')
      end if
C     pfcopy: node 0 writes a file, every node gets its own copy
      if (me .eq. 0) then
         fname = trim(dir) // '/ffix_src.txt'
         open(10, file=fname, status='replace')
         do i = 1, 50
            write(10, '(a,i4)') 'line', i
         end do
         close(10)
      else
         write(fname, '(a,a,i3.3,a)') trim(dir), '/ffix_', me, '.txt'
      end if
      call synch(1)
      call pfcopy(20, 0, fname)
      if (me .ne. 0) then
         open(10, file=fname, status='old')
         do i = 1, 50
            read(10, '(4x,i4)') ival
            call ok(ival .eq. i, 'pfcopy line')
         end do
         close(10)
      end if
      call synch(2)
      print '(a,i0,a,i0,a,i0,a)', 'tcgf_fixed node ', me, ': ',
     &      npass, ' passed, ', nfail, ' failed'
      if (nfail .gt. 0) stop 1
      call pend()
      end

      include '../tally_fixed.inc'
