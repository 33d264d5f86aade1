/* An arch header of the tree: a port check that fails the caller when the board reports an error. */
#ifndef _ASM_ADV_REGS_H
#define _ASM_ADV_REGS_H

#define ADV_REG_CTRL	0x2f0
#define ADV_REG_ERR	0x2f1
#define ADV_CHECK_PORT() \
	do { if (inb(ADV_REG_ERR) & 0x01) return -EIO; } while (0)

#endif
