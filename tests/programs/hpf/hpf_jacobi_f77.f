C     A Fortran 90D style node program in Fortran 77: the Jacobi
C     iteration of hpf_jacobi.c on an N x M array distributed
C     (BLOCK, BLOCK) with one overlap cell on each side,
C
C       FORALL (I=2:N-1, J=2:M-1)
C         B(I,J) = (A(I-1,J)+A(I+1,J)+A(I,J-1)+A(I,J+1))/4
C       RESID = SUM(ABS(B - A))
C
C     through the HPF_* entry points with integer DAD handles. The local
C     arrays live in fixed work arrays and are passed to subroutines
C     with adjustable bounds A(0:C1+1, 0:C2+1), as generated node code
C     does. Each sweep updates the overlap (HPF_SHIFT_OVERLAP), computes
C     on the owned cells and takes the residual with HPF_SUM; every
C     process also runs the iteration serially and checks that the
C     residuals and the final array (gathered by HPF_COPY onto a
C     collapsed DAD) equal it; then TRANSPOSE, SUM along DIM and CSHIFT
C     of the result through the same entry points. Prints
C     "hpf_jacobi_f77 rank R: P passed, F failed".
      PROGRAM JACF77
      INCLUDE 'hpf_rts.fh'
      INTEGER N, M, NSWEEP, MAXW
      PARAMETER (N = 13, M = 10, NSWEEP = 20, MAXW = 4000)
      DOUBLE PRECISION WA(MAXW), WB(MAXW), WD(MAXW)
      DOUBLE PRECISION S(N, M), T(N, M), G(N, M), SRES(NSWEEP)
      DOUBLE PRECISION R, BOUND, INITV
      INTEGER GRID, DIMS(2), COORDS(2), ME, NP, IERR, I, J, K
      INTEGER LB(2), EXT(2), DIST(2), BLK(2), PDIM(2), OLO(2), OHI(2)
      INTEGER DAD, WHOLE, CNT(2), ALLOC(2), GI0, GJ0, PER(2), NBAD
      INTEGER NPASS, NFAIL
      LOGICAL OKRES, OKSH
      CHARACTER*120 MSG
      INTEGER DT, DTW, DR, DRW, TEXT(2)
      DOUBLE PRECISION GT(M, N), RS(M), RW(M), SH(N, M), WT(MAXW)
      DOUBLE PRECISION WR(MAXW), WS(MAXW), WANT
      COMMON /TALLY/ NPASS, NFAIL

      CALL HPF_INIT(IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_INIT')
      CALL HPF_NPROCS(NP, IERR)
      DIMS(1) = 0
      DIMS(2) = 0
      CALL HPF_GRID_CREATE(2, DIMS, GRID, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_GRID_CREATE')
      CALL OK(DIMS(1) * DIMS(2) .EQ. NP, 'grid sizes filled in')
      CALL HPF_GRID_INFO(GRID, ME, COORDS, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_GRID_INFO')

      DO 10 K = 1, 2
         LB(K) = 1
         DIST(K) = HPF_BLOCK
         BLK(K) = 0
         PDIM(K) = K
         OLO(K) = 1
         OHI(K) = 1
 10   CONTINUE
      EXT(1) = N
      EXT(2) = M
      CALL HPF_DAD_CREATE(GRID, 2, LB, EXT, DIST, BLK, PDIM, OLO, OHI,
     &                    DAD, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_DAD_CREATE (BLOCK, BLOCK)')
      DO 20 K = 1, 2
         DIST(K) = HPF_COLLAPSED
         PDIM(K) = 0
         OLO(K) = 0
         OHI(K) = 0
 20   CONTINUE
      CALL HPF_DAD_CREATE(GRID, 2, LB, EXT, DIST, BLK, PDIM, OLO, OHI,
     &                    WHOLE, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_DAD_CREATE (collapsed)')
      CALL HPF_DAD_LOCAL_SHAPE(DAD, CNT, ALLOC, IERR)
      CALL OK(IERR .EQ. HPF_OK .AND. ALLOC(1) .EQ. CNT(1) + 2 .AND.
     &           ALLOC(2) .EQ. CNT(2) + 2, 'local shape with overlap')
      IF (ALLOC(1) * ALLOC(2) .GT. MAXW) THEN
         CALL OK(.FALSE., 'local array fits the work arrays')
         STOP 1
      END IF
      GI0 = 1
      GJ0 = 1
      IF (CNT(1) .GT. 0) CALL HPF_DAD_LOCAL_TO_GLOBAL(DAD, 1, 1, GI0,
     &                                                IERR)
      IF (CNT(2) .GT. 0) CALL HPF_DAD_LOCAL_TO_GLOBAL(DAD, 2, 1, GJ0,
     &                                                IERR)
      CALL SETUP(WA, WB, CNT(1), CNT(2), GI0, GJ0, N, M)

C     The serial run.
      DO 40 J = 1, M
         DO 30 I = 1, N
            S(I, J) = INITV(I, J, M)
            T(I, J) = S(I, J)
 30      CONTINUE
 40   CONTINUE
      DO 90 K = 1, NSWEEP
         DO 60 J = 2, M - 1
            DO 50 I = 2, N - 1
               T(I, J) = (S(I-1, J) + S(I+1, J) + S(I, J-1)
     &                    + S(I, J+1)) / 4
 50         CONTINUE
 60      CONTINUE
         R = 0
         DO 80 J = 1, M
            DO 70 I = 1, N
               R = R + ABS(T(I, J) - S(I, J))
               S(I, J) = T(I, J)
 70         CONTINUE
 80      CONTINUE
         SRES(K) = R
 90   CONTINUE

C     The distributed run.
      PER(1) = 0
      PER(2) = 0
      OKRES = .TRUE.
      OKSH = .TRUE.
      DO 100 K = 1, NSWEEP
         CALL HPF_SHIFT_OVERLAP(DAD, HPF_REAL8, WA, PER, IERR)
         OKSH = OKSH .AND. IERR .EQ. HPF_OK
         CALL SWEEP(WA, WB, WD, CNT(1), CNT(2), GI0, GJ0, N, M)
         CALL HPF_SUM(DAD, HPF_REAL8, WD, R, IERR)
         OKRES = OKRES .AND. IERR .EQ. HPF_OK
C        Terms are summed in another order than serially: allow the
C        rounding bound of N*M additions.
         BOUND = 4.0D0 * N * M * 1.0D-16 * (SRES(K) + 1.0D0)
         OKRES = OKRES .AND. ABS(R - SRES(K)) .LE. BOUND
         CALL NEWOLD(WA, WB, CNT(1), CNT(2))
 100  CONTINUE
      CALL OK(OKSH, 'overlap shifts')
      CALL OK(OKRES, 'residuals equal the serial run')

      CALL HPF_COPY(DAD, WA, WHOLE, G, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'gather by HPF_COPY')
      NBAD = 0
      DO 120 J = 1, M
         DO 110 I = 1, N
            IF (G(I, J) .NE. S(I, J)) NBAD = NBAD + 1
 110     CONTINUE
 120  CONTINUE
      CALL OK(NBAD .EQ. 0, 'Jacobi result equals the serial run')

C     The other intrinsics from Fortran on the final array:
C     TRANSPOSE to an M x N (BLOCK, BLOCK) array, SUM along DIM 1 into a
C     BLOCK vector, CSHIFT by 2 along DIM 2; each gathered and compared
C     with the serial result.
      DO 130 K = 1, 2
         DIST(K) = HPF_BLOCK
         PDIM(K) = K
 130  CONTINUE
      TEXT(1) = M
      TEXT(2) = N
      CALL HPF_DAD_CREATE(GRID, 2, LB, TEXT, DIST, BLK, PDIM, OLO, OHI,
     &                    DT, IERR)
      DO 140 K = 1, 2
         DIST(K) = HPF_COLLAPSED
         PDIM(K) = 0
 140  CONTINUE
      CALL HPF_DAD_CREATE(GRID, 2, LB, TEXT, DIST, BLK, PDIM, OLO, OHI,
     &                    DTW, IERR)
      CALL HPF_TRANSPOSE(DAD, WA, DT, WT, HPF_REAL8, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_TRANSPOSE')
      CALL HPF_COPY(DT, WT, DTW, GT, HPF_REAL8, IERR)
      NBAD = 0
      DO 160 J = 1, N
         DO 150 I = 1, M
            IF (GT(I, J) .NE. S(J, I)) NBAD = NBAD + 1
 150     CONTINUE
 160  CONTINUE
      CALL OK(NBAD .EQ. 0, 'TRANSPOSE equals the serial one')

      DIST(1) = HPF_BLOCK
      PDIM(1) = 2
      CALL HPF_DAD_CREATE(GRID, 1, LB, EXT(2), DIST, BLK, PDIM, OLO,
     &                    OHI, DR, IERR)
      DIST(1) = HPF_COLLAPSED
      PDIM(1) = 0
      CALL HPF_DAD_CREATE(GRID, 1, LB, EXT(2), DIST, BLK, PDIM, OLO,
     &                    OHI, DRW, IERR)
      CALL HPF_REDUCE_DIM(HPF_OP_SUM, DAD, HPF_REAL8, WA, 1, DR, WR,
     &                    IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_REDUCE_DIM')
      CALL HPF_COPY(DR, WR, DRW, RW, HPF_REAL8, IERR)
      NBAD = 0
      DO 180 J = 1, M
         WANT = 0
         DO 170 I = 1, N
            WANT = WANT + S(I, J)
 170     CONTINUE
         IF (ABS(RW(J) - WANT) .GT. 1.0D-12 * (ABS(WANT) + 1))
     &      NBAD = NBAD + 1
 180  CONTINUE
      CALL OK(NBAD .EQ. 0, 'SUM along DIM 1 equals the serial one')

      CALL HPF_CSHIFT(DAD, HPF_REAL8, WA, WS, 2, 2, IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_CSHIFT')
      CALL HPF_COPY(DAD, WS, WHOLE, SH, HPF_REAL8, IERR)
      NBAD = 0
      DO 200 J = 1, M
         DO 190 I = 1, N
            IF (SH(I, J) .NE. S(I, MOD(J + 1, M) + 1)) NBAD = NBAD + 1
 190     CONTINUE
 200  CONTINUE
      CALL OK(NBAD .EQ. 0, 'CSHIFT equals the serial one')
      CALL HPF_REDUCE_DIM(HPF_OP_SUM, DAD, HPF_REAL8, WA, 3, DR, WR,
     &                    IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'DIM 3 refused')

C     Errors come back in IERR, with a message.
      CALL HPF_SUM(9999, HPF_REAL8, WD, R, IERR)
      CALL OK(IERR .EQ. HPF_EBADHANDLE, 'bad handle')
      CALL HPF_ERROR_MESSAGE(MSG, IERR)
      CALL OK(IERR .EQ. HPF_OK .AND. INDEX(MSG, 'HPF_SUM') .GT. 0,
     &           'message names the call')
      CALL HPF_DAD_LOCAL_TO_GLOBAL(DAD, 3, 1, I, IERR)
      CALL OK(IERR .EQ. HPF_EBADARG, 'DIM 3 of a rank-2 DAD')

      CALL HPF_DAD_FREE(DAD, IERR)
      CALL HPF_DAD_FREE(WHOLE, IERR)
      CALL HPF_DAD_FREE(DT, IERR)
      CALL HPF_DAD_FREE(DTW, IERR)
      CALL HPF_DAD_FREE(DR, IERR)
      CALL HPF_DAD_FREE(DRW, IERR)
      CALL HPF_FINALIZE(IERR)
      CALL OK(IERR .EQ. HPF_OK, 'HPF_FINALIZE')
      WRITE (*, '(A,I0,A,I0,A,I0,A)') 'hpf_jacobi_f77 rank ', ME, ': ',
     &      NPASS, ' passed, ', NFAIL, ' failed'
      IF (NFAIL .NE. 0) STOP 1
      END

C     Initial values: fixed boundary values, zero inside.
      DOUBLE PRECISION FUNCTION INITV(I, J, M)
      INTEGER I, J, M
      INITV = 0.0D0
      IF (J .EQ. M) INITV = 2.0D0 + 0.1D0 * I
      IF (I .EQ. 1) INITV = 1.0D0
      END

      SUBROUTINE SETUP(A, B, C1, C2, GI0, GJ0, N, M)
      INTEGER C1, C2, GI0, GJ0, N, M, I, J
      DOUBLE PRECISION A(0:C1+1, 0:C2+1), B(0:C1+1, 0:C2+1), INITV
      DO 20 J = 1, C2
         DO 10 I = 1, C1
            A(I, J) = INITV(GI0 + I - 1, GJ0 + J - 1, M)
            B(I, J) = A(I, J)
 10      CONTINUE
 20   CONTINUE
      END

      SUBROUTINE SWEEP(A, B, D, C1, C2, GI0, GJ0, N, M)
      INTEGER C1, C2, GI0, GJ0, N, M, I, J, GI, GJ
      DOUBLE PRECISION A(0:C1+1, 0:C2+1), B(0:C1+1, 0:C2+1)
      DOUBLE PRECISION D(0:C1+1, 0:C2+1)
      DO 20 J = 1, C2
         DO 10 I = 1, C1
            GI = GI0 + I - 1
            GJ = GJ0 + J - 1
            IF (GI .GT. 1 .AND. GI .LT. N .AND. GJ .GT. 1 .AND.
     &          GJ .LT. M) THEN
               B(I, J) = (A(I-1, J) + A(I+1, J) + A(I, J-1)
     &                    + A(I, J+1)) / 4
            END IF
            D(I, J) = ABS(B(I, J) - A(I, J))
 10      CONTINUE
 20   CONTINUE
      END

      SUBROUTINE NEWOLD(A, B, C1, C2)
      INTEGER C1, C2, I, J
      DOUBLE PRECISION A(0:C1+1, 0:C2+1), B(0:C1+1, 0:C2+1)
      DO 20 J = 1, C2
         DO 10 I = 1, C1
            A(I, J) = B(I, J)
 10      CONTINUE
 20   CONTINUE
      END

      include '../tally_fixed.inc'
