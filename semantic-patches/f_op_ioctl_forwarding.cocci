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
/// Where the target still has .ioctl (-D legacy_ioctl) a lower driver may
/// still be on it, so the call goes through a helper that dispatches as
/// the VFS does: ->unlocked_ioctl, else ->ioctl under the BKL.
//
// Confidence: Moderate
// Copyright: (C) 2026 The ioctl-rework authors.
// Options: --no-includes --include-headers --smpl-spacing
//
// The rules are:
// - A call is one through E->f_op->ioctl or through an expression whose
//   type is a pointer to a file_operations (a local, a parameter, a
//   member of a structure of the file), called or dereferenced first
//   ((*ops->ioctl)(...)), or through one whose type is a file_operations
//   by value (fops.ioctl(...), ports[n].ioctl(...)), which -D legacy_ioctl
//   hands to the helper by its address: an object that has none (a
//   call's or a conditional's value) is refused.  The .ioctl of a
//   tty_operations and of any other structure is never touched.
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
//   #else as it was.  With -D legacy_ioctl one that holds a test is split
//   again in the HAVE_UNLOCKED_IOCTL half: below 2.6.36 it tests either
//   member, from 2.6.36 (no .ioctl, HAVE_UNLOCKED_IOCTL kept) ->unlocked_ioctl
//   alone.  A call or test in no such statement (a declaration's
//   initializer, a loop's condition), or one spatch did not write twice,
//   refuses its function.
// - A function with one refused call or test converts none of its calls
//   and tests; the wrappers refuse what such a site may reach.
// - -D legacy_ioctl (a target that still has .ioctl, 2.6.11 .. 2.6.35):
//   a lower driver outside the run, or refused, is still on .ioctl, so
//   the call becomes HELPER(E->f_op, I, F, C, A), a static function
//   written once per file before the first function that calls it (in
//   multi-kernel output under #ifdef HAVE_UNLOCKED_IOCTL): ->unlocked_ioctl
//   when the lower fops has one, else ->ioctl with the inode the call
//   passed, under lock_kernel() (recursive there: safe whether or not the
//   caller holds it).  A function, not a macro or a statement expression:
//   each argument is evaluated once, and it is an expression wherever the
//   call was (return CALL, x = CALL, an initializer, an argument).  Its
//   name is free in the file and the headers it includes (-D
//   forward_helper=NAME from the wrappers, which read the tree; else
//   ctext/free_names.py from where spatch runs).  A test of the member
//   tests either member (!T: has neither; T == NULL likewise); one through
//   an expression with a call or a side effect (read twice now) is
//   refused.  <linux/smp_lock.h> is added after the last #include outside
//   any #if when the file has none.  The helper's own call is no site.  A
//   first calling function inside an #if, or a file with no #include at
//   file scope, refuses every call of the file.
// - Report and org print FILE:LINE: FUNCTION: forward: what was done or
//   why not.

virtual patch
virtual context
virtual org
virtual report
virtual multi_kernel
virtual legacy_ioctl

@initialize:python@
@@
own_at = set()           # calls passing the inode of the file they pass
tests_at = {}            # member tests outside a legacy half -> function
calls_at = set()         # every call through the member
assigned_at = set()      # the member assigned (no test)
either_at = set()        # -D legacy_ioctl: tests of either member (no site)
twice_at = {}            # -D legacy_ioctl: tests whose holder has a side effect -> it
copied_at = set()        # copies of the member into a variable (no test)
chosen_at = set()        # the member as a branch of a conditional (no test)
where = []               # the file (one per run of the rules)
holders = {}             # multi-kernel: statement (the span of its C) -> (start, end)
else_at = set()          # multi-kernel: spans of else branches (an else if is no holder)
converted_at = set()     # calls converted
converted_in = set()     # functions whose forwarding calls were converted
called_in = set()        # functions with a call through the member
written_at = set()       # multi-kernel: statements written twice
versioned_at = set()     # multi-kernel -D legacy_ioctl: those holding a test (split at 2.6.36)
refused_in = set()       # functions with a call that could not be

legacy_at = set()        # calls a multi-kernel driver keeps for old kernels
fallback_at = set()      # -D legacy_ioctl: the call of a helper written before
defined_at = {}          # function -> line of its definition
helper_site = []         # -D legacy_ioctl: the function the helper goes before
header_after = []        # -D legacy_ioctl: the include line smp_lock.h follows
given = []               # -D forward_helper=NAME (one for the run)
picked = []              # the helper name of this file, without it

# One copy with the wrappers (PYTHONPATH from rules.spatch_environment).
from ioctl_rework.ctext.spans import legacy_half as legacy_in_text
from ioctl_rework.ctext.spans import unlocked_half as unlocked_in_text
from ioctl_rework.ctext.own_inode import is_own_inode
from ioctl_rework.ctext.spans import open_branches
from ioctl_rework.ctext import free_names
import re

def own_parameters(p, inode, file):
    """The call passes the calling handler's own inode and file (own_inode.py)."""
    with open(p[0].file, errors="replace", newline="") as source:
        return is_own_inode(source.read(), p[0].current_element, str(inode), str(file),
                            p[0].file)

# The #else of the 2.6.36 split written_twice makes: no .ioctl member there.
MODERN_SPLIT = re.compile(r"LINUX_VERSION_CODE\s*<\s*KERNEL_VERSION\s*\(\s*2\s*,\s*6\s*,\s*36\s*\)$")

def modern_half(p):
    with open(p[0].file, errors="replace", newline="") as source:
        text = source.read()
    return any(b.kind == "if" and b.in_else and not b.after_elif and MODERN_SPLIT.match(b.condition)
               for b in open_branches(text, int(p[0].line)))

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

INCLUDE_LINE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*([<\"])([^>\"]*)[>\"]")
SIDE_EFFECT = re.compile(r"\(|\+\+|--|[^=!<>]=(?!=)")

def helper_name():
    # The name -D forward_helper gave, else the first free one of the file.
    if given:
        return given[0]
    if not picked:
        with open(where[0], errors="replace", newline="") as source:
            picked.append(free_names.first_free(
                free_names.FORWARD_HELPER, free_names.taken_by(where[0], source.read())))
    return picked[0]

def has_address(value):
    # A file_operations by value (ports[arg % 3], dev->fops, *fops) whose
    # address the helper can take: names, members, subscripts, a
    # dereference, parentheses; no call, conditional, assignment or comma.
    bare, previous = value, None
    while bare != previous:
        previous, bare = bare, re.sub(r"\[[^\[\]]*\]", "", bare)
    return re.fullmatch(r"[\w\s.*()>-]*", bare) is not None and \
        re.search(r"\w\s*\(|[^-]>|-(?!>)", bare) is None

def read_twice(holder):
    # -D legacy_ioctl tests both members: what holds them is read twice.
    return SIDE_EFFECT.search(holder) is not None

def fallback_site(file, functions):
    # (function the helper goes before, line of the include directive that
    # smp_lock.h goes after or None), or why they cannot be placed.
    with open(file, errors="replace", newline="") as source:
        text = source.read()
    first = min(functions, key=lambda f: defined_at.get(f, 0))
    line = defined_at.get(first)
    if line is None:
        return ("the call is in no function definition (%s: a macro body, say), before "
                "which the forwarding helper that falls back to ->ioctl could go" % first)
    inside = open_branches(text, line)
    if inside:
        return ("the forwarding helper would go before %s, inside the #if at line %d" %
                (first, inside[-1].line))
    includes = [(number, kind, name)
                for number, current in enumerate(text.split("\n"), 1)
                for kind, name in INCLUDE_LINE.findall(current)
                if not open_branches(text, number)]
    if any(name.strip() == "linux/smp_lock.h" for _, _, name in includes):
        return (first, None)
    angled = [number for number, kind, _ in includes if kind == "<"]
    quoted = [number for number, kind, _ in includes if kind != "<"]
    if not angled and not quoted:
        return ("no include directive outside an #if to add <linux/smp_lock.h> after, "
                "which the forwarding helper needs")
    return (first, max(angled or quoted))

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
              legacy_at, written_at, holders, calls_at, assigned_at, else_at,
              fallback_at, defined_at, either_at, twice_at, copied_at, chosen_at,
              versioned_at):
    table.clear()
del where[:]
del helper_site[:]
del picked[:]
del header_after[:]

@ script:python depends on report @
@@
flags.add("report")

@ script:python depends on org @
@@
flags.add("org")

@ script:python depends on multi_kernel @
@@
flags.add("multi_kernel")

@ script:python depends on legacy_ioctl @
@@
flags.add("legacy_ioctl")

@ script:python @
helper_option << virtual.forward_helper;
@@
given[:] = [helper_option]

// ------------------------------------------------------------- the facts

// The helper -D legacy_ioctl writes (in this shape): its call through
// ->ioctl is the fallback itself, no site.
@ fallback_helper @
identifier fb_name, fb_ops, fb_inode, fb_file, fb_cmd, fb_arg, fb_ret;
position p;
@@
fb_name(const struct file_operations *fb_ops, struct inode *fb_inode, struct file *fb_file,
   unsigned int fb_cmd, unsigned long fb_arg)
{
  int fb_ret;
  if (fb_ops->unlocked_ioctl)
    return (int)fb_ops->unlocked_ioctl(fb_file, fb_cmd, fb_arg);
  lock_kernel();
  fb_ret = fb_ops->ioctl@p(fb_inode, fb_file, fb_cmd, fb_arg);
  unlock_kernel();
  return fb_ret;
}

@ script:python @
p << fallback_helper.p;
@@
fallback_at.add(at(p))

// Where each function is defined: the helper goes before the first caller.
@ defined depends on legacy_ioctl @
identifier fn;
position fp;
@@
fn@fp(...) {...}

@ script:python @
fn << defined.fn;
fp << defined.fp;
@@
defined_at.setdefault(str(fn), int(fp[0].line))

// Every call through a file_operations, whatever it passes.
@ any_call @
expression E, I, F, C, A;
const struct file_operations *cfops;
struct file_operations *fops;
struct file_operations vfops;
position p;
@@
(
  E->f_op->ioctl@p(I, F, C, A)
|
  (*E->f_op->ioctl@p)(I, F, C, A)
|
  vfops.ioctl@p(I, F, C, A)
|
  (*vfops.ioctl@p)(I, F, C, A)
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
struct file_operations vfops;
position any_call.p, p2;
@@
(
  vfops.ioctl@p@p2(\(F->f_dentry->d_inode\|F->f_path.dentry->d_inode\|file_inode(F)\), F, C, A)
|
  (*vfops.ioctl@p@p2)(\(F->f_dentry->d_inode\|F->f_path.dentry->d_inode\|file_inode(F)\), F, C, A)
|
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
if legacy_half(p[0].file, int(p[0].line)) or at(p) in fallback_at:
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
elif at(p) not in own_at and at(p) not in legacy_at and str(F).strip() in ("NULL", "0"):
    refused_in.add(p[0].current_element)
    say(p, "passes %s as its inode and %s as its file, not the inode of a file: "
           "->unlocked_ioctl takes the file alone, and the driver it reaches would get no "
           "file (its wrapper reads the inode through the file): refused; convert it by "
           "hand" % (I, F))
elif at(p) not in own_at and at(p) not in legacy_at:
    refused_in.add(p[0].current_element)
    say(p, "passes %s, not the inode of %s, which ->unlocked_ioctl cannot pass on: "
           "refused; convert it by hand" % (I, F))

@ script:python @
p << any_call.p;
@@
if at(p) not in legacy_at:
    called_in.add(p[0].current_element)

// -D legacy_ioctl: the helper takes a file_operations by its address.
@ value_call depends on legacy_ioctl @
struct file_operations vfops;
position any_call.p, pv;
@@
(
  vfops.ioctl@p@pv(...)
|
  (*vfops.ioctl@p@pv)(...)
)

@ script:python @
p << value_call.pv;
vfops << value_call.vfops;
@@
if at(p) not in legacy_at and not has_address(str(vfops)):
    refused_in.add(p[0].current_element)
    say(p, "calls the ->ioctl of the file_operations %s by value, which has no address "
           "to hand to the forwarding helper: refused; convert it by hand" % vfops)

// A test of the member: it follows the calls of its function.
@ member_test @
expression E;
struct file_operations *fops;
const struct file_operations *cfops;
struct file_operations vfops;
position q;
@@
(
  E->f_op->ioctl@q
|
  vfops.ioctl@q
|
  fops->ioctl@q
|
  cfops->ioctl@q
)

// -D legacy_ioctl: a test of either member (what a run wrote, or one
// written by hand) already answers for both kinds of lower driver.
@ either_member depends on legacy_ioctl @
expression E;
struct file_operations *fops;
const struct file_operations *cfops;
struct file_operations vfops;
position q;
@@
(
  vfops.unlocked_ioctl || vfops.ioctl@q
|
  E->f_op->unlocked_ioctl || E->f_op->ioctl@q
|
  fops->unlocked_ioctl || fops->ioctl@q
|
  cfops->unlocked_ioctl || cfops->ioctl@q
)

@ script:python @
q << either_member.q;
@@
either_at.add(at(q))

// A copy of the member into a variable (fn = lower->f_op->ioctl; a
// declaration's initializer) is no test: a later call through the copy
// cannot be followed, in any function.
@ member_copied @
expression E, X;
struct file_operations *fops;
const struct file_operations *cfops;
struct file_operations vfops;
position q;
@@
(
  X = vfops.ioctl@q
|
  X = E->f_op->ioctl@q
|
  X = fops->ioctl@q
|
  X = cfops->ioctl@q
)

@ script:python @
q << member_copied.q;
@@
copied_at.add(at(q))

@ member_copied_initializer @
expression E;
identifier D;
type T;
struct file_operations *fops;
const struct file_operations *cfops;
struct file_operations vfops;
position q;
@@
(
  T D = vfops.ioctl@q;
|
  T D = E->f_op->ioctl@q;
|
  T D = fops->ioctl@q;
|
  T D = cfops->ioctl@q;
)

@ script:python @
q << member_copied_initializer.q;
@@
copied_at.add(at(q))

// The member as a branch of a conditional ((T ? T : other)(...)): the
// function called is chosen, and its call cannot be followed.
@ member_chosen @
expression E, C, X;
struct file_operations *fops;
const struct file_operations *cfops;
struct file_operations vfops;
position q;
@@
(
  C ? vfops.ioctl@q : X
|
  C ? X : vfops.ioctl@q
|
  C ? E->f_op->ioctl@q : X
|
  C ? X : E->f_op->ioctl@q
|
  C ? fops->ioctl@q : X
|
  C ? X : fops->ioctl@q
|
  C ? cfops->ioctl@q : X
|
  C ? X : cfops->ioctl@q
)

@ script:python @
q << member_chosen.q;
@@
chosen_at.add(at(q))

// -D legacy_ioctl: what holds a tested member is read twice after.
@ member_holder depends on legacy_ioctl @
expression E;
position q;
@@
  E->f_op->ioctl@q

@ script:python @
E << member_holder.E;
q << member_holder.q;
@@
if read_twice(str(E)):
    twice_at[at(q)] = str(E)

@ member_value_holder depends on legacy_ioctl @
struct file_operations vfops;
position q;
@@
  vfops.ioctl@q

@ script:python @
vfops << member_value_holder.vfops;
q << member_value_holder.q;
@@
if read_twice(str(vfops)):
    twice_at[at(q)] = str(vfops)

// A run-time assignment of the member (ops->ioctl = h;) is no test: the
// conversion rule and the accounting list it.
@ member_assigned @
expression E, V;
struct file_operations *fops;
struct file_operations vfops;
position q;
@@
(
  vfops.ioctl@q = V
|
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
if at(q) not in calls_at and at(q) not in assigned_at and at(q) not in either_at and \
        not legacy_half(q[0].file, int(q[0].line)):
    where[:] = [q[0].file]
    tests_at[at(q)] = q[0].file
    chosen_here = [c for c in chosen_at if c[0] == q[0].line and c[2] == q[0].current_element]
    if at(q) in copied_at:
        refused_in.add(q[0].current_element)
        say(q, "copies ->ioctl into a variable, through which a later call cannot be "
               "followed to ->unlocked_ioctl: refused; convert it by hand")
    elif chosen_here:
        refused_in.add(q[0].current_element)
        if at(q) == min(chosen_here, key=lambda c: int(c[1])):
            say(q, "chooses ->ioctl by a conditional expression, whose call cannot be "
                   "followed to ->unlocked_ioctl: refused; convert it by hand")
    elif q[0].current_element not in called_in:
        refused_in.add(q[0].current_element)
        say(q, "tests ->ioctl in a function that does not call it, which the "
               "conversion cannot follow: refused; convert it by hand")
    elif at(q) in twice_at:
        refused_in.add(q[0].current_element)
        say(q, "tests ->ioctl through %s, which has a call or a side effect that "
               "testing ->unlocked_ioctl too would run twice: refused; convert it by hand"
               % twice_at[at(q)])

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

// -D legacy_ioctl: the helper and <linux/smp_lock.h> must have a place, or
// no call of the file converts.
@ script:python depends on legacy_ioctl @
@@
calling = {f for _, _, f in own_at if f not in refused_in}
if calling:
    placed = fallback_site(where[0], calling)
    if isinstance(placed, str):
        for line, column, function in sorted(own_at):
            if function in calling:
                refused_in.add(function)
                say_at(where[0], line, function, placed + ": refused; convert it by hand")
    else:
        helper_site[:] = [placed[0]]
        header_after[:] = [placed[1]] if placed[1] else []

@ script:python @
p << any_call.p;
@@
if at(p) in own_at and p[0].current_element not in refused_in:
    converted_at.add(at(p))
    converted_in.add(p[0].current_element)
    fallback = (" through %s(), or ->ioctl under the BKL where the lower fops has no "
                "->unlocked_ioctl" % helper_name()) if "legacy_ioctl" in flags else ""
    if "multi_kernel" in flags:
        say(p, "calls ->unlocked_ioctl%s under #ifdef HAVE_UNLOCKED_IOCTL, the legacy "
               "->ioctl under #else" % fallback)
    else:
        say(p, "calls ->unlocked_ioctl" + fallback)

@ script:python @
@@
for line, column, function in sorted(tests_at):
    if function in converted_in:
        tested = "tests ->unlocked_ioctl or ->ioctl" if "legacy_ioctl" in flags \
            else "tests ->unlocked_ioctl"
        if "legacy_ioctl" in flags and "multi_kernel" in flags:
            tested += " (->unlocked_ioctl alone from 2.6.36, which has no ->ioctl)"
        if "multi_kernel" in flags:
            what = tested + " under #ifdef HAVE_UNLOCKED_IOCTL, the legacy ->ioctl under #else"
        else:
            what = tested
        say_at(tests_at[(line, column, function)], line, function, what)
if "multi_kernel" in flags:
    written_at.update(written_twice({innermost(site) for site in sites()
                                     if site[2] in converted_in}))
if "multi_kernel" in flags and "legacy_ioctl" in flags:
    # 2.6.36 .. 2.6.38 define HAVE_UNLOCKED_IOCTL and have no .ioctl: a
    # statement that tests either member is split again at 2.6.36, where
    # its test is of ->unlocked_ioctl alone (what the helper calls there).
    versioned_at.update(key for key in written_at
                        for line, column, function in tests_at
                        if function in converted_in and
                        holders[key][0] <= (int(line), int(column)) < holders[key][1])

// ------------------------------------------------------------- rewrites

@ written_twice depends on patch && multi_kernel @
expression C;
statement S1, S2;
position twice : script:python () { span(twice) in written_at - versioned_at };
position thrice : script:python () { span(thrice) in versioned_at };
@@
(
+#ifdef HAVE_UNLOCKED_IOCTL
+#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)
  if (C@thrice) S1 else S2
+#else
+ if (C) S1 else S2
+#endif
+#else
+ if (C) S1 else S2
+#endif
|
+#ifdef HAVE_UNLOCKED_IOCTL
+#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)
  if (C@thrice) S1
+#else
+ if (C) S1
+#endif
+#else
+ if (C) S1
+#endif
|
+#ifdef HAVE_UNLOCKED_IOCTL
+#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)
  return C@thrice;
+#else
+ return C;
+#endif
+#else
+ return C;
+#endif
|
+#ifdef HAVE_UNLOCKED_IOCTL
+#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)
  C@thrice;
+#else
+ C;
+#endif
+#else
+ C;
+#endif
|
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
@ forward depends on patch && !legacy_ioctl @
expression E, F, C, A;
const struct file_operations *cfops;
struct file_operations *fops;
struct file_operations vfops;
position new_call : script:python () { rewritable(new_call) };
@@
(
- vfops.ioctl@new_call(...,F,C,A)
+ (int)vfops.unlocked_ioctl(F, C, A)
|
- (*vfops.ioctl@new_call)(...,F,C,A)
+ (int)vfops.unlocked_ioctl(F, C, A)
|
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

@ forward_test depends on patch && !legacy_ioctl @
expression E;
const struct file_operations *cfops;
struct file_operations *fops;
struct file_operations vfops;
position new_test : script:python () { rewritable(new_test) };
@@
(
- vfops.ioctl@new_test
+ vfops.unlocked_ioctl
|
- E->f_op->ioctl@new_test
+ E->f_op->unlocked_ioctl
|
- fops->ioctl@new_test
+ fops->unlocked_ioctl
|
- cfops->ioctl@new_test
+ cfops->unlocked_ioctl
)

// -D legacy_ioctl: the call goes through the helper, which falls back to
// ->ioctl (with the inode the call passed) for a lower driver still on it.
@ script:python named depends on patch && legacy_ioctl @
fwd_helper;
@@
coccinelle.fwd_helper = cocci.make_ident(helper_name() if where else free_names.FORWARD_HELPER)

@ forward_fallback depends on patch && legacy_ioctl @
identifier named.fwd_helper;
expression E, I, F, C, A;
const struct file_operations *cfops;
struct file_operations *fops;
struct file_operations vfops;
position fallback_call : script:python () { rewritable(fallback_call) };
@@
(
- vfops.ioctl@fallback_call(I, F, C, A)
+ fwd_helper(&vfops, I, F, C, A)
|
- (*vfops.ioctl@fallback_call)(I, F, C, A)
+ fwd_helper(&vfops, I, F, C, A)
|
- E->f_op->ioctl@fallback_call(I, F, C, A)
+ fwd_helper(E->f_op, I, F, C, A)
|
- (*E->f_op->ioctl@fallback_call)(I, F, C, A)
+ fwd_helper(E->f_op, I, F, C, A)
|
- fops->ioctl@fallback_call(I, F, C, A)
+ fwd_helper(fops, I, F, C, A)
|
- (*fops->ioctl@fallback_call)(I, F, C, A)
+ fwd_helper(fops, I, F, C, A)
|
- cfops->ioctl@fallback_call(I, F, C, A)
+ fwd_helper(cfops, I, F, C, A)
|
- (*cfops->ioctl@fallback_call)(I, F, C, A)
+ fwd_helper(cfops, I, F, C, A)
)

// Multi-kernel, 2.6.36 on (the #else of the split written_twice made):
// no .ioctl to test, and the helper calls ->unlocked_ioctl alone.
@ forward_test_modern depends on patch && legacy_ioctl && multi_kernel @
expression E;
const struct file_operations *cfops;
struct file_operations *fops;
struct file_operations vfops;
position modern_test : script:python () { rewritable(modern_test) and modern_half(modern_test) };
@@
(
- vfops.ioctl@modern_test
+ vfops.unlocked_ioctl
|
- E->f_op->ioctl@modern_test
+ E->f_op->unlocked_ioctl
|
- fops->ioctl@modern_test
+ fops->unlocked_ioctl
|
- cfops->ioctl@modern_test
+ cfops->unlocked_ioctl
)

// A test answers as the helper does: "has one" is either member, "has
// none" neither.  A comparison with NULL is rewritten whole (the
// disjunction of the two members is an int).
@ forward_test_fallback depends on patch && legacy_ioctl @
expression E;
const struct file_operations *cfops;
struct file_operations *fops;
struct file_operations vfops;
position fallback_test : script:python () { rewritable(fallback_test) };
@@
(
- vfops.ioctl@fallback_test != NULL
+ (vfops.unlocked_ioctl || vfops.ioctl)
|
- vfops.ioctl@fallback_test == NULL
+ !(vfops.unlocked_ioctl || vfops.ioctl)
|
- vfops.ioctl@fallback_test
+ (vfops.unlocked_ioctl || vfops.ioctl)
|
- E->f_op->ioctl@fallback_test != NULL
+ (E->f_op->unlocked_ioctl || E->f_op->ioctl)
|
- E->f_op->ioctl@fallback_test == NULL
+ !(E->f_op->unlocked_ioctl || E->f_op->ioctl)
|
- E->f_op->ioctl@fallback_test
+ (E->f_op->unlocked_ioctl || E->f_op->ioctl)
|
- fops->ioctl@fallback_test != NULL
+ (fops->unlocked_ioctl || fops->ioctl)
|
- fops->ioctl@fallback_test == NULL
+ !(fops->unlocked_ioctl || fops->ioctl)
|
- fops->ioctl@fallback_test
+ (fops->unlocked_ioctl || fops->ioctl)
|
- cfops->ioctl@fallback_test != NULL
+ (cfops->unlocked_ioctl || cfops->ioctl)
|
- cfops->ioctl@fallback_test == NULL
+ !(cfops->unlocked_ioctl || cfops->ioctl)
|
- cfops->ioctl@fallback_test
+ (cfops->unlocked_ioctl || cfops->ioctl)
)

@ helper_goes_before depends on patch && legacy_ioctl @
identifier first_caller : script:python () { [str(first_caller)] == helper_site };
@@
first_caller(...) {...}

@ add_helper depends on patch && legacy_ioctl && !multi_kernel @
identifier named.fwd_helper;
identifier helper_goes_before.first_caller;
@@
+static int fwd_helper(const struct file_operations *fops, struct inode *inode,
+	struct file *file, unsigned int cmd, unsigned long arg)
+{
+	/*
+	 * A forwarded ioctl, dispatched as the VFS dispatches one: through
+	 * ->unlocked_ioctl, or, for a lower driver still on .ioctl, through
+	 * it under the BKL (recursive: safe whether or not the caller holds
+	 * it).  A function, so that each argument is evaluated once.
+	 */
+	int ret;
+
+	if (fops->unlocked_ioctl)
+		return (int)fops->unlocked_ioctl(file, cmd, arg);
+	lock_kernel();
+	ret = fops->ioctl(inode, file, cmd, arg);
+	unlock_kernel();
+	return ret;
+}
+
  first_caller(...) {...}

// (A comment before the #ifdef, or after it, leaves spatch unable to place
// the + code: the helper says why inside its body.)
@ add_helper_multi depends on patch && legacy_ioctl && multi_kernel @
identifier named.fwd_helper;
identifier helper_goes_before.first_caller;
@@
+#ifdef HAVE_UNLOCKED_IOCTL
+#include <linux/version.h>
+static int fwd_helper(const struct file_operations *fops, struct inode *inode,
+	struct file *file, unsigned int cmd, unsigned long arg)
+{
+	/*
+	 * A forwarded ioctl, dispatched as the VFS dispatches one: through
+	 * ->unlocked_ioctl, or, for a lower driver still on .ioctl, through
+	 * it under the BKL (recursive: safe whether or not the caller holds
+	 * it).  2.6.36 removed .ioctl (HAVE_UNLOCKED_IOCTL stayed): there a
+	 * fops without ->unlocked_ioctl has no handler, -ENOTTY as the VFS
+	 * says.  A function, so that each argument is evaluated once.
+	 */
+	int ret;
+
+	if (fops->unlocked_ioctl)
+		return (int)fops->unlocked_ioctl(file, cmd, arg);
+	ret = -ENOTTY;
+#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)
+	lock_kernel();
+	ret = fops->ioctl(inode, file, cmd, arg);
+	unlock_kernel();
+#endif
+	return ret;
+}
+#endif
+
  first_caller(...) {...}

@ add_lock_header depends on patch && legacy_ioctl @
position lock_after : script:python () { [int(lock_after[0].line)] == header_after };
@@
(
#include <...>@lock_after
+#include <linux/smp_lock.h>
|
#include "..."@lock_after
+#include <linux/smp_lock.h>
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

// -D legacy_ioctl: the ->ioctl of a test of either member, and of the
// helper, is what the rewrites wrote: not left over.
@ either_written depends on patch && multi_kernel && legacy_ioctl @
expression E;
struct file_operations *fops;
const struct file_operations *cfops;
struct file_operations vfops;
position r;
@@
(
  vfops.unlocked_ioctl || vfops.ioctl@r
|
  E->f_op->unlocked_ioctl || E->f_op->ioctl@r
|
  fops->unlocked_ioctl || fops->ioctl@r
|
  cfops->unlocked_ioctl || cfops->ioctl@r
)

@ script:python @
r << either_written.r;
@@
either_at.add(at(r))

// What the rewrites left of a converted function outside a legacy half
// was not written twice (spatch writes nothing before some statements):
// refused, so that the wrappers write nothing of the run.
@ left_over depends on patch && multi_kernel @
expression E;
const struct file_operations *cfops;
struct file_operations *fops;
struct file_operations vfops;
position r;
@@
(
  vfops.ioctl@r
|
  E->f_op->ioctl@r
|
  fops->ioctl@r
|
  cfops->ioctl@r
)

@ script:python depends on patch && multi_kernel @
r << left_over.r;
@@
if r[0].current_element in converted_in and at(r) not in either_at and \
        not legacy_half(r[0].file, int(r[0].line)):
    first = min(int(l) for l, _, f in own_at | set(tests_at) if f == r[0].current_element)
    say_at(where[0], first, r[0].current_element,
           "a call or test of ->ioctl the multi-kernel output could not write twice: "
           "refused; convert it by hand")

@ forward_context depends on context @
position any_call.p;
expression E;
struct file_operations vfops;
@@
(
* E->ioctl@p
|
* vfops.ioctl@p
)
