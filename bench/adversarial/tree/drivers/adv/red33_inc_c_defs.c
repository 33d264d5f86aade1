/*
 * red33_inc_c_defs.c: the port checks of red33_inc_c, kept in a .c file
 * that red33_inc_c.c includes (not a module of its own).
 */
#define IC_PORT		0x2c0
#define ic_need_ready()	do { if (!(inb(IC_PORT) & 1)) return -EAGAIN; } while (0)
