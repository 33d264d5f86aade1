/* An arch header of the tree (red23): a register read and a hidden return. */
#ifndef _ASM_RED_HW_H
#define _ASM_RED_HW_H

#define RED_HW_BASE	0x3c0
#define red_hw_busy()	(inb(RED_HW_BASE) & 0x80)
/* the comma keeps the register write and the return in one expression */
#define RED_HW_BAIL(v)	if (v) return (outb(0, RED_HW_BASE), -EIO)

#endif
