c     Spawned by pvmf_spawn: checks its parent and siblings, gets the
c     list of all children from the parent, answers with its tid, its
c     parent, its sibling count and its index among the siblings.
c     Ends with 'pvmf_child: N passed, M failed'.
      program pvmfchild
      implicit none
      include 'fpvm3.h'
      integer npass, nfail
      common /tally/ npass, nfail
      integer mytid, ptid, nsib, idx, i, t, info, bufid, n
      integer all(8), reply(4), sv(1)
      logical found

      npass = 0
      nfail = 0
      call pvmfmytid(mytid)
      call ok(mytid .gt. 0, 'child tid')
      call pvmfparent(ptid)
      call ok(ptid .gt. 0 .and. ptid .ne. mytid, 'child has a parent')
      call pvmfsiblings(nsib, -1, t)
      call ok(nsib .ge. 1, 'siblings counted')
      idx = -1
      do 10 i = 0, nsib - 1
         call pvmfsiblings(nsib, i, t)
         if (t .eq. mytid) idx = i
   10 continue
      call ok(idx .ge. 0, 'own index among the siblings')

      call pvmfrecv(ptid, 1, bufid)
      call ok(bufid .gt. 0, 'list from the parent')
      call pvmfunpack(INTEGER4, sv, 1, 1, info)
      n = sv(1)
      call pvmfunpack(INTEGER4, all, n, 1, info)
      found = .false.
      do 20 i = 1, n
         if (all(i) .eq. mytid) found = .true.
   20 continue
      call ok(found, 'own tid in the parent''s list')

      reply(1) = mytid
      reply(2) = ptid
      reply(3) = nsib
      reply(4) = idx
      call pvmfinitsend(PVMDEFAULT, bufid)
      call pvmfpack(INTEGER4, reply, 4, 1, info)
      call pvmfsend(ptid, 2, info)
      call ok(info .eq. PvmOk, 'answer sent')

      call pvmfin('pvmf_child')
      end

      include 'tally_fixed.inc'
      include 'pvmf_finish_fixed.inc'
