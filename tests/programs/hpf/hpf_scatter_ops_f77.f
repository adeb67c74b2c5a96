C     The HPF library's combining scatters from a Fortran 77 node
C     program through HPF_COMBINE_SCATTER, HPF_COMBINE_SCATTER_MASK and
C     a planned schedule run by HPF_INDEX_EXECUTE_COMBINE_MASK, each
C     against the serial fold every process computes itself. The cells
C     H(1:NH) lie on CYCLIC; the K values, the subscripts V(I) =
C     1 + MOD(I*I, NH) (repeated) and MASK(I) = MOD(I, 4) .NE. 1 on one
C     BLOCK DAD:
C
C       PRODUCT_SCATTER   DOUBLE PRECISION, no MASK
C       MAXVAL_SCATTER    INTEGER, with MASK
C       COUNT_SCATTER     LOGICAL values into INTEGER cells, with MASK
C       IANY_SCATTER      INTEGER powers of two, no MASK
C       PARITY_SCATTER    LOGICAL, no MASK
C       ALL_SCATTER       LOGICAL, planned once, run twice with MASK
C
C     IALL of DOUBLE PRECISION and an unknown op are refused. Prints
C     "hpf_scatter_ops_f77 rank R: P passed, F failed".
      PROGRAM SOPF77
      INCLUDE 'hpf_rts.fh'
      INTEGER NH, K, MAXW
      PARAMETER (NH = 6, K = 13, MAXW = 40)
      DOUBLE PRECISION DH(MAXW), DB(MAXW), GD(NH), WD(NH)
      INTEGER IH(MAXW), IB(MAXW), GI(NH), WI(NH)
      LOGICAL LH(MAXW), LB(MAXW), GL(NH), WL(NH), MASK(MAXW), MK
      INTEGER IV(MAXW), IG(MAXW), CNT(1), ALLOC(1)
      INTEGER GRID, ME, IERR, I, J, L, NBAD, SCHED, NC
      INTEGER DC, DK, WHOLE, NDIFI, NDIFL

      CALL HSTART(GRID, ME)
      CALL MKDAD(GRID, NH, HPF_CYCLIC, DC)
      CALL MKDAD(GRID, K, HPF_BLOCK, DK)
      CALL MKDAD(GRID, NH, HPF_COLLAPSED, WHOLE)
      CALL HPF_DAD_LOCAL_SHAPE(DC, CNT, ALLOC, IERR)
      NC = CNT(1)

C     PRODUCT_SCATTER: H(J) = J, B(I) = 1 + MOD(I, 3).
      CALL OWNED(DC, 1, CNT, IG)
      DO 20 L = 1, NC
         DH(L) = IG(L)
 20   CONTINUE
      CALL OWNED(DK, 1, CNT, IG)
      DO 21 L = 1, CNT(1)
         I = IG(L)
         IV(L) = 1 + MOD(I * I, NH)
         MASK(L) = MK(I)
         DB(L) = 1 + MOD(I, 3)
 21   CONTINUE
      CALL HPF_COMBINE_SCATTER(HPF_OP_PRODUCT, DK, DB, DK, IV, MAXW,
     &     HPF_INTEGER4, DC, DH, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_COMBINE_SCATTER PRODUCT')
      CALL HPF_COPY(DC, DH, WHOLE, GD, HPF_REAL8, IERR)
      DO 22 J = 1, NH
         WD(J) = J
 22   CONTINUE
      NBAD = 0
      DO 23 I = 1, K
         J = 1 + MOD(I * I, NH)
         WD(J) = WD(J) * (1 + MOD(I, 3))
 23   CONTINUE
      DO 24 J = 1, NH
         IF (GD(J) .NE. WD(J)) NBAD = NBAD + 1
 24   CONTINUE
      CALL OK(NBAD .EQ. 0, 'PRODUCT_SCATTER')

C     MAXVAL_SCATTER with MASK: H = -9, B(I) = MOD(7 * I, 11) - 5.
      CALL IFILL(IH, NC, -9)
      CALL IFILL(WI, NH, -9)
      DO 31 L = 1, CNT(1)
         IB(L) = MOD(7 * IG(L), 11) - 5
 31   CONTINUE
      CALL MSCAT(HPF_OP_MAXVAL, DK, IB, IV, DC, IH, MASK)
      DO 33 I = 1, K
         J = 1 + MOD(I * I, NH)
         IF (MK(I)) WI(J) = MAX(WI(J), MOD(7 * I, 11) - 5)
 33   CONTINUE
      CALL OK(NDIFI(DC, IH, WHOLE, GI, WI, NH) .EQ. 0,
     &     'MAXVAL_SCATTER with MASK')

C     COUNT_SCATTER with MASK: H = 10, B(I) = MOD(I, 3) .NE. 0.
      CALL IFILL(IH, NC, 10)
      CALL IFILL(WI, NH, 10)
      DO 41 L = 1, CNT(1)
         LB(L) = MOD(IG(L), 3) .NE. 0
 41   CONTINUE
      CALL MSCAT(HPF_OP_COUNT, DK, LB, IV, DC, IH, MASK)
      DO 43 I = 1, K
         J = 1 + MOD(I * I, NH)
         IF (MK(I) .AND. MOD(I, 3) .NE. 0) WI(J) = WI(J) + 1
 43   CONTINUE
      CALL OK(NDIFI(DC, IH, WHOLE, GI, WI, NH) .EQ. 0,
     &     'COUNT_SCATTER with MASK')

C     IANY_SCATTER: H = 0, B(I) = 2 ** MOD(I, 5).
      CALL IFILL(IH, NC, 0)
      CALL IFILL(WI, NH, 0)
      DO 51 L = 1, CNT(1)
         IB(L) = 2 ** MOD(IG(L), 5)
 51   CONTINUE
      CALL HPF_COMBINE_SCATTER(HPF_OP_IANY, DK, IB, DK, IV, MAXW,
     &     HPF_INTEGER4, DC, IH, HPF_INTEGER4, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_COMBINE_SCATTER IANY')
      DO 53 I = 1, K
         J = 1 + MOD(I * I, NH)
         WI(J) = IOR(WI(J), 2 ** MOD(I, 5))
 53   CONTINUE
      CALL OK(NDIFI(DC, IH, WHOLE, GI, WI, NH) .EQ. 0, 'IANY_SCATTER')

C     PARITY_SCATTER: H = .FALSE., B = .TRUE.: odd counts.
      CALL LFILL(LH, NC, .FALSE.)
      CALL LFILL(WL, NH, .FALSE.)
      CALL LFILL(LB, CNT(1), .TRUE.)
      CALL HPF_COMBINE_SCATTER(HPF_OP_PARITY, DK, LB, DK, IV, MAXW,
     &     HPF_INTEGER4, DC, LH, HPF_LOGICAL, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_COMBINE_SCATTER PARITY')
      DO 63 I = 1, K
         J = 1 + MOD(I * I, NH)
         WL(J) = .NOT. WL(J)
 63   CONTINUE
      CALL OK(NDIFL(DC, LH, WHOLE, GL, WL, NH) .EQ. 0,
     &     'PARITY_SCATTER')

C     ALL_SCATTER planned once, run twice with MASK: H = .TRUE.,
C     B(I) = MOD(I, 5) .NE. 2.
      CALL HPF_SCATTER_PLAN(DK, DK, IV, MAXW, HPF_INTEGER4, DC, SCHED,
     &     IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_SCATTER_PLAN')
      CALL LFILL(LH, NC, .TRUE.)
      CALL LFILL(WL, NH, .TRUE.)
      DO 71 L = 1, CNT(1)
         LB(L) = MOD(IG(L), 5) .NE. 2
 71   CONTINUE
      DO 72 I = 1, 2
         CALL HPF_INDEX_EXECUTE_COMBINE_MASK(SCHED, HPF_OP_ALL, LB, LH,
     &        HPF_LOGICAL, MASK, IERR)
         CALL OK(IERR .EQ. HPF_OK, 'HPF_INDEX_EXECUTE_COMBINE_MASK')
 72   CONTINUE
      DO 74 I = 1, K
         J = 1 + MOD(I * I, NH)
         IF (MK(I)) WL(J) = WL(J) .AND. MOD(I, 5) .NE. 2
 74   CONTINUE
      CALL OK(NDIFL(DC, LH, WHOLE, GL, WL, NH) .EQ. 0,
     &     'planned ALL_SCATTER with MASK')
      CALL HPF_INDEX_FREE(SCHED, IERR)

C     Refused: IALL of DOUBLE PRECISION, op 99.
      CALL HPF_COMBINE_SCATTER(HPF_OP_IALL, DK, DB, DK, IV, MAXW,
     &     HPF_INTEGER4, DC, DH, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'IALL of DOUBLE PRECISION refused')
      CALL HPF_COMBINE_SCATTER(99, DK, DB, DK, IV, MAXW,
     &     HPF_INTEGER4, DC, DH, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'unknown op refused')

      CALL HDONE('hpf_scatter_ops_f77', ME)
      END

C     The MASK of position I.
      LOGICAL FUNCTION MK(I)
      INTEGER I
      MK = MOD(I, 4) .NE. 1
      END

C     HPF_COMBINE_SCATTER_MASK of B (DAD DK, subscripts IV on DK, LDV
C     40) into the INTEGER H (DAD DC) by OP, checked to succeed.
      SUBROUTINE MSCAT(OP, DK, B, IV, DC, H, MASK)
      INCLUDE 'hpf_rts.fh'
      INTEGER OP, DK, B(*), IV(*), DC, H(*), IERR
      LOGICAL MASK(*)
      CALL HPF_COMBINE_SCATTER_MASK(OP, DK, B, DK, IV, 40, HPF_INTEGER4,
     &     DC, H, HPF_INTEGER4, MASK, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_COMBINE_SCATTER_MASK')
      END

C     A(1:N) = V.
      SUBROUTINE IFILL(A, N, V)
      INTEGER N, A(*), V, L
      DO 10 L = 1, N
         A(L) = V
 10   CONTINUE
      END

      SUBROUTINE LFILL(A, N, V)
      INTEGER N, L
      LOGICAL A(*), V
      DO 10 L = 1, N
         A(L) = V
 10   CONTINUE
      END

C     The INTEGER array A (DAD D) gathered into G(1:N) by a copy onto
C     the collapsed DAD WHOLE: the cells that differ from W(1:N).
      INTEGER FUNCTION NDIFI(D, A, WHOLE, G, W, N)
      INCLUDE 'hpf_rts.fh'
      INTEGER D, A(*), WHOLE, N, G(N), W(N), J, IERR
      CALL HPF_COPY(D, A, WHOLE, G, HPF_INTEGER4, IERR)
      NDIFI = 0
      DO 10 J = 1, N
         IF (IERR .NE. HPF_OK .OR. G(J) .NE. W(J)) NDIFI = NDIFI + 1
 10   CONTINUE
      END

C     NDIFI for LOGICAL arrays.
      INTEGER FUNCTION NDIFL(D, A, WHOLE, G, W, N)
      INCLUDE 'hpf_rts.fh'
      INTEGER D, WHOLE, N, J, IERR
      LOGICAL A(*), G(N), W(N)
      CALL HPF_COPY(D, A, WHOLE, G, HPF_LOGICAL, IERR)
      NDIFL = 0
      DO 10 J = 1, N
         IF (IERR .NE. HPF_OK .OR. (G(J) .NEQV. W(J))) NDIFL = NDIFL + 1
 10   CONTINUE
      END

      include 'hpf_node_fixed.inc'
      include '../tally_fixed.inc'
