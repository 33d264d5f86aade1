// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// The pushdown: lock_kernel() (or the mutex) before a handler's first
// statement and the unlock before each return; the new signature of a
// pushed-down or retyped wrapped handler.  Reads state.first_statement_at,
// decisions and unsigned_names.

virtual patch

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
