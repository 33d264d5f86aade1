// SPDX-License-Identifier: GPL-2.0-only
/// Find .unlocked_ioctl handlers that return -ENOIOCTLCMD.
///
/// -ENOIOCTLCMD is a kernel-internal code: the compat layer and a few
/// callers translate it, but a file's .unlocked_ioctl returns straight to
/// userspace, which sees ENOTTY or, on kernels that predate the
/// translation in vfs_ioctl(), the meaningless errno 515.  Return -ENOTTY
/// for an unknown command.
//
// Confidence: Moderate
// Copyright: (C) 2026 The ioctl-rework authors.
// Options: --no-includes --include-headers
//
// The rules are:
// - eno_unlocked_fops: every file_operations initializer setting
//   .unlocked_ioctl;
// - eno_returned: that handler, defined in this file, returns
//   -ENOIOCTLCMD or assigns it (to the variable it later returns); a
//   comparison with -ENOIOCTLCMD is not a report.
// Moderate: a handler may assign -ENOIOCTLCMD and then overwrite it.

virtual patch
virtual context
virtual org
virtual report

@ eno_unlocked_fops depends on context || org || report @
identifier fops, handler;
@@
struct file_operations fops = { ..., .unlocked_ioctl = handler, ... };

@ eno_returned @
identifier eno_unlocked_fops.handler;
expression E;
position p;
@@
handler(...) { <+...
(
  return -ENOIOCTLCMD@p;
|
  E = -ENOIOCTLCMD@p
)
  ...+> }

@ eno_returned_context depends on context @
identifier eno_unlocked_fops.handler;
position eno_returned.p;
@@
handler(...) { <+...
* -ENOIOCTLCMD@p
  ...+> }

@ script:python depends on org @
fops << eno_unlocked_fops.fops; h << eno_unlocked_fops.handler; p << eno_returned.p;
@@
coccilib.org.print_todo(p[0], "%s: .unlocked_ioctl = %s returns -ENOIOCTLCMD" % (fops, h))

@ script:python depends on report @
fops << eno_unlocked_fops.fops; h << eno_unlocked_fops.handler; p << eno_returned.p;
@@
print("%s:%s: %s: .unlocked_ioctl = %s: enoioctlcmd-unlocked: returns -ENOIOCTLCMD, "
      "userspace sees ENOTTY or EINVAL" % (p[0].file, p[0].line, fops, h))
