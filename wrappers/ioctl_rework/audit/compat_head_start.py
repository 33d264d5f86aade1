"""The compat classes begun while the audit's own rules run (issue 24 s.3).

Most of what the classes cost needs the files, not the findings: the facts
rule reads the candidate files, the layout probe compiles their headers.
So once the prefilter has chosen the candidates, the classifier starts in a
thread of its own on the files most likely to get a missing-compat finding
(a file_operations initializer that sets .unlocked_ioctl and not
.compat_ioctl), beside the audit's rules: on two cores, the classes' spatch
and gcc run while the rules' do.  Its progress is drawn when the audit
reaches its classes (audit.deferred_stages).

Its result stands only for exactly the files the findings name: the
classifier's result on a file depends on the other files of its run (the
callees run lists the callees of them all), so for any other set the
classifier runs again as it would have without the head start (the facts
found here are in the cache by then, if there is one).  A re-run whose
rules come from the cache starts nothing: its classes come from the cache
too (audit.compat_classes)."""

import re
import threading
from pathlib import Path

from ioctl_rework.cache import Cache
from ioctl_rework.ctext.candidates import fops_initializers
from ioctl_rework.stages import Stages
from ioctl_rework.audit.compat_classes import classified_path
from ioctl_rework.audit.deferred_stages import DeferredStages

_SETS_UNLOCKED = re.compile(rb"\bunlocked_ioctl\s*[=:]")
_SETS_COMPAT = re.compile(rb"\bcompat_ioctl\s*[=:]")


def likely_missing_compat(data: bytes) -> bool:
    """Whether a file_operations initializer of the text DATA sets
    .unlocked_ioctl and not .compat_ioctl (a guess: a wrong one costs time,
    never a result)."""
    return any(_SETS_UNLOCKED.search(body) and not _SETS_COMPAT.search(body)
               for body in fops_initializers(data))


class HeadStart:
    """The classifier running on SHOWN (files as findings name them, sorted)."""

    def __init__(self, shown: list[str], tree: Path | None, jobs: int, timeout: int,
                 cache: Cache | None):
        self.shown = shown
        self._progress = DeferredStages()
        self._result = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._classify, name="compat head start",
            args=([classified_path(file, tree) for file in shown], tree, jobs, timeout, cache))
        self._thread.start()

    def _classify(self, files, tree, jobs, timeout, cache) -> None:
        try:
            from ioctl_rework.compat import classify_files_read
            self._result = classify_files_read(files, tree, jobs, timeout, cache, self._progress)
        except BaseException as err:     # given to the caller that takes the result
            self._error = err
        finally:
            self._progress.end()

    def result_for(self, shown: list[str], stages: Stages):
        """classify_files_read's (classifications, provenance) for the files
        SHOWN, drawn on STAGES as it goes; None, once this run has ended,
        when it was started on other files."""
        if shown != self.shown:
            self.wait()
            return None
        self._progress.replay(stages)
        self.wait()
        if self._error is not None:
            raise self._error
        return self._result

    def wait(self) -> None:
        self._thread.join()


def start(files: dict[str, Path], tree: Path | None, jobs: int, timeout: int,
          cache: Cache | None) -> HeadStart | None:
    """The classifier started on those of FILES (shown name -> path to
    read) likely to get a missing-compat finding; None when none is."""
    likely = []
    for shown, path in files.items():
        try:
            if likely_missing_compat(path.read_bytes()):
                likely.append(shown)
        except OSError:
            continue
    return HeadStart(sorted(likely), tree, jobs, timeout, cache) if likely else None
