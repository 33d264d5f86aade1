"""Which files a convert run looks at: the files that may declare a
`.ioctl` fops entry (the candidates), the handler names in them, every
file of the tree that names each handler, and the groups of files those
names link.  Nothing here runs spatch; it reads text and asks grep.
"""

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ioctl_rework import children, settings
from ioctl_rework import cache as cache_mod
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.ctext import candidates, fops_holders, ioctl_tokens, member_types
from ioctl_rework.ctext import renamed_words
from ioctl_rework.ctext.ioctl_tokens import Use
from ioctl_rework.convert import accounting
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.convert.request import InputError
from ioctl_rework.convert.summary import FileRecord, FileStatus

# A handler named through a macro: DRM(ioctl), or name##_ioctl in a macro
# that defines a fops.
_MACRO_NAMED = re.compile(r"^&?\s*\w+\s*\(\s*\w+\s*\)$|##")
# A modern member in any spelling (`.unlocked_ioctl =`, `->compat_ioctl`,
# GNU `unlocked_ioctl:`): what a -Dunlocked_ioctl=ioctl compiles as legacy.
_MODERN_MEMBER = re.compile(rb"(?:\.|->)\s*(?:unlocked|compat)_ioctl\b"
                            rb"|(?<![\w.>])(?:unlocked|compat)_ioctl\s*:(?!:)")
# Why a file of the run is in Tree.renamed: renamed_words.refusal's words follow.
_RENAMED_UNREAD = "no rule run reads it (its text names no legacy .ioctl entry), yet "


@dataclass(frozen=True)
class FopsEntry:
    """A `.ioctl = handler` entry found by text, before the rule has looked."""

    handler: str
    line: int
    last_line: int = 0          # the line its value ends on
    spelling: str = ""          # how it is written, in words (ioctl_tokens.spelling)

    @property
    def lines(self) -> range:
        return range(self.line, max(self.line, self.last_line) + 1)


@dataclass
class Tree:
    """The files a run looks at, and which handler names link them."""

    root: Path
    fops_files: list[str]                       # relpaths that may declare .ioctl entries
    fops_names: dict[str, list[FopsEntry]]      # relpath -> its .ioctl entries, by text
    mentions: dict[str, set[str]]               # handler name -> relpaths naming it
    skipped: list[FileRecord]
    # relpath -> entries whose handler is a macro call, such as the DRM
    # templates' ".ioctl = DRM(ioctl)": spatch cannot follow them.
    macro_entries: dict[str, list[FopsEntry]] = field(default_factory=dict)
    # The .c/.h files under the run's paths with an ioctl member in any
    # spelling (accounting.files_with_members), from the same one read.
    member_files: set[str] = field(default_factory=set)
    top: bool = False               # ROOT is a tree's top (is_tree_top)
    # relpath -> why: a file of the run naming .unlocked_ioctl or
    # .compat_ioctl whose kbuild flags rename a word the rules read, such
    # as -Dunlocked_ioctl=ioctl (renamed_words): what gcc compiles may be a
    # legacy entry the prefilter does not pick (records: those no rule run read).
    renamed: dict[str, str] = field(default_factory=dict)


def find_root(paths: list[Path]) -> Path:
    """The top of the kernel tree holding PATHS (its top Makefile has VERSION =),
    else the nearest git work tree, else the directory common to PATHS."""
    dirs = [p if p.is_dir() else p.parent for p in (Path(os.path.abspath(p)) for p in paths)]
    common = Path(os.path.commonpath([str(d) for d in dirs]))
    for candidate in (common, *common.parents):
        if _kernel_top(candidate):
            return candidate
    for candidate in (common, *common.parents):
        if (candidate / ".git").exists():
            return candidate
    return common


def is_tree_top(root: Path) -> bool:
    """Whether ROOT, as find_root found it, is the top of a kernel tree or
    git work tree (paths from it name the subsystem) rather than a
    directory of its own, such as a copied subdirectory."""
    return _kernel_top(root) or (root / ".git").exists()


def unread_headers_warning(root: Path, kernel) -> str | None:
    """What a run outside a kernel tree with no kernel given (KERNEL None)
    cannot see, said on every such run: the <...> headers its files include
    are read from nowhere, so a forwarding macro of one goes unseen (issue 22)."""
    if kernel is not None or _kernel_top(root):
        return None
    return settings.unread_headers_warning(root)


def run_warnings(request) -> list[str]:
    """What a run of REQUEST warns of before it starts, kept in its summary
    too: a reader of --json alone must know what the run did not read."""
    unread = unread_headers_warning(request.root, request.kernel)
    return request.options.warnings() + ([unread] if unread else [])


def unread_headers_refusal(root: Path, kernel) -> str | None:
    """Why such a run is refused before any work unless told to go on
    (--no-kernel-headers); None in a tree or with a kernel."""
    if unread_headers_warning(root, kernel) is None:
        return None
    return settings.unread_headers_refusal(root)


def _kernel_top(directory: Path) -> bool:
    makefile = directory / "Makefile"
    return makefile.is_file() and bool(re.search(rb"^VERSION\s*=\s*\d", _head(makefile), re.M))


def _head(path: Path) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(4096)
    except OSError:
        return b""


def _relative(root: Path, path: Path) -> str:
    return os.path.relpath(os.path.abspath(path), root)


def scan(paths: list[Path], root: Path, cache: cache_mod.Cache | None = None) -> Tree:
    cache = cache or cache_mod.Cache(None)
    top = is_tree_top(Path(root))
    real_root = os.path.realpath(root)
    files, skipped = [], []         # files: (path, lstat) of every file not a link
    tree_stats = None               # the same of the whole tree, when a PATH is its root
    for path in paths:
        # One walk, one lstat a file: a re-run over an unchanged tree is mostly this.
        walked = (list(spatch.source_files([path], symlinks=True)) if path.is_dir()
                  else _lstat_of(path))
        for name, st in walked:
            if stat.S_ISLNK(st.st_mode):
                record = _symlink_record(Path(name), _relative(root, name), real_root)
                if record:
                    skipped.append(record)
                continue
            files.append((name, st))
        if path.is_dir() and Path(os.path.abspath(path)) == Path(root):
            tree_stats = [(name, st) for name, st in walked if not stat.S_ISLNK(st.st_mode)]
    found, members, modern = _fops_candidates(files, paths, cache)
    # Of the files naming a modern member, those whose kbuild flags rename
    # a word the rules read; read with the walk, before any file's text.
    modern_rels = [_relative(root, path) for path in sorted(modern)]
    renamed = {rel: _RENAMED_UNREAD + why
               for rel, why in renamed_words.refusals(Path(root), modern_rels).items()}
    # A PATH naming a file (a link too) is read as grep reads it: .c/.h only.
    members |= {str(path) for path in paths if not path.is_dir()
                and path.name.endswith(spatch.SOURCE_SUFFIXES) and _has_member(str(path))}
    fops_files, fops_names, macro_entries = [], {}, {}
    for file in found:
        rel = _relative(root, file)
        try:
            data = file.read_bytes()
        except OSError as err:
            skipped.append(FileRecord(rel, FileStatus.SKIPPED, f"cannot read: {err.strerror}"))
            continue
        if b"file_operations" not in data:
            continue
        # The .ioctl of a tty_operations, proto_ops, ... is none of ours;
        # spatch tells them apart, but not in a file it cannot parse.
        fops_names[rel], macros = _entries(data.decode("latin-1"), Path(root), rel)
        fops_files.append(rel)
        if macros:
            macro_entries[rel] = macros
    wanted = sorted({e.handler for entries in fops_names.values() for e in entries})
    mentions = _cached_mentions(root, wanted, cache, tree_stats)
    for rel, entries in fops_names.items():
        for entry in entries:
            mentions.setdefault(entry.handler, set()).add(rel)
    return Tree(Path(root), sorted(set(fops_files)), fops_names, mentions, skipped,
                macro_entries, {_relative(root, name) for name in members}, top,
                renamed)


def _entries(text: str, root: Path | None = None,
             rel: str = "") -> tuple[list[FopsEntry], list[FopsEntry]]:
    """The .ioctl entries of TEXT (REL under ROOT; the shared finder's,
    never-compiled ones too: plan says why those are left), and those whose
    handler is named through a macro.  An entry of a typedef'd structure
    proven no file_operations (`snd_pcm_ops_t x = {`, member_types) is none."""
    code = c_spans.code_only(text)
    starts = [0]
    for line in code.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    names, macros = [], []
    corpus = None
    for token in ioctl_tokens.tokens(text, compiled_only=False):
        if token.use not in (Use.ENTRY, Use.ASSIGNMENT):
            continue
        fops = ioctl_tokens.of_file_operations(code, token)
        typedef = token.holder.typedef if token.holder is not None else None
        if fops is None and typedef is not None:
            corpus = corpus or member_types.corpus(root, rel, text)
            if member_types.other_typedef_structure(corpus, typedef) is not None:
                continue
        if _MACRO_NAMED.search(token.value):
            # A fops a macro defines: its "name##_fops = {" is no declaration.
            at = starts[token.line - 1]
            pasted = "##" in token.value and token.macro is not None and \
                "file_operations" in code[max(0, at - 300):starts[token.line]]
            if fops or pasted:
                macros.append(FopsEntry(token.value, token.line, token.last_line))
        elif token.handler and fops is not False and token.macro is None:
            names.append(FopsEntry(token.handler, token.line, token.last_line,
                                   ioctl_tokens.spelling(token)))
    return names, macros


# Bump when what the indexes below store changes.
INDEX_FORMAT = "convert-index/6"


def _lstat_of(path: Path) -> list[tuple[str, os.stat_result]]:
    try:
        return [(str(path), path.lstat())]
    except OSError:
        return []


def _fops_candidates(files: list[tuple[str, os.stat_result]], paths: list[Path],
                     cache: cache_mod.Cache) -> tuple[list[Path], set[str], set[str]]:
    """The FILES ((path, lstat) of files not links) that may hold a legacy
    entry in any spelling (the audit's prefilter), the .c/.h ones with an
    ioctl member, and the .c/.h ones with an unlocked_ioctl or compat_ioctl
    member, reading only the files that changed since the last run
    (cache.stat_index)."""
    key = cache_mod.make_key(INDEX_FORMAT, *(Path(m.__file__).read_bytes() for m in (
                                 candidates, ioctl_tokens, fops_holders, c_spans)),
                             Path(accounting.__file__).read_bytes(),
                             *(os.path.abspath(p) for p in paths))
    verdicts = cache_mod.stat_index(cache, key, files, _read_verdict)
    return (sorted(Path(path) for path, (legacy, _, _) in verdicts.items() if legacy),
            {path for path, (_, member, _) in verdicts.items()
             if member and path.endswith(spatch.SOURCE_SUFFIXES)},
            {path for path, (_, _, modern) in verdicts.items()
             if modern and path.endswith(spatch.SOURCE_SUFFIXES)})


def _read_verdict(path: str) -> list[bool]:
    """[may hold a legacy entry, has an ioctl member, has an unlocked_ioctl
    or compat_ioctl member]: one read for the three."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return [False, False, False]
    return [candidates.may_hold_legacy_entry(data), accounting.has_member(data),
            b"_ioctl" in data and _MODERN_MEMBER.search(data) is not None]


def _has_member(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return accounting.has_member(handle.read())
    except OSError:
        return False


def _cached_mentions(root: Path, names: list[str], cache: cache_mod.Cache,
                     tree_stats=None) -> dict[str, set[str]]:
    """_mentions through the cache; TREE_STATS, the (path, lstat) of the
    tree's files when the run walked it already, spares a second walk."""
    if not names or not cache.enabled:
        return _mentions(root, names)
    # Kept while no file grep reads (spatch.source_files: .c/.h, no
    # symlinks, no dot directories) has changed.
    stats = tree_stats if tree_stats is not None else spatch.source_files([root])
    stamps = sorted(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}"
                    for path, st in stats)
    key = cache_mod.make_key(INDEX_FORMAT, "mentions", str(root.resolve()), "\n".join(names),
                             *stamps)
    stored = cache.get_json(key)
    if stored is not None:
        return {name: set(rels) for name, rels in stored.items()}
    found = _mentions(root, names)
    cache.put_json(key, {name: sorted(rels) for name, rels in found.items()})
    return found


def _symlink_record(file: Path, rel: str, real_root: str) -> FileRecord | None:
    try:
        data = file.read_bytes()
    except OSError:
        return FileRecord(rel, FileStatus.SKIPPED, "a dangling symbolic link")
    if not candidates.may_hold_legacy_entry(data):
        return None
    target = os.path.realpath(file)
    if os.path.commonpath([target, real_root]) != real_root:
        return FileRecord(rel, FileStatus.SKIPPED,
                          f"a symbolic link to {target}, outside the tree; never written through")
    return FileRecord(rel, FileStatus.SKIPPED,
                      f"a symbolic link to {os.path.relpath(target, real_root)}, "
                      "which is converted in its own right")


def _mentions(root: Path, names: list[str]) -> dict[str, set[str]]:
    """Handler name -> the .c/.h files of the tree that contain it as a word.

    grep's multi-pattern search reads a whole kernel tree in seconds, where
    Python's alternation would take minutes.
    """
    found: dict[str, set[str]] = {}
    if not names:
        return found
    proc = children.run(
        ["grep", "-r", "-o", "-w", "-F", "-Z", "--include=*.c", "--include=*.h",
         "--exclude-dir=.[!.]*", "-f", "-", "--", "."],
        input="\n".join(names).encode(), capture_output=True, cwd=root,
        env={**os.environ, "LC_ALL": "C"}, check=False)
    if proc.returncode > 1:
        raise InputError(f"grep over {root} failed: {proc.stderr.decode(errors='replace').strip()}")
    out, pos = proc.stdout, 0
    while pos < len(out):
        nul = out.index(b"\0", pos)
        end = out.index(b"\n", nul)
        rel = os.path.normpath(out[pos:nul].decode(errors="surrogateescape"))
        found.setdefault(out[nul + 1:end].decode(), set()).add(rel)
        pos = end + 1
    return found


def groups(tree: Tree) -> list[list[str]]:
    """Files linked by a shared handler name, each group sorted, groups by first file."""
    parent: dict[str, str] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for rel in tree.fops_files:
        find(rel)
        for entry in tree.fops_names.get(rel, []):
            for other in tree.mentions.get(entry.handler, ()):
                parent[find(other)] = find(rel)
    members: dict[str, list[str]] = {}
    for rel in list(parent):
        members.setdefault(find(rel), []).append(rel)
    return sorted((sorted(m) for m in members.values()), key=lambda m: m[0])
