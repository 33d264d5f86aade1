// rule: ioctl_to_unlocked_ioctl.cocci
/*
 * Family "per_cpu" of semantic-patches/macros.h: a per-CPU variable,
 * with and without an initializer.  Coccinelle's standard.h expands
 * DEFINE_PER_CPU into code spatch 1.1.1 cannot parse, and applies it
 * before any hint of ours: only builtins without that entry (ours, made
 * by macro_builtins.py) let spatch parse the file whole.
 */
int gauge_read();
#include <linux/fs.h>
#include <linux/percpu.h>

struct gauge_sample {
	unsigned long reads;
};

static DEFINE_PER_CPU(struct gauge_sample, gauge_samples);
static DEFINE_PER_CPU(int, gauge_count) = 0;

static int gauge_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	__get_cpu_var(gauge_samples).reads++;
	return gauge_read(iminor(inode), arg);
}

static struct file_operations gauge_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= gauge_ioctl,
};
