/* Shared by the two files of red_mxpair.ko. */
#ifndef RED_MXPAIR_H
#define RED_MXPAIR_H

#define MXP_READY	_IO('A', 1)
#define MXP_WAIT	_IO('A', 2)

extern int mxp_ready;
int mxp_signal(unsigned int cmd);

#endif
