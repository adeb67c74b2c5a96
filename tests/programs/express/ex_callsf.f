C     Golden test of the Express Fortran API (KX... routines), fixed
C     form, default INTEGER:
C
C         mpiexec -n N ex_callsf [collectives]
C
C     Each section checks one routine against values computed here and
C     prints "ex_callsf node K call NAME: ok" when it passed; at the end
C     "ex_callsf node K: P passed, F failed". With "collectives" only
C     KXPARA, KXSYNC, KXBROD, KXCOMB and KXCONC run.
      PROGRAM EXCALF
      INCLUDE 'express.fh'
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      INTEGER ENV(4), RC, I
      CHARACTER*16 ARG
      LOGICAL COLL
      NPASS = 0
      NFAIL = 0
      SECF = 0
      COLL = .FALSE.
      IF (COMMAND_ARGUMENT_COUNT() .GE. 1) THEN
         CALL GET_COMMAND_ARGUMENT(1, ARG)
         COLL = ARG .EQ. 'collectives'
      END IF
      DO 10 I = 1, 4
         ENV(I) = -77
   10 CONTINUE
      RC = KXPARA(ENV)
      CALL CHKEQ(RC, 0, 'KXPARA rc')
      ME = ENV(1)
      N = ENV(2)
      CALL CHKEQ(ENV(3), EXNOHOST, 'KXPARA host')
      CALL CHK(ENV(4) .GT. 0, 'KXPARA taskid')
      CALL CHK(ME .GE. 0 .AND. ME .LT. N, 'KXPARA procnum')
      CALL CHKEQ(DONTCARE, -1, 'DONTCARE')
      CALL CHKEQ(ALLNODES, 0, 'ALLNODES')
      CALL CHKEQ(EXNONODE, -100, 'EXNONODE')
      CALL CHKEQ(EXTOOLONG, -5, 'EXTOOLONG')
      CALL CHKEQ(EXINTERNAL, -13, 'EXINTERNAL')
      CALL SECT('KXPARA')
      IF (.NOT. COLL) THEN
         CALL TP2P
         CALL TASYNC
         CALL TCHAN
         CALL TVEC
      END IF
      CALL TSYNC
      CALL TBROD
      CALL TCOMB
      CALL TCONC
      IF (.NOT. COLL) THEN
         CALL THAND
         CALL TGRID
      END IF
      RC = KXSYNC()
      WRITE (*, '(A,I0,A,I0,A,I0,A)') 'ex_callsf node ', ME, ': ',
     &   NPASS, ' passed, ', NFAIL, ' failed'
      END

      SUBROUTINE CHK(COND, WHAT)
      LOGICAL COND
      CHARACTER*(*) WHAT
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      IF (COND) THEN
         NPASS = NPASS + 1
      ELSE
         NFAIL = NFAIL + 1
         WRITE (0, '(A,I0,A,A)') 'FAILED node ', ME, ': ', WHAT
      END IF
      END

      SUBROUTINE CHKEQ(GOT, WANT, WHAT)
      INTEGER GOT, WANT
      CHARACTER*(*) WHAT
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      IF (GOT .EQ. WANT) THEN
         NPASS = NPASS + 1
      ELSE
         NFAIL = NFAIL + 1
         WRITE (0, '(A,I0,A,A,A,I0,A,I0)') 'FAILED node ', ME, ': ',
     &      WHAT, ': ', GOT, ' /= ', WANT
      END IF
      END

      SUBROUTINE SECT(NAME)
      CHARACTER*(*) NAME
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      IF (NFAIL .EQ. SECF) THEN
         WRITE (*, '(A,I0,A,A,A)') 'ex_callsf node ', ME, ' call ',
     &      NAME, ': ok'
      END IF
      SECF = NFAIL
      END

      INTEGER FUNCTION NEXTN()
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      NEXTN = MOD(ME + 1, N)
      END

      INTEGER FUNCTION PREVN()
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      PREVN = MOD(ME + N - 1, N)
      END

C     KXWRIT / KXREAD / KXTEST: a ring with wildcards, order, EXTOOLONG.
      SUBROUTINE TP2P
      INCLUDE 'express.fh'
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      INTEGER NEXTN, PREVN
      EXTERNAL NEXTN, PREVN
      INTEGER OUT(3), IN(3), DEST, TYPE, SRC, T, RC, I, V
      INTEGER BIG(4), SMALL(2)
      OUT(1) = ME
      OUT(2) = ME * ME
      OUT(3) = -ME
      DEST = NEXTN()
      TYPE = 100 + ME
      CALL CHKEQ(KXWRIT(OUT, 12, DEST, TYPE), 12, 'KXWRIT')
      SRC = DONTCARE
      T = DONTCARE
      CALL CHKEQ(KXREAD(IN, 12, SRC, T), 12, 'KXREAD')
      CALL CHKEQ(SRC, PREVN(), 'KXREAD source written back')
      CALL CHKEQ(T, 100 + PREVN(), 'KXREAD type written back')
      CALL CHKEQ(IN(2), PREVN() * PREVN(), 'KXREAD data')
      DO 20 I = 1, 10
         V = I * 3 + ME
         TYPE = 11
         RC = KXWRIT(V, 4, DEST, TYPE)
   20 CONTINUE
      DO 30 I = 1, 10
         SRC = PREVN()
         T = 11
         RC = KXREAD(V, 4, SRC, T)
         CALL CHKEQ(V, I * 3 + PREVN(), 'FIFO order')
   30 CONTINUE
      CALL SECT('KXREAD/KXWRIT')
      DO 40 I = 1, 4
         BIG(I) = 1000 + I
   40 CONTINUE
      TYPE = 7
      RC = KXWRIT(BIG, 16, DEST, TYPE)
      SRC = DONTCARE
      T = DONTCARE
      CALL CHKEQ(KXREAD(SMALL, 8, SRC, T), EXTOOLONG, 'EXTOOLONG')
      CALL CHKEQ(T, 7, 'EXTOOLONG type')
      SRC = DONTCARE
      T = 7
      CALL CHKEQ(KXTEST(SRC, T), 16, 'KXTEST length')
      CALL CHKEQ(SRC, PREVN(), 'KXTEST source')
      CALL CHKEQ(KXREAD(BIG, 16, SRC, T), 16, 'KXREAD after KXTEST')
      CALL CHKEQ(BIG(4), 1004, 'kept message whole')
      SRC = DONTCARE
      T = 999
      CALL CHKEQ(KXTEST(SRC, T), EXNOMSG, 'KXTEST nothing')
      SRC = N + 1
      CALL CHKEQ(KXREAD(V, 4, SRC, T), EXBADNODE, 'bad node')
      CALL CHKEQ(KXWRIT(V, -4, DEST, T), EXBADLEN, 'negative length')
      CALL SECT('KXTEST')
      END

C     KXSEND / KXRECV / KXMTST / KXWAIT.
      SUBROUTINE TASYNC
      INCLUDE 'express.fh'
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      INTEGER NEXTN, PREVN
      EXTERNAL NEXTN, PREVN
      DOUBLE PRECISION DIN(3), DOUT(3)
      INTEGER SRC, T, DEST, TYPE, RID, SID
      DOUT(1) = ME
      DOUT(2) = ME + 0.5D0
      DOUT(3) = -ME
      SRC = DONTCARE
      T = 50
      RID = KXRECV(DIN, 24, SRC, T)
      CALL CHK(RID .GT. 0, 'KXRECV id')
      DEST = NEXTN()
      TYPE = 50
      SID = KXSEND(DOUT, 24, DEST, TYPE)
      CALL CHK(SID .GT. 0 .AND. SID .NE. RID, 'KXSEND id')
      CALL CHKEQ(KXMTST(SID), 1, 'KXMTST send')
      CALL CHKEQ(KXWAIT(SID), 24, 'KXWAIT send')
      CALL CHKEQ(KXWAIT(RID), 24, 'KXWAIT receive')
      CALL CHKEQ(SRC, PREVN(), 'KXRECV source')
      CALL CHK(DIN(2) .EQ. PREVN() + 0.5D0, 'KXRECV data')
      CALL CHKEQ(KXWAIT(RID), EXBADID, 'KXWAIT released id')
      CALL SECT('KXSEND/KXRECV/KXMTST/KXWAIT')
      END

C     KXCHAN.
      SUBROUTINE TCHAN
      INCLUDE 'express.fh'
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      INTEGER NEXTN, PREVN
      EXTERNAL NEXTN, PREVN
      INTEGER IN(5), OUT(5), SRC, ST, DEST, DT, I
      DO 10 I = 1, 5
         OUT(I) = 10 * ME + I
   10 CONTINUE
      SRC = PREVN()
      ST = 60
      DEST = NEXTN()
      DT = 60
      CALL CHKEQ(KXCHAN(IN, 20, SRC, ST, OUT, 20, DEST, DT), 20,
     &   'KXCHAN')
      DO 20 I = 1, 5
         CALL CHKEQ(IN(I), 10 * PREVN() + I, 'KXCHAN data')
   20 CONTINUE
      CALL SECT('KXCHAN')
      END

C     KXVWRI / KXVREA: row 2 of a 4x5 matrix (stride 16 bytes in
C     column-major storage) into column 3 of a 3x4 one... as items.
      SUBROUTINE TVEC
      INCLUDE 'express.fh'
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      INTEGER NEXTN, PREVN
      EXTERNAL NEXTN, PREVN
      INTEGER A(4, 5), B(2, 5), I, J, DEST, T, SRC
      DO 10 J = 1, 5
         DO 10 I = 1, 4
            A(I, J) = 100 * ME + 10 * I + J
   10 CONTINUE
      DO 20 J = 1, 5
         B(1, J) = 0
         B(2, J) = 0
   20 CONTINUE
      DEST = NEXTN()
      T = 70
      CALL CHKEQ(KXVWRI(A(2, 1), 4, 5, 16, DEST, T), 20, 'KXVWRI')
      SRC = DONTCARE
      CALL CHKEQ(KXVREA(B(2, 1), 4, 5, 8, SRC, T), 20, 'KXVREA')
      DO 30 J = 1, 5
         CALL CHKEQ(B(2, J), 100 * PREVN() + 20 + J, 'KXVREA item')
         CALL CHKEQ(B(1, J), 0, 'KXVREA gap')
   30 CONTINUE
      CALL SECT('KXVREA/KXVWRI')
      END

      SUBROUTINE TSYNC
      INCLUDE 'express.fh'
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      INTEGER I
      DO 10 I = 1, 3
         CALL CHKEQ(KXSYNC(), 0, 'KXSYNC')
   10 CONTINUE
      CALL SECT('KXSYNC')
      END

      SUBROUTINE TBROD
      INCLUDE 'express.fh'
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      INTEGER BUF(10), I, LIST(2), NL, V, RC, DUMMY(1)
      DO 10 I = 1, 10
         BUF(I) = 0
         IF (ME .EQ. N - 1) BUF(I) = I * 3
   10 CONTINUE
      CALL CHKEQ(KXBROD(BUF, 40, N - 1, ALLNODES, DUMMY, 0), 40,
     &   'KXBROD')
      CALL CHKEQ(BUF(10), 30, 'KXBROD data')
      LIST(1) = N - 1
      LIST(2) = 0
      NL = 2
      IF (N .EQ. 1) NL = 1
      V = -1
      IF (ME .EQ. 0) V = 777
      RC = KXBROD(V, 4, 0, NL, LIST, 0)
      IF (ME .EQ. 0 .OR. ME .EQ. N - 1) THEN
         CALL CHKEQ(RC, 4, 'KXBROD list')
         CALL CHKEQ(V, 777, 'KXBROD list value')
      ELSE
         CALL CHKEQ(RC, EXNOTMEMBER, 'KXBROD outside list')
      END IF
      CALL SECT('KXBROD')
      END

C     A = A * 10 + B: not commutative.
      INTEGER FUNCTION DIGITS(A, B, SIZE)
      INTEGER A, B, SIZE
      A = A * 10 + B
      DIGITS = 0
      END

      SUBROUTINE TCOMB
      INCLUDE 'express.fh'
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      INTEGER DIGITS
      EXTERNAL DIGITS
      INTEGER IV(3), DUMMY(1), K, W, DG(2), WANT1, WANT2
      DOUBLE PRECISION DV(2), DS
      REAL FS
      INTEGER*8 LV
      LOGICAL LA, LO
      IV(1) = ME + 1
      IV(2) = 2 * ME
      IV(3) = 1
      CALL CHKEQ(KXCOMB(IV, KXISUM, 4, 3, ALLNODES, DUMMY, 0), 0,
     &   'KXCOMB KXISUM')
      CALL CHKEQ(IV(1), N * (N + 1) / 2, 'KXISUM 1')
      CALL CHKEQ(IV(2), N * (N - 1), 'KXISUM 2')
      CALL CHKEQ(IV(3), N, 'KXISUM 3')
      W = ME + 5
      CALL CHKEQ(KXCOMB(W, KXIMIN, 4, 1, ALLNODES, DUMMY, 0), 0,
     &   'KXIMIN')
      CALL CHKEQ(W, 5, 'KXIMIN value')
      DV(1) = ME * 0.5D0
      DV(2) = -ME
      CALL CHKEQ(KXCOMB(DV, KXDMAX, 8, 2, ALLNODES, DUMMY, 0), 0,
     &   'KXDMAX')
      CALL CHK(DV(1) .EQ. (N - 1) * 0.5D0 .AND. DV(2) .EQ. 0D0,
     &   'KXDMAX value')
      DS = 0.25D0
      CALL CHKEQ(KXCOMB(DS, KXDSUM, 8, 1, ALLNODES, DUMMY, 0), 0,
     &   'KXDSUM')
      CALL CHK(DS .EQ. 0.25D0 * N, 'KXDSUM value')
      FS = 1.5
      CALL CHKEQ(KXCOMB(FS, KXFSUM, 4, 1, ALLNODES, DUMMY, 0), 0,
     &   'KXFSUM')
      CALL CHK(FS .EQ. 1.5 * N, 'KXFSUM value')
      LV = ME
      LV = LV * 2**20 * 2**13
      CALL CHKEQ(KXCOMB(LV, KXLSUM, 8, 1, ALLNODES, DUMMY, 0), 0,
     &   'KXLSUM')
      CALL CHK(LV .EQ. INT(N * (N - 1) / 2, 8) * 2**20 * 2**13,
     &   'KXLSUM value')
      LA = .TRUE.
      LO = ME .EQ. N - 1
      CALL CHKEQ(KXCOMB(LA, KXLAND, 4, 1, ALLNODES, DUMMY, 0), 0,
     &   'KXLAND')
      CALL CHKEQ(KXCOMB(LO, KXLOR, 4, 1, ALLNODES, DUMMY, 0), 0,
     &   'KXLOR')
      CALL CHK(LA .AND. LO, 'KXLAND/KXLOR value')
      DG(1) = ME
      DG(2) = 9 - ME
      CALL CHKEQ(KXCOMB(DG, DIGITS, 4, 2, ALLNODES, DUMMY, 0), 0,
     &   'KXCOMB user function')
      WANT1 = 0
      WANT2 = 9
      DO 10 K = 1, N - 1
         WANT1 = WANT1 * 10 + K
         WANT2 = WANT2 * 10 + 9 - K
   10 CONTINUE
      CALL CHKEQ(DG(1), WANT1, 'user function, node order')
      CALL CHKEQ(DG(2), WANT2, 'user function, node order 2')
      CALL CHKEQ(KXCOMB(DS, KXDSUM, 4, 1, ALLNODES, DUMMY, 0),
     &   EXBADFUNC, 'KXDSUM on 4-byte items')
      CALL SECT('KXCOMB')
      END

      SUBROUTINE TCONC
      INCLUDE 'express.fh'
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      INTEGER IN(16), OUT(200), DUMMY(1), I, K, POS, TOTAL
      DO 10 I = 1, ME + 1
         IN(I) = 100 * ME + I
   10 CONTINUE
      TOTAL = N * (N + 1) / 2
      CALL CHKEQ(KXCONC(IN, 4 * (ME + 1), OUT, 800, ALLNODES, DUMMY,
     &   0), 4 * TOTAL, 'KXCONC')
      POS = 0
      DO 20 K = 0, N - 1
         DO 20 I = 1, K + 1
            POS = POS + 1
            CALL CHKEQ(OUT(POS), 100 * K + I, 'KXCONC node order')
   20 CONTINUE
      CALL SECT('KXCONC')
      END

      SUBROUTINE ONMSG(BUF, LEN, SRC, TYPE)
      INTEGER BUF(*), LEN, SRC, TYPE
      INTEGER HCOUNT, HSRC, HTYPE, HVAL
      COMMON /HSTATE/ HCOUNT, HSRC, HTYPE, HVAL
      HCOUNT = HCOUNT + 1
      HSRC = SRC
      HTYPE = TYPE
      IF (LEN .EQ. 4) HVAL = BUF(1)
      END

      SUBROUTINE THAND
      INCLUDE 'express.fh'
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      INTEGER HCOUNT, HSRC, HTYPE, HVAL
      COMMON /HSTATE/ HCOUNT, HSRC, HTYPE, HVAL
      INTEGER NEXTN, PREVN
      EXTERNAL NEXTN, PREVN, ONMSG
      INTEGER V, DEST, T, SRC, TRIES, RC
      HCOUNT = 0
      CALL CHKEQ(KXHAND(ONMSG, DONTCARE, 300), 0, 'KXHAND')
      V = 31 + ME
      DEST = NEXTN()
      T = 300
      RC = KXWRIT(V, 4, DEST, T)
      TRIES = 0
   10 IF (HCOUNT .EQ. 0 .AND. TRIES .LT. 2000000) THEN
         SRC = DONTCARE
         T = 300
         CALL CHKEQ(KXTEST(SRC, T), EXNOMSG, 'handler takes it first')
         TRIES = TRIES + 1
         GO TO 10
      END IF
      CALL CHKEQ(HCOUNT, 1, 'handler ran')
      CALL CHKEQ(HSRC, PREVN(), 'handler source')
      CALL CHKEQ(HTYPE, 300, 'handler type')
      CALL CHKEQ(HVAL, 31 + PREVN(), 'handler data')
      CALL SECT('KXHAND')
      END

      SUBROUTINE TGRID
      INCLUDE 'express.fh'
      INTEGER ME, N, NPASS, NFAIL, SECF
      COMMON /TALLY/ ME, N, NPASS, NFAIL, SECF
      INTEGER D12(2), DIMS(2), PER(2), G, C(2), SRC, DEST, ROWS
      INTEGER REMAIN(2), RD(1), RC1(1)
      D12(1) = 0
      D12(2) = 0
      CALL CHKEQ(KXGSIZ(12, 2, D12), 0, 'KXGSIZ')
      CALL CHK(D12(1) .EQ. 4 .AND. D12(2) .EQ. 3, 'KXGSIZ 4x3')
      DIMS(1) = 0
      DIMS(2) = 0
      PER(1) = 0
      PER(2) = 0
      G = KXGINI(2, DIMS, PER)
      CALL CHKEQ(G, 0, 'KXGINI id')
      CALL CHKEQ(DIMS(1) * DIMS(2), N, 'KXGINI size')
      CALL CHKEQ(KXGCRD(G, ME, C), 0, 'KXGCRD')
      CALL CHKEQ(C(1), ME / DIMS(2), 'KXGCRD row')
      CALL CHKEQ(C(2), MOD(ME, DIMS(2)), 'KXGCRD column')
      CALL CHKEQ(KXGNOD(G, C), ME, 'KXGNOD')
      CALL CHKEQ(KXGSHF(G, 1, 1, SRC, DEST), 0, 'KXGSHF')
      IF (C(2) + 1 .LT. DIMS(2)) THEN
         CALL CHKEQ(DEST, ME + 1, 'KXGSHF dest')
      ELSE
         CALL CHKEQ(DEST, EXNONODE, 'KXGSHF edge')
      END IF
      IF (C(1) .GT. 0) THEN
         CALL CHKEQ(KXGNBR(G, 0, -1), ME - DIMS(2), 'KXGNBR')
      ELSE
         CALL CHKEQ(KXGNBR(G, 0, -1), EXNONODE, 'KXGNBR edge')
      END IF
      REMAIN(1) = 0
      REMAIN(2) = 1
      ROWS = KXGSPL(G, REMAIN)
      CALL CHKEQ(ROWS, 1, 'KXGSPL id')
      CALL CHKEQ(KXGDIM(ROWS, RD), 1, 'KXGDIM')
      CALL CHKEQ(RD(1), DIMS(2), 'row length')
      CALL CHKEQ(KXGCRD(ROWS, ME, RC1), 0, 'KXGCRD row grid')
      CALL CHKEQ(RC1(1), C(2), 'row coordinate')
      CALL CHKEQ(KXGCRD(9, ME, RC1), EXBADGRID, 'unknown grid')
      CALL SECT('KXGRID')
      END
