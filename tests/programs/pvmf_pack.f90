! pvmfpack / pvmfunpack of every Fortran data type (STRING, BYTE1,
! INTEGER2, INTEGER4, REAL4, COMPLEX8, REAL8, COMPLEX16, INTEGER8), with
! strides, in each encoding (default, raw, in place), between two ranks;
! then pvmfpsend / pvmfprecv of REAL8, COMPLEX16 and INTEGER8 arrays.
! Like legacy PVM codes, it passes arrays of several types to the same
! routine, which gfortran >= 10 accepts with -fallow-argument-mismatch.
! Ends with 'pvmf_pack rank R: N passed, M failed'.
program pvmf_pack
  implicit none
  include 'fpvm3.h'
  integer npass, nfail
  common /tally/ npass, nfail
  integer mytid, ntids, me, peer, i, info, bufid, enc, encs(3), k
  integer tids(0:1), atid, atag, alen
  character(len=12) s, rs
  character(len=6) rs6
  integer(kind=1) by(8), rby(8)
  integer(kind=2) h(6), rh(6)
  integer(kind=4) iv(4), riv(4)
  real(kind=4) r(5), rr(5)
  complex(kind=4) c(3), rc(3)
  real(kind=8) d(5), dpeer(5), rd(10)
  complex(kind=8) z(2), rz(2)
  integer(kind=8) l(3), rl(3), big(2), rbig(2)

  npass = 0
  nfail = 0
  encs = (/ PVMDEFAULT, PVMRAW, PVMINPLACE /)
  call pvmfmytid(mytid)
  call pvmfsiblings(ntids, 0, tids(0))
  call pvmfsiblings(ntids, 1, tids(1))
  call ok(ntids == 2, 'two ranks')
  me = 0
  if (tids(1) == mytid) me = 1
  peer = 1 - me

  s = 'hello, world'
  by = (/ -127_1 - 1_1, -1_1, 0_1, 1_1, 2_1, 3_1, 100_1, 127_1 /)
  h = (/ -32767_2 - 1_2, -1_2, 0_2, 1_2, 12345_2, 32767_2 /)
  iv = (/ -2147483647 - 1, -1, 0, 2147483647 /)
  r = (/ 1.5, -2.25, 0.0, 3.0e30, -1.0e-30 /)
  c = (/ (1.0, 2.0), (-3.5, 4.25), (0.0, -1.0) /)
  call fill(d, me)
  call fill(dpeer, peer)
  z = (/ (1d0, -1d0), (2.5d100, -7d-100) /)
  ! The default (XDR) encoding carries 32-bit longs, as PVM's does.
  l = (/ 2147483647_8, -2147483647_8 - 1_8, 123456789_8 /)
  big = (/ huge(0_8), -huge(0_8) - 1_8 /)

  do k = 1, 3
    enc = encs(k)
    call pvmfinitsend(enc, bufid)
    call ok(bufid > 0, 'pvmfinitsend')
    call pvmfpack(STRING, s, 12, 1, info)
    call ok(info == PvmOk, 'pack STRING')
    call pvmfpack(STRING, s, 6, 2, info)
    call ok(info == PvmOk, 'pack STRING stride 2')
    call pvmfpack(BYTE1, by, 4, 2, info)
    call ok(info == PvmOk, 'pack BYTE1 stride 2')
    call pvmfpack(INTEGER2, h, 6, 1, info)
    call ok(info == PvmOk, 'pack INTEGER2')
    call pvmfpack(INTEGER4, iv, 2, 3, info)
    call ok(info == PvmOk, 'pack INTEGER4 stride 3')
    call pvmfpack(REAL4, r, 5, 1, info)
    call ok(info == PvmOk, 'pack REAL4')
    call pvmfpack(COMPLEX8, c, 2, 2, info)
    call ok(info == PvmOk, 'pack COMPLEX8 stride 2')
    call pvmfpack(REAL8, d, 5, 1, info)
    call ok(info == PvmOk, 'pack REAL8')
    call pvmfpack(COMPLEX16, z, 2, 1, info)
    call ok(info == PvmOk, 'pack COMPLEX16')
    call pvmfpack(INTEGER8, l, 3, 1, info)
    call ok(info == PvmOk, 'pack INTEGER8')
    call pvmfsend(tids(peer), 100 + enc, info)
    call ok(info == PvmOk, 'send')

    call pvmfrecv(tids(peer), 100 + enc, bufid)
    call ok(bufid > 0, 'recv')
    rs = ' '
    call pvmfunpack(STRING, rs, 12, 1, info)
    call ok(info == PvmOk .and. rs == 'hello, world', 'unpack STRING')
    rs = '............'
    call pvmfunpack(STRING, rs, 6, 2, info)
    call ok(info == PvmOk .and. rs == 'h.l.o. .o.l.', 'unpack STRING stride 2')
    rby = 9
    call pvmfunpack(BYTE1, rby, 4, 1, info)
    call ok(info == PvmOk .and. rby(1) == -128 .and. rby(2) == 0 .and. &
            rby(3) == 2 .and. rby(4) == 100 .and. rby(5) == 9, 'unpack BYTE1')
    rh = 0
    call pvmfunpack(INTEGER2, rh, 6, 1, info)
    call ok(info == PvmOk .and. all(rh == h), 'unpack INTEGER2')
    riv = 7
    call pvmfunpack(INTEGER4, riv, 2, 1, info)
    call ok(info == PvmOk .and. riv(1) == iv(1) .and. riv(2) == iv(4) &
            .and. riv(3) == 7, 'unpack INTEGER4')
    rr = 0
    call pvmfunpack(REAL4, rr, 5, 1, info)
    call ok(info == PvmOk .and. all(rr == r), 'unpack REAL4')
    rc = (0.0, 0.0)
    call pvmfunpack(COMPLEX8, rc, 2, 1, info)
    call ok(info == PvmOk .and. rc(1) == c(1) .and. rc(2) == c(3), &
            'unpack COMPLEX8')
    rd = -5d0
    call pvmfunpack(REAL8, rd, 5, 2, info)
    call ok(info == PvmOk, 'unpack REAL8 stride 2')
    do i = 1, 5
      call ok(rd(2 * i - 1) == dpeer(i), 'REAL8 value')
      call ok(rd(2 * i) == -5d0, 'REAL8 gap untouched')
    end do
    rz = (0d0, 0d0)
    call pvmfunpack(COMPLEX16, rz, 2, 1, info)
    call ok(info == PvmOk .and. all(rz == z), 'unpack COMPLEX16')
    rl = 0
    call pvmfunpack(INTEGER8, rl, 3, 1, info)
    call ok(info == PvmOk .and. all(rl == l), 'unpack INTEGER8')
    call pvmfsetopt(PVMAUTOERR, 0, i)
    call pvmfunpack(INTEGER8, rl, 1, 1, info)
    call ok(info == PvmNoData, 'nothing left')
    call pvmfsetopt(PVMAUTOERR, 1, i)
  end do

  ! INTEGER8 beyond 32 bits: in full with PVMRAW, PvmOverflow with XDR.
  call pvmfinitsend(PVMRAW, bufid)
  call pvmfpack(INTEGER8, big, 2, 1, info)
  call ok(info == PvmOk, 'pack 64-bit INTEGER8 raw')
  call pvmfsend(tids(peer), 110, info)
  call pvmfrecv(tids(peer), 110, bufid)
  rbig = 0
  call pvmfunpack(INTEGER8, rbig, 2, 1, info)
  call ok(info == PvmOk .and. all(rbig == big), 'unpack 64-bit INTEGER8 raw')
  call pvmfsetopt(PVMAUTOERR, 0, i)
  call pvmfinitsend(PVMDEFAULT, bufid)
  call pvmfpack(INTEGER8, big, 1, 1, info)
  call ok(info == PvmOverflow, 'XDR INTEGER8 beyond 32 bits')
  call pvmfsetopt(PVMAUTOERR, 1, i)

  ! A STRING of a CHARACTER*6 actual: nitem, not the hidden length, counts.
  call pvmfinitsend(PVMDEFAULT, bufid)
  rs6 = 'abcdef'
  call pvmfpack(STRING, rs6, 3, 1, info)
  call pvmfsend(tids(peer), 120, info)
  call pvmfrecv(tids(peer), 120, bufid)
  call pvmfbufinfo(bufid, alen, atag, atid, info)
  call ok(info == PvmOk .and. atid == tids(peer), 'bufinfo of the STRING message')
  rs6 = '------'
  call pvmfunpack(STRING, rs6, 3, 1, info)
  call ok(info == PvmOk .and. rs6 == 'abc---', 'STRING of 3 characters')

  ! psend / precv of REAL8, COMPLEX16 and INTEGER8.
  call pvmfpsend(tids(peer), 130, d, 5, REAL8, info)
  call ok(info == PvmOk, 'psend REAL8')
  rd = 0
  call pvmfprecv(tids(peer), 130, rd, 10, REAL8, atid, atag, alen, info)
  call ok(info == PvmOk .and. atid == tids(peer) .and. atag == 130, 'precv REAL8')
  call ok(alen == 40, 'precv REAL8 length')
  do i = 1, 5
    call ok(rd(i) == dpeer(i), 'precv REAL8 value')
  end do
  call pvmfpsend(tids(peer), 131, z, 2, COMPLEX16, info)
  rz = (0d0, 0d0)
  call pvmfprecv(tids(peer), 131, rz, 2, COMPLEX16, atid, atag, alen, info)
  call ok(info == PvmOk .and. alen == 32 .and. all(rz == z), 'precv COMPLEX16')
  call pvmfpsend(tids(peer), 132, l, 3, INTEGER8, info)
  rl = 0
  call pvmfprecv(tids(peer), 132, rl, 3, INTEGER8, atid, atag, alen, info)
  call ok(info == PvmOk .and. alen == 24 .and. all(rl == l), 'precv INTEGER8')

  ! Both are done before either leaves.
  call pvmfinitsend(PVMDEFAULT, bufid)
  call pvmfsend(tids(peer), 140, info)
  call pvmfrecv(tids(peer), 140, bufid)
  call pvmf_finish('pvmf_pack rank', me)
end program pvmf_pack

subroutine fill(d, who)
  implicit none
  real(kind=8) d(5)
  integer who
  d = (/ 3.141592653589793d0, -2.718281828459045d0, 1d300, -1d-300, 0d0 /)
  d(1) = d(1) + who
  d(2) = d(2) - who
end subroutine fill

include 'pvmf_tally.inc'
