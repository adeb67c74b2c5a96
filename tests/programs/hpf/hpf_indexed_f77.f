C     Gather and scatter through index arrays from a Fortran 77 node
C     program through the HPF_* entry points with integer DAD handles,
C     each against the serial result every process computes itself:
C
C       R = A(V)                 A BLOCK, V CYCLIC (repeats), R BLOCK
C       the same planned once and executed on A and then on A * 2
C       A(W) = B                 W = 2, 4, .., 18, B CYCLIC(2)
C       R2(S) = A2(V1(S), V2(S)) A2 (collapsed, BLOCK), V(MAXW, 2)
C       C = Z(V)                 COMPLEX*16 Z BLOCK, C CYCLIC
C       H(V) += 1 (SUM_SCATTER)  a histogram: INTEGER H CYCLIC, V CYCLIC
C
C     with A(I) = I * I, A2(I, J) = 100 I + J, Z(I) = (I, -2 I). Every
C     index array is a default INTEGER (HPF_INTEGER4), LDV = MAXW.
C     Results are gathered by HPF_COPY onto collapsed DADs. A subscript
C     of 0 is refused. Prints "hpf_indexed_f77 rank R: P passed, F
C     failed".
      PROGRAM IDXF77
      INCLUDE 'hpf_rts.fh'
      INTEGER N, K, M2, N2, KS, MAXW
      PARAMETER (N = 19, K = 13, M2 = 5, N2 = 8, KS = 9, MAXW = 40)
      INTEGER NH
      PARAMETER (NH = 6)
      INTEGER IH(MAXW), IONE(MAXW), GH(NH), WH(NH), DH, WHOLEH
      DOUBLE PRECISION WA(MAXW), WR(MAXW), WB(MAXW), W2(M2, MAXW)
      DOUBLE PRECISION G(N), GK(K), GS(KS)
      COMPLEX*16 WZ(MAXW), WC(MAXW), GZ(K)
      INTEGER IV(MAXW, 2), IW(MAXW)
      INTEGER GRID, ME, IERR, I, J, L, NBAD, SCHED, IG(MAXW)
      INTEGER DA, DV, DR, DW, DB, DA2, DS, DC
      INTEGER WHOLEN, WHOLEK, WHOLES
      INTEGER CNT(2), ALLOC(2)
      DOUBLE PRECISION WANT

      CALL HSTART(GRID, ME)

C     A(N) BLOCK, V(K) CYCLIC, R(K) BLOCK, and their collapsed copies.
      CALL MKDAD(GRID, N, HPF_BLOCK, DA)
      CALL MKDAD(GRID, K, HPF_CYCLIC, DV)
      CALL MKDAD(GRID, K, HPF_BLOCK, DR)
      CALL MKDAD(GRID, N, HPF_COLLAPSED, WHOLEN)
      CALL MKDAD(GRID, K, HPF_COLLAPSED, WHOLEK)
      CALL OWNED(DA, 1, CNT, IG)
      DO 10 L = 1, CNT(1)
         WA(L) = IG(L) * IG(L)
         WZ(L) = DCMPLX(DBLE(IG(L)), -2D0 * IG(L))
 10   CONTINUE
      CALL OWNED(DV, 1, CNT, IG)
      DO 15 L = 1, CNT(1)
         IV(L, 1) = 1 + MOD(7 * IG(L), N)
 15   CONTINUE

C     R = A(V).
      CALL HPF_GATHER(DA, WA, DV, IV, MAXW, HPF_INTEGER4, DR, WR,
     &                HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_GATHER')
      CALL HPF_COPY(DR, WR, WHOLEK, GK, HPF_REAL8, IERR)
      NBAD = 0
      DO 20 I = 1, K
         J = 1 + MOD(7 * I, N)
         IF (GK(I) .NE. J * J) NBAD = NBAD + 1
 20   CONTINUE
      CALL OK(NBAD .EQ. 0, 'R = A(V)')

C     Planned once, executed on A and on 2 * A.
      CALL HPF_GATHER_PLAN(DA, DV, IV, MAXW, HPF_INTEGER4, DR, SCHED,
     &                     IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_GATHER_PLAN')
      CALL HPF_DAD_LOCAL_SHAPE(DA, CNT, ALLOC, IERR)
      DO 25 L = 1, CNT(1)
         WA(L) = 2 * WA(L)
 25   CONTINUE
      CALL HPF_INDEX_EXECUTE(SCHED, WA, WR, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_INDEX_EXECUTE')
      CALL HPF_COPY(DR, WR, WHOLEK, GK, HPF_REAL8, IERR)
      NBAD = 0
      DO 30 I = 1, K
         J = 1 + MOD(7 * I, N)
         IF (GK(I) .NE. 2 * J * J) NBAD = NBAD + 1
 30   CONTINUE
      CALL OK(NBAD .EQ. 0, 'planned R = A(V) on 2 * A')
      CALL HPF_INDEX_FREE(SCHED, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_INDEX_FREE')
      CALL HPF_INDEX_EXECUTE(SCHED, WA, WR, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_EBADHANDLE, 'freed schedule refused')

C     A(W) = B, W(I) = 2 I, B(I) = -I on CYCLIC(2).
      CALL MKDAD(GRID, KS, HPF_CYCLIC, DW)
      CALL MKDAD(GRID, KS, HPF_CYCLIC_K, DB)
      CALL OWNED(DW, 1, CNT, IG)
      DO 35 L = 1, CNT(1)
         IW(L) = 2 * IG(L)
 35   CONTINUE
      CALL OWNED(DB, 1, CNT, IG)
      DO 40 L = 1, CNT(1)
         WB(L) = -IG(L)
 40   CONTINUE
      CALL HPF_SCATTER(DB, WB, DW, IW, MAXW, HPF_INTEGER4, DA, WA,
     &                 HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_SCATTER')
      CALL HPF_COPY(DA, WA, WHOLEN, G, HPF_REAL8, IERR)
      NBAD = 0
      DO 45 I = 1, N
         WANT = 2 * I * I
         IF (MOD(I, 2) .EQ. 0 .AND. I .LE. 2 * KS) WANT = -(I / 2)
         IF (G(I) .NE. WANT) NBAD = NBAD + 1
 45   CONTINUE
      CALL OK(NBAD .EQ. 0, 'A(W) = B')

C     R2(S) = A2(V1(S), V2(S)), A2 (collapsed, BLOCK), V1(S) = 1 +
C     MOD(3 S, M2), V2(S) = 1 + MOD(S * S, N2), S = 1 .. KS on CYCLIC,
C     R2 on BLOCK.
      CALL MKDAD2(GRID, M2, N2, HPF_COLLAPSED, HPF_BLOCK, DA2)
      CALL OWNED(DA2, 2, CNT, IG)
      DO 50 L = 1, CNT(2)
         DO 50 I = 1, M2
            W2(I, L) = 100 * I + IG(L)
 50   CONTINUE
      CALL MKDAD(GRID, KS, HPF_BLOCK, DS)
      CALL MKDAD(GRID, KS, HPF_COLLAPSED, WHOLES)
      CALL OWNED(DW, 1, CNT, IG)
      DO 55 L = 1, CNT(1)
         IV(L, 1) = 1 + MOD(3 * IG(L), M2)
         IV(L, 2) = 1 + MOD(IG(L) * IG(L), N2)
 55   CONTINUE
      CALL HPF_GATHER(DA2, W2, DW, IV, MAXW, HPF_INTEGER4, DS, WR,
     &                HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_GATHER rank 2')
      CALL HPF_COPY(DS, WR, WHOLES, GS, HPF_REAL8, IERR)
      NBAD = 0
      DO 60 I = 1, KS
         WANT = 100 * (1 + MOD(3 * I, M2)) + 1 + MOD(I * I, N2)
         IF (GS(I) .NE. WANT) NBAD = NBAD + 1
 60   CONTINUE
      CALL OK(NBAD .EQ. 0, 'R2(S) = A2(V1(S), V2(S))')
C     A row subscript of 0 (on every process that holds V) is refused.
      IF (CNT(1) .GT. 0) IV(1, 1) = 0
      CALL HPF_GATHER(DA2, W2, DW, IV, MAXW, HPF_INTEGER4, DS, WR,
     &                HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'subscript 0 refused')

C     C = Z(V), COMPLEX*16, C on CYCLIC (DV's DAD).
      CALL OWNED(DV, 1, CNT, IG)
      DO 65 L = 1, CNT(1)
         IV(L, 1) = N + 1 - IG(L)
 65   CONTINUE
      DC = DV
      CALL HPF_GATHER(DA, WZ, DV, IV, MAXW, HPF_INTEGER4, DC, WC,
     &                HPF_COMPLEX16, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_GATHER complex')
      CALL HPF_COPY(DC, WC, WHOLEK, GZ, HPF_COMPLEX16, IERR)
      NBAD = 0
      DO 70 I = 1, K
         J = N + 1 - I
         IF (GZ(I) .NE. DCMPLX(DBLE(J), -2D0 * J)) NBAD = NBAD + 1
 70   CONTINUE
      CALL OK(NBAD .EQ. 0, 'C = Z(V), COMPLEX*16')

C     A histogram by SUM_SCATTER: H(1 + MOD(I * I, NH)) += 1 for I = 1
C     .. K, INTEGER H on CYCLIC, the ones on DV's CYCLIC DAD.
      CALL MKDAD(GRID, NH, HPF_CYCLIC, DH)
      CALL MKDAD(GRID, NH, HPF_COLLAPSED, WHOLEH)
      CALL OWNED(DV, 1, CNT, IG)
      DO 75 L = 1, CNT(1)
         IV(L, 1) = 1 + MOD(IG(L) * IG(L), NH)
         IONE(L) = 1
 75   CONTINUE
      CALL HPF_DAD_LOCAL_SHAPE(DH, CNT, ALLOC, IERR)
      DO 76 L = 1, CNT(1)
         IH(L) = 0
 76   CONTINUE
      CALL HPF_SUM_SCATTER(DV, IONE, DV, IV, MAXW, HPF_INTEGER4, DH, IH,
     &                     HPF_INTEGER4, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_SUM_SCATTER')
      CALL HPF_COPY(DH, IH, WHOLEH, GH, HPF_INTEGER4, IERR)
      DO 80 I = 1, NH
         WH(I) = 0
 80   CONTINUE
      DO 85 I = 1, K
         J = 1 + MOD(I * I, NH)
         WH(J) = WH(J) + 1
 85   CONTINUE
      NBAD = 0
      DO 90 I = 1, NH
         IF (GH(I) .NE. WH(I)) NBAD = NBAD + 1
 90   CONTINUE
      CALL OK(NBAD .EQ. 0, 'histogram by SUM_SCATTER')

      CALL HDONE('hpf_indexed_f77', ME)
      END

      include 'hpf_node_fixed.inc'
      include '../tally_fixed.inc'
