"""Building rewritten files against a kernel (`convert --kdir KDIR`).

KDIR is a configured and prepared kernel tree or O= directory.  Files are
built as an external module would be (`make -C KDIR M=DIR file.o`, with
C=2 when sparse is installed), in a scratch copy of their directory, so
that nothing is written in the user's tree or in KDIR.

The compile keeps its preprocessor output (-save-temps=obj, the same text
as `make file.i`): the .i the lock proof reads is the one of the build
that was judged, and no file is preprocessed twice.  gcc then compiles
the .i, which no longer says what came from a macro: a warning in a
macro is reported where the macro is used, and one gcc leaves out in
macros (a self-comparison) may show; the legacy build a new message is
compared with is made the same way.  The legacy text, which is only
preprocessed for the proof unless the new build says something that
counts, goes through gcc -E with the command kbuild recorded for the
converted file's compile (kbuild_records.py), not through a second make;
`make file.i` when there is none (the compile failed).

The copy holds the files of the run as they are in the state being built
and, around them, the other files of their directories; a header the run
changes under include/ is put before KDIR's own (NOSTDINC_FLAGS), and an
include that climbs out of the directory (`"../x.h"`) finds the user's
file (KCFLAGS=-I, after KDIR's).

The builds of the legacy files are cached by content: the object's own
text, the text of every file of the copy it read, and the size and time
of every other file it read (kbuild's dependency list), so a re-run over
the same tree builds only the converted files.
"""

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework import children
from ioctl_rework import cache as cache_mod
from ioctl_rework.verify import kbuild_records
from ioctl_rework.verify.kbuild_records import SAVE_TEMPS, CompileCommand
from ioctl_rework.verify.diagnostics import Diagnostic, parse

FORMAT = "kdir-build/2"
# Files of a directory copied beside the built ones: sources, headers, Kbuild.
_NEIGHBOUR_LIMIT = 4 << 20
_BUILD_PRODUCTS = (".o", ".ko", ".a", ".mod", ".cmd", ".i", ".s", ".order", ".symvers")
# The files a configured and prepared tree has (make modules_prepare).
_PREPARED = ("include/generated/autoconf.h", "include/config/auto.conf", "scripts/basic/fixdep")
MAKE_TIMEOUT = 1800


class KdirError(Exception):
    """KDIR cannot build anything: not a kernel tree, not configured or prepared."""


class BuildError(Exception):
    """make could not be run at all (as opposed to a file that does not build)."""


@dataclass(frozen=True)
class KernelDir:
    path: Path
    sparse: bool                # sparse is installed: builds run with C=2
    fingerprint: str            # its configuration and the compilers' versions

    @classmethod
    def open(cls, path: Path) -> "KernelDir":
        path = Path(os.path.abspath(path))
        if not path.is_dir():
            raise KdirError(f"--kdir {path}: not a directory")
        if not (path / "Makefile").is_file():
            raise KdirError(f"--kdir {path}: no Makefile; give a kernel tree or the O= "
                            "directory it was built in")
        if not (path / ".config").is_file():
            raise KdirError(f"--kdir {path}: not configured (no .config); configure it "
                            "(make olddefconfig) or give the O= directory it was built in")
        missing = [name for name in _PREPARED if not (path / name).exists()]
        if missing:
            raise KdirError(f"--kdir {path}: configured but not prepared (no {missing[0]}); "
                            f"run `make -C {path} modules_prepare`")
        sparse = shutil.which("sparse") is not None
        parts = [FORMAT, str(path), str(sparse), _version("gcc"),
                 _version("sparse") if sparse else ""]
        for name in (".config", *_PREPARED[:2], "include/generated/utsrelease.h"):
            try:
                parts.append((path / name).read_bytes())
            except OSError:
                parts.append(b"\0missing")
        return cls(path, sparse, cache_mod.make_key(*parts))


def _version(program: str) -> str:
    try:
        proc = children.run([program, "--version"], capture_output=True, text=True,
                            errors="replace", timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return (proc.stdout or proc.stderr).split("\n")[0]


@dataclass(frozen=True)
class ObjectBuild:
    """One .c file built as an object (and preprocessed) against KDIR."""

    source: str                          # relative to the tree
    diagnostics: tuple[Diagnostic, ...]
    built: bool                          # the .o was made
    preprocessed: str | None             # the .i, None when it could not be made
    cached: bool = False
    compiled: bool = True                # False: only preprocessed (no .o, no sparse)
    command: CompileCommand | None = None    # the compile's, when it built
    # The files of the copy the compile read, relative to the tree: kbuild's
    # record, or gcc's dependency file when the compile failed.
    read: tuple[str, ...] = ()

    @property
    def first_error(self) -> str | None:
        errors = [d for d in self.diagnostics if d.severity == "error"]
        return str(errors[0]) if errors else None


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Builder:
    """Builds snapshots of a run's files against KDIR; unchanged directory
    neighbours come from CONTEXT_ROOT (the user's tree)."""

    def __init__(self, kdir: KernelDir, context_root: Path, cache: cache_mod.Cache,
                 jobs: int = 2):
        self.kdir = kdir
        self.context_root = Path(context_root)
        self.cache = cache
        self.jobs = max(1, jobs)

    def build(self, files: dict[str, bytes], sources: list[str], cached: bool = False,
              compile: bool = True, commands: dict[str, CompileCommand] | None = None,
              keep_preprocessed: bool = True) -> dict[str, ObjectBuild]:
        """Build each of SOURCES (relpaths of .c files in FILES) with FILES
        (relpath -> content) in place of the user's; CACHED: look up and
        keep the results by content (for the legacy texts).  COMPILE=False
        only preprocesses (the .i, for the proof): with the command of
        COMMANDS[source] (another state's compile of the same file), else
        with make.  KEEP_PREPROCESSED=False compiles as make does, without
        -save-temps (no .i; gcc's messages keep the macros they come from)."""
        commands = commands or {}
        files = self._with_neighbours(files, sources)
        mode = _Mode(any(rel.startswith("include/") for rel in files), compile,
                     keep_preprocessed or not compile)
        results: dict[str, ObjectBuild] = {}
        todo = []
        for source in sources:
            hit = self._lookup(files, source, mode) if cached else None
            if hit is not None:
                results[source] = hit
            else:
                todo.append(source)
        if todo:
            with tempfile.TemporaryDirectory(prefix="ioctl-rework-kdir.") as tmp:
                tree = Path(tmp) / "tree"
                for rel, data in files.items():
                    (tree / rel).parent.mkdir(parents=True, exist_ok=True)
                    (tree / rel).write_bytes(data)
                by_dir: dict[str, list[str]] = {}
                for source in todo:
                    by_dir.setdefault(os.path.dirname(source), []).append(source)
                for directory in by_dir:
                    self._link_rest(tree, directory)
                for directory, in_dir in sorted(by_dir.items()):
                    direct = [s for s in in_dir if not compile and s in commands]
                    rest = [s for s in in_dir if s not in direct]
                    built = self._make(tree, directory, rest, mode) if rest else {}
                    built.update(self._preprocess(tree, direct, commands))
                    for source in in_dir:
                        results[source] = built[source]
                        if cached and (built[source].built or not compile):
                            self._store(files, source, mode, tree, built[source])
        return results

    def _with_neighbours(self, files: dict[str, bytes], sources: list[str]) -> dict[str, bytes]:
        every = dict(files)
        for directory in sorted({os.path.dirname(s) for s in sources}):
            try:
                entries = list(os.scandir(self.context_root / directory))
            except OSError:
                continue
            for entry in entries:
                rel = os.path.join(directory, entry.name)
                if rel in every or entry.name.startswith(".") or \
                        entry.name.endswith(_BUILD_PRODUCTS):
                    continue
                try:
                    if entry.is_file(follow_symlinks=False) and \
                            entry.stat().st_size <= _NEIGHBOUR_LIMIT:
                        every[rel] = Path(entry.path).read_bytes()
                except OSError:
                    continue
        return every

    def _link_rest(self, tree: Path, directory: str, top: bool = True) -> None:
        """What the copy lacks of DIRECTORY in the user's tree (include/, ...),
        linked: read only, since only targets of the top directory are built.
        A subdirectory that holds a file of the copy is real, its rest linked;
        the top directory's own files were copied or left out on purpose."""
        try:
            entries = list(os.scandir(self.context_root / directory))
        except OSError:
            return
        for entry in entries:
            here = tree / directory / entry.name
            if entry.name.startswith("."):
                continue
            if not os.path.lexists(here):
                if not top or entry.is_dir():
                    here.symlink_to(entry.path)
            elif entry.is_dir() and here.is_dir() and not here.is_symlink():
                self._link_rest(tree, os.path.join(directory, entry.name), False)

    def _command(self, tree: Path, directory: str, targets: list[str],
                 mode: "_Mode") -> list[str]:
        # Each target's output in one piece: messages follow the command they are from.
        flags = f"-I{self.context_root / directory}" + (
            f" {SAVE_TEMPS}" if mode.compile and mode.keep_preprocessed else "")
        command = ["make", "-C", str(self.kdir.path), f"M={tree / directory}", "-k", "-Otarget",
                   f"-j{self.jobs}", f"KCFLAGS={flags}"]
        if self.kdir.sparse and mode.compile:
            command.append("C=2")
        if mode.overlay:
            command.append(f"NOSTDINC_FLAGS=-nostdinc -I{tree / 'include'}")
        return command + targets

    def _make(self, tree: Path, directory: str, sources: list[str],
              mode: "_Mode") -> dict[str, ObjectBuild]:
        where = tree / directory
        if not (where / "Kbuild").exists() and not (where / "Makefile").exists():
            # kbuild reads one of them; the targets need no more.
            (where / "Kbuild").write_text("# no Kbuild file in this directory\n")
        stems = [Path(s).stem for s in sources]
        targets = [f"{stem}.{'o' if mode.compile else 'i'}" for stem in stems]
        try:
            proc = children.run(self._command(tree, directory, targets, mode),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                env=_c_locale(), timeout=MAKE_TIMEOUT)
        except OSError as err:
            raise BuildError(f"cannot run make: {err.strerror}") from err
        except subprocess.TimeoutExpired as err:
            raise BuildError(f"make in {directory or '.'} took more than "
                             f"{MAKE_TIMEOUT} s") from err
        output = proc.stdout.decode("utf-8", "replace")
        messages = parse(output, str(tree))
        results = {}
        for source, stem in zip(sources, stems):
            preprocessed, built = where / f"{stem}.i", (where / f"{stem}.o").exists()
            # The compile's .i is whole only if the compile finished (a failed
            # one may leave part of it; kbuild deletes a failed target).
            whole = preprocessed.exists() and (built or not mode.compile)
            made = built if mode.compile else whole
            results[source] = ObjectBuild(
                source, tuple(messages.get(source, ())), built,
                _preprocessed(preprocessed, tree) if whole else None, compiled=mode.compile,
                command=kbuild_records.compile_command(where / f".{stem}.o.cmd", tree)
                if built else None, read=_read(where, stem, tree, self.kdir.path))
            if not made and not results[source].diagnostics:
                # Not the compiler's words: make's own (a missing rule, ...).
                tail = [line for line in output.splitlines() if line.strip()][-3:]
                results[source] = ObjectBuild(source, (Diagnostic(
                    "gcc", source, 0, 0, "", "error", "make: " + " / ".join(tail)),),
                    False, results[source].preprocessed, compiled=mode.compile)
        return results

    def _preprocess(self, tree: Path, sources: list[str],
                    commands: dict[str, CompileCommand]) -> dict[str, ObjectBuild]:
        """SOURCES' .i, each with gcc -E as its recorded compile command
        runs gcc (in KDIR, on the same path in TREE), no make."""
        def run(source: str) -> ObjectBuild:
            where, stem = tree / os.path.dirname(source), Path(source).stem
            output = where / f"{stem}.i"
            argv = commands[source].preprocessor(tree, output, where / f".{stem}.i.d")
            try:
                proc = children.run(argv, cwd=self.kdir.path, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, env=_c_locale(),
                                    timeout=MAKE_TIMEOUT)
            except OSError as err:
                raise BuildError(f"cannot run {argv[0]}: {err.strerror}") from err
            except subprocess.TimeoutExpired as err:
                raise BuildError(f"{argv[0]} -E {source} took more than {MAKE_TIMEOUT} s") from err
            text = proc.stdout.decode("utf-8", "replace")
            diagnostics = tuple(parse(text, str(tree), owner=source).get(source, ()))
            made = proc.returncode == 0 and output.exists()
            if not made and not diagnostics:
                tail = [line for line in text.splitlines() if line.strip()][-3:]
                diagnostics = (Diagnostic("gcc", source, 0, 0, "", "error", f"{argv[0]} -E: "
                                          + (" / ".join(tail) or f"status {proc.returncode}")),)
            return ObjectBuild(source, diagnostics, False,
                               _preprocessed(output, tree) if made else None, compiled=False)

        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            return dict(zip(sources, pool.map(run, sources)))

    # -- the cache of legacy builds ---------------------------------------

    def _key(self, files: dict[str, bytes], source: str, mode: "_Mode") -> str:
        return cache_mod.make_key(FORMAT, self.kdir.fingerprint, source,
                                  _digest(files[source]), str(self.context_root), repr(mode))

    def _lookup(self, files: dict[str, bytes], source: str, mode: "_Mode"
                ) -> ObjectBuild | None:
        key = self._key(files, source, mode)
        entry = self.cache.get_json(key)
        packed = self.cache.get_bytes(key + "-i") if entry else None
        if not isinstance(entry, dict) or packed is None:
            return None
        try:
            for rel, digest in entry["internal"].items():
                data = self._content(files, rel)
                if data is None or _digest(data) != digest:
                    return None
            for path, stamp in entry["external"].items():
                st = os.stat(path)
                if [st.st_size, st.st_mtime_ns] != stamp:
                    return None
            diagnostics = tuple(Diagnostic(*d) for d in entry["diagnostics"])
            return ObjectBuild(source, diagnostics, mode.compile,
                               zlib.decompress(packed).decode("latin-1"), cached=True,
                               compiled=mode.compile)
        except (OSError, KeyError, TypeError, ValueError, zlib.error):
            return None

    def _content(self, files: dict[str, bytes], rel: str) -> bytes | None:
        """A file of the copy: one of FILES, or one read through a linked directory."""
        if rel in files:
            return files[rel]
        try:
            return (self.context_root / rel).read_bytes()
        except OSError:
            return None

    def _store(self, files: dict[str, bytes], source: str, mode: "_Mode", tree: Path,
               built: ObjectBuild) -> None:
        # kbuild's record of the compile, or gcc's of a preprocessing without kbuild.
        where, stem = tree / os.path.dirname(source), Path(source).stem
        deps = kbuild_records.recorded_dependencies(
            where / f".{stem}.{'o' if mode.compile else 'i'}.cmd", self.kdir.path) or \
            (None if mode.compile else
             kbuild_records.depfile_dependencies(where / f".{stem}.i.d", self.kdir.path))
        if deps is None or built.preprocessed is None:
            return
        internal, external = {}, {}
        prefix = str(tree) + "/"
        for path in deps:
            if path.startswith(prefix):
                rel = path[len(prefix):]
                data = self._content(files, rel)
                if data is None:
                    return
                internal[rel] = _digest(data)
            else:
                try:
                    st = os.stat(path)
                except OSError:
                    return
                external[path] = [st.st_size, st.st_mtime_ns]
        key = self._key(files, source, mode)
        self.cache.put_bytes(key + "-i", zlib.compress(built.preprocessed.encode("latin-1"), 1))
        self.cache.put_bytes(key, json.dumps({
            "internal": internal, "external": external,
            "diagnostics": [[d.tool, d.file, d.line, d.column, d.function, d.severity, d.text]
                            for d in built.diagnostics]}).encode())


def _read(where: Path, stem: str, tree: Path, kdir: Path) -> tuple[str, ...]:
    """The files under TREE the compile of WHERE/STEM.o read, relative to
    TREE: kbuild's record (.STEM.o.cmd) when it built, else the dependency
    file gcc wrote for it (.STEM.o.d, which kbuild leaves when gcc fails)."""
    prefix = str(tree) + "/"
    read = kbuild_records.recorded_dependencies(where / f".{stem}.o.cmd", kdir) or \
        kbuild_records.depfile_dependencies(where / f".{stem}.o.d", kdir) or ()
    return tuple(path[len(prefix):] for path in read if path.startswith(prefix))


def _c_locale() -> dict[str, str]:
    # kbuild unexports LC_ALL: the compilers read LANG and LC_MESSAGES.
    return dict(os.environ, LC_ALL="C", LANG="C", LC_MESSAGES="C", LC_CTYPE="C")


def _preprocessed(path: Path, tree: Path) -> str:
    """The .i at PATH, its line markers naming files of the scratch TREE by
    their relative paths: the same text reads the same in every run (and
    the proof's cache knows it)."""
    return path.read_text("latin-1").replace(str(tree) + "/", "")


@dataclass(frozen=True)
class _Mode:
    overlay: bool           # rewritten headers under include/ go before KDIR's
    compile: bool           # .o (and sparse) and .i, or the .i alone
    keep_preprocessed: bool = True      # the compile's .i (-save-temps)
