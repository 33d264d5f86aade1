/* pluvio: always the old entry point, for the vendor tools */
#undef HAVE_UNLOCKED_IOCTL
