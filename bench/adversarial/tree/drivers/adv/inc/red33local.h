/* red33: found only through the directory's kbuild include path. */
#ifndef RED33LOCAL_H
#define RED33LOCAL_H

/* the board is busy: give up on the call being handled */
#define R33_RD_CHECK()	do { if (inb(0x2a0) & 0x80) return -EBUSY; } while (0)
#define R33_WR_CHECK()	do { if (inb(0x2a0) & 0x40) return -EPERM; } while (0)

#endif
