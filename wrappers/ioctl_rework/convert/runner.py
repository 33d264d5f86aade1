"""The rule-run stage of convert: the conversion rule on files through the
cache, one spatch run per (file, listed handlers), in batches, JOBS
processes at a time; then one run per #if branch for the files that need
it.  Runner.run is the stage's driver: it calls each step once, in order,
and each step only calls down (file_runs.py reads an answer, rule_cache.py
keeps answers, rule_spatch.py runs spatch, branches.py merges branches).
"""

from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Callable

from ioctl_rework import cache as cache_mod
from ioctl_rework import settings
from ioctl_rework.convert import branches as convert_branches
from ioctl_rework.convert import file_runs, rule_spatch
from ioctl_rework.convert.file_runs import FileRun, Pending, RunTask
from ioctl_rework.convert.rule_cache import RuleCache
from ioctl_rework.convert.sources import Sources
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.stages import Stages

__all__ = ["FileRun", "RunTask", "Runner"]


# Told of every run of the rule on a file as it ends (ConvertRequest.on_rule_run).
RuleRunHeard = Callable[[str, tuple[str, ...], spatch.SpatchResult], None]


class Runner:
    """Runs the rule with OPTIONS on files under ROOT, JOBS at a time, each
    within TIMEOUT seconds, through CACHE; a task already run in this
    convert is not run again.  ON_RULE_RUN hears of every run as it ends."""

    def __init__(self, options: settings.ConversionOptions, root: Path, jobs: int,
                 timeout: int, cache: cache_mod.Cache, stages: Stages, sources: Sources,
                 module_mutexes: dict[str, str] | None = None,
                 on_rule_run: RuleRunHeard | None = None):
        self.options = options
        self.root = root
        self.jobs = jobs
        self.timeout = timeout
        self.on_rule_run = on_rule_run
        # --lock mutex: file -> the mutex of the kbuild module it shares (modules.py).
        self.module_mutexes = module_mutexes or {}
        self.stages = stages
        self.sources = sources
        self.spatch_version = spatch.version()
        self.answers = RuleCache(cache, root, self.spatch_version)
        self._memo: dict[RunTask, FileRun] = {}

    @property
    def runs(self) -> dict[RunTask, FileRun]:
        """Every task run so far, with its FileRun."""
        return dict(self._memo)

    def keep(self, runs: dict[RunTask, FileRun]) -> None:
        """RUNS, an earlier pass's, stand for their tasks in this one: its
        caller vouches that this request's options give them the same answer."""
        self._memo.update(runs)

    def run(self, tasks: list[RunTask], stage_name: str) -> dict[RunTask, FileRun]:
        """The FileRun of every task, as the stage STAGE_NAME; then the
        runs per #if branch of the files that need them ("branch runs")."""
        options, answers = self.options, self.answers
        fresh = [task for task in tasks if task not in self._memo]
        args = {task: tuple(_args(options, self.module_mutexes, task)) for task in fresh}
        results: dict[RunTask, FileRun] = {}
        with self.stages.stage(stage_name, len(tasks)) as stage:
            todo: list[Pending] = []
            for task in tasks:
                if task in self._memo:
                    results[task] = self._memo[task]
                    continue
                try:
                    pending = Pending(task, self.sources.read(task.file), args[task],
                                      options.resolves_have_ioctl)
                except OSError as err:
                    results[task] = file_runs.unreadable(task, err)
                    continue
                hit = answers.get(pending)
                if hit is not None:
                    results[task] = file_runs.read_run(pending, self._told(pending, hit))
                else:
                    todo.append(pending)
            stage.from_cache(len(tasks) - len(todo))

            def batch_done(batch: list[Pending], said: list[spatch.SpatchResult]) -> None:
                for pending, result in zip(batch, said):
                    answers.put(pending, result)
                    self._told(pending, result)
                stage.step(len(batch))

            for pending, result in rule_spatch.run_all(todo, self.root, self.jobs,
                                                       self.timeout, batch_done):
                results[pending.task] = file_runs.read_run(pending, result)
        branching = [task for task, result in results.items()
                     if task not in self._memo
                     and convert_branches.needs_branch_runs(result.decisions)]
        if branching:
            with self.stages.stage("branch runs", len(branching)) as stage:
                for task in branching:
                    results[task] = convert_branches.convert_branches(
                        results[task], partial(_run_variant, self.root, self.timeout, answers,
                                               Pending(task, b"", args[task],
                                                       options.resolves_have_ioctl)))
                    stage.step()
        self._memo.update(results)
        return results

    def _told(self, pending: Pending, result: spatch.SpatchResult) -> spatch.SpatchResult:
        """RESULT, after ON_RULE_RUN hears of it."""
        if self.on_rule_run is not None:
            self.on_rule_run(pending.task.file, pending.args, result)
        return result


def _args(options: settings.ConversionOptions, module_mutexes: dict[str, str],
          task: RunTask) -> list[str]:
    options = replace(options, handlers=task.listed, kept=task.kept,
                      module_mutex=module_mutexes.get(task.file, ""),
                      module_mutex_home=task.module_home)
    # Report and patch at once: one spatch start gives decisions and diff.
    return options.spatch_args("patch") + ["-D", "report"]


def _run_variant(root: Path, timeout: int, answers: RuleCache, base: Pending, data: bytes,
                 extra: list[str]) -> FileRun:
    """The rule on DATA in place of BASE's file (under ROOT), with EXTRA options."""
    pending = replace(base, data=data, args=base.args + tuple(extra))
    result = answers.get(pending)
    if result is None:
        result = rule_spatch.run_in_copy(pending, root, timeout)
        answers.put(pending, result)
    return file_runs.read_run(pending, result)
