/* The driver's header already declares the names a wrapper would take. */
long pa_unlocked_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
#define pb_unlocked_ioctl	pb_compat_entry
