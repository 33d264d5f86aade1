// SPDX-License-Identifier: GPL-2.0-only
/// Forward through ->unlocked_ioctl where code calls a file's ->ioctl.
///
/// A stacking driver hands a command to the file beneath it through that
/// file's operations: lower->f_op->ioctl(inode, lower, cmd, arg).  Once
/// the lower driver is converted its .ioctl is NULL, so every forwarded
/// command fails (or the call jumps to NULL) and nothing says so.  The
/// call becomes lower->f_op->unlocked_ioctl(lower, cmd, arg), and a test
/// of the member beside it follows.  The legacy call gave an int: the new
/// one is cast to int, so the value its caller sees is the one it saw.
//
// Confidence: Moderate
// Copyright: (C) 2026 The ioctl-rework authors.
// Options: --no-includes --include-headers --smpl-spacing
//
// The rules are:
// - A call is one through E->f_op->ioctl or through an expression whose
//   type is a pointer to a file_operations (a local, a parameter, a
//   member of a structure of the file), called or dereferenced first
//   ((*ops->ioctl)(...)).  The .ioctl of a tty_operations and of any
//   other structure is never touched.
// - It is converted only when the inode it passes is the inode of the
//   file it passes (F->f_dentry->d_inode, F->f_path.dentry->d_inode,
//   file_inode(F)): the unlocked call passes none, and the handler below
//   derives it from its file.  The calling handler's own inode with its
//   own file is that too, where proven (ctext/own_inode.py: a static
//   handler the VFS or its wrapper alone calls, or a converted one whose
//   inode local comes from its file).  Any other inode (the caller's own
//   with another file, NULL, a local) is refused with the reason.
// - A test of the same member (if (!lower->f_op->ioctl)) in a function
//   whose calls were converted follows to ->unlocked_ioctl.
// - -D multi_kernel: a call that is a whole statement ("return CALL;",
//   "X = CALL;") gets the unlocked call under #ifdef HAVE_UNLOCKED_IOCTL
//   and keeps the legacy one under #else; any other shape, and a
//   function that also tests the member, is refused.
// - Report and org print FILE:LINE: FUNCTION: forward: what was done or
//   why not.

virtual patch
virtual context
virtual org
virtual report
virtual multi_kernel

@initialize:python@
@@
own_at = set()           # calls passing the inode of the file they pass
whole_at = set()         # calls that are a whole statement (multi-kernel)
converted_at = set()     # calls converted
converted_in = set()     # functions whose forwarding calls were converted
refused_in = set()       # functions with a call that could not be

legacy_at = set()        # calls a multi-kernel driver keeps for old kernels

# One copy with the wrappers (PYTHONPATH from rules.spatch_environment).
from ioctl_rework.ctext.spans import legacy_half as legacy_in_text
from ioctl_rework.ctext.own_inode import is_own_inode

def own_parameters(p, inode, file):
    """The call passes the calling handler's own inode and file (own_inode.py)."""
    with open(p[0].file, errors="replace", newline="") as source:
        return is_own_inode(source.read(), p[0].current_element, str(inode), str(file))

def legacy_half(file, line):
    """Whether LINE of FILE is compiled only without HAVE_UNLOCKED_IOCTL."""
    with open(file, errors="replace", newline="") as source:
        return legacy_in_text(source.read(), line)

def at(p):
    # Tables are per file: a rule after a rewrite may see a temporary copy
    # of it under another name.
    return (p[0].line, p[0].column, p[0].current_element)

flags = set()            # the modes and options spatch was run with

def say(p, what):
    if "report" in flags or "org" in flags:
        print("%s:%s: %s: forward: %s" % (p[0].file, p[0].line, p[0].current_element,
                                          what))

// One spatch process runs a batch of files: the tables are per file.
@ script:python forget_previous_file @
@@
for table in (own_at, whole_at, converted_at, converted_in, refused_in, legacy_at):
    table.clear()

@ script:python depends on report @
@@
flags.add("report")

@ script:python depends on org @
@@
flags.add("org")

@ script:python depends on multi_kernel @
@@
flags.add("multi_kernel")

// ------------------------------------------------------------- the facts

// Every call through a file_operations, whatever it passes.
@ any_call @
expression E, I, F, C, A;
const struct file_operations *cfops;
struct file_operations *fops;
position p;
@@
(
  E->f_op->ioctl@p(I, F, C, A)
|
  (*E->f_op->ioctl@p)(I, F, C, A)
|
  fops->ioctl@p(I, F, C, A)
|
  (*fops->ioctl@p)(I, F, C, A)
|
  cfops->ioctl@p(I, F, C, A)
|
  (*cfops->ioctl@p)(I, F, C, A)
)

// The calls whose inode is the inode of the file they pass.
@ own_inode @
expression E, F, C, A;
const struct file_operations *cfops;
struct file_operations *fops;
position any_call.p, p2;
@@
(
  E->f_op->ioctl@p@p2(\(F->f_dentry->d_inode\|F->f_path.dentry->d_inode\|file_inode(F)\), F, C, A)
|
  (*E->f_op->ioctl@p@p2)(\(F->f_dentry->d_inode\|F->f_path.dentry->d_inode\|file_inode(F)\), F, C, A)
|
  fops->ioctl@p@p2(\(F->f_dentry->d_inode\|F->f_path.dentry->d_inode\|file_inode(F)\), F, C, A)
|
  (*fops->ioctl@p@p2)(\(F->f_dentry->d_inode\|F->f_path.dentry->d_inode\|file_inode(F)\), F, C, A)
|
  cfops->ioctl@p@p2(\(F->f_dentry->d_inode\|F->f_path.dentry->d_inode\|file_inode(F)\), F, C, A)
|
  (*cfops->ioctl@p@p2)(\(F->f_dentry->d_inode\|F->f_path.dentry->d_inode\|file_inode(F)\), F, C, A)
)

@ script:python @
p << any_call.p;
@@
if legacy_half(p[0].file, int(p[0].line)):
    legacy_at.add(at(p))

@ script:python @
p << own_inode.p2;
@@
if at(p) not in legacy_at:
    own_at.add(at(p))

@ script:python @
p << any_call.p;
I << any_call.I;
F << any_call.F;
@@
if at(p) not in own_at and at(p) not in legacy_at and own_parameters(p, I, F):
    own_at.add(at(p))
elif at(p) not in own_at and at(p) not in legacy_at:
    refused_in.add(p[0].current_element)
    say(p, "passes %s, not the inode of %s, which ->unlocked_ioctl cannot pass on: "
           "refused; convert it by hand" % (I, F))

// Multi-kernel output rewrites whole statements through E->f_op only.
@ whole_statement depends on multi_kernel @
expression X, E, I, F, C, A;
position any_call.p, p3;
@@
(
  return E->f_op->ioctl@p@p3(I, F, C, A);
|
  X = E->f_op->ioctl@p@p3(I, F, C, A);
|
  return (*E->f_op->ioctl@p@p3)(I, F, C, A);
|
  X = (*E->f_op->ioctl@p@p3)(I, F, C, A);
)

@ script:python depends on multi_kernel @
p << whole_statement.p3;
@@
whole_at.add(at(p))

@ script:python depends on multi_kernel @
p << any_call.p;
@@
if at(p) in own_at and at(p) not in whole_at:
    refused_in.add(p[0].current_element)
    say(p, "a call the multi-kernel output does not write (only return CALL; and "
           "X = CALL; through E->f_op): refused; convert it by hand")

// A test of the member in a function with a call: the multi-kernel output
// would need both tests; it is refused there.
@ member_test @
expression E;
struct file_operations *fops;
const struct file_operations *cfops;
position q;
@@
(
  E->f_op->ioctl@q
|
  fops->ioctl@q
|
  cfops->ioctl@q
)

@ script:python depends on multi_kernel @
q << member_test.q;
@@
if q[0].current_element in {e for _, _, e in own_at} and \
        at(q) not in own_at:
    refused_in.add(q[0].current_element)
    say(q, "tests the member beside a forwarding call, which the multi-kernel output "
           "does not write: refused; convert it by hand")

@ script:python @
p << any_call.p;
@@
if at(p) in own_at and p[0].current_element not in refused_in:
    converted_at.add(at(p))
    converted_in.add(p[0].current_element)
    if "multi_kernel" in flags:
        say(p, "calls ->unlocked_ioctl under #ifdef HAVE_UNLOCKED_IOCTL, the legacy "
               "->ioctl under #else")
    else:
        say(p, "calls ->unlocked_ioctl")

// ------------------------------------------------------------- rewrites

@ forward depends on patch && !multi_kernel @
expression E, F, C, A;
const struct file_operations *cfops;
struct file_operations *fops;
position fwd_call : script:python () { at(fwd_call) in converted_at };
@@
(
- E->f_op->ioctl@fwd_call(...,F,C,A)
+ (int)E->f_op->unlocked_ioctl(F, C, A)
|
- (*E->f_op->ioctl@fwd_call)(...,F,C,A)
+ (int)E->f_op->unlocked_ioctl(F, C, A)
|
- fops->ioctl@fwd_call(...,F,C,A)
+ (int)fops->unlocked_ioctl(F, C, A)
|
- (*fops->ioctl@fwd_call)(...,F,C,A)
+ (int)fops->unlocked_ioctl(F, C, A)
|
- cfops->ioctl@fwd_call(...,F,C,A)
+ (int)cfops->unlocked_ioctl(F, C, A)
|
- (*cfops->ioctl@fwd_call)(...,F,C,A)
+ (int)cfops->unlocked_ioctl(F, C, A)
)

@ forward_test depends on patch && !multi_kernel @
expression E;
const struct file_operations *cfops;
struct file_operations *fops;
position fwd_test : script:python () { fwd_test[0].current_element in converted_in };
@@
(
- E->f_op->ioctl@fwd_test
+ E->f_op->unlocked_ioctl
|
- fops->ioctl@fwd_test
+ fops->unlocked_ioctl
|
- cfops->ioctl@fwd_test
+ cfops->unlocked_ioctl
)

@ forward_multi depends on patch && multi_kernel @
expression X, E, I, F, C, A;
position fwd_multi : script:python () { at(fwd_multi) in converted_at };
@@
(
+#ifdef HAVE_UNLOCKED_IOCTL
+ return (int)E->f_op->unlocked_ioctl(F, C, A);
+#else
  return E->f_op->ioctl@fwd_multi(I, F, C, A);
+#endif
|
+#ifdef HAVE_UNLOCKED_IOCTL
+ X = (int)E->f_op->unlocked_ioctl(F, C, A);
+#else
  X = E->f_op->ioctl@fwd_multi(I, F, C, A);
+#endif
|
+#ifdef HAVE_UNLOCKED_IOCTL
+ return (int)E->f_op->unlocked_ioctl(F, C, A);
+#else
  return (*E->f_op->ioctl@fwd_multi)(I, F, C, A);
+#endif
|
+#ifdef HAVE_UNLOCKED_IOCTL
+ X = (int)E->f_op->unlocked_ioctl(F, C, A);
+#else
  X = (*E->f_op->ioctl@fwd_multi)(I, F, C, A);
+#endif
)

@ forward_context depends on context @
position any_call.p;
expression E;
@@
* E->ioctl@p
