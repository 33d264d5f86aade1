/* SPDX-License-Identifier: GPL-2.0 */
/* fx_proto: the driver's own declarations, in the spelling of its time. */
#ifndef _FX_PROTO_H
#define _FX_PROTO_H

struct file;
struct inode;

static int fx_proto_open(struct inode *, struct file *);
static int fx_proto_ioctl(struct inode *, struct file *, uint, ulong);

#endif /* _FX_PROTO_H */
