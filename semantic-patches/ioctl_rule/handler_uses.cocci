// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// Where a handler's name is used besides its entries: as a value, compared
// with an ->ioctl, called, exported, called with a NULL inode.  Writes
// state.expr_uses, compared, compared_in, known_uses, calls, direct_calls
// and facts; reads handler_names, listed and kept.

@ handler_use @
identifier definition.h;
position p;
@@
h@p

@ script:python @
h << definition.h; p << handler_use.p;
@@
matches.handler_use(h, p)

// Handlers of other files (-D handlers=...) are few and only in phase 2.
@ listed_use depends on name_list @
identifier lh;
position p : script:python (lh) { lh in state.listed and lh not in state.handler_names };
@@
lh@p

@ script:python @
lh << listed_use.lh; p << listed_use.p;
@@
matches.handler_use(lh, p)

// ioctl32 conversion helpers of the time check which driver they are
// handed: "if (file->f_op->ioctl != h) return -EFAULT;".
@ entry_compared depends on definition || name_list @
identifier other : script:python () { other in state.handler_names or other in state.listed };
expression E;
binary operator compared = {==, !=};
position p;
@@
(
  E->ioctl compared other@p
|
  other@p compared E->ioctl
)

@ script:python @
p << entry_compared.p;
@@
matches.entry_compared(p)

@ direct_call depends on definition || name_list @
identifier h;
expression list[4] es;
position p : script:python (h) { h in state.handler_names or h in state.listed or h in state.kept };
@@
h@p(es)

@ script:python @
h << direct_call.h; p << direct_call.p;
@@
matches.direct_call(h, p)

// EXPORT_SYMBOL(h) names it but does not call it: the export follows.
@ exported depends on definition || name_list @
identifier eh : script:python () { eh in state.handler_names or eh in state.listed };
declarer name EXPORT_SYMBOL, EXPORT_SYMBOL_GPL;
position p;
@@
(
EXPORT_SYMBOL(eh@p);
|
EXPORT_SYMBOL_GPL(eh@p);
)

@ script:python @
p << exported.p;
@@
matches.exported(p)

// A call that passes NULL for the inode (or 0, cast or not): a handler
// that uses its inode may rely on it being NULL there, and the new
// signature derives the inode from the file.  One that never uses it
// converts, and the call drops the argument, as upstream did.
@ null_inode_call depends on definition || name_list @
identifier nh : script:python () { nh in state.handler_names or nh in state.listed };
expression E2, E3, E4;
type T;
position p;
@@
nh@p(\(NULL\|0\|(T)NULL\|(T)0\), E2, E3, E4)

@ script:python @
p << null_inode_call.p;
@@
matches.null_inode_call(p)

// The same NULL through a local set only to it (struct inode *none =
// NULL; ... h(none, ...)): judged alike (ctext/null_inode.py says which).
@ null_local_inode_call depends on definition || name_list @
identifier nlh : script:python () { nlh in state.handler_names or nlh in state.listed };
identifier null_local;
expression E2, E3, E4;
position p;
@@
nlh@p(null_local, E2, E3, E4)

@ script:python @
null_local << null_local_inode_call.null_local; p << null_local_inode_call.p;
@@
matches.null_local_inode_call(null_local, p)
