c     PVM's fault notices from Fortran: the parent spawns three copies of
c     this program. By its place among its siblings the first kills
c     itself with SIGKILL, the second calls abort, the third stops
c     without pvmfexit; each first tells the parent it is about to go.
c     The parent asked for their exits with pvmfnotify; it checks one
c     notice per child, each within 2 s of the child's last word, that
c     pvmfpstat then says PvmNoTask, and that it ends well itself.
c     Ends with 'pvmf_fault: N passed, M failed'.
      program pvmffault
      implicit none
      include 'fpvm3.h'
      integer npass, nfail
      common /tally/ npass, nfail
      integer mytid, ptid, nsib, idx, i, j, k, t, info, bufid, numt
      integer tids(3), sv(1), bytes, tag, src, st, nword, nnote
      integer*8 count, rate, tword(3)
      logical seen(3)

      npass = 0
      nfail = 0
      call pvmfmytid(mytid)
      call pvmfparent(ptid)
      if (ptid .gt. 0) then
c        A child: its place among the siblings says how it ends.
         idx = -1
         nsib = 0
         call pvmfsiblings(nsib, -1, t)
         do 10 i = 0, nsib - 1
            call pvmfsiblings(nsib, i, t)
            if (t .eq. mytid) idx = i
   10    continue
         sv(1) = idx
         call pvmfinitsend(PVMDEFAULT, bufid)
         call pvmfpack(INTEGER4, sv, 1, 1, info)
         call pvmfsend(ptid, 3, info)
c        The process goes once the parent has its word.
         call pvmfrecv(ptid, 4, bufid)
         if (idx .eq. 0) call kill(getpid(), 9)
         if (idx .eq. 1) call abort()
         stop
      end if

      call system_clock(count, rate)
      do 20 j = 1, 3
         tids(j) = 0
         tword(j) = 0
         seen(j) = .false.
   20 continue
      numt = 0
      call pvmfspawn('pvmf_fault', PVMDEFAULT, '*', 3, tids, numt)
      call ok(numt .eq. 3, 'three children')
      call pvmfnotify(PVMTASKEXIT, 99, 3, tids, info)
      call ok(info .eq. PvmOk, 'pvmfnotify')
      nword = 0
      nnote = 0
      do 30 k = 1, 30
         if (nword .eq. 3 .and. nnote .eq. 3) goto 40
         bufid = 0
         call pvmftrecv(-1, -1, 1, 0, bufid)
         if (bufid .le. 0) goto 30
         bytes = 0
         tag = 0
         src = 0
         call pvmfbufinfo(bufid, bytes, tag, src, info)
         sv(1) = -1
         call pvmfunpack(INTEGER4, sv, 1, 1, info)
         call system_clock(count, rate)
         if (tag .eq. 3) then
            nword = nword + 1
            call pvmfinitsend(PVMDEFAULT, bufid)
            call pvmfsend(src, 4, info)
            if (sv(1) .ge. 0 .and. sv(1) .le. 2) then
               tword(sv(1) + 1) = count
            end if
         else if (tag .eq. 99) then
            nnote = nnote + 1
            j = 0
            do 25 i = 1, 3
               if (tids(i) .eq. sv(1)) j = i
   25       continue
            call ok(j .gt. 0, 'notice names a child')
            if (j .gt. 0) then
               call ok(.not. seen(j), 'one notice per child')
               seen(j) = .true.
               call ok(tword(j) .gt. 0, 'notice after the last word')
               call ok(dble(count - tword(j)) / dble(rate) .lt. 2d0,
     &                 'notice within 2 s of the last word')
            end if
         end if
   30 continue
   40 continue
      call ok(nword .eq. 3, 'every child said it goes')
      call ok(nnote .eq. 3, 'a notice for every child')
      do 50 j = 1, 3
         st = 0
         call pvmfpstat(tids(j), st)
         call ok(st .eq. PvmNoTask, 'a dead child has no status')
   50 continue
      call pvmfin('pvmf_fault')
      end

      include 'tally_fixed.inc'
      include 'pvmf_finish_fixed.inc'
