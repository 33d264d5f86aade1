/* scale's unit: the minor of the node it was opened through */
#define SCALE_UNIT()	iminor(inode)
