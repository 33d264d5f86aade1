"""What the matching rules found in the file spatch is converting: the
tables every other module joins, the flags the rule was run with, and the
reset between files.

One spatch process may run the rule on many files (--file-groups) and keeps
this module between them: what one file taught must not leak into the next
(a handler name of one driver is an ordinary function in another).  Every
per-file table and cache, in any module, is made by per_file(), and the
first script rule of the file calls forget_previous_file().
"""

import os
import types

_PER_FILE = []


def per_file(table):
    """TABLE (a dict, set or list), emptied when spatch moves to the next file."""
    _PER_FILE.append(table)
    return table


def forget_previous_file():
    for table in _PER_FILE:
        table.clear()
    current_file[0] = None


# The -D flags the rule was run with, set by script rules that depend on them.
flags = types.SimpleNamespace(
    multi_kernel=False, pushdown=False, wrapper=False, mutex=False, compat=False,
    report=False, org=False, enoioctlcmd_einval=False, inode_f_dentry=False,
    inode_f_path=False, enoioctlcmd_refuse=False, no_bkl=False,
    module_mutex=None, module_mutex_home=False)

# SmPL finds the facts; these tables only join them per handler, which a
# single SmPL rule cannot do (a handler is selected by a fops entry OR by
# name, and refused by any of several independent rules).
fops_entries = per_file({})       # file -> [Entry]: every .ioctl entry, whatever its spelling
refused_entries = per_file({})    # file -> [(fops, what, line, reason)]: entries never rewritten
fops_types = per_file(set())      # "struct file_operations" and this file's typedefs of it
runtime_any = per_file({})        # (file, line, column) -> (target, handler): "E->ioctl = h;"
definitions = per_file({})        # (file, handler) -> line
other_defs = per_file({})         # (file, handler) -> line: same name, not the .ioctl signature
listed = per_file(set())          # -D handlers=...
kept = per_file(set())            # -D keep=...: left legacy, whatever else holds
splits = per_file({})             # (file, handler) -> (line, variable): initializer moved under the lock
wrapper_for = per_file(set())     # -D wrapper_for=...: auto takes the wrapper for these
kept_signature = per_file(set())  # (file, handler): a wrapper calls it with the inode, its signature kept
facts = per_file({})              # (file, handler) -> {fact: line}
functions = per_file({})          # file -> set of defined function names
expr_uses = per_file({})          # (file, handler) -> set of lines where it is an expression
known_uses = per_file({})         # (file, handler) -> set of lines: calls and fops entries
compared = per_file({})           # (file, handler) -> lines comparing an f_op->ioctl with it
compared_in = per_file({})        # (file, handler) -> {(line, function)} of those comparisons
decisions = per_file({})          # (file, handler) -> (strategy or None, reason)
inode_param = per_file({})        # (file, handler) -> the name of its inode parameter
params = per_file({})             # (file, handler) -> names of its file, cmd and arg parameters
handler_names = per_file(set())   # every name a handler may have, to prefilter matches
inode_uses = per_file({})         # (file, handler) -> {(line, column)} of the inode parameter
inode_passed_to = per_file({})    # (file, handler, line, column) -> handler it is passed to
mutex_site = per_file({})         # file -> line of the first converted definition
unlocked_defs = per_file({})      # (file, handler) -> line: already the .unlocked_ioctl signature
runtime_unlocked = per_file({})   # file -> line of a run-time "E.unlocked_ioctl = u;"
wrapper_names = per_file({})      # (file, handler) -> the free name its wrapper gets
include_lines = per_file({})      # file -> lines of #include <...>
quoted_include_lines = per_file({})  # file -> lines of #include "..."
headers = per_file({})            # (file, "smp_lock.h" | "mutex.h") -> lines that include it already
bkl_callers = per_file(set())     # files that call the BKL (and so still need smp_lock.h)
smp_lock_h_line = per_file({})    # file -> line of its #include <linux/smp_lock.h>
declarations = per_file({})       # (file, handler) -> {(line, column): (line, column) where it ends}
first_statement_at = per_file({}) # (file, handler) -> (line, column) where its first statement starts
sleeps_at = per_file({})          # (file, function) -> [(line, primitive)] where it sleeps until woken
poll_calls = per_file({})         # (file, function) -> [(line, column, delay or wait called)]
downs = per_file({})              # (file, function) -> [((line, column), primitive, semaphore)]
ups = per_file({})                # (file, function) -> {((line, column), semaphore)} it ups
calls_in = per_file({})           # (file, function) -> names it calls (-D mutex only)
fops_scope = per_file({})         # (file, line of a .ioctl entry) -> function its fops is local to
written_returns = per_file({})    # (file, handler) -> {line: (returns in the text, one inside parentheses)}
seen_returns = per_file({})       # (file, handler) -> {line: {columns of the returns spatch matched}}
variables = per_file({})          # (file, handler) -> [LocalVariable]
static_at = per_file(set())       # (file, line, column) of static declarations
unsigned_names = per_file(set())  # names declared anywhere in the file with an unsigned int type
wide_names = per_file(set())      # names declared anywhere in the file with a type an int may not hold
returned_locals = per_file({})    # (file, handler) -> names of locals returned as they are
volatile_names = per_file(set())  # names declared volatile in the file


def fact(file, h, name, line):
    facts.setdefault((file, h), {}).setdefault(name, line)

# Rules after a rewrite may match in spatch's temporary copy of just the
# changed function: there only the function name of a position is right.
current_file = [None]  # the file whose definitions were collected last


def origin(p):
    """The file a position is in, even in a temporary copy."""
    if os.path.basename(p[0].file).startswith("cocci_"):
        return current_file[0]
    return p[0].file


def has(file, h, name):
    return name in facts.get((file, h), {})

calls = per_file({})              # (file, function) -> names it calls with four arguments
direct_calls = per_file([])       # (file, line, handler, caller): calls that lose their inode
