/* sly32: found only through the directory's kbuild include path. */
#ifndef SLYCHK_H
#define SLYCHK_H

/* a checked build returns from the caller on a negative value */
#ifdef SLY_CHECKED
#define sly_take(v)	({ int __st = (v); if (__st < 0) return __st; __st; })
#else
#define sly_take(v)	(v)
#endif

/* the unit of an inode whose name is pasted together */
#define SLY_PASTED_UNIT(p)	(iminor(p##node) & 3)

#endif
