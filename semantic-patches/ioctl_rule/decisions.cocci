// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// The decision of each handler and entry (decisions.py, through
// rewriting.py).  Reads every table the facts wrote; writes
// state.decisions, splits, kept_signature, wrapper_names and mutex_site.

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
