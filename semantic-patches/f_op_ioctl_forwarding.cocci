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
// - A test of the member (if (!lower->f_op->ioctl), E->f_op->ioctl != NULL,
//   E->f_op->ioctl ? CALL : -ENOTTY, through a local fops) in a function
//   whose calls are converted follows to ->unlocked_ioctl: left testing
//   ->ioctl it would say "no ioctl" for every converted lower driver.  A
//   test in a function with no call through the member is refused: what
//   it decides cannot be followed.
// - An assignment of the member (ops->ioctl = h;) is no test: left alone.
// - -D multi_kernel: the statement that holds a call or a test (an if by
//   its condition, a return, an expression statement; the smallest one,
//   one holding two of them, never an else if) is written twice: under
//   #ifdef HAVE_UNLOCKED_IOCTL with the unlocked call and test, and under
//   #else as it was.  A call or test in no such statement (a declaration's
//   initializer, a loop's condition), or one spatch did not write twice,
//   refuses its function.
// - A function with one refused call or test converts none of its calls
//   and tests; the wrappers refuse what such a site may reach.
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
tests_at = {}            # member tests outside a legacy half -> function
calls_at = set()         # every call through the member
assigned_at = set()      # the member assigned (no test)
where = []               # the file (one per run of the rules)
holders = {}             # multi-kernel: statement (the span of its C) -> (start, end)
else_at = set()          # multi-kernel: spans of else branches (an else if is no holder)
converted_at = set()     # calls converted
converted_in = set()     # functions whose forwarding calls were converted
called_in = set()        # functions with a call through the member
written_at = set()       # multi-kernel: statements written twice
refused_in = set()       # functions with a call that could not be

legacy_at = set()        # calls a multi-kernel driver keeps for old kernels

# One copy with the wrappers (PYTHONPATH from rules.spatch_environment).
from ioctl_rework.ctext.spans import legacy_half as legacy_in_text
from ioctl_rework.ctext.spans import unlocked_half as unlocked_in_text
from ioctl_rework.ctext.own_inode import is_own_inode

def own_parameters(p, inode, file):
    """The call passes the calling handler's own inode and file (own_inode.py)."""
    with open(p[0].file, errors="replace", newline="") as source:
        return is_own_inode(source.read(), p[0].current_element, str(inode), str(file))

def legacy_half(file, line):
    """Whether LINE of FILE is compiled only without HAVE_UNLOCKED_IOCTL."""
    with open(file, errors="replace", newline="") as source:
        return legacy_in_text(source.read(), line)

def rewritable(p):
    # A site of a converted function the rewrite rules change: outside a
    # legacy half, and with -D multi_kernel inside the unlocked half (the
    # copy of its statement written_twice made).
    if p[0].current_element not in converted_in:
        return False
    with open(p[0].file, errors="replace", newline="") as source:
        text = source.read()
    if "multi_kernel" in flags:
        return unlocked_in_text(text, int(p[0].line))
    return not legacy_in_text(text, int(p[0].line))

def at(p):
    # Tables are per file: a rule after a rewrite may see a temporary copy
    # of it under another name.
    return (p[0].line, p[0].column, p[0].current_element)

flags = set()            # the modes and options spatch was run with

def say(p, what):
    say_at(p[0].file, p[0].line, p[0].current_element, what)

def say_at(file, line, function, what):
    if "report" in flags or "org" in flags:
        print("%s:%s: %s: forward: %s" % (file, line, function, what))

def span(s):
    return ((int(s[0].line), int(s[0].column)), (int(s[0].line_end), int(s[0].column_end)))

def sites():
    # Every call and test the conversion would rewrite: (line, column, function).
    return [site for site in own_at | set(tests_at) if site[2] not in refused_in]

def hold(s, end):
    # Statement S (known by its condition or expression) ends at END.
    key = span(s)
    holders[key] = (key[0], max(end, holders.get(key, key)[1]))

def innermost(site):
    # The smallest statement of the file that holds SITE (its key), or None.
    point = (int(site[0]), int(site[1]))
    held = [((extent[0], (-extent[1][0], -extent[1][1])), key)
            for key, extent in holders.items() if extent[0] <= point < extent[1]
            and not is_else_if(extent)]
    return max(held)[1] if held else None

def is_else_if(extent):
    # An if that is the else branch of another: no line can go before it.
    return any(start <= extent[0] and end == extent[1] for start, end in else_at)

def written_twice(keys):
    # KEYS where statements that share an enclosing one give way to it
    # (spatch writes two statements of one nested block twice only in part),
    # and without those inside another of them.
    def contains(outer, inner):
        a, b = holders[inner], holders[outer]
        return inner != outer and b[0] <= a[0] and a[1] <= b[1]
    keys = set(keys)
    while True:
        shared = [(holders[h][0], h, k, l) for k in keys for l in keys if k < l
                  for h in holders if not is_else_if(holders[h])
                  and contains(h, k) and contains(h, l)]
        if not shared:
            break
        _, outer, k, l = max(shared)
        keys = (keys - {k, l}) | {outer}
    return {k for k in keys if not any(contains(other, k) for other in keys)}

// One spatch process runs a batch of files: the tables are per file.
@ script:python forget_previous_file @
@@
for table in (own_at, tests_at, converted_at, converted_in, called_in, refused_in,
              legacy_at, written_at, holders, calls_at, assigned_at, else_at):
    table.clear()
del where[:]

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
calls_at.add(at(p))
where[:] = [p[0].file]
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

@ script:python @
p << any_call.p;
@@
if at(p) not in legacy_at:
    called_in.add(p[0].current_element)

// A test of the member: it follows the calls of its function.
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

// A run-time assignment of the member (ops->ioctl = h;) is no test: the
// conversion rule and the accounting list it.
@ member_assigned @
expression E, V;
struct file_operations *fops;
position q;
@@
(
  E->f_op->ioctl@q = V
|
  fops->ioctl@q = V
)

@ script:python @
q << member_assigned.q;
@@
assigned_at.add(at(q))

@ script:python @
q << member_test.q;
@@
# The member of a call is found here too: it is no test.
if at(q) not in calls_at and at(q) not in assigned_at and \
        not legacy_half(q[0].file, int(q[0].line)):
    where[:] = [q[0].file]
    tests_at[at(q)] = q[0].file
    if q[0].current_element not in called_in:
        refused_in.add(q[0].current_element)
        say(q, "tests ->ioctl in a function that does not call it, which the "
               "conversion cannot follow: refused; convert it by hand")

// Multi-kernel output writes the statement that holds a site twice: an if
// (known by its condition, it ends where its branches end), a return, an
// expression statement.
@ holder_if_else depends on multi_kernel @
expression C;
statement S1, S2;
position s, t;
@@
  if (C@s) S1 else S2@t

@ script:python depends on multi_kernel @
s << holder_if_else.s;
t << holder_if_else.t;
@@
hold(s, span(t)[1])
else_at.add(span(t))

@ holder_if depends on multi_kernel @
expression C;
statement S1;
position s, t;
@@
  if (C@s) S1@t

@ script:python depends on multi_kernel @
s << holder_if.s;
t << holder_if.t;
@@
hold(s, span(t)[1])

@ holder_statement depends on multi_kernel @
expression C;
position s;
@@
(
  return C@s;
|
  C@s;
)

@ script:python depends on multi_kernel @
s << holder_statement.s;
@@
hold(s, span(s)[1])

@ script:python depends on multi_kernel @
@@
for line, column, function in sorted(sites()):
    if innermost((line, column, function)) is None:
        refused_in.add(function)
        say_at(where[0], line, function,
               "a call or test of ->ioctl outside an if condition, a return or an "
               "expression statement, which the multi-kernel output does not write: "
               "refused; convert it by hand")

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

@ script:python @
@@
for line, column, function in sorted(tests_at):
    if function in converted_in:
        if "multi_kernel" in flags:
            what = ("tests ->unlocked_ioctl under #ifdef HAVE_UNLOCKED_IOCTL, the legacy "
                    "->ioctl under #else")
        else:
            what = "tests ->unlocked_ioctl"
        say_at(tests_at[(line, column, function)], line, function, what)
if "multi_kernel" in flags:
    written_at.update(written_twice({innermost(site) for site in sites()
                                     if site[2] in converted_in}))

// ------------------------------------------------------------- rewrites

@ written_twice depends on patch && multi_kernel @
expression C;
statement S1, S2;
position twice : script:python () { span(twice) in written_at };
@@
(
+#ifdef HAVE_UNLOCKED_IOCTL
  if (C@twice) S1 else S2
+#else
+ if (C) S1 else S2
+#endif
|
+#ifdef HAVE_UNLOCKED_IOCTL
  if (C@twice) S1
+#else
+ if (C) S1
+#endif
|
+#ifdef HAVE_UNLOCKED_IOCTL
  return C@twice;
+#else
+ return C;
+#endif
|
+#ifdef HAVE_UNLOCKED_IOCTL
  C@twice;
+#else
+ C;
+#endif
)

// The rules below match in spatch's copy of each function rewritten: only
// its name and the #if blocks of that copy are trusted.  Every call and
// test of a converted function outside a legacy half is rewritten.
@ forward depends on patch @
expression E, F, C, A;
const struct file_operations *cfops;
struct file_operations *fops;
position new_call : script:python () { rewritable(new_call) };
@@
(
- E->f_op->ioctl@new_call(...,F,C,A)
+ (int)E->f_op->unlocked_ioctl(F, C, A)
|
- (*E->f_op->ioctl@new_call)(...,F,C,A)
+ (int)E->f_op->unlocked_ioctl(F, C, A)
|
- fops->ioctl@new_call(...,F,C,A)
+ (int)fops->unlocked_ioctl(F, C, A)
|
- (*fops->ioctl@new_call)(...,F,C,A)
+ (int)fops->unlocked_ioctl(F, C, A)
|
- cfops->ioctl@new_call(...,F,C,A)
+ (int)cfops->unlocked_ioctl(F, C, A)
|
- (*cfops->ioctl@new_call)(...,F,C,A)
+ (int)cfops->unlocked_ioctl(F, C, A)
)

@ forward_test depends on patch @
expression E;
const struct file_operations *cfops;
struct file_operations *fops;
position new_test : script:python () { rewritable(new_test) };
@@
(
- E->f_op->ioctl@new_test
+ E->f_op->unlocked_ioctl
|
- fops->ioctl@new_test
+ fops->unlocked_ioctl
|
- cfops->ioctl@new_test
+ cfops->unlocked_ioctl
)

// An inode local made from the file whose last use was the call: gone
// with it, or gcc warns "unused variable" (-Werror breaks the build).  Not
// in multi-kernel output, whose #else half still passes it.
@ unused_inode depends on patch && !multi_kernel @
identifier I;
expression F;
position d : script:python () { d[0].current_element in converted_in };
@@
(
- struct inode *I@d = F->f_dentry->d_inode;
|
- struct inode *I@d = F->f_path.dentry->d_inode;
|
- struct inode *I@d = file_inode(F);
)
  ... when != I

// What the rewrites left of a converted function outside a legacy half
// was not written twice (spatch writes nothing before some statements):
// refused, so that the wrappers write nothing of the run.
@ left_over depends on patch && multi_kernel @
expression E;
const struct file_operations *cfops;
struct file_operations *fops;
position r;
@@
(
  E->f_op->ioctl@r
|
  fops->ioctl@r
|
  cfops->ioctl@r
)

@ script:python depends on patch && multi_kernel @
r << left_over.r;
@@
if r[0].current_element in converted_in and not legacy_half(r[0].file, int(r[0].line)):
    first = min(int(l) for l, _, f in own_at | set(tests_at) if f == r[0].current_element)
    say_at(where[0], first, r[0].current_element,
           "a call or test of ->ioctl the multi-kernel output could not write twice: "
           "refused; convert it by hand")

@ forward_context depends on context @
position any_call.p;
expression E;
@@
* E->ioctl@p
