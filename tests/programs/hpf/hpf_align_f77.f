C     Alignment to a template from a Fortran 77 node program through
C     HPF_DAD_ALIGN: the template T(1:NT) BLOCK on a 1-D grid and
C
C       A(1:8) WITH T(2*I + 2)    each owned A(I) has T(2*I + 2) here
C       SUM(A) and a copy of A to a collapsed DAD equal the serial ones
C       B(0:9) WITH T(I + 5), OLO = OHI = 1: the overlap update fills
C       the cells next to this process's run from their neighbours
C       C(1:5) WITH T(7)          stride 0: all on T(7)'s process
C       D(1:8) WITH U(-2*I + 17)  U CYCLIC(2): each owned D(I) has its
C                                 cell here, in rising order; SUM(D)
C       cells past either end of the template refused
C
C     with A(I) = D(I) = I * I and B(I) = 3 I. Prints "hpf_align_f77
C     rank R: P passed, F failed".
      PROGRAM ALNF77
      INCLUDE 'hpf_rts.fh'
      INTEGER NT, NA, NB, MAXW
      PARAMETER (NT = 20, NA = 8, NB = 10, MAXW = 40)
      DOUBLE PRECISION WA(MAXW), WB(0:MAXW), G(NA), S
      INTEGER GRID, ME, IERR, I, L, NBAD, GI, TLO, THI
      INTEGER DT, DA, DB, DW, DX, DU, DD, IG(MAXW)
      LOGICAL MINE(NT)
      INTEGER CNT(1), PER(1)

      CALL HSTART(GRID, ME)

C     The template T(1:NT), BLOCK; TLO:THI the cells this process owns.
      CALL MKDAD(GRID, NT, HPF_BLOCK, DT)
      CALL OWNED(DT, 1, CNT, IG)
      TLO = NT + 1
      THI = 0
      IF (CNT(1) .GT. 0) THEN
         TLO = IG(1)
         THI = IG(CNT(1))
      END IF

C     A(1:8) WITH T(2*I + 2).
      CALL ALIGN1(DT, 1, NA, 2, 2, 0, DA, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_DAD_ALIGN A')
      CALL OWNED(DA, 1, CNT, IG)
      NBAD = 0
      DO 10 L = 1, CNT(1)
         GI = IG(L)
         IF (2 * GI + 2 .LT. TLO .OR. 2 * GI + 2 .GT. THI)
     &      NBAD = NBAD + 1
         WA(L) = GI * GI
 10   CONTINUE
      CALL OK(NBAD .EQ. 0, 'A(I) lives with T(2*I + 2)')
      CALL HPF_SUM(DA, HPF_REAL8, WA, S, IERR)
      CALL OK(IERR .EQ. HPF_OK .AND. S .EQ. 204D0, 'SUM(A)')
      CALL MKDAD(GRID, NA, HPF_COLLAPSED, DW)
      CALL HPF_COPY(DA, WA, DW, G, HPF_REAL8, IERR)
      NBAD = 0
      DO 20 I = 1, NA
         IF (G(I) .NE. I * I) NBAD = NBAD + 1
 20   CONTINUE
      CALL OK(NBAD .EQ. 0, 'aligned A copied whole')

C     B(0:9) WITH T(I + 5), overlap 1 on both sides.
      CALL ALIGN1(DT, 0, NB, 1, 5, 1, DB, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_DAD_ALIGN B')
      CALL OWNED(DB, 1, CNT, IG)
      DO 30 L = 1, CNT(1)
         WB(L) = 3 * IG(L)
 30   CONTINUE
      PER(1) = 0
      CALL HPF_SHIFT_OVERLAP(DB, HPF_REAL8, WB, PER, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_SHIFT_OVERLAP')
      NBAD = 0
      IF (CNT(1) .GT. 0) THEN
         GI = IG(1)
         IF (GI + 5 .LT. TLO) NBAD = NBAD + 1
         IF (GI .GT. 0 .AND. WB(0) .NE. 3 * (GI - 1)) NBAD = NBAD + 1
         GI = IG(CNT(1))
         IF (GI + 5 .GT. THI) NBAD = NBAD + 1
         IF (GI .LT. NB - 1 .AND. WB(CNT(1) + 1) .NE. 3 * (GI + 1))
     &      NBAD = NBAD + 1
      END IF
      CALL OK(NBAD .EQ. 0, 'overlap of aligned B')

C     C(1:5) WITH T(7): stride 0, every element on T(7)'s process.
      CALL ALIGN1(DT, 1, 5, 0, 7, 0, DX, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'stride 0 accepted')
      CALL OWNED(DX, 1, CNT, IG)
      NBAD = 0
      IF (7 .GE. TLO .AND. 7 .LE. THI) THEN
         IF (CNT(1) .NE. 5) NBAD = 1
      ELSE
         IF (CNT(1) .NE. 0) NBAD = 1
      END IF
      CALL OK(NBAD .EQ. 0, 'C(I) WITH T(7) on one process')

C     D(1:8) WITH U(-2*I + 17) of the CYCLIC(2) template U(1:NT).
      CALL MKDAD(GRID, NT, HPF_CYCLIC_K, DU)
      CALL ALIGN1(DU, 1, NA, -2, 17, 0, DD, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_DAD_ALIGN D on CYCLIC(2)')
      CALL OWNED(DU, 1, CNT, IG)
      DO 40 I = 1, NT
         MINE(I) = .FALSE.
 40   CONTINUE
      DO 41 L = 1, CNT(1)
         MINE(IG(L)) = .TRUE.
 41   CONTINUE
      CALL OWNED(DD, 1, CNT, IG)
      NBAD = 0
      DO 42 L = 1, CNT(1)
         GI = IG(L)
         IF (.NOT. MINE(-2 * GI + 17)) NBAD = NBAD + 1
         IF (L .GT. 1) THEN
            IF (IG(L - 1) .GE. GI) NBAD = NBAD + 1
         END IF
         WA(L) = GI * GI
 42   CONTINUE
      CALL OK(NBAD .EQ. 0, 'D(I) lives with U(-2*I + 17)')
      CALL HPF_SUM(DD, HPF_REAL8, WA, S, IERR)
      CALL OK(IERR .EQ. HPF_OK .AND. S .EQ. 204D0, 'SUM(D)')

C     Refused: B(0:9) WITH T(I + 12) passes T(20); by a negative stride
C     B(0:9) WITH T(-I + 5) passes T(1).
      CALL ALIGN1(DT, 0, NB, 1, 12, 1, DX, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'cell past the template refused')
      CALL ALIGN1(DT, 0, NB, -1, 5, 0, DX, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'cell before the template refused')

      CALL HDONE('hpf_align_f77', ME)
      END

C     Aligns the vector V(LO:LO+N-1) WITH T(STRIDE*I + OFFSET) of the
C     rank-1 template DT, overlap OVL on both sides: DAD its descriptor,
C     IERR the status of HPF_DAD_ALIGN.
      SUBROUTINE ALIGN1(DT, LO, N, STRIDE, OFFSET, OVL, DAD, IERR)
      INTEGER DT, LO, N, STRIDE, OFFSET, OVL, DAD, IERR
      INTEGER LB(1), EXT(1), TDIM(1), STR(1), OFF(1), OLO(1), OHI(1)
      LB(1) = LO
      EXT(1) = N
      TDIM(1) = 1
      STR(1) = STRIDE
      OFF(1) = OFFSET
      OLO(1) = OVL
      OHI(1) = OVL
      CALL HPF_DAD_ALIGN(DT, 1, LB, EXT, TDIM, STR, OFF, OLO, OHI, DAD,
     &                   IERR)
      END

      include 'hpf_node_fixed.inc'
      include '../tally_fixed.inc'
