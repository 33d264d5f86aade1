// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// Context, org and report modes: the entries, what is left alone and why,
// the other changes, and -ENOIOCTLCMD.  Reads state.fops_entries,
// refused_entries and decisions (reporting.py).

virtual context
virtual org
virtual report

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
