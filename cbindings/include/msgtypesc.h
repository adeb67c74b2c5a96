/* msgtypesc.h - mpbridge TCGMSG: flag bits a program may OR into a
 * message type (user types are 1..32767). They tell what the message
 * holds; on MPI they are simply part of the type, which a receive must
 * match exactly. */
#ifndef MSGTYPES_H_
#define MSGTYPES_H_

#define MSGDBL 65536  /* doubles */
#define MSGINT 131072 /* integers (C long) */
#define MSGCHR 262144 /* characters */

#endif /* MSGTYPES_H_ */
