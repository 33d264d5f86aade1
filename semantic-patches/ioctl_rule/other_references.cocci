// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// The rest of the file that names a converted handler: prototypes,
// comparisons with ->ioctl, direct calls (which lose the inode argument,
// and a local that only fed it), and -ENOIOCTLCMD under -D
// enoioctlcmd_einval.  Reads state.handler_names, listed and decisions.

virtual patch
virtual enoioctlcmd_einval

// A header may hold only the prototype, so these are not tied to a use.
@ prototype depends on patch && (definition || name_list) @
identifier rh : script:python () { rh in state.handler_names or rh in state.listed };
position p : script:python () { decisions.renamed(source.text_at(p), p) };
parameter P1, P2, P3, P4;
@@
- int
+ long
  rh@p(
- P1,
  P2, P3, P4);

@ compare_entry depends on patch @
identifier as_converted.ch, as_converted.newh;
expression E;
binary operator compared = {==, !=};
@@
(
  E->
- ioctl
+ unlocked_ioctl
  compared
- ch
+ newh
|
- ch
+ newh
  compared
  E->
- ioctl
+ unlocked_ioctl
)

// A local whose only use was the inode argument a call just lost goes
// with it: "struct inode *inode = file->f_dentry->d_inode;" of a compat
// wrapper would be an unused variable.  Only a declaration that reads the
// inode of a file, or NULL (no call, no side effect), is removed.  Its name is
// recorded before the call changes: a position cannot cross a change.
@ fed_inode_call depends on patch && (definition || name_list) @
identifier fed_h : script:python () { fed_h in state.handler_names or fed_h in state.listed };
identifier fed_ino;
expression E2, E3, E4;
position p : script:python () { decisions.renamed(source.text_at(p), p) };
@@
  fed_h@p(fed_ino, E2, E3, E4)

@ script:python fed_inode_local @
ino << fed_inode_call.fed_ino; p << fed_inode_call.p;
fed_fn; fed_local; fed_kept;
@@
bindings.bind(cocci, coccinelle, rewriting.inode_fed_to_call(ino, p))

@ caller depends on patch && (definition || name_list) @
identifier rh : script:python () { rh in state.handler_names or rh in state.listed };
position p : script:python () { decisions.renamed(source.text_at(p), p) };
expression E1, E2, E3, E4;
@@
  rh@p(
- E1,
  E2, E3, E4)

// Set where it is declared, or by a statement (a 2.6.34 SCSI driver):
// the statement goes too, or the local would be set but not used.
@ drop_fed_inode depends on patch @
identifier fed_inode_local.fed_fn, fed_inode_local.fed_local;
expression F;
type T;
@@
  fed_fn(...) {
  ... when any
(
- struct inode *fed_local = \(F->f_dentry->d_inode\|F->f_path.dentry->d_inode\|file_inode(F)\|
-                             NULL\|0\|(T)NULL\|(T)0\);
|
- struct inode *fed_local;
  ... when != fed_local
- fed_local = \(F->f_dentry->d_inode\|F->f_path.dentry->d_inode\|file_inode(F)\|
-             NULL\|0\|(T)NULL\|(T)0\);
)
  ... when != fed_local
  }

// A local a macro of the file names stays; where the macro's #if branch
// names no inode it is unused, or set but not used (set by a statement).
@ mark_fed_inode depends on patch @
identifier fed_inode_local.fed_fn, fed_inode_local.fed_kept;
expression E;
@@
  fed_fn(...) {
  ... when any
- struct inode *fed_kept = E;
+ struct inode *fed_kept __attribute__((unused)) = E;
  ... when any
  }

@ mark_fed_inode_assigned depends on patch @
identifier fed_inode_local.fed_fn, fed_inode_local.fed_kept;
@@
  fed_fn(...) {
  ... when any
- struct inode *fed_kept;
+ struct inode *fed_kept __attribute__((unused));
  ... when any
  }

@ einval depends on patch && enoioctlcmd_einval @
position p : script:python () { decisions.strategy_at(p) in ("pushdown", "wrapper") };
@@
- -ENOIOCTLCMD@p
+ -EINVAL
