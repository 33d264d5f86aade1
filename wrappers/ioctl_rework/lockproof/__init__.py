"""A lock-balance proof of converted ioctl handlers that does not trust the
conversion rule (it shares no code with it).

Interface (convert's verify stage calls it):

  prove_file(rel, old_text, new_text, entries, lock, expander) -> list[LockProblem]
      REL: the file's path relative to the tree; OLD_TEXT and NEW_TEXT:
      the file before and after conversion; ENTRIES: each converted
      legacy handler defined in this file -> its new entry function
      (the same name for pushdown; the wrapper's name for the wrapper
      and multi-kernel strategies); LOCK: a LockCalls; EXPANDER: a
      TextualExpander or a PreprocessedExpander.  Raises Unprovable for
      the first handler it cannot analyse (a refusal, never a pass).
  prove_each(...same arguments...) -> list[HandlerProof]
      The same, one verdict per handler: problems, or the Unprovable.
  LockProblem(file, line, function, message)   frozen; LINE is in NEW_TEXT
  LockCalls(acquire, release, argument)        LockCalls.for_options(options, rel)
  TextualExpander(root, rel)                   macros of the file and of the
                                               headers it includes (headers.py)
  PreprocessedExpander(text, old_text)         the preprocessor's output (.i) of
                                               the converted and the legacy file
  Unprovable(file, function, reason, line)     an exception
  mutex_name(rel, legacy)                      the conversion's private mutex
  lock_for_text(lock, rel, legacy)             LOCK with the mutex name the
                                               legacy text leaves free
  module_problems(name, texts) -> list[LockProblem]
      The files of one kbuild module that share the mutex NAME (rel ->
      (old, new) texts): each that takes it declares or defines it, one
      defines it, non-static, and none takes or defines another.
  prove_changes(root, changes, lock_for) -> list[FileProof]
      Every handler a run converted, from its rewritten files (rel -> (old,
      new) bytes, as ConversionResult.changes); entries are read from the
      file_operations of both texts, not from the rule.

What is proven, for each handler and in every configuration of the #if
conditions its code depends on: the converted entry point (walked from a
free lock) leaves the lock free on every return and at the end of its body;
it never releases a lock it does not hold nor takes a mutex it holds; every
leaf of code that must run under the lock (all code but pure declarations,
local assignments and the computation of return values from constants
and locals) runs at exactly the lock depths at which the same tokens of the
legacy handler ran (walked from the VFS's held lock); no such code is
missing; and code that ran under the lock and now runs without it (a
pushdown's declarations before the lock) reads nothing another call may
change in between (early_reads.py: no `int users = dev->users;` before a
`dev->users = users + 1;` under the lock).  A path ends at a call that does
not return: the kernel's own, one declared noreturn, and a function or
macro of what was read that halts on every path (noreturn.py, halting.py);
with a mutex, no such call, no BUG_ON() of a condition not known to be 0
and no call to a function read that may halt runs with the mutex held (a
mutex, unlike the BKL, stays held when its holder exits: judge.py).  A wrapper must call the legacy body once on every path with the
lock held and pass its own arguments; its body must return with the lock
as it got it; no file_operations may point at the body directly.
"""

from ioctl_rework.lockproof.changes import FileProof, prove_changes
from ioctl_rework.lockproof.expanders import PreprocessedExpander, TextualExpander
from ioctl_rework.lockproof.model import (HandlerProof, LockCalls, LockProblem, Unprovable,
                                          lock_for_text, mutex_name)
from ioctl_rework.lockproof.module_mutex import module_problems
from ioctl_rework.lockproof.proof import prove_each

__all__ = ["FileProof", "HandlerProof", "LockCalls", "LockProblem", "PreprocessedExpander",
           "TextualExpander", "Unprovable", "lock_for_text", "module_problems", "mutex_name", "prove_changes",
           "prove_each",
           "prove_file"]


def prove_file(rel: str, old_text: str, new_text: str, entries: dict[str, str],
               lock: LockCalls, expander) -> list[LockProblem]:
    """Every lock problem of the handlers ENTRIES names; see the module doc."""
    results = prove_each(rel, old_text, new_text, entries, lock, expander)
    for result in results:
        if result.unprovable is not None:
            raise result.unprovable
    return [p for result in results for p in result.problems]
