/* hydro on its vendor kernel */
#define unlocked_ioctl ioctl
