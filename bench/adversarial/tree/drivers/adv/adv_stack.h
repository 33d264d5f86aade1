/* Shared by the two files of adv_stack.ko. */
#ifndef ADV_STACK_H
#define ADV_STACK_H

#define STACK_INC	_IO('S', 1)
#define STACK_GET	_IO('S', 2)
#define STACK_HELLO	_IO('S', 3)

extern struct file_operations stack_lower_fops;

#endif
