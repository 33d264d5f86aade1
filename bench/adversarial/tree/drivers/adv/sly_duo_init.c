/*
 * sly_duo_init: the module init of sly_duo.ko, which registers the main
 * node and then the auxiliary one.  It lives in a file of its own so that
 * the two nodes' files call each other in one direction only (the aux
 * handler calls the main one); the shape under test is that call.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/errno.h>
#include "sly_duo.h"

static int __init duo_init(void)
{
	if (duo_main_init())
		return -EBUSY;
	return duo_aux_init();
}
module_init(duo_init);
MODULE_LICENSE("GPL");
