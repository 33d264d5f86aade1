/* A header of the driver: it declares forward_ioctl, so the helper's name
 * must avoid it (the compiler sees this declaration with the file). */
int forward_ioctl(int minor);
