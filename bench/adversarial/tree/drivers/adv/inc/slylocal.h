/* sly32: found only through the directory's kbuild include path. */
#ifndef SLYLOCAL_H
#define SLYLOCAL_H

/* the unit a minor number selects: four units per board */
#define SLY_UNIT_OF(ino)	(iminor(ino) & 3)

#endif
