"""The cross-file follow-up stage of convert (phase 2): the files naming a
handler of another file run the rule again with it listed, until no
handler is dropped (groups.py judges whether a group followed); under a
module mutex, the files of a module also settle which one defines it, or
are all held back (module_runs.py).

The stage is handed what it needs: the rule runs of phase 1, a way to run
the rule again (the rule-run stage's Runner.run), and the files the run may
not write; it calls nothing back in the orchestrator (plan.py).
"""

from dataclasses import dataclass, replace
from typing import Callable

from ioctl_rework import settings
from ioctl_rework.convert import groups as convert_groups
from ioctl_rework.convert import module_runs
from ioctl_rework.convert.file_runs import FileRun, RunTask
from ioctl_rework.convert.groups import FollowedHandler, Groups
from ioctl_rework.convert.modules import ModulePlan
from ioctl_rework.convert.request import Unwritable
from ioctl_rework.convert.sources import Sources
from ioctl_rework.convert.summary import HandlerStatus

# The rule-run stage: the FileRun of every task, run as the stage named.
RunRule = Callable[[list[RunTask], str], dict[RunTask, FileRun]]


@dataclass
class Followed:
    """What the cross-file follow-up (and the module mutexes) leave: the
    final run of every file, the groups, the files that cannot be written,
    the files a module keeps as they are, why files failed, and what the
    groups say of each handler a file decides (by file and name)."""

    final: dict[str, FileRun]
    cross: Groups
    blocked: dict[str, str]
    held: dict[str, str]
    failures: dict[str, str]
    handlers: dict[tuple[str, str], FollowedHandler]


def follow(runs: dict[str, FileRun], mentions: dict[str, set[str]], files: set[str],
           sources: Sources, in_modules: ModulePlan, options: settings.ConversionOptions,
           run_rule: RunRule, unwritable: Unwritable,
           kept: dict[str, str] | None = None) -> Followed:
    """Phase 2 over RUNS (phase 1's, by file; RUNS gets a module home's new
    run): the files of FILES that MENTIONS names a handler in follow it, until
    no handler is dropped; the files of a module that shares one mutex get
    its definition in one of them, or are all held back.  KEPT: files the
    run must not write (file -> why: glue the target cannot build,
    bkl_glue.py), held from the start with their modules; a handler they
    share with other files is dropped there too."""
    refusal = _cross_file_refusal(options)
    blocked = unwritable(list(runs))
    cross = convert_groups.build(runs, mentions, files, sources.text)
    failures = {rel: run.reason for rel, run in runs.items() if not run.ok}
    blocked.update(unwritable(sorted({f for g in cross.groups.values()
                                      for f in g.files} - set(blocked))))
    kept = kept or {}
    held: dict[str, str] = {**module_runs.kept_back(in_modules, kept), **kept}
    homes: set[str] = set()         # the files that define their module's mutex
    left: set[str] = set()          # and those that did, but no longer take it
    while True:
        # A file phase 1 could not rewrite stays failed: no handler of it converts.
        tasks = [replace(t, module_home=t.file in homes) for t in cross.tasks()
                 if t.file not in runs or runs[t.file].ok]
        second = run_rule(tasks, "cross-file follow-up")
        final = dict(runs)
        final.update({task.file: second[task] for task in tasks})
        failures.update({run.file: run.reason for run in second.values() if not run.ok})
        # A held file blocks the handlers it shares with files outside its module.
        spanning = {rel: why for rel, why in held.items()
                    if any(rel in g.files and not set(g.files) <= set(held)
                           for g in cross.groups.values())}
        newly = convert_groups.check(cross, final, {**spanning, **blocked}, sources.text,
                                     refusal, options.lock is settings.LockMode.MUTEX,
                                     sources.root)
        failures.update({v.file: v.reason for v in newly.values()
                         if v.file and v.status is HandlerStatus.FAILED})
        if newly:
            cross.dropped.update(newly)
            continue
        moved = module_runs.homes(in_modules, final, held) ^ (homes - set(held))
        if moved & left:
            # A file the definition left is chosen again: the runs do not settle.
            held.update(module_runs.unsettled(in_modules, moved & left))
            continue
        if moved:
            left |= homes & moved
            homes ^= moved
            # Phase 1 runs again for a home that no cross-file task runs.
            again = [RunTask(rel, module_home=rel in homes) for rel in sorted(moved)
                     if rel in runs and rel not in {t.file for t in tasks}]
            done = run_rule(again, "module mutex") if again else {}
            runs.update({task.file: run for task, run in done.items()})
            continue
        dropped_in = {rel for key in cross.dropped for rel in cross.groups[key].files
                      if key in cross.groups}
        stopped = module_runs.stops(in_modules, final, failures, blocked, held, dropped_in)
        if not stopped:
            return Followed(final, cross, blocked, held, failures,
                            convert_groups.followed_handlers(cross, final, sources.text))
        held.update(stopped)


def _cross_file_refusal(options: settings.ConversionOptions) -> str | None:
    """Why no handler defined away from its fops converts under OPTIONS."""
    if options.multi_kernel or options.strategy is settings.Strategy.WRAPPER:
        return ("the wrapper (and the multi-kernel output) needs the handler in the file "
                "of its fops; --strategy pushdown converts it there")
    return None
