C     The COMPLEX*16, COMPLEX and LOGICAL element types from a Fortran 77
C     node program through the HPF_* entry points, each result against
C     the same intrinsic applied serially to the whole array in this
C     program:
C
C       SUM, PRODUCT and DOT_PRODUCT (conjugated) of COMPLEX*16 on BLOCK
C       SUM and DOT_PRODUCT of COMPLEX on CYCLIC
C       CSHIFT of COMPLEX*16 by 3 and by -5, and a remap to CYCLIC(2)
C       COUNT, ALL, ANY and DOT_PRODUCT of LOGICAL on CYCLIC
C       EOSHIFT of LOGICAL with BOUNDARY .TRUE.
C       COUNT along DIM 2 of a 2-D LOGICAL array (HPF_REDUCE_DIM)
C       MAXVAL of COMPLEX*16 and SUM of LOGICAL refused
C
C     The complex values have small integer parts, so every sum and
C     product is exact and the distributed results must equal the serial
C     ones bit for bit. Prints "hpf_types_f77 rank R: P passed, F
C     failed".
      PROGRAM TYPF77
      INCLUDE 'hpf_rts.fh'
      INTEGER N, M, MAXW
      PARAMETER (N = 14, M = 5, MAXW = 80)
      COMPLEX*16 Z(MAXW), Y(MAXW), ZS(MAXW), GZ(N), GY(N), SZ(N)
      COMPLEX*16 RZ, WZ
      COMPLEX C(MAXW), D(MAXW), GC(N), GD(N), RC, WC
      LOGICAL L(MAXW), K(MAXW), LS(MAXW), GL(N), GK(N), SL(N)
      LOGICAL L2(M, MAXW), G2(M, N), RB, BND
      INTEGER CNT2(MAXW), GCNT(M), NC
      INTEGER GRID, ME, IERR, I, J, LL, NBAD, IG(MAXW)
      INTEGER DB, DC, DK, WHOLE, D2, DR2, WHOLER
      INTEGER CNT(2), ALLOC(2)

      CALL HSTART(GRID, ME)

C     The serial arrays every process holds.
      DO 5 I = 1, N
         GZ(I) = DCMPLX(DBLE(1 + MOD(I, 3)), DBLE(MOD(I, 2)))
         GY(I) = DCMPLX(DBLE(I), DBLE(2 - MOD(I, 4)))
         GC(I) = CMPLX(REAL(I), REAL(-2 * I))
         GD(I) = CMPLX(REAL(MOD(I, 5)), 1.0)
         GL(I) = MOD(I, 3) .EQ. 0
         GK(I) = MOD(I, 2) .EQ. 0
 5    CONTINUE

      CALL MKDAD(GRID, N, HPF_BLOCK, DB)
      CALL MKDAD(GRID, N, HPF_CYCLIC, DC)
      CALL MKDAD(GRID, N, HPF_CYCLIC_K, DK)
      CALL MKDAD(GRID, N, HPF_COLLAPSED, WHOLE)

C     COMPLEX*16 on BLOCK.
      CALL OWNED(DB, 1, CNT, IG)
      DO 10 LL = 1, CNT(1)
         Z(LL) = GZ(IG(LL))
         Y(LL) = GY(IG(LL))
 10   CONTINUE
      CALL HPF_SUM(DB, HPF_COMPLEX16, Z, RZ, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_SUM COMPLEX*16')
      CALL OK(RZ .EQ. SUM(GZ), 'SUM of COMPLEX*16')
      CALL HPF_PRODUCT(DB, HPF_COMPLEX16, Z, RZ, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_PRODUCT COMPLEX*16')
      CALL OK(RZ .EQ. PRODUCT(GZ), 'PRODUCT of COMPLEX*16')
      CALL HPF_DOT_PRODUCT(DB, HPF_COMPLEX16, Z, Y, RZ, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_DOT_PRODUCT COMPLEX*16')
      WZ = DOT_PRODUCT(GZ, GY)
      CALL OK(RZ .EQ. WZ, 'DOT_PRODUCT of COMPLEX*16 (conjugated)')
      CALL OK(WZ .NE. SUM(GZ * GY), 'the serial DOT_PRODUCT conjugates')
      CALL HPF_MAXVAL(DB, HPF_COMPLEX16, Z, RZ, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'MAXVAL of COMPLEX*16 refused')

C     CSHIFT by 3 and by -5, each against the serial CSHIFT.
      CALL HPF_CSHIFT(DB, HPF_COMPLEX16, Z, ZS, 3, 1, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_CSHIFT COMPLEX*16')
      CALL HPF_COPY(DB, ZS, WHOLE, SZ, HPF_COMPLEX16, IERR)
      CALL OK(ALL(SZ .EQ. CSHIFT(GZ, 3)), 'CSHIFT(Z, 3)')
      CALL HPF_CSHIFT(DB, HPF_COMPLEX16, Z, ZS, -5, 1, IERR)
      CALL HPF_COPY(DB, ZS, WHOLE, SZ, HPF_COMPLEX16, IERR)
      CALL OK(ALL(SZ .EQ. CSHIFT(GZ, -5)), 'CSHIFT(Z, -5)')
C     Remap to CYCLIC(2) and back to the whole array.
      CALL HPF_COPY(DB, Y, DK, ZS, HPF_COMPLEX16, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_COPY COMPLEX*16')
      CALL HPF_COPY(DK, ZS, WHOLE, SZ, HPF_COMPLEX16, IERR)
      CALL OK(ALL(SZ .EQ. GY), 'COMPLEX*16 BLOCK -> CYCLIC(2)')

C     COMPLEX on CYCLIC.
      CALL OWNED(DC, 1, CNT, IG)
      DO 20 LL = 1, CNT(1)
         C(LL) = GC(IG(LL))
         D(LL) = GD(IG(LL))
         L(LL) = GL(IG(LL))
         K(LL) = GK(IG(LL))
 20   CONTINUE
      CALL HPF_SUM(DC, HPF_COMPLEX8, C, RC, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_SUM COMPLEX')
      CALL OK(RC .EQ. SUM(GC), 'SUM of COMPLEX')
      CALL HPF_DOT_PRODUCT(DC, HPF_COMPLEX8, C, D, RC, IERR)
      WC = DOT_PRODUCT(GC, GD)
      CALL OK(IERR .EQ. HPF_OK .AND. RC .EQ. WC,
     &        'DOT_PRODUCT of COMPLEX')

C     LOGICAL on CYCLIC.
      CALL HPF_COUNT(DC, L, NC, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_COUNT')
      CALL OK(NC .EQ. COUNT(GL), 'COUNT(L)')
      CALL HPF_ALL(DC, L, RB, IERR)
      CALL OK(IERR .EQ. HPF_OK .AND. (RB .EQV. ALL(GL)), 'ALL(L)')
      CALL HPF_ANY(DC, L, RB, IERR)
      CALL OK(IERR .EQ. HPF_OK .AND. (RB .EQV. ANY(GL)), 'ANY(L)')
      CALL HPF_DOT_PRODUCT(DC, HPF_LOGICAL, L, K, RB, IERR)
      CALL OK(IERR .EQ. HPF_OK .AND. (RB .EQV. DOT_PRODUCT(GL, GK)),
     &        'DOT_PRODUCT(L, K)')
C     The complements: ALL of .NOT. L is false, ANY of L .AND. .NOT. L
C     is false, ALL of L .OR. .NOT. L is true.
      CALL HPF_DAD_LOCAL_SHAPE(DC, CNT, ALLOC, IERR)
      DO 25 LL = 1, CNT(1)
         LS(LL) = L(LL) .OR. .NOT. L(LL)
 25   CONTINUE
      CALL HPF_ALL(DC, LS, RB, IERR)
      CALL OK(RB .EQV. ALL(GL .OR. .NOT. GL), 'ALL(L .OR. .NOT. L)')
      DO 26 LL = 1, CNT(1)
         LS(LL) = L(LL) .AND. .NOT. L(LL)
 26   CONTINUE
      CALL HPF_ANY(DC, LS, RB, IERR)
      CALL OK(RB .EQV. ANY(GL .AND. .NOT. GL), 'ANY(L .AND. .NOT. L)')
C     EOSHIFT(L, 4, .TRUE.).
      BND = .TRUE.
      CALL HPF_EOSHIFT(DC, HPF_LOGICAL, L, LS, 4, BND, 1, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_EOSHIFT LOGICAL')
      CALL HPF_COPY(DC, LS, WHOLE, SL, HPF_LOGICAL, IERR)
      CALL OK(ALL(SL .EQV. EOSHIFT(GL, 4, .TRUE.)),
     &        'EOSHIFT(L, 4, .TRUE.)')
      CALL HPF_SUM(DC, HPF_LOGICAL, L, NC, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'SUM of LOGICAL refused')

C     COUNT(L2, DIM=2) of an M x N LOGICAL array on (collapsed, BLOCK).
      CALL MKDAD2(GRID, M, N, HPF_COLLAPSED, HPF_BLOCK, D2)
      DO 30 J = 1, N
         DO 30 I = 1, M
            G2(I, J) = MOD(I * J, 4) .EQ. 1
 30   CONTINUE
      CALL OWNED(D2, 2, CNT, IG)
      DO 35 LL = 1, CNT(2)
         DO 35 I = 1, M
            L2(I, LL) = G2(I, IG(LL))
 35   CONTINUE
      CALL MKDAD(GRID, M, HPF_BLOCK, DR2)
      CALL MKDAD(GRID, M, HPF_COLLAPSED, WHOLER)
      CALL HPF_REDUCE_DIM(HPF_OP_COUNT, D2, HPF_LOGICAL, L2, 2, DR2,
     &                    CNT2, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_REDUCE_DIM COUNT')
      CALL HPF_COPY(DR2, CNT2, WHOLER, GCNT, HPF_INTEGER4, IERR)
      CALL OK(ALL(GCNT .EQ. COUNT(G2, 2)), 'COUNT(L2, 2)')

      CALL HDONE('hpf_types_f77', ME)
      END

      include 'hpf_node_fixed.inc'
      include '../tally_fixed.inc'
