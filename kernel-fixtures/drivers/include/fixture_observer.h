/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture drivers' window for the tests: each ioctl handler calls
 * fixture_observe(inode) as its first statement, and /dev/fixture_observer
 * tells the calling task what the handler saw.
 */
#ifndef _FIXTURE_OBSERVER_H
#define _FIXTURE_OBSERVER_H

struct inode;

void fixture_observe_handler(struct inode *inode, const char *handler);
void fixture_note_locking(void);

/* Records the lock state, the inode and the calling function. */
#define fixture_observe(inode)	fixture_observe_handler(inode, __func__)

#endif /* _FIXTURE_OBSERVER_H */
