C     The 2-D Jacobi solver of ex_jacobi.c in Fortran 77 on an Express
C     processor grid (KXGINI), halos swapped with KXCHAN (columns,
C     contiguous here) and KXVWRI/KXVREA (rows, strided), the change
C     combined with KXDMAX, the blocks gathered with KXCONC and compared
C     with a serial run bit for bit:
C
C         mpiexec -n N ex_jacobif
C
C     Prints "ex_jacobif node K: P passed, F failed" and node 0 the
C     checksum line of ex_jacobi.
      PROGRAM JACF
      INCLUDE 'express.fh'
      INTEGER NX, NY, ITERS, LD
      PARAMETER (NX = 30, NY = 22, ITERS = 200, LD = NX + 2)
      DOUBLE PRECISION U(0:NX+1, 0:NY+1), W(0:NX+1, 0:NY+1)
      DOUBLE PRECISION SA(NX, NY), SB(NX, NY), PLATE(NX, NY)
      DOUBLE PRECISION PART(4 + NX * NY), ALL(4 * 64 + NX * NY)
      DOUBLE PRECISION CHANGE, WANT, SUM
      INTEGER ENV(4), ME, N, DIMS(2), PER(2), G, C(2)
      INTEGER R0, NXL, C0, NYL, UP, DOWN, LEFT, RIGHT
      INTEGER S, D, T1, T2, IT, I, J, K, GI, GJ, POS, RC
      INTEGER NPASS, NFAIL, DUMMY(1), Q(4), MINE, CAP
      NPASS = 0
      NFAIL = 0
      RC = KXPARA(ENV)
      ME = ENV(1)
      N = ENV(2)
      DIMS(1) = 0
      DIMS(2) = 0
      PER(1) = 0
      PER(2) = 0
      G = KXGINI(2, DIMS, PER)
      IF (G .LT. 0) NFAIL = NFAIL + 1
      RC = KXGCRD(G, ME, C)
      CALL SPLIT(NX, DIMS(1), C(1), R0, NXL)
      CALL SPLIT(NY, DIMS(2), C(2), C0, NYL)
      DO 10 J = 0, NY + 1
         DO 10 I = 0, NX + 1
            U(I, J) = 0D0
            GI = R0 + I - 1
            GJ = C0 + J - 1
            IF (I .LE. NXL + 1 .AND. J .LE. NYL + 1 .AND. GI .EQ. 0
     &          .AND. GJ .GE. 0 .AND. GJ .LT. NY) U(I, J) = 1D0
   10 CONTINUE
      RC = KXGSHF(G, 0, 1, UP, DOWN)
      RC = KXGSHF(G, 1, 1, LEFT, RIGHT)
      DO 100 IT = 1, ITERS
C        Rows (strided): last row down, top halo from above; and back.
         D = DOWN
         T1 = 1
         RC = KXVWRI(U(NXL, 1), 8, NYL, 8 * LD, D, T1)
         S = UP
         RC = KXVREA(U(0, 1), 8, NYL, 8 * LD, S, T1)
         D = UP
         T1 = 2
         RC = KXVWRI(U(1, 1), 8, NYL, 8 * LD, D, T1)
         S = DOWN
         RC = KXVREA(U(NXL + 1, 1), 8, NYL, 8 * LD, S, T1)
C        Columns (contiguous): exchange with the shift partners.
         S = LEFT
         D = RIGHT
         T1 = 3
         T2 = 3
         RC = KXCHAN(U(1, 0), 8 * NXL, S, T1, U(1, NYL), 8 * NXL,
     &               D, T2)
         S = RIGHT
         D = LEFT
         T1 = 4
         T2 = 4
         RC = KXCHAN(U(1, NYL + 1), 8 * NXL, S, T1, U(1, 1), 8 * NXL,
     &               D, T2)
C        The cells of this block off the plate's edge.
         CALL SWEEP(U, W, 0, NX + 1, NY + 1, MAX(1, 2 - R0),
     &              MIN(NXL, NX - 1 - R0), MAX(1, 2 - C0),
     &              MIN(NYL, NY - 1 - C0), CHANGE)
         RC = KXCOMB(CHANGE, KXDMAX, 8, 1, ALLNODES, DUMMY, 0)
  100 CONTINUE
C     Every block, after its position, to every node.
      PART(1) = R0
      PART(2) = NXL
      PART(3) = C0
      PART(4) = NYL
      POS = 4
      DO 50 J = 1, NYL
         DO 50 I = 1, NXL
            POS = POS + 1
            PART(POS) = U(I, J)
   50 CONTINUE
      MINE = 8 * POS
      CAP = 8 * (4 * N + NX * NY)
      RC = KXCONC(PART, MINE, ALL, CAP, ALLNODES, DUMMY, 0)
      IF (RC .NE. CAP) NFAIL = NFAIL + 1
      POS = 0
      DO 60 K = 1, N
         DO 55 I = 1, 4
            Q(I) = INT(ALL(POS + I))
   55    CONTINUE
         POS = POS + 4
         DO 60 J = 1, Q(4)
            DO 60 I = 1, Q(2)
               POS = POS + 1
               PLATE(Q(1) + I, Q(3) + J) = ALL(POS)
   60 CONTINUE
C     The serial run.
      DO 70 J = 1, NY
         DO 70 I = 1, NX
            SA(I, J) = 0D0
            IF (I .EQ. 1) SA(I, J) = 1D0
   70 CONTINUE
      DO 90 IT = 1, ITERS
         CALL SWEEP(SA, SB, 1, NX, NY, 2, NX - 1, 2, NY - 1, WANT)
   90 CONTINUE
      SUM = 0D0
      DO 95 I = 1, NX
         DO 95 J = 1, NY
            IF (PLATE(I, J) .EQ. SA(I, J)) THEN
               NPASS = NPASS + 1
            ELSE
               NFAIL = NFAIL + 1
            END IF
            SUM = SUM + PLATE(I, J)
   95 CONTINUE
      IF (CHANGE .EQ. WANT) THEN
         NPASS = NPASS + 1
      ELSE
         NFAIL = NFAIL + 1
      END IF
      IF (ME .EQ. 0) WRITE (*, '(A,I0,A,I0,A,I0,A,ES24.17)')
     &   'ex_jacobif grid ', DIMS(1), 'x', DIMS(2), ', ', ITERS,
     &   ' iterations, checksum ', SUM
      WRITE (*, '(A,I0,A,I0,A,I0,A)') 'ex_jacobif node ', ME, ': ',
     &   NPASS, ' passed, ', NFAIL, ' failed'
      END

C     One Jacobi sweep of A(L:U1, L:U2) on its cells I1:I2 x J1:J2, each
C     the mean of its four neighbours, B a work array of A's shape;
C     CHANGE the largest change of a cell.
      SUBROUTINE SWEEP(A, B, L, U1, U2, I1, I2, J1, J2, CHANGE)
      INTEGER L, U1, U2, I1, I2, J1, J2, I, J
      DOUBLE PRECISION A(L:U1, L:U2), B(L:U1, L:U2), CHANGE, V, DD
      CHANGE = 0D0
      DO 10 J = L, U2
         DO 10 I = L, U1
            B(I, J) = A(I, J)
   10 CONTINUE
      DO 20 I = I1, I2
         DO 20 J = J1, J2
            V = 0.25D0 * (A(I - 1, J) + A(I + 1, J) + A(I, J - 1)
     &                    + A(I, J + 1))
            DD = ABS(V - A(I, J))
            IF (DD .GT. CHANGE) CHANGE = DD
            B(I, J) = V
   20 CONTINUE
      DO 30 J = L, U2
         DO 30 I = L, U1
            A(I, J) = B(I, J)
   30 CONTINUE
      END

C     First index (from 0) and count of block K of M over N points.
      SUBROUTINE SPLIT(N, M, K, FIRST, COUNT)
      INTEGER N, M, K, FIRST, COUNT, BASE, EXTRA
      BASE = N / M
      EXTRA = MOD(N, M)
      FIRST = K * BASE + MIN(K, EXTRA)
      COUNT = BASE
      IF (K .LT. EXTRA) COUNT = BASE + 1
      END
