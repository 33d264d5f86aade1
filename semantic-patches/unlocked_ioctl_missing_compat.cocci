// SPDX-License-Identifier: GPL-2.0-only
/// Find file_operations that set .unlocked_ioctl but not .compat_ioctl.
///
/// On a 64-bit kernel the ioctl of a 32-bit process goes to .compat_ioctl;
/// without one it fails with -ENOTTY, so the driver cannot be used from
/// 32-bit userspace.  A driver whose commands pass no pointers inside
/// structures can usually set .compat_ioctl = compat_ptr_ioctl.
//
// Confidence: Moderate
// Copyright: (C) 2026 The ioctl-rework authors.
// Options: --no-includes --include-headers
//
// The rules are:
// - compat_missing_fops: every file_operations initializer setting
//   .unlocked_ioctl;
// - compat_present: the same initializer also sets .compat_ioctl, to
//   anything (NULL included: that is a stated choice);
// - one report per compat_missing_fops without compat_present.
// Moderate: a driver only ever built for 32-bit or 64-bit-only userspace
// may not need .compat_ioctl; reviewers decide.

virtual patch
virtual context
virtual org
virtual report

@ compat_missing_fops depends on context || org || report @
identifier fops, handler;
position p;
@@
struct file_operations fops = { ..., .unlocked_ioctl = handler@p, ... };

@ compat_present @
identifier compat_missing_fops.fops;
expression compat;
@@
struct file_operations fops = { ..., .compat_ioctl = compat, ... };

@ compat_missing_context depends on context && !compat_present @
identifier compat_missing_fops.fops;
identifier compat_missing_fops.handler;
@@
struct file_operations fops = { ...,
* .unlocked_ioctl = handler,
  ... };

@ script:python depends on org && !compat_present @
fops << compat_missing_fops.fops; h << compat_missing_fops.handler; p << compat_missing_fops.p;
@@
coccilib.org.print_todo(p[0], "%s: .unlocked_ioctl = %s without .compat_ioctl" % (fops, h))

@ script:python depends on report && !compat_present @
fops << compat_missing_fops.fops; h << compat_missing_fops.handler; p << compat_missing_fops.p;
@@
print("%s:%s: %s: .unlocked_ioctl = %s: missing-compat: no .compat_ioctl, "
      "32-bit processes get -ENOTTY" % (p[0].file, p[0].line, fops, h))
