// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// What a pushdown needs to know of a handler's body: calls before the first
// statement, where that statement is, every return and every variable.
// Writes state.facts, declarations, first_statement_at, returned_locals,
// seen_returns, static_at and variables; reads definitions (handler_at()).


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
