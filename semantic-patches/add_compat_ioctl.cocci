// SPDX-License-Identifier: GPL-2.0-only
/// Add .compat_ioctl to file_operations whose handler the classifier cleared.
///
/// A 32-bit process on a 64-bit kernel reaches a driver through
/// .compat_ioctl.  Sharing the handler is right only when every command
/// is the same for both ABIs, which SmPL cannot tell: the compat
/// classifier (wrappers/ioctl_rework/compat/) decides by compiling each
/// command and type for i386 and x86_64, and names the fops here.
//
// Confidence: High
// Copyright: (C) 2026 The ioctl-rework authors.
// Options: --no-includes --include-headers --smpl-spacing
//
// The rules are:
// - -D same_handler=a,b: those fops (integer or no arguments, every
//   command number the same) get .compat_ioctl = their .unlocked_ioctl.
// - -D compat_ptr=c,d: those fops (pointer arguments only, every layout
//   the same) get .compat_ioctl = compat_ptr_ioctl with -D compat_ptr_ioctl
//   (targets >= 5.5); otherwise a new NAME_compat_ioctl (NAME: the entry
//   without _unlocked_ioctl or _ioctl), before the fops,
//   calls the entry with compat_ptr(arg) (and <linux/compat.h> is added
//   after <linux/fs.h>; without that include the fops is left alone).
//   Two fops sharing an entry share its compat entry, written once.
// - -D needs_translation=e -D unknown=f: listed in report mode only.
// - A fops that already sets .compat_ioctl is never touched.
// Report lines: FILE:LINE: FOPS: .unlocked_ioctl = ENTRY: compat: CLASS.

virtual patch
virtual context
virtual org
virtual report
virtual compat_ptr_ioctl

@initialize:python@
@@
# The logic is ioctl_rule/compat_entries.py beside this file, on PYTHONPATH
# (rules.spatch_environment, make cocci).
try:
    from ioctl_rule import bindings, compat_entries
except ImportError as error:
    raise ImportError("ioctl-rework: cannot import the package ioctl_rule (%s): put "
                      "the directory of this rule, semantic-patches, on PYTHONPATH"
                      % error) from error

@script:python@
names << virtual.same_handler;
@@
compat_entries.listed(names, "same-handler")

@script:python@
names << virtual.compat_ptr;
@@
compat_entries.listed(names, "compat-ptr")

@script:python@
names << virtual.needs_translation;
@@
compat_entries.listed(names, "needs-translation")

@script:python@
names << virtual.unknown;
@@
compat_entries.listed(names, "unknown")

@script:python depends on compat_ptr_ioctl@
@@
compat_entries.flags.compat_ptr_ioctl = True

@ ac_present @
identifier fops, c;
position p;
@@
struct file_operations fops = { ..., .compat_ioctl = c@p, ... };

@ script:python @
fops << ac_present.fops; p << ac_present.p;
@@
compat_entries.compat_present(fops, p)

@ ac_fs_h @
position p;
@@
#include <linux/fs.h>@p

@ script:python @
p << ac_fs_h.p;
@@
compat_entries.fs_h_included(p)

@ ac_fops @
identifier fops, entry;
position p;
@@
struct file_operations fops = { ..., .unlocked_ioctl = entry@p, ... };

@ script:python ac_decide @
fops << ac_fops.fops; entry << ac_fops.entry; p << ac_fops.p;
same; ptr; wrap_new; wrap_again; wfn;
@@
bindings.bind(cocci, coccinelle, compat_entries.decide(fops, entry, p))

@ ac_same depends on patch @
identifier ac_fops.fops, ac_decide.same;
@@
struct file_operations fops = { ...,
  .unlocked_ioctl = same,
+ .compat_ioctl = same,
  ... };

@ ac_ptr depends on patch @
identifier ac_fops.fops, ac_decide.ptr;
@@
struct file_operations fops = { ...,
  .unlocked_ioctl = ptr,
+ .compat_ioctl = compat_ptr_ioctl,
  ... };

@ ac_wrapper depends on patch @
identifier ac_fops.fops, ac_decide.wrap_new, ac_decide.wfn;
symbol file, cmd, arg;
@@
+#ifdef CONFIG_COMPAT
+static long wfn(struct file *file, unsigned int cmd,
+		unsigned long arg)
+{
+	return wrap_new(file, cmd, (unsigned long)compat_ptr(arg));
+}
+#endif
+
  struct file_operations fops = { ...,
  .unlocked_ioctl = wrap_new,
+#ifdef CONFIG_COMPAT
+ .compat_ioctl = wfn,
+#endif
  ... };

@ ac_wrapper_again depends on patch @
identifier ac_fops.fops, ac_decide.wrap_again, ac_decide.wfn;
@@
  struct file_operations fops = { ...,
  .unlocked_ioctl = wrap_again,
+#ifdef CONFIG_COMPAT
+ .compat_ioctl = wfn,
+#endif
  ... };

@ ac_include depends on ac_wrapper @
@@
  #include <linux/fs.h>
+ #include <linux/compat.h>

@ script:python depends on report @
fops << ac_fops.fops; entry << ac_fops.entry; p << ac_fops.p;
@@
compat_entries.report(fops, entry, p)
