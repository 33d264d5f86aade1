/* The driver's umbrella header: every kernel header it needs. */
#include <linux/fs.h>
#include <linux/uaccess.h>
