!     msgtypesf.h - mpbridge TCGMSG: flag bits a Fortran program may add
!     to a message type (user types are 1..32767).
      integer msgdbl, msgint, msgchr
      parameter (msgdbl=65536, msgint=131072, msgchr=262144)
