/*
 * An arch header of the tree (sly32): a range check spelt as a value, a
 * GNU statement expression built by a second macro, that returns from its
 * caller when the value is out of range.
 */
#ifndef _ASM_SLY_CHK_H
#define _ASM_SLY_CHK_H

#define __sly_bounded(v, lim, err) \
	({ unsigned long __sb = (v); if (__sb > (lim)) return (err); (int)__sb; })
#define sly_chan(v)	__sly_bounded(v, 3, -ENXIO)

#endif
