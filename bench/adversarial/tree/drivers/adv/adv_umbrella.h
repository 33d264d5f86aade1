/* The one header adv_umbrella.c includes: every kernel header it needs. */
#ifndef ADV_UMBRELLA_H
#define ADV_UMBRELLA_H

#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>
#include <asm/io.h>

#define UM_READ		_IOR('U', 1, int)
#define UM_PORT		0x2c0

#endif
