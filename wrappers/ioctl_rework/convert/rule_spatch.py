"""spatch running the conversion rule on pending files: batches of one
process, JOBS processes at a time; a file whose name spatch cannot take
runs alone on a safely named copy; a branch variant runs in a copy of the
tree that holds only it and the headers it includes."""

import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Iterator

from ioctl_rework.convert.file_runs import SPATCH_SAFE_NAME, Pending
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch


def run_all(todo: list[Pending], root: Path, jobs: int, timeout: int,
            done: Callable[[list[Pending], list[spatch.SpatchResult]], None]
            ) -> Iterator[tuple[Pending, spatch.SpatchResult]]:
    """Each pending file with spatch's answer, batch by batch (the tasks
    that share their options, in batches of one process); DONE is told of
    each batch as it ends (in the worker: cache it, count it)."""
    def one_batch(batch: list[Pending]):
        rel, data, args = batch[0].task.file, batch[0].data, list(batch[0].args)
        if len(batch) > 1:  # batchable names only (spatch.batches)
            results = spatch.run_batch(rules.CONVERSION_RULE,
                                       [Path(p.task.file) for p in batch], args, timeout,
                                       cwd=root)
        elif SPATCH_SAFE_NAME.fullmatch(rel):
            results = spatch.run_files(rules.CONVERSION_RULE, [Path(rel)], args, jobs=1,
                                       timeout=timeout, cwd=root)
        else:
            results = [spatch.run_on_text(rules.CONVERSION_RULE, rel, data, args, timeout)]
        done(batch, results)
        return zip(batch, results)

    by_args: dict[tuple[str, ...], list[Pending]] = {}
    for pending in todo:
        by_args.setdefault(pending.args, []).append(pending)
    size = spatch.batch_size(len(todo), jobs)
    batches = [batch for same in by_args.values()
               for batch in spatch.batches(same, size, name=lambda p: p.task.file)]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for finished in pool.map(one_batch, batches):
            yield from finished


def run_in_copy(pending: Pending, root: Path, timeout: int) -> spatch.SpatchResult:
    """spatch on PENDING's data, written at the file's place in a copy of
    the tree that holds only it and the headers it includes."""
    # Imported here: lockproof/ loads the whole proof, which most runs
    # (every one without a branch variant) never use.
    from ioctl_rework.lockproof.headers import included_headers

    rel = pending.task.file
    with tempfile.TemporaryDirectory(prefix="ioctl-rework-") as tmp:
        if not SPATCH_SAFE_NAME.fullmatch(rel):
            rel = spatch.safe_name(rel)
        found = included_headers(root, pending.task.file, pending.data.decode("latin-1"))
        for path, content in [*found.items(), (rel, pending.data)]:
            if content is not None:
                (Path(tmp) / path).parent.mkdir(parents=True, exist_ok=True)
                (Path(tmp) / path).write_bytes(content)
        return spatch.run_files(rules.CONVERSION_RULE, [Path(rel)], list(pending.args),
                                jobs=1, timeout=timeout, cwd=Path(tmp))[0]
