/*
 * lock_kernel() goes before the first statement, wherever the
 * declarations before it end: after a declarer macro, an initializer
 * with braces, a string holding a brace, a declaration inside an #ifdef
 * that closes before the statement, and comments holding braces.
 */
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/wait.h>
#include <linux/smp_lock.h>
void tape_rewind();

#define TAPE_REWIND	_IO('t', 1)

static int tape_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	DECLARE_WAITQUEUE(wait, current);
	static const int retries[] = {
		1, 2, 4,
	};
	static const char banner[] = "tape: { not a block }";
	/* A comment { with a brace } between the declarations. */
#ifdef TAPE_DEBUG
	int calls = 0;
#endif
	struct tape_unit *unit = file->private_data;

	// the first statement comes next
	if (cmd != TAPE_REWIND)
		return -ENOTTY;
	add_wait_queue(&unit->wait, &wait);
	tape_rewind(unit, retries[0], banner);
	remove_wait_queue(&unit->wait, &wait);
	return 0;
}

static struct file_operations tape_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= tape_ioctl,
};
