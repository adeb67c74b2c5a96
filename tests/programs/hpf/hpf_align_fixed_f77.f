C     A fixed template position and COPY_SCATTER from a Fortran 77 node
C     program, on a 2-D grid (1 x 2 on two processes) with the template
C     T(1:12, 1:4) on (BLOCK, BLOCK):
C
C       A(1:12) WITH T(I, 3) (HPF_DAD_ALIGN_AT): only the grid column
C       owning T(:, 3) holds A, the others hold nothing; A(I) = I*I
C       there; SUM(A) and a copy of A to a collapsed DAD equal the
C       serial ones on every process
C       COPY_SCATTER(B, A, V, MASK), B and V collapsed with V naming
C       A(2) and A(4) twice: each holder stores its own elements, the
C       last one of a repeated cell winning, as the serial loop
C       a position outside the template and a count below 0 refused
C
C     Prints "hpf_align_fixed_f77 rank R: P passed, F failed".
      PROGRAM AFXF77
      INCLUDE 'hpf_rts.fh'
      INTEGER NT1, NT2, NA, NB
      PARAMETER (NT1 = 12, NT2 = 4, NA = 12, NB = 6)
      DOUBLE PRECISION WA(NA), G(NA), B(NB), WANT(NA), S
      INTEGER GRID, ME, IERR, I, K, L, NBAD, NP, BLK
      INTEGER DT, DA, DW, DB, IG(NA), V(NB)
      INTEGER DIMS(2), COORDS(2), CNT(1)
      INTEGER TLB(2), TEXT(2), TDI(2), TBLK(2), TPD(2), TOV(2)
      INTEGER LB(1), EXT(1), TDIM(1), STR(1), OFF(1), OV(1)
      INTEGER FTD(1), FPOS(1)
      LOGICAL MASK(NB), HOLDER
      DATA V /2, 4, 2, 11, 5, 4/
      DATA MASK /.TRUE., .TRUE., .FALSE., .TRUE., .TRUE., .TRUE./

      CALL HPF_INIT(IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_INIT')
      CALL HPF_NPROCS(NP, IERR)
      DIMS(1) = 0
      DIMS(2) = 0
      IF (NP .EQ. 2) DIMS(1) = 1
      CALL HPF_GRID_CREATE(2, DIMS, GRID, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_GRID_CREATE')
      CALL HPF_GRID_INFO(GRID, ME, COORDS, IERR)

C     The template T(1:12, 1:4), (BLOCK, BLOCK).
      DO 5 K = 1, 2
         TLB(K) = 1
         TDI(K) = HPF_BLOCK
         TBLK(K) = 1
         TPD(K) = K
         TOV(K) = 0
 5    CONTINUE
      TEXT(1) = NT1
      TEXT(2) = NT2
      CALL HPF_DAD_CREATE(GRID, 2, TLB, TEXT, TDI, TBLK, TPD, TOV, TOV,
     &                    DT, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'template')
C     The grid column owning T(:, 3): BLOCK of CEILING(4 / P2).
      BLK = (NT2 + DIMS(2) - 1) / DIMS(2)
      HOLDER = COORDS(2) .EQ. (3 - 1) / BLK

C     A(1:12) WITH T(I, 3).
      LB(1) = 1
      EXT(1) = NA
      TDIM(1) = 1
      STR(1) = 1
      OFF(1) = 0
      OV(1) = 0
      FTD(1) = 2
      FPOS(1) = 3
      CALL HPF_DAD_ALIGN_AT(DT, 1, LB, EXT, TDIM, STR, OFF, OV, OV,
     &                      1, FTD, FPOS, DA, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_DAD_ALIGN_AT A')
      CALL OWNED(DA, 1, CNT, IG)
      IF (.NOT. HOLDER) CALL OK(CNT(1) .EQ. 0, 'A held off its column')
      DO 10 L = 1, CNT(1)
         WA(L) = IG(L) * IG(L)
 10   CONTINUE
      CALL HPF_SUM(DA, HPF_REAL8, WA, S, IERR)
      CALL OK(IERR .EQ. HPF_OK .AND. S .EQ. 650D0, 'SUM(A)')
      CALL MKDAD(GRID, NA, HPF_COLLAPSED, DW)
      CALL HPF_COPY(DA, WA, DW, G, HPF_REAL8, IERR)
      NBAD = 0
      DO 20 I = 1, NA
         IF (G(I) .NE. I * I) NBAD = NBAD + 1
 20   CONTINUE
      CALL OK(IERR .EQ. HPF_OK .AND. NBAD .EQ. 0, 'A copied whole')

C     COPY_SCATTER(B, A, V, MASK) with B and V collapsed.
      CALL MKDAD(GRID, NB, HPF_COLLAPSED, DB)
      DO 30 K = 1, NB
         B(K) = -10 * K
 30   CONTINUE
      CALL HPF_COPY_SCATTER(DB, B, DB, V, NB, HPF_INTEGER4, DA, WA,
     &                      HPF_REAL8, MASK, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_COPY_SCATTER')
      DO 40 I = 1, NA
         WANT(I) = I * I
 40   CONTINUE
      DO 41 K = 1, NB
         IF (MASK(K)) WANT(V(K)) = B(K)
 41   CONTINUE
      CALL HPF_COPY(DA, WA, DW, G, HPF_REAL8, IERR)
      NBAD = 0
      DO 42 I = 1, NA
         IF (G(I) .NE. WANT(I)) NBAD = NBAD + 1
 42   CONTINUE
      CALL OK(NBAD .EQ. 0, 'COPY_SCATTER into A equals the serial loop')

C     Refused: T(I, 5) is outside the template; NFIX below 0.
      FPOS(1) = 5
      CALL HPF_DAD_ALIGN_AT(DT, 1, LB, EXT, TDIM, STR, OFF, OV, OV,
     &                      1, FTD, FPOS, DB, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'position outside refused')
      CALL HPF_DAD_ALIGN_AT(DT, 1, LB, EXT, TDIM, STR, OFF, OV, OV,
     &                      -1, FTD, FPOS, DB, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'NFIX below 0 refused')

      CALL HDONE('hpf_align_fixed_f77', ME)
      END

      include 'hpf_node_fixed.inc'
      include '../tally_fixed.inc'
