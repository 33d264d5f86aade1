// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// Each .ioctl entry becomes .unlocked_ioctl (and .compat_ioctl), is kept
// under #else for -D multi_kernel, or goes when dead; a static handler only
// dead entries named goes too.  Reads the action decided for each entry
// (rewriting.action_at(), runtime_action_at()).

virtual patch

// Each rule rewrites the very entries action() gave it, in any spelling.

@ switch_entry depends on patch @
identifier fops_entry.handler, switch_fops.entry;
type T, CT;
identifier fops;
position sq1 : script:python () { rewriting.action_at(sq1) == "plain" };
expression fops_index;
@@
(
T fops = { ...,
- .ioctl = \(handler@sq1\|&handler@sq1\|(CT)handler@sq1\),
+ .unlocked_ioctl = entry,
  ... };
|
T fops = { ...,
- ioctl: \(handler@sq1\|&handler@sq1\|(CT)handler@sq1\),
+ .unlocked_ioctl = entry,
  ... };
|
T fops[...] = { ..., { ...,
- .ioctl = \(handler@sq1\|&handler@sq1\|(CT)handler@sq1\),
+ .unlocked_ioctl = entry,
  ... }, ... };
|
T fops[...] = { ..., [fops_index] = { ...,
- .ioctl = \(handler@sq1\|&handler@sq1\|(CT)handler@sq1\),
+ .unlocked_ioctl = entry,
  ... }, ... };
|
T fops[...] = { ..., { ...,
- ioctl: \(handler@sq1\|&handler@sq1\|(CT)handler@sq1\),
+ .unlocked_ioctl = entry,
  ... }, ... };
|
T fops[...] = { ..., [fops_index] = { ...,
- ioctl: \(handler@sq1\|&handler@sq1\|(CT)handler@sq1\),
+ .unlocked_ioctl = entry,
  ... }, ... };
)

@ switch_compat depends on patch @
identifier fops_entry.handler, switch_fops.entry;
type T, CT;
identifier fops;
position sq2 : script:python () { rewriting.action_at(sq2) == "compat" };
expression fops_index;
@@
(
T fops = { ...,
- .ioctl = \(handler@sq2\|&handler@sq2\|(CT)handler@sq2\),
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
  ... };
|
T fops = { ...,
- ioctl: \(handler@sq2\|&handler@sq2\|(CT)handler@sq2\),
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
  ... };
|
T fops[...] = { ..., { ...,
- .ioctl = \(handler@sq2\|&handler@sq2\|(CT)handler@sq2\),
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
  ... }, ... };
|
T fops[...] = { ..., [fops_index] = { ...,
- .ioctl = \(handler@sq2\|&handler@sq2\|(CT)handler@sq2\),
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
  ... }, ... };
|
T fops[...] = { ..., { ...,
- ioctl: \(handler@sq2\|&handler@sq2\|(CT)handler@sq2\),
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
  ... }, ... };
|
T fops[...] = { ..., [fops_index] = { ...,
- ioctl: \(handler@sq2\|&handler@sq2\|(CT)handler@sq2\),
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
  ... }, ... };
)

@ remove_dead depends on patch @
identifier fops_entry.handler;
type T, CT;
identifier fops;
position sq3 : script:python () { rewriting.action_at(sq3) == "dead" };
expression fops_index;
@@
(
T fops = { ...,
- .ioctl = \(handler@sq3\|&handler@sq3\|(CT)handler@sq3\),
  ... };
|
T fops = { ...,
- ioctl: \(handler@sq3\|&handler@sq3\|(CT)handler@sq3\),
  ... };
|
T fops[...] = { ..., { ...,
- .ioctl = \(handler@sq3\|&handler@sq3\|(CT)handler@sq3\),
  ... }, ... };
|
T fops[...] = { ..., [fops_index] = { ...,
- .ioctl = \(handler@sq3\|&handler@sq3\|(CT)handler@sq3\),
  ... }, ... };
|
T fops[...] = { ..., { ...,
- ioctl: \(handler@sq3\|&handler@sq3\|(CT)handler@sq3\),
  ... }, ... };
|
T fops[...] = { ..., [fops_index] = { ...,
- ioctl: \(handler@sq3\|&handler@sq3\|(CT)handler@sq3\),
  ... }, ... };
)

@ multi_entry depends on patch @
identifier fops_entry.handler, switch_fops.entry;
type T, CT;
identifier fops;
position sq4 : script:python () { rewriting.action_at(sq4) == "multi" };
expression fops_index;
@@
(
T fops = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+#else
  .ioctl = \(handler@sq4\|&handler@sq4\|(CT)handler@sq4\),
+#endif
  ... };
|
T fops = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+#else
  ioctl: \(handler@sq4\|&handler@sq4\|(CT)handler@sq4\),
+#endif
  ... };
|
T fops[...] = { ..., { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+#else
  .ioctl = \(handler@sq4\|&handler@sq4\|(CT)handler@sq4\),
+#endif
  ... }, ... };
|
T fops[...] = { ..., [fops_index] = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+#else
  .ioctl = \(handler@sq4\|&handler@sq4\|(CT)handler@sq4\),
+#endif
  ... }, ... };
|
T fops[...] = { ..., { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+#else
  ioctl: \(handler@sq4\|&handler@sq4\|(CT)handler@sq4\),
+#endif
  ... }, ... };
|
T fops[...] = { ..., [fops_index] = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+#else
  ioctl: \(handler@sq4\|&handler@sq4\|(CT)handler@sq4\),
+#endif
  ... }, ... };
)

@ multi_entry_compat depends on patch @
identifier fops_entry.handler, switch_fops.entry;
type T, CT;
identifier fops;
position sq5 : script:python () { rewriting.action_at(sq5) == "multi_compat" };
expression fops_index;
@@
(
T fops = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
+#else
  .ioctl = \(handler@sq5\|&handler@sq5\|(CT)handler@sq5\),
+#endif
  ... };
|
T fops = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
+#else
  ioctl: \(handler@sq5\|&handler@sq5\|(CT)handler@sq5\),
+#endif
  ... };
|
T fops[...] = { ..., { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
+#else
  .ioctl = \(handler@sq5\|&handler@sq5\|(CT)handler@sq5\),
+#endif
  ... }, ... };
|
T fops[...] = { ..., [fops_index] = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
+#else
  .ioctl = \(handler@sq5\|&handler@sq5\|(CT)handler@sq5\),
+#endif
  ... }, ... };
|
T fops[...] = { ..., { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
+#else
  ioctl: \(handler@sq5\|&handler@sq5\|(CT)handler@sq5\),
+#endif
  ... }, ... };
|
T fops[...] = { ..., [fops_index] = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
+#else
  ioctl: \(handler@sq5\|&handler@sq5\|(CT)handler@sq5\),
+#endif
  ... }, ... };
)

// Run-time assignments: never dead, never multi-kernel (decide()).
@ switch_runtime_entry depends on patch @
identifier fops_runtime.handler, switch_runtime.entry;
struct file_operations F;
struct file_operations *FP;
type CT;
position rq1 : script:python () { rewriting.runtime_action_at(rq1) == "plain" };
@@
(
  F.
- ioctl = \(handler@rq1\|&handler@rq1\|(CT)handler@rq1\);
+ unlocked_ioctl = entry;
|
  FP->
- ioctl = \(handler@rq1\|&handler@rq1\|(CT)handler@rq1\);
+ unlocked_ioctl = entry;
)

@ switch_runtime_compat depends on patch @
identifier fops_runtime.handler, switch_runtime.entry;
struct file_operations F;
struct file_operations *FP;
type CT;
position rq2 : script:python () { rewriting.runtime_action_at(rq2) == "compat" };
@@
(
- F.ioctl = \(handler@rq2\|&handler@rq2\|(CT)handler@rq2\);
+ F.unlocked_ioctl = entry;
+ F.compat_ioctl = entry;
|
- FP->ioctl = \(handler@rq2\|&handler@rq2\|(CT)handler@rq2\);
+ FP->unlocked_ioctl = entry;
+ FP->compat_ioctl = entry;
)

// A handler only a dead entry named is dead code too, when it is static.
@ script:python dead_handler @
h << definition.h; p << definition.p;
dfn;
@@
bindings.bind(cocci, coccinelle, rewriting.dead_handler(h, p))

@ remove_dead_handler depends on patch @
identifier dead_handler.dfn;
@@
- static int dfn(...) { ... }
