"""Where the compiler finds the headers a file includes, in a kernel tree
or beside a lone driver.

`#include "x.h"`: next to the including file, then in the directories the
file's kbuild Makefile adds (`EXTRA_CFLAGS += -I...`, `ccflags-y`,
`$(src)`, `$(srctree)`), then the tree's include directories.
`#include <x.h>`: the kbuild directories, then the tree's include
directories (`include/`, `arch/x86/include/` or `include/asm-i386/`), found
from the tree's top Makefile (VERSION and PATCHLEVEL).  Outside a tree the
include directories are those of the kernel the run was given (KERNEL_ENV:
convert --kdir or --kernel-headers), as kbuild finds them for an
out-of-tree module; without one an angle-bracket header is not read.
Nothing above the root is read but that kernel's include directories.

Imports nothing of the project but header_cache (which imports nothing
either; a file is read once a run): the conversion rule's package imports it
as well as the wrappers (spatch runs with wrappers/ on PYTHONPATH), so the
rule decides from the same headers convert reads.
"""

import contextlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ioctl_rework.ctext import header_cache

# The architecture whose headers are read where the tree has several.
ARCHES = ("x86", "i386", "x86_64")


# The kernel a run outside a tree is built against: "SOURCE" or
# "SOURCE<os.pathsep>BUILD" (its O= directory), absolute.  An environment
# variable, so that the rule's Python, in spatch's process, reads the
# headers the wrappers read.
KERNEL_ENV = "IOCTL_REWORK_KERNEL"


@dataclass(frozen=True)
class SearchPath:
    """Where a file's includes are looked for: directories relative to the
    root (the given kernel's, outside a tree: absolute), in order."""

    kbuild: tuple = ()       # the -I directories of the file's kbuild Makefile
    system: tuple = ()       # the tree's include directories
    asm: str = None          # where <asm/x.h> is when the tree has no include/asm
    makefiles: tuple = ()    # the files this search was read from
    unexpanded: tuple = ()   # -I flags whose directory could not be worked out
    # A given kernel not built: the <asm/x.h> kbuild would generate as a
    # wrapper of <asm-generic/x.h>, as ((asm-generic directory, names), ...).
    generic: tuple = ()

    def is_system(self, path):
        """Whether PATH is a header of the tree's include directories."""
        return any(path.startswith(d + "/") for d in self.system + ((self.asm,) if self.asm
                                                                    else ())
                   + tuple(d for d, _ in self.generic))


def tree_top(root, rel):
    """The top of the kernel tree holding REL (relative to ROOT): the nearest
    directory up to ROOT whose Makefile sets VERSION and PATCHLEVEL, or None."""
    parts = Path(rel).parent.parts
    for n in range(len(parts), -1, -1):
        top = "/".join(parts[:n])
        try:
            with open(Path(root) / top / "Makefile", "rb") as handle:
                head = handle.read(4096)
        except OSError:
            continue
        if sets_version(head):
            return top
    return None


def sets_version(head):
    """Whether HEAD, the first 4096 bytes of a Makefile, sets VERSION and
    PATCHLEVEL: a kernel tree's top Makefile."""
    return re.search(rb"^VERSION\s*=\s*\d", head, re.M) is not None and \
        re.search(rb"^PATCHLEVEL\s*=\s*\d", head, re.M) is not None


# A flag variable's assignment: (the variable, its value).
# CFLAGS and KBUILD_CFLAGS too: a subdirectory's Makefile that adds to
# them changes its own compiles (2.6's Makefile.build reads them there).
_FLAGS = re.compile(r"^[ \t]*(EXTRA_CFLAGS|EXTRA_CPPFLAGS|ccflags-[\w$()]+|subdir-ccflags-[\w$()]+|"
                    r"CFLAGS_[\w.-]+|CPPFLAGS_[\w.-]+|CFLAGS|CPPFLAGS|KBUILD_CFLAGS|KBUILD_CPPFLAGS)"
                    r"\s*[:+?]?=(.*)$", re.M)
# The directory of -I: up to a blank outside $(...) ("$(shell pwd)/inc" is one).
_INCLUDE_FLAG = re.compile(r"-I\s*((?:\$\((?:[^()]|\([^()]*\))*\)|\S)+)")


_ASSIGNMENT = re.compile(r"^[ \t]*([A-Za-z_][\w-]*)\s*[:?]?=(.*)$", re.M)
_LEADING_VARIABLE = re.compile(r"^\$\([^()]*(?:\([^()]*\)[^()]*)*\)/?")


class KbuildIncludes:
    """The -I directories of a Makefile, and the flags this reading could
    not expand (a variable it does not know, a directory found nowhere):
    default-deny, what they might lead to is reported as not read."""

    def __init__(self):
        self.found = []
        self.unexpanded = []


# The variables kbuild sets for every Makefile, replaced below.
_KBUILD_VARIABLES = ("src", "obj", "srctree", "objtree", "TOPDIR")
# A make variable's use, $(name) (${name} is read as that).
_VARIABLE = re.compile(r"\$\((\w[\w-]*)\)")


def kbuild_includes(text, directory, top, exists=None):
    """The -I directories a kbuild Makefile's flags add, relative to the
    root (make runs at the tree's top: a plain relative directory is the
    top's), as a KbuildIncludes.  A variable the Makefile assigns is
    expanded; one it computes ("fixture_dir := $(if ...,$(src),$(srctree)/$(src))")
    is taken for the directory of the Makefile or the top, whichever EXISTS
    (a callable that says whether a directory is there) has the rest of
    the path; a flag still unexpanded is listed as such."""
    text, variables = _read_makefile(text)
    result = KbuildIncludes()
    found = result.found
    for _, value in _FLAGS.findall(text):
        for written in _INCLUDE_FLAG.findall(value):
            flag = _expand(written.strip("\"'"), variables)
            spelled = flag.replace("$(src)", "$(obj)").replace("$(obj)", "/" + directory) \
                .replace("$(srctree)", "/" + top).replace("$(objtree)", "/" + top) \
                .replace("$(TOPDIR)", "/" + top)
            choices = [spelled]
            if "$" in spelled:
                rest = _LEADING_VARIABLE.sub("", spelled)
                if "$" in rest or exists is None:
                    result.unexpanded.append("-I" + written)
                    continue
                choices = ["/" + os.path.join(directory, rest), "/" + os.path.join(top, rest)]
            placed = False
            for spelled in choices:
                path = os.path.normpath(spelled.lstrip("/") if spelled.startswith("/")
                                        else os.path.join(top, spelled))
                path = "" if path == "." else path
                if path.startswith("..") or os.path.isabs(path):
                    continue
                if path in found:
                    placed = True
                    break
                if len(choices) == 1 or exists(path):
                    found.append(path)
                    placed = True
                    break
            if not placed:
                result.unexpanded.append("-I" + written)
    return result


@dataclass(frozen=True)
class KbuildFlags:
    """What the kbuild flags applying to one file do besides -I: the names
    a -D or -U (re)defines, the headers a -include/-imacros (or any other
    -i... search flag) brings in unread, and flags this reading could not
    expand (a variable it does not know): where any is there, what the
    file's text says of those names is not what the compiler sees."""

    named: tuple = ()        # identifiers of -D/-U flags
    forced: tuple = ()       # -include, -imacros, -iquote ... flags, as written
    unexpanded: tuple = ()   # flags (with their Makefile) not expanded
    makefiles: tuple = ()    # the Makefiles and Kbuild files read
    # Each -D/-U flag whole ("-DFOO=2", "-UBAR"), with the variable that
    # holds it and its Makefile: (flag, variable, makefile).
    macro_flags: tuple = ()


# A flag's words: $(...) and quotes kept whole.
_FLAG_WORD = re.compile(r"(?:\$\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)|\"[^\"]*\"|'[^']*'|\S)+")
_CC_CALL = re.compile(r"\$\(call\s+cc-[\w-]+\s*,")


def _read_makefile(text):
    """TEXT with continuation lines joined and ${var} spelled $(var), and
    the variables it assigns."""
    text = re.sub(r"\\\n", " ", text)
    text = re.sub(r"\$\{(\w[\w-]*)\}", r"$(\1)", text)      # ${src}: $(src)
    return text, {name: value.strip() for name, value in _ASSIGNMENT.findall(text)}


def _expand(flag, variables):
    """FLAG with the Makefile's own variables replaced, a few levels deep."""
    for _ in range(8):
        expanded = _VARIABLE.sub(lambda m: variables.get(m.group(1), m.group(0))
                                 if m.group(1) not in _KBUILD_VARIABLES else m.group(0), flag)
        if expanded == flag:
            break
        flag = expanded
    return flag


def _applies(variable, obj, subdir_only):
    """Whether the flags VARIABLE (`ccflags-y`, `CFLAGS_upper.o` ...) of a
    Makefile apply to the object OBJ; SUBDIR_ONLY, a parent directory's
    Makefile: only subdir-ccflags do."""
    if subdir_only:
        return variable.startswith("subdir-ccflags")
    per_file = re.match(r"(?:CFLAGS|CPPFLAGS)_(?:REMOVE_)?(.+)$", variable)
    return per_file is None or per_file.group(1) == obj


# Any assignment of a make variable: VAR = ..., VAR := ..., VAR += ..., export VAR ?= ...
_ANY_ASSIGNMENT = re.compile(r"^[ \t]*(?:export[ \t]+|override[ \t]+)?([A-Za-z_][\w-]*)[ \t]*"
                             r"(?:::?=|\+=|\?=|=)|^[ \t]*define[ \t]+([A-Za-z_][\w-]*)", re.M)
_MAKEFILE_NAME = re.compile(r"^(?:Makefile.*|Kbuild.*|.*\.mk|Kconfig\.include)$")
_assigned_in: dict[tuple, frozenset] = {}


def _assigned_names(root: Path, top: str) -> frozenset:
    """Every make variable some Makefile of the tree at TOP assigns (read
    once a process per tree)."""
    key = (str(root), top)
    if key not in _assigned_in:
        names = set()
        for here, dirs, files in os.walk(root / top):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for name in files:
                if _MAKEFILE_NAME.match(name):
                    try:
                        text = (Path(here) / name).read_text(errors="replace")
                    except OSError:
                        continue
                    names.update(a or d for a, d in _ANY_ASSIGNMENT.findall(text))
        _assigned_in[key] = frozenset(names)
    return _assigned_in[key]


# check's scratch copies of a tree's files: "COPY<os.pathsep>TREE" pairs,
# absolute, joined by os.pathsep.  An environment variable, so that the
# rule's Python, in spatch's process, reads the Makefiles the wrappers read.
COPIED_TREE_ENV = "IOCTL_REWORK_COPIED_TREE"


@contextlib.contextmanager
def trees_copied(copies: dict):
    """For the block, each directory of COPIES (copy -> tree) stands for
    the tree's Makefiles as well as its own (_unset_emptied)."""
    parts = [os.path.abspath(p) for pair in copies.items() for p in pair]
    if any(os.pathsep in part for part in parts):
        raise ValueError("%s: a directory whose name holds %r" % (parts, os.pathsep))
    with _environment_kept(COPIED_TREE_ENV):
        os.environ[COPIED_TREE_ENV] = os.pathsep.join(parts)
        yield


def _copied_from(path: str) -> tuple[str, str] | None:
    """(copy, tree) when the file PATH (absolute) is in a copy of a tree."""
    parts = os.environ.get(COPIED_TREE_ENV, "").split(os.pathsep)
    return next(((copy, tree) for copy, tree in zip(parts[::2], parts[1::2])
                 if path.startswith(copy.rstrip("/") + "/")), None)


def _unset_emptied(flags: str, root: Path, top: str | None, rel: str) -> str:
    """FLAGS with each $(VAR) that no Makefile of the tree assigns made
    empty, as make expands it when the environment does not set it: the
    build the tree describes (2.6.9's fusion Makefile adds ${MPT_CFLAGS}, a
    variable for the user's environment; so does the kernel's own KCFLAGS).
    Outside a tree (no top) nothing is known to be unset; in check's copy
    of a tree's files (trees_copied), what the tree's Makefiles and the
    copy's assign is known, as convert knows it in the tree."""
    unknown = {name for name in _VARIABLE.findall(flags) if name not in _KBUILD_VARIABLES}
    if not unknown:
        return flags        # `-I$(src)/inc`, the usual case: no walk of the tree
    copied = _copied_from(os.path.normpath(os.path.join(os.path.abspath(root), rel)))
    if copied is not None:
        copy, tree = copied
        tree_rel = os.path.relpath(os.path.join(os.path.abspath(root), rel), copy)
        tree_at = tree_top(tree, tree_rel)
        if tree_at is None:
            return flags
        assigned = _assigned_names(Path(tree), tree_at) | _assigned_names(Path(copy), "")
    elif top is None:
        return flags
    else:
        assigned = _assigned_names(root, top)
    unset = unknown - assigned
    return _VARIABLE.sub(lambda m: "" if m.group(1) in unset else m.group(0), flags)


def kbuild_flags(root, rel):
    """The KbuildFlags of REL (relative to ROOT): its directory's Makefile
    and Kbuild (every flag variable that applies to REL's object), and the
    subdir-ccflags of each directory above it up to the tree's top (or the
    root)."""
    root = Path(root)
    found_top = tree_top(root, rel)
    top = found_top or ""
    directory = os.path.dirname(rel)
    obj = os.path.splitext(os.path.basename(rel))[0] + ".o"
    named, forced, unexpanded, makefiles, macro_flags = [], [], [], [], []
    here = directory
    while True:
        for name in ("Makefile", "Kbuild"):
            path = os.path.join(here, name)
            try:
                text = (root / path).read_text(errors="replace")
            except OSError:
                continue
            makefiles.append(path)
            text, variables = _read_makefile(text)
            for variable, value in _FLAGS.findall(text):
                if not _applies(variable, obj, here != directory):
                    continue
                value = _unset_emptied(_expand(value, variables), root, found_top, rel)
                words = _FLAG_WORD.findall(value)
                for n, word in enumerate(words):
                    word = word.strip("\"'")
                    taken = words[n + 1].strip("\"'") if n + 1 < len(words) else ""
                    if re.match(r"-[DU]", word):
                        spelled = word[2:] or taken
                        identifier = re.match(r"[A-Za-z_]\w*", spelled)
                        if identifier:
                            named.append(identifier.group())
                            macro_flags.append((word[:2] + spelled, variable, path))
                        else:
                            unexpanded.append("%s (%s)" % (word, path))
                    elif word.startswith("-i"):
                        forced.append("%s %s (%s)" % (word, taken, path) if word in (
                            "-include", "-imacros", "-iquote", "-isystem", "-idirafter")
                            else "%s (%s)" % (word, path))
                    elif "$" in word and not word.startswith("-I") and \
                            not (n and words[n - 1] == "-I") and \
                            not (_CC_CALL.match(word) and not re.search(r"-[DUi]", word)):
                        unexpanded.append("%s (%s)" % (word, path))
        if here in ("", top) or here == os.path.dirname(here):
            break
        here = os.path.dirname(here)
    return KbuildFlags(tuple(named), tuple(forced), tuple(unexpanded), tuple(makefiles),
                       tuple(macro_flags))


def flag_name(flag: str) -> str:
    """The macro a flag of KbuildFlags.macro_flags (-DNAME[=value], -UNAME)
    defines or undefines."""
    return re.match(r"-[DU]\s*([A-Za-z_]\w*)", flag)[1]


def system_dirs(root, top, rel):
    """The tree's include directories, and where <asm/...> is when the tree
    has no include/asm (an unconfigured 2.6 tree: include/asm-<arch>)."""
    root = Path(root)

    def at(*parts):
        return os.path.join(top, *parts) if top else os.path.join(*parts)

    def exists(path):
        return (root / path).is_dir()

    arch_of_file = re.match(r"arch/([^/]+)/", os.path.relpath(rel, top or "."))
    arches = ((arch_of_file.group(1),) if arch_of_file else ()) + ARCHES
    arch = next((a for a in arches if exists(at("arch", a, "include"))), None)
    system = []
    if arch:
        system += [at("arch", arch, "include"), at("arch", arch, "include", "generated")]
    system.append(at("include"))
    if arch:
        system.append(at("arch", arch, "include", "uapi"))
    system.append(at("include", "uapi"))
    asm = None
    if not exists(at("include", "asm")) and not arch:
        asm = next((at("include", "asm-" + a) for a in arches
                    if exists(at("include", "asm-" + a))), None)
    return tuple(d for d in system if exists(d)), asm


def use_kernel(source, build=None):
    """Outside a tree, read <...> headers from the kernel source tree SOURCE
    (with the generated headers of its O= directory BUILD), in this process
    and the ones it starts; None: from no kernel."""
    if source is None:
        os.environ.pop(KERNEL_ENV, None)
        return
    parts = [os.path.abspath(source)] + ([os.path.abspath(build)] if build else [])
    if any(os.pathsep in part for part in parts):
        raise ValueError("%s: a kernel directory whose name holds %r" % (parts, os.pathsep))
    os.environ[KERNEL_ENV] = os.pathsep.join(parts)


@contextlib.contextmanager
def kernel_used(source, build=None):
    """use_kernel(SOURCE, BUILD) for the block, then the kernel used before."""
    with _environment_kept(KERNEL_ENV):
        use_kernel(source, build)
        yield


@contextlib.contextmanager
def _environment_kept(name):
    """NAME in the environment after the block as it was before it."""
    before = os.environ.get(name)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


def given_kernel():
    """The kernel (source, build) this process was given, or None."""
    value = os.environ.get(KERNEL_ENV)
    if not value:
        return None
    source, _, build = value.partition(os.pathsep)
    return source, build or source


def kernel_dirs(source, build):
    """The include directories of the kernel SOURCE built in BUILD, absolute,
    in kbuild's order (LINUXINCLUDE, then USERINCLUDE), where <asm/...>
    is in a 2.6 tree with no include/asm (include/asm-<arch>), and the
    asm-generic wrappers of a kernel not built (_generic_wrappers)."""
    arch = next((a for a in ARCHES if os.path.isdir(os.path.join(source, "arch", a, "include"))),
                None)
    dirs = []
    if arch:
        dirs += [os.path.join(source, "arch", arch, "include"),
                 os.path.join(build, "arch", arch, "include", "generated")]
    dirs += [os.path.join(source, "include"), os.path.join(build, "include")]
    if arch:
        dirs += [os.path.join(source, "arch", arch, "include", "uapi"),
                 os.path.join(build, "arch", arch, "include", "generated", "uapi")]
    dirs += [os.path.join(source, "include", "uapi"),
             os.path.join(build, "include", "generated", "uapi")]
    asm = None
    if not arch and not os.path.isdir(os.path.join(build, "include", "asm")):
        asm = next((os.path.join(source, "include", "asm-" + a) for a in ARCHES
                    if os.path.isdir(os.path.join(source, "include", "asm-" + a))), None)
    unique = []
    for d in map(os.path.normpath, dirs):
        if d not in unique and os.path.isdir(d):
            unique.append(d)
    return tuple(unique), asm, _generic_wrappers(source, build, arch) if arch else ()


# A Kbuild line naming a header kbuild makes a wrapper of asm-generic's.
_WRAPPED = re.compile(r"^\s*(mandatory|generic)-y\s*\+?=\s*(\S+\.h)\s*$", re.M)


def _kbuild_names(path, kinds):
    try:
        with open(path, errors="replace") as handle:
            text = handle.read()
    except OSError:
        return set()
    return {name for kind, name in _WRAPPED.findall(text) if kind in kinds}


def _generic_wrappers(source, build, arch):
    """Where a kernel not built (no generated asm directory) has the
    wrappers kbuild would write (scripts/Makefile.asm-generic): each
    mandatory-y of asm-generic the architecture lacks and each generic-y
    of the architecture is <asm-generic/x.h>; for the kernel's asm and the
    uapi one."""
    found = []
    for kernel_side, generic in (("", "include/asm-generic"),
                                 ("uapi", "include/uapi/asm-generic")):
        arch_asm = os.path.join(source, "arch", arch, "include", kernel_side, "asm")
        generated = os.path.join(build, "arch", arch, "include", "generated", kernel_side, "asm")
        if os.path.isdir(generated) or not os.path.isdir(os.path.join(source, generic)):
            continue
        names = _kbuild_names(os.path.join(source, generic, "Kbuild"), ("mandatory",)) \
            | _kbuild_names(os.path.join(arch_asm, "Kbuild"), ("generic",))
        names = tuple(sorted(n for n in names if not os.path.isfile(os.path.join(arch_asm, n))))
        if names:
            found.append((os.path.normpath(os.path.join(source, generic)), names))
    return tuple(found)


def search_path(root, rel):
    """The SearchPath of REL, a path relative to ROOT."""
    root = Path(root)
    top = tree_top(root, rel)
    directory = os.path.dirname(rel)
    kbuild, makefiles, unexpanded = [], [], []
    for name in ("Makefile", "Kbuild"):
        path = os.path.join(directory, name)
        try:
            text = (root / path).read_text(errors="replace")
        except OSError:
            continue
        makefiles.append(path)
        flags = kbuild_includes(text, directory, top or "", lambda d: (root / d).is_dir())
        kbuild += [d for d in flags.found if d not in kbuild]
        unexpanded += ["%s (%s)" % (flag, path) for flag in flags.unexpanded]
    generic = ()
    if top is not None:
        system, asm = system_dirs(root, top, rel)
    else:
        kernel = given_kernel()
        system, asm, generic = kernel_dirs(*kernel) if kernel else ((), None, ())
    return SearchPath(tuple(kbuild), system, asm, tuple(makefiles), tuple(unexpanded), generic)


def _inside(directory, name):
    """DIRECTORY/NAME if it stays inside the root or, DIRECTORY absolute (a
    given kernel's), inside DIRECTORY; else None."""
    path = os.path.normpath(os.path.join(directory, name))
    if os.path.isabs(directory):
        return path if path.startswith(os.path.normpath(directory) + "/") else None
    return None if path.startswith("..") or os.path.isabs(path) else path


def candidates(search, including, name, angle):
    """Where `#include "NAME"` (or <NAME> when ANGLE) in INCLUDING may be,
    in order, relative to the root (or absolute, in a given kernel)."""
    found = [] if angle else [(os.path.dirname(including), name)]
    if search is not None:
        found += [(d, name) for d in search.kbuild + search.system]
        if search.asm and name.startswith("asm/"):
            found.append((search.asm, name[4:]))
        found += [(d, name[4:]) for d, names in search.generic
                  if name.startswith("asm/") and name[4:] in names]
    return [p for p in (_inside(d, n) for d, n in found) if p is not None]


INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"]+)"|<([^>]+)>)', re.MULTILINE)


def find_header(root, search, including, name, angle):
    """The first of candidates() that is a file under ROOT, or None."""
    root = os.fspath(root)
    return next((p for p in candidates(search, including, name, angle)
                 if os.path.isfile(os.path.join(root, p))), None)


@dataclass
class Headers:
    """What a file's includes lead to, read once each in the order the
    compiler meets them (breadth first): path -> text."""

    search: SearchPath
    texts: dict             # path relative to the root -> its text (the file first)
    missing: list           # quoted names found nowhere
    unread: list            # angle-bracket names found nowhere (outside a tree: all)
    cut: bool = False       # a header found was left unread: LIMIT files were read


# The closure of a 6.1 driver is 500-570 headers; read it whole.
LIMIT = 4000


@dataclass
class Pass:
    """What read_headers read during one pass of a caller over its files,
    the tree unchanged meanwhile (the files of a run, read as they were
    before it): each header is read once, and its includes resolved once
    for every file that shares a search path, not once per file."""

    texts: dict = field(default_factory=dict)       # path -> its text, or None
    includes: dict = field(default_factory=dict)    # SearchPath -> {path -> _includes()}


def read_headers(root, rel, limit=LIMIT, one_pass=None):
    """Headers of REL (relative to ROOT): REL's text and every header it
    includes, transitively, as far as LIMIT files.  ONE_PASS: the Pass of
    the caller's files this call belongs to, if any."""
    search = search_path(root, rel)
    found = Headers(search, {}, [], [])
    resolved = None if one_pass is None else one_pass.includes.setdefault(search, {})
    todo = [rel]
    queued = {rel}
    while todo:
        path = todo.pop(0)
        if one_pass is None:
            text = header_cache.text(Path(root) / path)
        elif path in one_pass.texts:
            text = one_pass.texts[path]
        else:
            text = one_pass.texts[path] = header_cache.text(Path(root) / path)
        if text is None:
            continue
        found.texts[path] = text
        for name, angled, header in _includes(root, search, path, text, resolved):
            if header is None:
                missing = found.unread if angled else found.missing
                if name not in missing:
                    missing.append(name)
            elif header not in queued:
                if len(queued) < limit:
                    queued.add(header)
                    todo.append(header)
                else:
                    found.cut = True
    return found


def _includes(root, search, path, text, resolved):
    """(name, angled, the header found or None) of each #include of TEXT,
    the text of PATH, in order, looked for along SEARCH; kept in RESOLVED
    (path -> them, for SEARCH), when given."""
    if resolved is not None and path in resolved:
        return resolved[path]
    found = [(quoted or angled, bool(angled),
              find_header(root, search, path, quoted or angled, bool(angled)))
             for quoted, angled in INCLUDE.findall(text)]
    if resolved is not None:
        resolved[path] = found
    return found
