// SPDX-License-Identifier: GPL-2.0-only
/// Convert legacy .ioctl file operations to .unlocked_ioctl.
///
/// Until 2.6.36 the VFS called a file_operations' .ioctl handler with the
/// Big Kernel Lock held.  Each handler becomes an .unlocked_ioctl handler,
/// long h(struct file *, unsigned int, unsigned long), that takes the lock
/// itself, so every path still holds it where the VFS held it.  Where the
/// body used the inode parameter, the inode is derived from the file.
//
// Confidence: High
// Copyright: (C) 2026 The ioctl-rework authors.
// Options: --no-includes --include-headers --smpl-spacing --no-ifdef-to-if
//
// What it does, rule by rule, with examples (the fops spellings, the
// pushdown, wrapper and default-deny auto strategies, what is left alone and
// why, -ENOIOCTLCMD, the -D flags for mutex, inode spellings, compat,
// multi_kernel, no_bkl): README.md, "The semantic patches".

virtual patch
virtual context
virtual org
virtual report
virtual pushdown
virtual wrapper
virtual mutex
virtual inode_f_dentry
virtual inode_f_path
virtual multi_kernel
virtual compat
virtual no_bkl
virtual enoioctlcmd_einval
virtual enoioctlcmd_refuse
virtual module_mutex_home

@initialize:python@
@@
try:
    from ioctl_rule import (bindings, decisions, entries, handler_body, matches,
                            placement, reporting, rewriting, source, state)
except ImportError as error:
    raise ImportError("ioctl-rework: cannot import the package ioctl_rule (%s): put "
                      "the directory of this rule, semantic-patches, on PYTHONPATH"
                      % error) from error

@script:python forget_previous_file@
@@
state.forget_previous_file()

// Flags become python booleans once, so that decide() can read them.
@script:python depends on multi_kernel@
@@
state.flags.multi_kernel = True
@script:python depends on pushdown@
@@
state.flags.pushdown = True
@script:python depends on wrapper@
@@
state.flags.wrapper = True
@script:python depends on mutex@
@@
state.flags.mutex = True
@script:python depends on compat@
@@
state.flags.compat = True
@script:python depends on report@
@@
state.flags.report = True
@script:python depends on org@
@@
state.flags.org = True
@script:python depends on enoioctlcmd_einval@
@@
state.flags.enoioctlcmd_einval = True
@script:python depends on inode_f_dentry@
@@
state.flags.inode_f_dentry = True
@script:python depends on inode_f_path@
@@
state.flags.inode_f_path = True
@script:python depends on enoioctlcmd_refuse@
@@
state.flags.enoioctlcmd_refuse = True
@script:python depends on no_bkl@
@@
state.flags.no_bkl = True
// -D module_mutex=NAME: one mutex for every file of a kbuild module, defined
// in the file run with -D module_mutex_home and declared extern in the others.
@script:python module_mutex_name@
given_mutex << virtual.module_mutex;
@@
matches.module_mutex(given_mutex)
@script:python depends on module_mutex_home@
@@
state.flags.module_mutex_home = True

@script:python name_list@
names << virtual.handlers;
@@
matches.listed_names(names)

@script:python keep_list@
names << virtual.keep;
@@
matches.kept_names(names)

@script:python wrapper_list@
names << virtual.wrapper_for;
@@
matches.wrapper_names(names)

// ---------------------------------------------------------------- facts

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

// Every <...> include: where a new header goes, and which of the lock's
// headers the file has.
@ include @
position p;
@@
#include <...>@p

@ script:python @
p << include.p;
@@
matches.include(p)

// A file whose only includes are quoted (an umbrella header of the
// driver) gets the new header after the last of them.
@ quoted_include @
position p;
@@
#include "..."@p

@ script:python @
p << quoted_include.p;
@@
matches.quoted_include(p)

@ bkl_call @
position p;
@@
(
lock_kernel@p(...)
|
unlock_kernel@p(...)
|
kernel_locked@p(...)
)

@ script:python @
p << bkl_call.p;
@@
matches.bkl_call(p)

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

// With -D mutex, what a handler may sleep on until another call wakes it,
// in any function of the file: the decision follows the calls between them.
@ sleeps_until_woken depends on mutex @
identifier sleeper =~ "^(wait_event[a-z_0-9]*|interruptible_sleep_on[a-z_0-9]*|sleep_on[a-z_0-9]*|schedule|schedule_timeout[a-z_0-9]*|io_schedule[a-z_0-9]*|wait_for_completion[a-z_0-9]*)$";
position p;
@@
sleeper@p(...)

@ script:python @
sleeper << sleeps_until_woken.sleeper; p << sleeps_until_woken.p;
@@
matches.sleeps_until_woken(sleeper, p)

// With -D mutex, a wait or a delay in a loop polls for what another call
// may set (while (!dev->ready) msleep(10);): the decision reads the loop.
@ polls depends on mutex @
identifier poller =~ "^(msleep|msleep_interruptible|ssleep|udelay|mdelay|ndelay|cpu_relax|schedule_timeout[a-z_]*|yield)$";
position p;
@@
poller@p(...)

@ script:python @
poller << polls.poller; p << polls.p;
@@
matches.polls(poller, p)

@ semaphore_down depends on mutex @
identifier downer =~ "^down(_interruptible|_killable|_timeout)?$";
expression sem;
position p;
@@
downer@p(sem, ...)

@ script:python @
downer << semaphore_down.downer; sem << semaphore_down.sem; p << semaphore_down.p;
@@
matches.semaphore_down(downer, sem, p)

@ semaphore_up depends on mutex @
expression sem;
position p;
@@
up@p(sem)

@ script:python @
sem << semaphore_up.sem; p << semaphore_up.p;
@@
matches.semaphore_up(sem, p)

@ enoioctlcmd @
position p;
@@
  -ENOIOCTLCMD@p

@ script:python @
p << enoioctlcmd.p;
@@
matches.enoioctlcmd(p)

// The calls between functions: -D mutex follows them to what a handler
// sleeps on; without it they are read only where some function returns
// -ENOIOCTLCMD (a helper of the file may pass it back).
@ call_in_function depends on mutex || enoioctlcmd @
identifier callee;
position p;
@@
callee@p(...)

@ script:python @
callee << call_in_function.callee; p << call_in_function.p;
@@
matches.call_in_function(callee, p)

// A declaration of the outermost block runs before lock_kernel() would:
// only calls known to be pure may run there (PURE_CALLS); a call through
// a function pointer never is.
@ early_call @
expression callee;
type T;
identifier x;
expression list es;
position p;
@@
T x = <+... callee@p(es) ...+>;

@ script:python @
f << early_call.callee; p << early_call.p;
@@
matches.early_call(f, p)

// Declarations, to find the first statement after them (first_statement_of).
@ local_declaration depends on definition @
declaration D;
position p;
@@
D@p

@ script:python @
p << local_declaration.p;
@@
matches.local_declaration(p)

// lock_kernel() goes before the first statement; if that is inside an
// #if, some configurations would never take the lock (or take it twice).
@ script:python @
h << definition.h; p << definition.p;
@@
matches.first_statement(h, p)

@ complex_return @
constant returned_int : script:python () { handler_body.int_constant(returned_int) };
local idexpression x;
expression E;
position p, px;
@@
(
  return returned_int;
|
  return -returned_int;
|
  return x@px;
|
  return E@p;
)

@ script:python @
p << complex_return.p;
@@
matches.complex_return(p)

@ script:python @
x << complex_return.x; px << complex_return.px;
@@
matches.returned_local(x, px)

// Every return spatch sees; one written in the handler that it does not
// see is in a macro argument or in code it could not parse.
@ seen_return @
expression E;
position p;
@@
(
  return@p E;
|
  return@p;
)

@ script:python @
p << seen_return.p;
@@
matches.seen_return(p)

// Every variable: which "ret" can hold a return value, which locals are
// static or unsigned, and which names would hide the lock.
@ static_variable @
type T;
identifier x;
initializer I;
position p;
@@
(
  static T x@p;
|
  static T x@p = I;
)

@ script:python @
p << static_variable.p;
@@
matches.static_variable(p)

@ variable @
type T;
identifier x;
initializer I;
position p;
@@
(
  T x@p;
|
  T x@p = I;
)

@ script:python @
t << variable.T; x << variable.x; p << variable.p;
@@
matches.variable(t, x, p)

@ ret_any @
position p;
symbol ret;
@@
ret@p

@ script:python @
p << ret_any.p;
@@
matches.ret_any(p)

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

// ------------------------------------------------------------- decisions
// Each script binds, per handler, the names the rewriting rules use
// (NO_MATCH for a handler left alone: CONTRIBUTING, "Adding a rule", 4).

@ script:python as_converted @
h << definition.h; p << definition.p; filp << definition.filp;
ph; wh; dh; mh; uh; rh2; rname; ch; newh; sph; split_var; lock; unlock; ie;
@@
bindings.bind(cocci, coccinelle, rewriting.converted_handler(h, p, filp))

// A comparison with the handler above its fops follows the entry to the
// wrapper, defined later: the wrapper is declared before its function.
@ script:python wrapper_proto @
h << definition.h; p << definition.p;
pfn; pname; pfilp; pcmd; parg;
@@
bindings.bind(cocci, coccinelle, rewriting.wrapper_prototype(h, p))

@ script:python switch_fops @
h << fops_entry.handler; p << fops_entry.p;
entry; wfn; wfilp; wcmd; warg; wcall; wlock; wunlock;
@@
bindings.bind(cocci, coccinelle, rewriting.switch_entry(h, p))

@ script:python switch_runtime @
h << fops_runtime.handler; p << fops_runtime.p;
entry; wfn; wfilp; wcmd; warg; wcall; wlock; wunlock;
@@
bindings.bind(cocci, coccinelle, rewriting.switch_entry(h, p))

// ------------------------------------------------------------- pushdown

// Where lock_kernel() goes, found by SmPL for the handlers it goes into
// (the facts found it from the text, for the decision): the two must agree,
// or the file fails rather than get a lock in the wrong place.
@ first_statement depends on patch exists @
identifier as_converted.ph;
statement S, S1;
position p;
@@
ph(...) {
  ... when != S1
  S@p
  ... when any
}

@ script:python @
ph << as_converted.ph; p << first_statement.p;
@@
matches.first_statement_agrees(ph, p)

// Before the first statement.  It is the first rule to change the file:
// a position cannot be inherited across a change.
@ pushdown_lock depends on patch @
statement as_converted.lock;
statement S;
position first_statement.p : script:python () { decisions.strategy_at(p) == "pushdown" };
@@
+ lock
  S@p

// The handler's new signature, pushed down or wrapped.
@ new_signature depends on patch @
identifier as_converted.ph, as_converted.wh, ino, filp, cmd, arg;
type TC, TA;
@@
- int
+ long
  \(ph\|wh\)(
-   struct inode *ino,
    struct file *filp, TC cmd, TA arg) { ... }

// A declaration whose initializer needs the lock (split_declaration())
// stays without it, and the assignment follows the lock just added.
@ split_initializer depends on patch @
identifier as_converted.sph, as_converted.split_var;
statement as_converted.lock;
type T;
expression E;
@@
sph(...) {
  ... when any
  T split_var
- = E
  ;
  ... when any
  lock
+ split_var = E;
  ... when any
}

// A value the legacy int handler returned as a negative errno would come
// back zero-extended from a long one: (int) keeps it.  Before the unlocks,
// so that a pushed-down return evaluates it under the lock.
@ return_as_int depends on patch @
identifier unsigned_value : script:python () { unsigned_value in state.unsigned_names };
position p : script:python () { decisions.strategy_at(p) in ("pushdown", "wrapper") };
@@
  return
- unsigned_value@p
+ (int)unsigned_value
  ;

// Every return of the function, matched as statements (CONTRIBUTING, 6).
// A static local is read under the lock like any other shared value.
@ pushdown_unlock depends on patch @
statement as_converted.unlock;
identifier as_converted.rname;
constant unlocked_int : script:python () { handler_body.int_constant(unlocked_int) };
local idexpression returned_local : script:python () { handler_body.plain_local(returned_local) };
expression E;
position p : script:python () { decisions.strategy_at(p) == "pushdown" };
@@
(
+ unlock
  return unlocked_int@p;
|
+ unlock
  return -unlocked_int@p;
|
+ unlock
  return returned_local@p;
|
- return E@p;
+ rname = E;
+ unlock
+ return rname;
)

@ pushdown_ret depends on patch @
identifier as_converted.rh2, as_converted.rname;
@@
  rh2(...) {
+ int rname;
  ...
  }

@ pushdown_ret_blank depends on patch @
identifier as_converted.rh2, as_converted.rname;
statement S;
@@
  rh2(...) {
  int rname;
+
  S
  ...
  }

// -------------------------------------------------------------- wrapper

// wcall passes the inode where the handler keeps its signature (a function
// pointer also uses it), as the VFS did.
@ wrapper_before_fops depends on patch @
identifier switch_fops.wfn;
identifier switch_fops.wfilp, switch_fops.wcmd, switch_fops.warg;
expression switch_fops.wcall;
statement switch_fops.wlock, switch_fops.wunlock;
type T;
identifier fops;
initializer I;
position wq1 : script:python (wfn) { rewriting.wrapper_site(wq1, wfn, "wrapper") };
symbol ret;
@@
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	int ret;
+
+	wlock
+	ret = wcall;
+	wunlock
+	return ret;
+}
+
  T fops@wq1 = I;

@ wrapper_before_function depends on patch @
identifier switch_runtime.wfn;
identifier switch_runtime.wfilp, switch_runtime.wcmd, switch_runtime.warg;
expression switch_runtime.wcall;
statement switch_runtime.wlock, switch_runtime.wunlock;
identifier fn;
position wq3 : script:python (wfn) { rewriting.wrapper_site(wq3, wfn, "wrapper") };
symbol ret;
@@
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	int ret;
+
+	wlock
+	ret = wcall;
+	wunlock
+	return ret;
+}
+
  fn@wq3(...) { ... }

@ wrapper_declared_early depends on patch @
identifier wrapper_proto.pfn, wrapper_proto.pname;
identifier wrapper_proto.pfilp, wrapper_proto.pcmd, wrapper_proto.parg;
@@
+static long pname(struct file *pfilp, unsigned int pcmd,
+		  unsigned long parg);
+
  pfn(...) { ... }

// A fops that is a static local of a function: the wrapper goes at file
// scope, before that function (the site of its entry is the function).
@ wrapper_before_local_fops depends on patch @
identifier switch_fops.wfn;
identifier switch_fops.wfilp, switch_fops.wcmd, switch_fops.warg;
expression switch_fops.wcall;
statement switch_fops.wlock, switch_fops.wunlock;
identifier fn;
position wq2 : script:python (wfn) { rewriting.wrapper_site(wq2, wfn, "wrapper") };
symbol ret;
@@
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	int ret;
+
+	wlock
+	ret = wcall;
+	wunlock
+	return ret;
+}
+
  fn@wq2(...) { ... }

// --------------------------------------------------------- multi-kernel
// The legacy handler stays as it is for kernels before 2.6.11; the new
// entry point exists only where HAVE_UNLOCKED_IOCTL says it is used.

@ multi_wrapper_before_fops depends on patch @
identifier switch_fops.wfn;
identifier switch_fops.wfilp, switch_fops.wcmd, switch_fops.warg;
expression switch_fops.wcall;
statement switch_fops.wlock, switch_fops.wunlock;
type T;
identifier fops;
initializer I;
position mq1 : script:python (wfn) { rewriting.wrapper_site(mq1, wfn, "multi-kernel") };
symbol ret;
@@
+#ifdef HAVE_UNLOCKED_IOCTL
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	int ret;
+
+	wlock
+	ret = wcall;
+	wunlock
+	return ret;
+}
+#endif
+
  T fops@mq1 = I;

// ----------------------------------------------------------------- inode

@ derive_inode depends on patch @
identifier as_converted.dh, definition.ino;
expression as_converted.ie;
@@
  dh(...) {
+ struct inode *ino = ie;
  ...
  }

// A local that no use outside every #if names, only a macro or an #if
// (#ifdef USE_INODE / #define FL_MINOR() iminor(inode) / #else /
// #define FL_MINOR() 0): some build may not use it, and -Werror fails on
// an unused variable.  The attribute, not __maybe_unused: that exists
// only from 2.6.22, and spatch 1.1.1 pads it with blanks before "= ie".
@ derive_inode_unused depends on patch @
identifier as_converted.mh, definition.ino;
expression as_converted.ie;
@@
  mh(...) {
+ struct inode *ino __attribute__((unused)) = ie;
  ...
  }

// Every use of the inode is inside an #if of the body: a local would be
// unused where that code is compiled out, so each use names the inode.
// (No function context: Coccinelle's paths do not reach an #else after
// a return in its #if branch.)
@ inline_inode depends on patch @
identifier as_converted.uh, definition.ino;
expression as_converted.ie;
position p : script:python (uh) { p[0].current_element == uh };
@@
(
- ino@p
+ ie
|
  uh    // (only so that spatch sees uh used: a match of it changes nothing)
)

// A body that started with a statement gets a blank line after the new
// declaration, as checkpatch wants.
@ derive_inode_blank depends on patch @
identifier as_converted.dh, as_converted.mh, definition.ino;
expression as_converted.ie;
statement S;
@@
  \(dh\|mh\)(...) {
  struct inode *ino = ie;
+
  S
  ...
  }

// ---------------------------------------------------------- fops entries
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

// ------------------------------------------------------- other references

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

// --------------------------------------------------- headers and the mutex

// After the include header_site() picks (placement.py), <...> or quoted.
@ add_smp_lock_h depends on patch && !mutex @
position p : script:python () { placement.needs_header(p, "smp_lock.h") };
@@
(
#include <...>@p
+#include <linux/smp_lock.h>
|
#include "..."@p
+#include <linux/smp_lock.h>
)

@ script:python mutex_of_file depends on patch && mutex @
h << any_function.f; p << any_function.p;
mfn; mfn_home; mfn_extern; mname;
@@
bindings.bind(cocci, coccinelle, rewriting.mutex_of_file(h, p))

// No kernel since 2.6.39 has the header; only the BKL's own calls needed
// it.  Where it is the last include, <linux/mutex.h> takes its line.
@ remove_smp_lock_h depends on patch && mutex && no_bkl @
position p : script:python () { placement.drops_smp_lock_h(p) and not placement.needs_header(p, "mutex.h") };
@@
- #include <linux/smp_lock.h>@p

@ replace_smp_lock_h depends on patch && mutex && no_bkl @
position p : script:python () { placement.drops_smp_lock_h(p) and placement.needs_header(p, "mutex.h") };
@@
- #include <linux/smp_lock.h>@p
+ #include <linux/mutex.h>

@ add_mutex_h depends on patch && mutex @
position p : script:python () { placement.needs_header(p, "mutex.h") and not placement.drops_smp_lock_h(p) };
@@
(
#include <...>@p
+#include <linux/mutex.h>
|
#include "..."@p
+#include <linux/mutex.h>
)

// Before the first converted handler, which a comment may precede; or,
// when an #if around it leaves out another use, before the last function
// ahead of every use that every use compiles with (mutex_line()).
@ add_mutex depends on patch && mutex @
identifier mutex_of_file.mfn, mutex_of_file.mname;
declarer name DEFINE_MUTEX;
@@
+static DEFINE_MUTEX(mname);
+
  mfn(...) { ... }

// The module's mutex: defined in one file of the module, declared in the
// rest; declared before its definition too, or sparse asks whether a
// symbol no declaration names should be static.
@ add_module_mutex depends on patch && mutex @
identifier mutex_of_file.mfn_home, mutex_of_file.mname;
declarer name DEFINE_MUTEX;
@@
+extern struct mutex mname;
+DEFINE_MUTEX(mname);
+
  mfn_home(...) { ... }

@ declare_module_mutex depends on patch && mutex @
identifier mutex_of_file.mfn_extern, mutex_of_file.mname;
@@
+extern struct mutex mname;
+
  mfn_extern(...) { ... }

// ------------------------------------------------------ context, org, report

// The entries fops_entry found, in any spelling: the ones of a file_operations.
@ context_entry depends on context @
identifier fops_entry.handler;
position fops_entry.p;
position cq : script:python () { entries.entry_at(cq) is not None };
@@
* handler@p@cq

@ context_runtime depends on context @
expression E;
position fops_runtime.p;
identifier handler;
type CT;
@@
* E = \(handler@p \| &handler@p \| (CT)handler@p\);

@ context_enoioctlcmd depends on context @
position p : script:python () { handler_body.handler_at(p) is not None };
@@
* -ENOIOCTLCMD@p

@ script:python depends on report || org @
fops << fops_entry.fops; h << fops_entry.handler; p << fops_entry.p;
@@
reporting.report_entry(fops, h, p, reporting.org_printer(cocci))

@ script:python depends on report || org @
h << fops_runtime.handler; p << fops_runtime.p;
@@
reporting.report_entry(entries.entry_at(p).fops, h, p, reporting.org_printer(cocci))

// Once per file: the entries no rewriting rule can reach, and what else
// the patch changes.
@ script:python depends on report @
@@
reporting.report_refused(state.current_file[0])
reporting.report_other_changes(state.current_file[0])

// -ENOIOCTLCMD changes what userspace sees; every mode says so.
@ script:python depends on !context @
p << enoioctlcmd.p;
@@
reporting.enoioctlcmd_warning(p, cocci.print_main)
