// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// Every .ioctl entry of a file_operations: initializers in every spelling,
// run-time assignments, and positional initializers (whose script rule is
// in handler_facts.cocci: it needs the definitions).  Writes
// state.fops_types, fops_entries, refused_entries, fops_scope, runtime_any
// and runtime_unlocked (matches.py).

// A file_operations is spelled "struct file_operations" or through a
// typedef of this file.
@ fops_typedef @
type T;
@@
typedef struct file_operations T;

@ script:python @
T << fops_typedef.T;
@@
matches.fops_typedef(T)

// Every spelling of an entry in an initializer: C99 or GNU, of a structure
// or of each element of an array of them; the handler named, its address
// taken, cast, or a macro call (the DRM templates' DRM(ioctl)).  The type
// is any: the script keeps file_operations, never a tty_operations.
@ fops_entry @
type T, CT;
identifier fops, handler;
position p, fp;
expression fops_index;
@@
(
T fops@fp = { ..., .ioctl = \(handler@p \| &handler@p \| (CT)handler@p \| handler@p(...)\), ... };
|
T fops@fp = { ..., ioctl: \(handler@p \| &handler@p \| (CT)handler@p \| handler@p(...)\), ... };
|
T fops@fp[...] = { ..., { ..., .ioctl = \(handler@p \| &handler@p \| (CT)handler@p \| handler@p(...)\), ... }, ... };
|
T fops@fp[...] = { ..., [fops_index] = { ..., .ioctl = \(handler@p \| &handler@p \| (CT)handler@p \| handler@p(...)\), ... }, ... };
|
T fops@fp[...] = { ..., { ..., ioctl: \(handler@p \| &handler@p \| (CT)handler@p \| handler@p(...)\), ... }, ... };
|
T fops@fp[...] = { ..., [fops_index] = { ..., ioctl: \(handler@p \| &handler@p \| (CT)handler@p \| handler@p(...)\), ... }, ... };
)

@ script:python @
T << fops_entry.T; fops << fops_entry.fops; h << fops_entry.handler;
p << fops_entry.p; fp << fops_entry.fp;
@@
matches.fops_entry(T, fops, h, p, fp)

// Run-time assignments, where spatch knows the type (a variable, a
// pointer, an array element, through a typedef).
@ fops_runtime @
struct file_operations F;
struct file_operations *FP;
identifier handler;
type CT;
position p;
@@
(
F.ioctl = \(handler@p \| &handler@p \| (CT)handler@p\);
|
FP->ioctl = \(handler@p \| &handler@p \| (CT)handler@p\);
)

@ script:python @
h << fops_runtime.handler; p << fops_runtime.p;
@@
matches.fops_runtime(h, p)

// The same where spatch cannot tell the type: left alone, with why, when
// the handler is a legacy one of this file (runtime_refusals).
@ fops_runtime_any @
expression E;
identifier handler;
type CT;
position p;
@@
(
E.ioctl = \(handler@p \| &handler@p \| (CT)handler@p\);
|
E->ioctl = \(handler@p \| &handler@p \| (CT)handler@p\);
)

@ script:python @
E << fops_runtime_any.E; h << fops_runtime_any.handler; p << fops_runtime_any.p;
@@
matches.fops_runtime_any(E, h, p)

@ fops_runtime_unlocked @
struct file_operations F;
struct file_operations *FP;
expression E;
position p;
@@
(
F.unlocked_ioctl = E@p;
|
FP->unlocked_ioctl = E@p;
)

@ script:python @
p << fops_runtime_unlocked.p;
@@
matches.fops_runtime_unlocked(p)

// A positional initializer (2.4 style, by member order) cannot be
// rewritten by name: a legacy handler of this file in one is refused.
@ fops_positional @
type T;
identifier fops, h;
position p;
@@
T fops = { ..., h@p, ... };
