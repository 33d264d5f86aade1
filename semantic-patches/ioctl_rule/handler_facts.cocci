// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// The legacy handlers (int h(struct inode *, struct file *, ...)), the other
// functions of the file, and what each handler does with its inode and the
// BKL.  Writes state.definitions, handler_names, inode_param, params,
// functions, other_defs, unlocked_defs, inode_uses, inode_passed_to and
// facts (matches.py); reads handler_names.

@ definition @
identifier h, ino, filp, cmd, arg;
type TC, TA;
position p;
@@
int h@p(struct inode *ino, struct file *filp, TC cmd, TA arg) { ... }

@ script:python @
h << definition.h; ino << definition.ino; p << definition.p;
filp << definition.filp; cmd << definition.cmd; arg << definition.arg;
TC << definition.TC; TA << definition.TA;
@@
matches.definition(h, ino, filp, cmd, arg, TC, TA, p)

@ any_function @
identifier f;
position p;
@@
f@p(...) { ... }

@ script:python @
f << any_function.f; p << any_function.p;
@@
matches.any_function(f, p)

// A .ioctl naming a function of the .unlocked_ioctl shape (a latent bug of
// old trees) gets the wrapper: its body runs under the lock, unchanged.
@ unlocked_shaped @
identifier h, filp, cmd, arg;
type TR, TC, TA;
position p;
@@
TR h@p(struct file *filp, TC cmd, TA arg) { ... }

@ script:python @
h << unlocked_shaped.h; p << unlocked_shaped.p;
filp << unlocked_shaped.filp; cmd << unlocked_shaped.cmd; arg << unlocked_shaped.arg;
@@
matches.unlocked_shaped(h, filp, cmd, arg, p)

@ script:python @
h << fops_positional.h; p << fops_positional.p; T << fops_positional.T;
fops << fops_positional.fops;
@@
matches.fops_positional(T, fops, h, p)

@ inode_written @
identifier definition.ino;
expression E;
position p;
@@
(
  ino@p = E
|
  &ino@p
|
  ino@p++
|
  ino@p--
|
  ++ino@p
|
  --ino@p
)

@ script:python @
ino << definition.ino; p << inode_written.p;
@@
matches.inode_written(ino, p)

@ uses_inode @
identifier definition.ino;
position p;
@@
ino@p

@ script:python @
ino << definition.ino; p << uses_inode.p;
@@
matches.uses_inode(ino, p)

// Passing the inode on to another converted handler is not a use: that
// argument goes away with the callee's conversion.
@ inode_passed depends on definition @
identifier passed, callee;
expression list[3] rest;
position p : script:python (callee) { callee in state.handler_names };
@@
callee(passed@p, rest)

@ script:python @
passed << inode_passed.passed; callee << inode_passed.callee; p << inode_passed.p;
@@
matches.inode_passed(passed, callee, p)

@ takes_bkl @
position p;
@@
(
  lock_kernel@p()
|
  unlock_kernel@p()
)

@ script:python @
p << takes_bkl.p;
@@
matches.takes_bkl(p)
