// SPDX-License-Identifier: GPL-2.0-only
/// Report what an ioctl handler's commands pass, for the compat classifier.
///
/// Whether a 32-bit process may share an ioctl handler depends on each
/// command: the command numbers it compares cmd with, and how it uses arg
/// (cast to a user pointer, copied with copy_*_user() or get/put_user(),
/// used as a number, passed on).  This rule only finds those facts, one
/// line each; wrappers/ioctl_rework/compat/ joins them per handler and
/// decides with a compiled layout probe, which SmPL cannot do.
//
// Confidence: High
// Copyright: (C) 2026 The ioctl-rework authors.
// Options: --no-includes --include-headers
//
// The rules are:
// - cf_new_file, the first script rule, has no metavariables: it runs once
//   per file, so a batch of files (--file-groups) never mixes handlers.
// - cf_entry_*: the handlers named by .ioctl or .unlocked_ioctl of a
//   file_operations, one rule per spelling (spatch 1.1.1 cannot put a
//   disjunction among the members of an initializer); cf_handler: their
//   definitions with cmd and arg as the last two parameters (a script
//   constraint on the definition's position runs once per definition);
//   -D callees=a,b adds the functions a handler passes cmd and arg on to
//   (the classifier runs the rule again with them; -D callees_only=1 then
//   leaves out the entries, whose facts it has).
// - No // comment follows a script rule: it would be read as Python.
// - cf_case / cf_compare: the command expressions: case labels of a switch
//   on cmd, and cmd == E or E == cmd.  cf_nr_case: the labels of a switch
//   on _IOC_NR(cmd) (nr-switch: where that _IOC_NR is); cf_nr_use: every
//   _IOC_NR(cmd) (the classifier forgets _IOC_NR only when every use is
//   such a switch).  `when any`: a case whose code breaks out of a nested
//   block (`if (...) { ret = -EFAULT; break; }`) is a case all the same.
//   cf_case is `exists`: a label is found through any one path from it,
//   where forall (the default) checked every path at a quarter more cost
//   for the same labels.
// - cf_cast: (T)arg; cf_alias: a local set from (T)arg, whose casts and
//   copies count as arg's; cf_alias_call: an alias passed to a function,
//   cast or not (copy_*_user, get_user, or another, which the classifier
//   follows only when the file defines it); cf_alias_use_*: every occurrence
//   of an alias (the classifier refuses any use that is neither a call nor
//   sets another alias, a cast elsewhere included); cf_cast_call:
//   (T)arg passed to a function; cf_arg_call: arg passed on to a function;
//   cf_cmd_call: cmd passed on; cf_alias_chain: `T *q = p;` or
//   `T *q = (T *)p;` where p is an alias: q is one too (alias-from: the
//   position of p there).  The use rules come once per rule that binds
//   aliases (_param: a listed callee taking a pointer; _set: cf_alias;
//   _declared; _chained) and inherit the name from it: a script constraint
//   on the identifier (is it in cf_aliases?) ran once per identifier of the
//   file and was most of the rule's cost.  A name bound by two of them is
//   printed once (cf_alias_fact).  cf_alias_call keeps its constraint: it
//   runs only on the identifiers passed to a call, and one rule matching
//   every call costs more than those few Python calls.
//   cf_type_use / cf_type_guard: every _IOC_TYPE(cmd), and those that only
//   reject, `if (... _IOC_TYPE(cmd) != E ...) return R;` (the classifier
//   forgets _IOC_TYPE only when every use is such a guard); cf_arg_use:
//   every occurrence of arg (the classifier tells casts and calls apart);
//   cf_copy: copy_from_user and copy_to_user, with the type of the kernel object when spatch knows it.
// - The call rules take the called function as an expression: cmd or arg
//   handed to `ops->ioctl(data, cmd, arg)` is passed on, as to a name.
// - The cast rules disable the drop_cast isomorphism: a bare arg is no cast.
// - The copy rules come last: on some files a typed metavariable that
//   matches nothing stopped the rules after it.  The classifier refuses a
//   copy_*_user() of arg it has no copy fact for, so a lost fact is an
//   unknown, never a wrong class.
// - The classifier gives the rule a copy of each file in which the bodies
//   it reads nothing of are blanked (wrappers/ioctl_rework/compat/
//   rule_input.py): those of the handlers and of every function that may
//   add to cf_aliases, which is kept per file by name, are kept.  State
//   that a rule keeps across functions must be kept there too.
// Report lines: FILE:LINE: HANDLER: compat-fact: KIND DETAILS.

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
cf_entries = set()   # handler names of the fops entries of the current file
cf_aliases = set()   # locals set from a cast of arg, in the current file
cf_handlers = set()  # handlers whose definition was found in the current file
cf_listed = set()    # -D callees=a,b: functions a handler passes cmd and arg to
cf_only = []         # -D callees_only=1: the listed functions alone, not the fops entries

cf_alias_printed = set()  # (file, line, fact) of the alias facts printed

import re
# An entry's handler as the fops spells it: h, &h, (h), a pointer cast of
# either (a cast is a type with a star: (h)(x) is a call, no entry).
CF_ENTRY = re.compile(r"\s*(?:\(\s*[A-Za-z_][\w\s]*\*[\s*]*\)\s*)*\(?\s*&?\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*\)?\s*")

def cf_add_entry(e):
    """Take the handler an entry names, in any spelling of CF_ENTRY; an
    expression that names none (a call, a conditional) adds nothing."""
    found = CF_ENTRY.fullmatch(e)
    if found:
        cf_entries.add(found.group(1))

def cf_alias_fact(p, text):
    """Print a fact about an alias once: one name may be bound by more
    than one of the rules that find aliases, and each has its own rule for
    the uses."""
    if (p[0].file, p[0].line, text) not in cf_alias_printed:
        cf_alias_printed.add((p[0].file, p[0].line, text))
        cf_fact(p, text)

def cf_fact(p, text, h=None):
    """Print a fact of the handler around p; facts of other functions
    (which only share a parameter name) are dropped.  H: the handler whose
    parameter the fact is about, when the rule inherits one."""
    if p[0].current_element in cf_handlers and h in (None, p[0].current_element):
        print("%s:%s: %s: compat-fact: %s" % (p[0].file, p[0].line, p[0].current_element,
                                              text))

@script:python@
names << virtual.callees;
@@
cf_listed.update(n for n in names.split(",") if n)

@script:python@
only << virtual.callees_only;
@@
cf_only.append(only)

@script:python cf_new_file@
@@
cf_entries.clear()
cf_aliases.clear()
cf_alias_printed.clear()
cf_handlers.clear()

@ cf_entry_unlocked depends on report @
identifier fops;
expression h;
@@
struct file_operations fops = { ..., .unlocked_ioctl = h, ... };

@ script:python @
h << cf_entry_unlocked.h;
@@
cf_add_entry(h)

@ cf_entry_legacy depends on report @
identifier fops;
expression h;
@@
struct file_operations fops = { ..., .ioctl = h, ... };

@ script:python @
h << cf_entry_legacy.h;
@@
cf_add_entry(h)

@ cf_entry_gnu_unlocked depends on report @
identifier fops;
expression h;
@@
struct file_operations fops = { ..., unlocked_ioctl: h, ... };

@ script:python @
h << cf_entry_gnu_unlocked.h;
@@
cf_add_entry(h)

@ cf_entry_gnu depends on report @
identifier fops;
expression h;
@@
struct file_operations fops = { ..., ioctl: h, ... };

@ script:python @
h << cf_entry_gnu.h;
@@
cf_add_entry(h)

@ cf_handler depends on report @
identifier cf_h, cf_cmd, cf_arg;
type TC, TA;
position cf_hp : script:python (cf_h) { cf_h in cf_listed or (cf_h in cf_entries and not cf_only) };
@@
cf_h@cf_hp(..., TC cf_cmd, TA cf_arg) { ... }

@ script:python @
cmd << cf_handler.cf_cmd; arg << cf_handler.cf_arg; p << cf_handler.cf_hp;
ta << cf_handler.TA;
@@
cf_handlers.add(p[0].current_element)
if p[0].current_element in cf_listed and "*" in ta:
    cf_aliases.add(arg)
cf_fact(p, "params %s %s %s" % (cmd, arg, ta))

@ cf_case exists @
identifier cf_handler.cf_cmd;
expression E;
position p;
@@
switch (cf_cmd) {
case E@p:
  ... when any
}

@ script:python @
e << cf_case.E; p << cf_case.p; h << cf_handler.cf_h;
@@
cf_fact(p, "case %s" % e, h)

@ cf_nr_case @
identifier cf_handler.cf_cmd;
expression E;
position p, q;
@@
switch (_IOC_NR@q(cf_cmd)) {
case E@p:
  ... when any
}

@ script:python @
e << cf_nr_case.E; p << cf_nr_case.p; q << cf_nr_case.q; h << cf_handler.cf_h;
@@
cf_fact(p, "nr-case %s" % e, h)
cf_fact(q, "nr-switch %s:%s" % (q[0].line, q[0].column), h)

@ cf_nr_use @
identifier cf_handler.cf_cmd;
position p;
@@
_IOC_NR@p(cf_cmd)

@ script:python @
p << cf_nr_use.p; h << cf_handler.cf_h;
@@
cf_fact(p, "nr-use %s:%s" % (p[0].line, p[0].column), h)

@ cf_compare @
identifier cf_handler.cf_cmd;
expression E;
position p;
@@
(
  cf_cmd == E@p
|
  E@p == cf_cmd
|
  cf_cmd != E@p
|
  E@p != cf_cmd
)

@ script:python @
e << cf_compare.E; p << cf_compare.p; h << cf_handler.cf_h;
@@
cf_fact(p, "compare %s" % e, h)

@ cf_cast disable drop_cast @
identifier cf_handler.cf_arg;
type T;
position p;
@@
  (T)cf_arg@p

@ script:python @
t << cf_cast.T; p << cf_cast.p; h << cf_handler.cf_h;
@@
cf_fact(p, "cast %s:%s %s" % (p[0].line, p[0].column, t), h)

@ cf_alias disable drop_cast @
identifier cf_handler.cf_arg, cf_local;
type T;
position p;
@@
  cf_local@p = (T)cf_arg

@ script:python @
v << cf_alias.cf_local; t << cf_alias.T; p << cf_alias.p; h << cf_handler.cf_h;
@@
cf_aliases.add(v)
cf_fact(p, "alias %s:%s %s %s" % (p[0].line, p[0].column, v, t), h)

@ cf_alias_declared disable drop_cast @
identifier cf_handler.cf_arg, cf_local;
type T;
position p;
@@
  T cf_local@p = (T)cf_arg;

@ script:python @
v << cf_alias_declared.cf_local; t << cf_alias_declared.T; p << cf_alias_declared.p; h << cf_handler.cf_h;
@@
cf_aliases.add(v)
cf_fact(p, "alias %s:%s %s %s" % (p[0].line, p[0].column, v, t), h)

@ cf_alias_chain disable drop_cast @
identifier cf_v : script:python () { cf_v in cf_aliases };
identifier cf_local;
type T, T2;
position p, q;
@@
(
  T cf_local@p = cf_v@q;
|
  T cf_local@p = (T2)cf_v@q;
)

@ script:python @
v << cf_alias_chain.cf_local; t << cf_alias_chain.T; p << cf_alias_chain.p;
q << cf_alias_chain.q;
@@
cf_aliases.add(v)
cf_fact(p, "alias %s:%s %s %s" % (p[0].line, p[0].column, v, t))
cf_fact(q, "alias-from %s:%s" % (q[0].line, q[0].column))

@ cf_alias_cast disable drop_cast @
identifier cf_v : script:python () { cf_v in cf_aliases };
type T;
position p;
@@
  (T)cf_v@p

@ script:python @
t << cf_alias_cast.T; p << cf_alias_cast.p;
@@
cf_fact(p, "cast %s:%s %s" % (p[0].line, p[0].column, t))

@ cf_alias_call disable drop_cast @
identifier cf_w : script:python () { cf_w in cf_aliases };
expression f;
type T;
position p;
@@
(
  f(..., cf_w@p, ...)
|
  f(..., (T)cf_w@p, ...)
)

@ script:python @
f << cf_alias_call.f; p << cf_alias_call.p;
@@
cf_fact(p, "alias-call %s:%s %s" % (p[0].line, p[0].column, f))

@ cf_alias_use_param @
identifier cf_handler.cf_arg;
position p;
@@
  cf_arg@p

@ script:python @
v << cf_handler.cf_arg; p << cf_alias_use_param.p;
@@
if v in cf_aliases:
    cf_alias_fact(p, "alias-use %s:%s" % (p[0].line, p[0].column))

@ cf_alias_use_set @
identifier cf_alias.cf_local;
position p;
@@
  cf_local@p

@ script:python @
p << cf_alias_use_set.p;
@@
cf_alias_fact(p, "alias-use %s:%s" % (p[0].line, p[0].column))

@ cf_alias_use_declared @
identifier cf_alias_declared.cf_local;
position p;
@@
  cf_local@p

@ script:python @
p << cf_alias_use_declared.p;
@@
cf_alias_fact(p, "alias-use %s:%s" % (p[0].line, p[0].column))

@ cf_alias_use_chained @
identifier cf_alias_chain.cf_local;
position p;
@@
  cf_local@p

@ script:python @
p << cf_alias_use_chained.p;
@@
cf_alias_fact(p, "alias-use %s:%s" % (p[0].line, p[0].column))

@ cf_arg_call @
identifier cf_handler.cf_arg;
expression f;
position p;
@@
f(..., cf_arg@p, ...)

@ script:python @
f << cf_arg_call.f; p << cf_arg_call.p; h << cf_handler.cf_h;
@@
cf_fact(p, "arg-call %s:%s %s" % (p[0].line, p[0].column, f), h)

@ cf_cast_call disable drop_cast @
identifier cf_handler.cf_arg;
expression f;
type T;
position p;
@@
  f(..., (T)cf_arg@p, ...)

@ script:python @
f << cf_cast_call.f; p << cf_cast_call.p; h << cf_handler.cf_h;
@@
cf_fact(p, "cast-call %s:%s %s" % (p[0].line, p[0].column, f), h)

@ cf_cmd_call @
identifier cf_handler.cf_cmd;
expression f;
position p;
@@
f(..., cf_cmd@p, ...)

@ script:python @
f << cf_cmd_call.f; p << cf_cmd_call.p; h << cf_handler.cf_h;
@@
cf_fact(p, "cmd-call %s" % f, h)

@ cf_type_use @
identifier cf_handler.cf_cmd;
position p;
@@
_IOC_TYPE@p(cf_cmd)

@ script:python @
p << cf_type_use.p; h << cf_handler.cf_h;
@@
cf_fact(p, "type-use %s:%s" % (p[0].line, p[0].column), h)

@ cf_type_guard @
identifier cf_handler.cf_cmd;
expression E, R;
position p;
@@
(
  if (<+... _IOC_TYPE@p(cf_cmd) != E ...+>) return R;
|
  if (<+... _IOC_TYPE@p(cf_cmd) != E ...+>) { ... return R; }
)

@ script:python @
p << cf_type_guard.p; h << cf_handler.cf_h;
@@
cf_fact(p, "type-guard %s:%s" % (p[0].line, p[0].column), h)

@ cf_arg_use @
identifier cf_handler.cf_arg;
position p;
@@
cf_arg@p

@ script:python @
p << cf_arg_use.p; h << cf_handler.cf_h;
@@
cf_fact(p, "arg-use %s:%s" % (p[0].line, p[0].column), h)

@ cf_copy_typed @
type T;
T *dst;
expression src, n;
position p;
@@
(
  copy_from_user@p(dst, src, n)
|
  copy_to_user@p(src, dst, n)
)

@ script:python @
t << cf_copy_typed.T; src << cf_copy_typed.src; p << cf_copy_typed.p;
@@
cf_fact(p, "copy %s:%s %s <- %s" % (p[0].line, p[0].column, t, src))

@ cf_copy @
expression dst, src, n;
position p;
@@
(
  copy_from_user@p(dst, src, n)
|
  copy_to_user@p(src, dst, n)
)

@ script:python @
dst << cf_copy.dst; src << cf_copy.src; p << cf_copy.p;
@@
cf_fact(p, "copy %s:%s ? %s <- %s" % (p[0].line, p[0].column, dst, src))
