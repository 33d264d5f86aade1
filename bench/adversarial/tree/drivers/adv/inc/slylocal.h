/* sly32: found only through the directory's kbuild include path. */
#ifndef SLYLOCAL_H
#define SLYLOCAL_H

/* the unit a minor number selects: four units per board */
#define SLY_UNIT_OF(ino)	(iminor(ino) & 3)

/* the unit of the call being handled: names its caller's `inode` */
#define SLY_THIS_UNIT		SLY_UNIT_OF(inode)

/* start a handler's work again from its retry label */
#define SLY_RETRY(label)	goto label

#endif
