C     Sections, RESHAPE, PACK, UNPACK and SPREAD from a Fortran 77 node
C     program through the HPF_* entry points with integer DAD handles,
C     each against the serial result every process computes itself:
C
C       B(N:1:-2) = A(2:13)          A BLOCK, B CYCLIC
C       R = RESHAPE(A, (/4, 5/))     R (BLOCK, collapsed)
C       P = PACK(A, MOD(I,3) .EQ. 0) P CYCLIC
C       U = UNPACK(P, MASK, -1)      U CYCLIC
C       S = SPREAD(P, 2, 3)          S (BLOCK, collapsed)
C
C     with A(I) = I. Results are gathered by HPF_COPY onto collapsed
C     DADs. Prints "hpf_unstructured_f77 rank R: P passed, F failed".
      PROGRAM UNSF77
      INCLUDE 'hpf_rts.fh'
      INTEGER N, MAXW, NP3
      PARAMETER (N = 23, MAXW = 100, NP3 = 7)
      DOUBLE PRECISION WA(MAXW), WB(MAXW), WR(MAXW), WP(MAXW)
      DOUBLE PRECISION WU(MAXW), WS(MAXW)
      DOUBLE PRECISION G(N), GR(4, 5), GP(NP3), GU(N), GS(NP3, 3)
      DOUBLE PRECISION WANT
      INTEGER MK(MAXW)
      INTEGER GRID, ME, IERR, I, J, L, NBAD, IG(MAXW)
      INTEGER DA, DB, DR, DP, DU, DS, WHOLE1, WHOLE2, WHOLEP, WHOLES
      INTEGER CNT(2), ALLOC(2)
      INTEGER SLO(1), SHI(1), SST(1), DLO(1), DHI(1), DST(1)

      CALL HSTART(GRID, ME)

C     A: BLOCK, A(I) = I; B: CYCLIC; their collapsed copy.
      CALL MKDAD(GRID, N, HPF_BLOCK, DA)
      CALL MKDAD(GRID, N, HPF_CYCLIC, DB)
      CALL MKDAD(GRID, N, HPF_COLLAPSED, WHOLE1)
      CALL OWNED(DA, 1, CNT, IG)
      DO 10 L = 1, CNT(1)
         WA(L) = IG(L)
         MK(L) = 0
         IF (MOD(IG(L), 3) .EQ. 0) MK(L) = 1
 10   CONTINUE

C     B(N:1:-2) = A(2:13).
      SLO(1) = 2
      SHI(1) = 13
      SST(1) = 1
      DLO(1) = N
      DHI(1) = 1
      DST(1) = -2
      CALL HPF_COPY_SECTION(DA, WA, SLO, SHI, SST, DB, WB, DLO, DHI,
     &                      DST, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_COPY_SECTION')
      CALL HPF_COPY(DB, WB, WHOLE1, G, HPF_REAL8, IERR)
      NBAD = 0
      DO 20 I = 1, N
         WANT = 0
         IF (MOD(N - I, 2) .EQ. 0) WANT = 2 + (N - I) / 2
         IF (G(I) .NE. WANT) NBAD = NBAD + 1
 20   CONTINUE
      CALL OK(NBAD .EQ. 0, 'B(N:1:-2) = A(2:13)')
C     HI may lie outside the array, the subscripts selected may not.
      DHI(1) = 0
      CALL HPF_COPY_SECTION(DA, WA, SLO, SHI, SST, DB, WB, DLO, DHI,
     &                      DST, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'section with HI past the bounds')
      DLO(1) = N + 1
      DHI(1) = 2
      CALL HPF_COPY_SECTION(DA, WA, SLO, SHI, SST, DB, WB, DLO, DHI,
     &                      DST, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'section subscript N+1 refused')

C     R = RESHAPE(A, (/4, 5/)) on (BLOCK, collapsed).
      CALL MKDAD2(GRID, 4, 5, HPF_BLOCK, HPF_COLLAPSED, DR)
      CALL MKDAD2(GRID, 4, 5, HPF_COLLAPSED, HPF_COLLAPSED, WHOLE2)
      CALL HPF_RESHAPE(DA, WA, DR, WR, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_RESHAPE')
      CALL HPF_COPY(DR, WR, WHOLE2, GR, HPF_REAL8, IERR)
      NBAD = 0
      DO 30 J = 1, 5
         DO 30 I = 1, 4
            IF (GR(I, J) .NE. I + 4 * (J - 1)) NBAD = NBAD + 1
 30   CONTINUE
      CALL OK(NBAD .EQ. 0, 'RESHAPE(A, (/4, 5/))')

C     P = PACK(A, MOD(A, 3) .EQ. 0): 3, 6, ..., 21 on CYCLIC.
      CALL MKDAD(GRID, NP3, HPF_CYCLIC, DP)
      CALL MKDAD(GRID, NP3, HPF_COLLAPSED, WHOLEP)
      CALL HPF_PACK(DA, WA, DA, MK, DP, WP, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_PACK')
      CALL HPF_COPY(DP, WP, WHOLEP, GP, HPF_REAL8, IERR)
      NBAD = 0
      DO 40 I = 1, NP3
         IF (GP(I) .NE. 3 * I) NBAD = NBAD + 1
 40   CONTINUE
      CALL OK(NBAD .EQ. 0, 'PACK(A, MOD(A, 3) .EQ. 0)')

C     U = UNPACK(P, MASK, -1) on B's CYCLIC DAD.
      CALL HPF_DAD_LOCAL_SHAPE(DB, CNT, ALLOC, IERR)
      DO 50 L = 1, CNT(1)
         WU(L) = -1
 50   CONTINUE
      CALL HPF_UNPACK(DP, WP, DA, MK, DB, WU, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_UNPACK')
      CALL HPF_COPY(DB, WU, WHOLE1, GU, HPF_REAL8, IERR)
      NBAD = 0
      DO 60 I = 1, N
         WANT = -1
         IF (MOD(I, 3) .EQ. 0) WANT = I
         IF (GU(I) .NE. WANT) NBAD = NBAD + 1
 60   CONTINUE
      CALL OK(NBAD .EQ. 0, 'UNPACK(P, MASK, -1)')

C     S = SPREAD(P, 2, 3) on (BLOCK, collapsed).
      CALL MKDAD2(GRID, NP3, 3, HPF_BLOCK, HPF_COLLAPSED, DS)
      CALL MKDAD2(GRID, NP3, 3, HPF_COLLAPSED, HPF_COLLAPSED, WHOLES)
      CALL HPF_SPREAD(DP, WP, 2, DS, WS, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_SPREAD')
      CALL HPF_COPY(DS, WS, WHOLES, GS, HPF_REAL8, IERR)
      NBAD = 0
      DO 70 J = 1, 3
         DO 70 I = 1, NP3
            IF (GS(I, J) .NE. 3 * I) NBAD = NBAD + 1
 70   CONTINUE
      CALL OK(NBAD .EQ. 0, 'SPREAD(P, 2, 3)')
      CALL HPF_SPREAD(DP, WP, 4, DS, WS, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'SPREAD DIM 4 refused')

      CALL HDONE('hpf_unstructured_f77', ME)
      END

      include 'hpf_node_fixed.inc'
      include '../tally_fixed.inc'
