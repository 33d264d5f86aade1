// SPDX-License-Identifier: GPL-2.0-only
/// Find .unlocked_ioctl handlers that still take the Big Kernel Lock.
///
/// Converting .ioctl to .unlocked_ioctl pushes lock_kernel() down into the
/// handler, which keeps the old behaviour but not the point of the change:
/// each such handler still has to be audited and the BKL replaced by the
/// driver's own locking (or removed where nothing needs it).
//
// Confidence: High
// Copyright: (C) 2026 The ioctl-rework authors.
// Options: --no-includes --include-headers
//
// The rules are:
// - bkl_unlocked_fops: every file_operations initializer setting
//   .unlocked_ioctl;
// - bkl_taken: that handler, defined in this file, calls lock_kernel()
//   anywhere in its body; one report per call.

virtual patch
virtual context
virtual org
virtual report

@ bkl_unlocked_fops depends on context || org || report @
identifier fops, handler;
@@
struct file_operations fops = { ..., .unlocked_ioctl = handler, ... };

@ bkl_taken @
identifier bkl_unlocked_fops.handler;
position p;
@@
handler(...) { <+... lock_kernel@p(); ...+> }

@ bkl_taken_context depends on context @
identifier bkl_unlocked_fops.handler;
position bkl_taken.p;
@@
handler(...) { <+...
* lock_kernel@p();
  ...+> }

@ script:python depends on org @
fops << bkl_unlocked_fops.fops; h << bkl_unlocked_fops.handler; p << bkl_taken.p;
@@
coccilib.org.print_todo(p[0], "%s: .unlocked_ioctl = %s takes the BKL" % (fops, h))

@ script:python depends on report @
fops << bkl_unlocked_fops.fops; h << bkl_unlocked_fops.handler; p << bkl_taken.p;
@@
print("%s:%s: %s: .unlocked_ioctl = %s: bkl-in-unlocked: lock_kernel() in an "
      "unlocked handler" % (p[0].file, p[0].line, fops, h))
