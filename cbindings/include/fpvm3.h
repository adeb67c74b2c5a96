! fpvm3.h - Fortran constants of mpbridge's PVM 3.4 layer.
!
! Include it with  include 'fpvm3.h'  in fixed-form or free-form
! source: statements start in column 7, lines stay short, and
! comments start with '!' so both source forms accept them.
! Calls return their status in the last argument (info, bufid,
! ...): >= 0 is success, < 0 is one of the Pvm* codes below.

! Spawn flags for pvmfspawn
      integer PVMTASKDEFAULT
      parameter (PVMTASKDEFAULT = 0)
      integer PVMTASKHOST
      parameter (PVMTASKHOST = 1)
      integer PVMTASKARCH
      parameter (PVMTASKARCH = 2)
      integer PVMTASKDEBUG
      parameter (PVMTASKDEBUG = 4)
      integer PVMTASKTRACE
      parameter (PVMTASKTRACE = 8)
      integer PVMMPPFRONT
      parameter (PVMMPPFRONT = 16)
      integer PVMHOSTCOMPL
      parameter (PVMHOSTCOMPL = 32)
      integer PVMNOSPAWNPARENT
      parameter (PVMNOSPAWNPARENT = 64)

! Older spellings of the spawn flags
      integer PVMHOST
      parameter (PVMHOST = 1)
      integer PVMARCH
      parameter (PVMARCH = 2)
      integer PVMDEBUG
      parameter (PVMDEBUG = 4)
      integer PVMTRACE
      parameter (PVMTRACE = 8)

! Message encodings for pvmfinitsend and pvmfmkbuf
      integer PVMDATADEFAULT
      parameter (PVMDATADEFAULT = 0)
      integer PVMDATARAW
      parameter (PVMDATARAW = 1)
      integer PVMDATAINPLACE
      parameter (PVMDATAINPLACE = 2)
      integer PVMDATATRACE
      parameter (PVMDATATRACE = 4)

! Older spellings of the encodings
      integer PVMDEFAULT
      parameter (PVMDEFAULT = 0)
      integer PVMRAW
      parameter (PVMRAW = 1)
      integer PVMINPLACE
      parameter (PVMINPLACE = 2)

! Events for pvmfnotify; add PVMNOTIFYCANCEL to withdraw
      integer PVMTASKEXIT
      parameter (PVMTASKEXIT = 1)
      integer PVMHOSTDELETE
      parameter (PVMHOSTDELETE = 2)
      integer PVMHOSTADD
      parameter (PVMHOSTADD = 3)
      integer PVMROUTEADD
      parameter (PVMROUTEADD = 4)
      integer PVMROUTEDELETE
      parameter (PVMROUTEDELETE = 5)
      integer PVMNOTIFYCANCEL
      parameter (PVMNOTIFYCANCEL = 256)

! Data types for pvmfpack, pvmfunpack, pvmfpsend, pvmfreduce
      integer STRING
      parameter (STRING = 0)
      integer BYTE1
      parameter (BYTE1 = 1)
      integer INTEGER2
      parameter (INTEGER2 = 2)
      integer INTEGER4
      parameter (INTEGER4 = 3)
      integer REAL4
      parameter (REAL4 = 4)
      integer COMPLEX8
      parameter (COMPLEX8 = 5)
      integer REAL8
      parameter (REAL8 = 6)
      integer COMPLEX16
      parameter (COMPLEX16 = 7)
      integer INTEGER8
      parameter (INTEGER8 = 8)

! Options for pvmfsetopt and pvmfgetopt (S = the calling task)
      integer PVMROUTE
      parameter (PVMROUTE = 1)
      integer PVMDEBUGMASK
      parameter (PVMDEBUGMASK = 2)
      integer PVMAUTOERR
      parameter (PVMAUTOERR = 3)
      integer PVMOUTPUTTID
      parameter (PVMOUTPUTTID = 4)
      integer PVMOUTPUTCODE
      parameter (PVMOUTPUTCODE = 5)
      integer PVMTRACETID
      parameter (PVMTRACETID = 6)
      integer PVMTRACECODE
      parameter (PVMTRACECODE = 7)
      integer PVMTRACEBUFFER
      parameter (PVMTRACEBUFFER = 8)
      integer PVMTRACEOPTIONS
      parameter (PVMTRACEOPTIONS = 9)
      integer PVMFRAGSIZE
      parameter (PVMFRAGSIZE = 10)
      integer PVMRESVTIDS
      parameter (PVMRESVTIDS = 11)
      integer PVMSOUTPUTTID
      parameter (PVMSOUTPUTTID = 12)
      integer PVMSOUTPUTCODE
      parameter (PVMSOUTPUTCODE = 13)
      integer PVMSTRACETID
      parameter (PVMSTRACETID = 14)
      integer PVMSTRACECODE
      parameter (PVMSTRACECODE = 15)
      integer PVMSTRACEBUFFER
      parameter (PVMSTRACEBUFFER = 16)
      integer PVMSTRACEOPTIONS
      parameter (PVMSTRACEOPTIONS = 17)
      integer PVMSHOWTIDS
      parameter (PVMSHOWTIDS = 18)
      integer PVMPOLLTYPE
      parameter (PVMPOLLTYPE = 19)
      integer PVMPOLLTIME
      parameter (PVMPOLLTIME = 20)
      integer PVMOUTPUTCTX
      parameter (PVMOUTPUTCTX = 21)
      integer PVMTRACECTX
      parameter (PVMTRACECTX = 22)
      integer PVMSOUTPUTCTX
      parameter (PVMSOUTPUTCTX = 23)
      integer PVMSTRACECTX
      parameter (PVMSTRACECTX = 24)
      integer PVMNORESET
      parameter (PVMNORESET = 25)

! Values of PVMROUTE
      integer PVMDONTROUTE
      parameter (PVMDONTROUTE = 1)
      integer PVMALLOWDIRECT
      parameter (PVMALLOWDIRECT = 2)
      integer PVMROUTEDIRECT
      parameter (PVMROUTEDIRECT = 3)

! Values of PVMTRACEOPTIONS
      integer PVMTRACEFULL
      parameter (PVMTRACEFULL = 1)
      integer PVMTRACETIME
      parameter (PVMTRACETIME = 2)
      integer PVMTRACECOUNT
      parameter (PVMTRACECOUNT = 3)

! Values of PVMPOLLTYPE
      integer PVMPOLLCONSTANT
      parameter (PVMPOLLCONSTANT = 1)
      integer PVMPOLLSLEEP
      parameter (PVMPOLLSLEEP = 2)

! Mailbox flags for pvmfputinfo and pvmfrecvinfo
      integer PVMMBOXDEFAULT
      parameter (PVMMBOXDEFAULT = 0)
      integer PVMMBOXPERSISTENT
      parameter (PVMMBOXPERSISTENT = 1)
      integer PVMMBOXMULTIINSTANCE
      parameter (PVMMBOXMULTIINSTANCE = 2)
      integer PVMMBOXOVERWRITABLE
      parameter (PVMMBOXOVERWRITABLE = 4)
      integer PVMMBOXFIRSTAVAIL
      parameter (PVMMBOXFIRSTAVAIL = 8)
      integer PVMMBOXREADANDDELETE
      parameter (PVMMBOXREADANDDELETE = 16)
      integer PVMMBOXWAITFORINFO
      parameter (PVMMBOXWAITFORINFO = 32)

! Error codes returned in info (negative = failure)
      integer PvmOk
      parameter (PvmOk = 0)
      integer PvmBadParam
      parameter (PvmBadParam = -2)
      integer PvmMismatch
      parameter (PvmMismatch = -3)
      integer PvmOverflow
      parameter (PvmOverflow = -4)
      integer PvmNoData
      parameter (PvmNoData = -5)
      integer PvmNoHost
      parameter (PvmNoHost = -6)
      integer PvmNoFile
      parameter (PvmNoFile = -7)
      integer PvmDenied
      parameter (PvmDenied = -8)
      integer PvmNoMem
      parameter (PvmNoMem = -10)
      integer PvmBadMsg
      parameter (PvmBadMsg = -12)
      integer PvmSysErr
      parameter (PvmSysErr = -14)
      integer PvmNoBuf
      parameter (PvmNoBuf = -15)
      integer PvmNoSuchBuf
      parameter (PvmNoSuchBuf = -16)
      integer PvmNullGroup
      parameter (PvmNullGroup = -17)
      integer PvmDupGroup
      parameter (PvmDupGroup = -18)
      integer PvmNoGroup
      parameter (PvmNoGroup = -19)
      integer PvmNotInGroup
      parameter (PvmNotInGroup = -20)
      integer PvmNoInst
      parameter (PvmNoInst = -21)
      integer PvmHostFail
      parameter (PvmHostFail = -22)
      integer PvmNoParent
      parameter (PvmNoParent = -23)
      integer PvmNotImpl
      parameter (PvmNotImpl = -24)
      integer PvmDSysErr
      parameter (PvmDSysErr = -25)
      integer PvmBadVersion
      parameter (PvmBadVersion = -26)
      integer PvmOutOfRes
      parameter (PvmOutOfRes = -27)
      integer PvmDupHost
      parameter (PvmDupHost = -28)
      integer PvmCantStart
      parameter (PvmCantStart = -29)
      integer PvmAlready
      parameter (PvmAlready = -30)
      integer PvmNoTask
      parameter (PvmNoTask = -31)
      integer PvmNotFound
      parameter (PvmNotFound = -32)
      integer PvmExists
      parameter (PvmExists = -33)
      integer PvmHostrNMstr
      parameter (PvmHostrNMstr = -34)
      integer PvmParentNotSet
      parameter (PvmParentNotSet = -35)
      integer PvmIPLoopback
      parameter (PvmIPLoopback = -36)

! Names from PVM 3.3 (here -32 and -33, unlike pvm3.h)
      integer PvmNoEntry
      parameter (PvmNoEntry = -32)
      integer PvmDupEntry
      parameter (PvmDupEntry = -33)
