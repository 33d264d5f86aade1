/*
 * red34: a lower-case tree header (<linux/r34gate.h>) whose statement
 * macros and statement expressions leave their caller.
 */
#ifndef _LINUX_R34GATE_H
#define _LINUX_R34GATE_H

#define R34GATE_PORT		0x2c0

/* the gate is shut: give up on the call being handled */
#define r34_gate_open()	\
	do { if (inb(R34GATE_PORT) & 0x01) return -EAGAIN; } while (0)

/* a value read from the gate, or leave the caller with -EIO */
#define r34_gate_read(off) ({ \
	int __v = inb(R34GATE_PORT + (off)); \
	if (__v & 0x80) \
		return -EIO; \
	__v; })

/* harmless unless the including file asks for the strict form */
#define r34_need(x)	((void)(x))

#endif
