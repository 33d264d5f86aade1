/* red23: found only through the directory's kbuild include path. */
#ifndef REDLOCAL_H
#define REDLOCAL_H

/* a comma expression whose middle operand may leave the caller */
#define redlocal_gate(dev, v) \
	((dev)->gated++, ({ if ((v) & 0x80) return -EPERM; }), (v) & 0x7f)

#endif
