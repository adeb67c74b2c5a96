C     A fixed template position and COPY_SCATTER from a Fortran 77 node
C     program, on a 2-D grid (1 x 2 on two processes) with the template
C     T(1:12, 1:4) on (BLOCK, BLOCK):
C
C       A(1:12) WITH T(I, 3) (HPF_DAD_ALIGN onto the section T(:, 3) of
C       HPF_DAD_TEMPLATE_AT): only the grid column owning T(:, 3) holds
C       A, the others hold nothing; A(I) = I*I there; SUM(A) and a copy
C       of A to a collapsed DAD equal the serial ones on every process
C       COPY_SCATTER(B, A, V, MASK), B and V collapsed with V naming
C       A(2) and A(4) twice: each holder stores its own elements, the
C       last one of a repeated cell winning, as the serial loop
C       a position outside the template and a count below 1 refused
C
C     Prints "hpf_align_fixed_f77 rank R: P passed, F failed".
      PROGRAM AFXF77
      INCLUDE 'hpf_rts.fh'
      INTEGER NA, NB
      PARAMETER (NA = 12, NB = 6)
      DOUBLE PRECISION WA(NA), G(NA), B(NB), WANT(NA), S
      INTEGER GRID, ME, IERR, I, K, L, NP, BLK, NDIFF
      INTEGER DT, DS, DA, DW, DB, IG(NA), V(NB)
      INTEGER DIMS(2), COORDS(2), CNT(1)
      INTEGER TLB(2), TEXT(2), TDI(2), TBLK(2), TPD(2), TOV(2)
      INTEGER LB(1), EXT(1), TDIM(1), STR(1), OFF(1), OV(1)
      INTEGER FTD(1), FPOS(1)
      LOGICAL MASK(NB), HOLDER
      DATA V /2, 4, 2, 11, 5, 4/
      DATA MASK /.TRUE., .TRUE., .FALSE., .TRUE., .TRUE., .TRUE./
      DATA TLB /1, 1/, TEXT /12, 4/, TBLK /1, 1/, TPD /1, 2/, TOV /0, 0/
      DATA LB /1/, EXT /NA/, TDIM /1/, STR /1/, OFF /0/, OV /0/
      DATA FTD /2/, FPOS /3/

      CALL HPF_INIT(IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_INIT')
      CALL HPF_NPROCS(NP, IERR)
      DIMS(1) = 0
      DIMS(2) = 0
      IF (NP .EQ. 2) DIMS(1) = 1
      CALL HPF_GRID_CREATE(2, DIMS, GRID, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_GRID_CREATE')
      CALL HPF_GRID_INFO(GRID, ME, COORDS, IERR)

C     The template T(1:12, 1:4), (BLOCK, BLOCK), and its column T(:, 3),
C     held by the grid column with coordinate (3 - 1) / CEILING(4 / P2).
      TDI(1) = HPF_BLOCK
      TDI(2) = HPF_BLOCK
      CALL HPF_DAD_CREATE(GRID, 2, TLB, TEXT, TDI, TBLK, TPD, TOV, TOV,
     &                    DT, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'template')
      CALL HPF_DAD_TEMPLATE_AT(DT, 1, FTD, FPOS, DS, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_DAD_TEMPLATE_AT T(:, 3)')
      BLK = (TEXT(2) + DIMS(2) - 1) / DIMS(2)
      HOLDER = COORDS(2) .EQ. (FPOS(1) - 1) / BLK

C     A(1:12) WITH T(I, 3), A(I) = I*I.
      CALL HPF_DAD_ALIGN(DS, 1, LB, EXT, TDIM, STR, OFF, OV, OV, DA,
     &                   IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_DAD_ALIGN A')
      CALL OWNED(DA, 1, CNT, IG)
      IF (.NOT. HOLDER) CALL OK(CNT(1) .EQ. 0, 'A held off its column')
      DO 10 L = 1, CNT(1)
         WA(L) = IG(L) * IG(L)
 10   CONTINUE
      DO 11 I = 1, NA
         WANT(I) = I * I
 11   CONTINUE
      CALL HPF_SUM(DA, HPF_REAL8, WA, S, IERR)
      CALL OK(IERR .EQ. HPF_OK .AND. S .EQ. 650D0, 'SUM(A)')
      CALL MKDAD(GRID, NA, HPF_COLLAPSED, DW)
      CALL OK(NDIFF(DA, WA, DW, G, WANT, NA) .EQ. 0, 'A copied whole')

C     COPY_SCATTER(B, A, V, MASK) with B and V collapsed.
      CALL MKDAD(GRID, NB, HPF_COLLAPSED, DB)
      DO 30 K = 1, NB
         B(K) = -10 * K
         IF (MASK(K)) WANT(V(K)) = B(K)
 30   CONTINUE
      CALL HPF_COPY_SCATTER(DB, B, DB, V, NB, HPF_INTEGER4, DA, WA,
     &                      HPF_REAL8, MASK, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_COPY_SCATTER')
      CALL OK(NDIFF(DA, WA, DW, G, WANT, NA) .EQ. 0,
     &        'COPY_SCATTER into A equals the serial loop')

C     Refused: T(5, I) is outside the template; NFIX 0.
      FPOS(1) = 5
      CALL HPF_DAD_TEMPLATE_AT(DT, 1, FTD, FPOS, DB, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'position outside refused')
      CALL HPF_DAD_TEMPLATE_AT(DT, 0, FTD, FPOS, DB, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'NFIX 0 refused')

      CALL HDONE('hpf_align_fixed_f77', ME)
      END

C     Copies the array A (DAD DA) to G (collapsed DAD DW, N elements)
C     and returns how many cells differ from WANT (N + 1 if the copy
C     fails).
      INTEGER FUNCTION NDIFF(DA, A, DW, G, WANT, N)
      INCLUDE 'hpf_rts.fh'
      INTEGER DA, DW, N, I, IERR
      DOUBLE PRECISION A(*), G(N), WANT(N)
      CALL HPF_COPY(DA, A, DW, G, HPF_REAL8, IERR)
      NDIFF = 0
      IF (IERR .NE. HPF_OK) NDIFF = N + 1
      DO 10 I = 1, N
         IF (G(I) .NE. WANT(I)) NDIFF = NDIFF + 1
 10   CONTINUE
      END

      include 'hpf_node_fixed.inc'
      include '../tally_fixed.inc'
