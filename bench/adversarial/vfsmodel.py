"""Build a driver against the model VFS (model/), run the harness, and
compare a converted build's calls with the legacy build's.

Used by measure.py (the adversarial measure) and by test_vfsmodel.py (which
feeds it hand-broken conversions, so the measure can fail).
"""

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODEL = HERE / "model"
TREE = HERE / "tree"
# The kernels a build can be made for: the input's, a bkl target's, a mutex target's.
KERNELS = {"2.6.9": "MODEL_KERNEL_2_6_9", "2.6.11": "MODEL_KERNEL_2_6_11",
           "6.1": "MODEL_KERNEL_6_1"}
CFLAGS = ["-std=gnu11", "-O0", "-g0", "-Wall", "-Wno-unused-function",
          "-Werror=implicit-function-declaration", "-Werror=incompatible-pointer-types",
          "-Werror=int-conversion", "-Werror=return-type"]
RUN_TIMEOUT = 60
# The kernel headers a driver of the tree, or its conversion, may include.
# model_kernel.h models them all: each is written at build time as a line
# that includes it (model_headers), so that no file of the repository
# stands in for a kernel header by its name.
MODEL_HEADERS = (
    "asm/atomic.h", "asm/bitops.h", "asm/io.h", "asm/semaphore.h", "asm/system.h",
    "asm/uaccess.h",
    "linux/bitops.h", "linux/bug.h", "linux/capability.h", "linux/cdev.h", "linux/compat.h",
    "linux/delay.h", "linux/device.h", "linux/err.h", "linux/errno.h", "linux/fs.h",
    "linux/init.h", "linux/interrupt.h", "linux/io.h", "linux/ioctl.h", "linux/ioport.h",
    "linux/jiffies.h", "linux/kernel.h", "linux/major.h", "linux/miscdevice.h",
    "linux/module.h", "linux/mutex.h", "linux/poll.h", "linux/sched.h", "linux/semaphore.h",
    "linux/slab.h", "linux/smp_lock.h", "linux/spinlock.h", "linux/stddef.h",
    "linux/string.h", "linux/timer.h", "linux/types.h", "linux/uaccess.h",
    "linux/version.h", "linux/wait.h", "linux/watchdog.h")
# The headers a model kernel no longer has, with that kernel's macro: 2.6.39
# removed <linux/smp_lock.h> with the BKL, so a mutex target that still
# includes it breaks, as it would there.
GONE = {"linux/smp_lock.h": "MODEL_KERNEL_6_1"}
# gcc's messages in plain ASCII quotes, whatever the caller's locale.
GCC_ENV = {**os.environ, "LC_ALL": "C"}

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')
_CASE = re.compile(r"\bcase\s+([^:;?]+?)\s*(?:\.\.\.[^:]*)?:(?!:)")
_COMPARED = re.compile(r"\b\w+\s*[!=]=\s*([A-Z][A-Z0-9_]*(?:\([^()]*\))?)")
_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def code_text(text: str) -> str:
    """TEXT with comments and string literals blanked."""
    return _STRING.sub('""', _COMMENT.sub(" ", text))


def command_labels(source: Path) -> list[str]:
    """The command numbers SOURCE's code names: its case labels and the
    upper-case names compared with ==/!=, and those of the quoted headers
    it includes from its own directory (a list of cases included in a body)."""
    texts = [code_text(source.read_text(errors="replace"))]
    for name in _QUOTED_INCLUDE.findall(source.read_text(errors="replace")):
        header = source.parent / name
        if header.is_file():
            texts.append(code_text(header.read_text(errors="replace")))
    labels: list[str] = []
    for text in texts:
        for label in _CASE.findall(text) + _COMPARED.findall(text):
            label = label.strip()
            if label and label not in labels and label not in ("NULL",):
                labels.append(label)
    return labels


def kbuild_includes(directory: Path, tree: Path) -> list[Path]:
    """The -I directories of DIRECTORY's Makefile (EXTRA_CFLAGS, ccflags-y)."""
    makefile = directory / "Makefile"
    if not makefile.is_file():
        return []
    found = []
    for line in makefile.read_text().splitlines():
        if re.match(r"\s*(EXTRA_CFLAGS|ccflags-y|subdir-ccflags-y)\s*[+:]?=", line):
            for path in re.findall(r"-I\s*(\S+)", line):
                path = path.replace("$(src)", str(directory)).replace("$(srctree)", str(tree))
                found.append(Path(path))
    return found


def kbuild_defines(source: Path) -> list[str]:
    """The -D and -U flags kbuild gives SOURCE: its directory Makefile's
    EXTRA_CFLAGS, ccflags-y and subdir-ccflags-y, and its object's own
    CFLAGS_<name>.o, so that the model builds the branches kbuild builds."""
    makefile = source.parent / "Makefile"
    if not makefile.is_file():
        return []
    own = re.escape(f"CFLAGS_{source.stem}.o")
    found = []
    for line in re.sub(r"\\\n", " ", makefile.read_text()).splitlines():
        if re.match(rf"\s*(EXTRA_CFLAGS|ccflags-y|subdir-ccflags-y|{own})\s*[+:]?=", line):
            found += re.findall(r"-[DU]\s*\w+(?:=\S+)?", line.split("=", 1)[1])
    return [flag.replace(" ", "") for flag in found]


def _define_lines(flags: list[str]) -> str:
    """FLAGS (-DNAME, -DNAME=VALUE, -UNAME) as the lines gcc reads them as."""
    lines = []
    for flag in flags:
        name, _, value = flag[2:].partition("=")
        lines.append(f"#define {name} {value or 1}\n" if flag.startswith("-D")
                     else f"#undef {name}\n")
    return "".join(lines)


def model_headers(directory: Path) -> Path:
    """Write MODEL_HEADERS into DIRECTORY, each including model_kernel.h
    (a header of GONE fails on its kernel first); return DIRECTORY."""
    for name in MODEL_HEADERS:
        header = directory / name
        header.parent.mkdir(parents=True, exist_ok=True)
        gone = (f'#if defined({GONE[name]})\n'
                f'#error "{name} does not exist on this kernel"\n'
                '#endif\n') if name in GONE else ""
        header.write_text(f'{gone}#include "{MODEL / "model_kernel.h"}"\n')
    return directory


def _include_flags(model_include: Path, includes: list[Path], tree: Path = TREE) -> list[str]:
    """The model's headers, TREE's include directories, the driver's own."""
    return [f"-I{model_include}", f"-I{MODEL}", f"-I{tree / 'include'}",
            f"-I{tree / 'arch' / 'x86' / 'include'}", *[f"-I{path}" for path in includes]]


@dataclass
class Build:
    ok: bool
    exe: Path | None
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _diagnostics(stderr: str, kind: str) -> list[str]:
    """gcc's KIND lines, without paths and line numbers, so two builds compare."""
    found = []
    for line in stderr.splitlines():
        match = re.match(r"^(.*?):(\d+):(\d+): " + kind + r": (.*)$", line)
        if match:
            found.append(f"{Path(match.group(1)).name}: {match.group(4)}")
    return sorted(set(found))


def build(sources: list[Path], labels: dict[Path, list[str]], kernel: str, out: Path,
          includes: list[Path], tree: Path = TREE) -> Build:
    """Compile SOURCES (one module) with the harness for KERNEL into OUT/,
    against the headers of TREE (a converted copy may have rewritten one).
    LABELS: the command labels of each source (from the legacy text), made
    into a table the harness reads."""
    out.mkdir(parents=True, exist_ok=True)
    units = []
    for index, source in enumerate(sources):
        names = labels.get(source, [])
        table = ", ".join(f"(unsigned long)({n})" for n in names) or "0"
        unit = out / f"unit{index}.c"
        unit.write_text(
            _define_lines(kbuild_defines(source)) +
            f'#include "{source}"\n'
            "void model_add_commands(const unsigned long *cmds, int n);\n"
            f"static const unsigned long model_cmds[] = {{ {table} }};\n"
            "__attribute__((constructor)) static void model_cmds_register(void)\n"
            f"{{ model_add_commands(model_cmds, {len(names)}); }}\n")
        units.append(unit)
    exe = out / "harness"
    flags = [f"-D{KERNELS[kernel]}",
             *_include_flags(model_headers(out / "model-include"), includes, tree)]
    # The driver's diagnostics, alone: the model's files are built apart, without -Wall.
    driver = subprocess.run(["gcc", *CFLAGS, *flags, "-c", *[str(u) for u in units]],
                            cwd=out, capture_output=True, text=True, env=GCC_ENV)
    errors = _diagnostics(driver.stderr, "error")
    warnings = _diagnostics(driver.stderr, "warning")
    if driver.returncode != 0:
        return Build(False, None, errors or driver.stderr.strip().splitlines()[-3:], warnings)
    link = subprocess.run(["gcc", "-std=gnu11", "-O0", *flags, "-o", str(exe),
                           *[str(u.with_suffix(".o")) for u in units],
                           str(MODEL / "model_vfs.c"), str(MODEL / "harness.c")],
                          cwd=out, capture_output=True, text=True, env=GCC_ENV)
    if link.returncode != 0:
        return Build(False, None, [line for line in link.stderr.splitlines()
                                   if "error" in line or "undefined" in line][:5], warnings)
    return Build(True, exe, [], warnings)


_MEMBER = re.compile(r"^(.*?):(\d+):\d+: error: .*'ioctl'")


def legacy_members(sources: list[Path], includes: list[Path],
                   tree: Path = TREE) -> list[tuple[str, int]]:
    """Where SOURCES' compiled code still names the legacy .ioctl member of
    a file_operations (an entry in any spelling, a macro that writes one, a
    run-time assignment, a call through it): the places gcc rejects when
    the member is gone, on a kernel with HAVE_UNLOCKED_IOCTL."""
    found = []
    with tempfile.TemporaryDirectory(prefix="model-include-") as scratch:
        model_include = model_headers(Path(scratch))
        for source in sources:
            proc = subprocess.run(["gcc", *CFLAGS, "-fsyntax-only", "-DMODEL_KERNEL_2_6_11",
                                   "-DMODEL_NO_LEGACY_IOCTL", *kbuild_defines(source),
                                   *_include_flags(model_include, includes, tree), str(source)],
                                  capture_output=True, text=True, env=GCC_ENV)
            for line in proc.stderr.splitlines():
                match = _MEMBER.match(line)
                if match:
                    found.append((Path(match.group(1)).name, int(match.group(2))))
    return sorted(set(found))


def run(exe: Path, *args: str) -> list[str]:
    """The harness's lines; a crash or a time-out is a line of its own.
    ARGS: "compat" calls .compat_ioctl instead of the native entry."""
    try:
        proc = subprocess.run([str(exe), *args], capture_output=True, text=True,
                              timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return ["harness: timed out"]
    lines = proc.stdout.splitlines()
    if proc.returncode != 0:
        lines.append(f"harness: exit status {proc.returncode} {proc.stderr.strip()[:200]}")
    return lines


_CALL = re.compile(r"^call (\d+) (native|compat) (cmd=\S+ arg=\S+) (ret=.*?) \| "
                   r"excess=(-?\d+),(-?\d+) unbalanced=(\d+) unlocked_hw=(\d+)$")


@dataclass(frozen=True)
class Call:
    fops: int
    entry: str
    key: str            # "cmd=... arg=..."
    behaviour: str      # "ret=... abort=... trace=[...]"
    excess_bkl: int
    excess_mutex: int
    unbalanced: int
    unlocked_hw: int


def parse(lines: list[str]) -> tuple[list[str], list[Call]]:
    """The harness's other lines (init, open, fops) and its calls."""
    other, calls = [], []
    for line in lines:
        match = _CALL.match(line)
        if match:
            calls.append(Call(int(match.group(1)), match.group(2), match.group(3), match.group(4),
                              *(int(match.group(i)) for i in range(5, 9))))
        else:
            other.append(line)
    return other, calls


_OTHER_BLOCK = re.compile(r"\{ [^{}]*\} ")


def own_events(behaviour: str) -> str:
    """BEHAVIOUR without the other commands that ran while the call slept
    (the harness brackets each in "{ ... } ", and they do not nest): what
    the call did itself."""
    return _OTHER_BLOCK.sub("", behaviour)


def same_behaviour(legacy: Call, converted: Call) -> bool:
    """The converted call behaves as the legacy one.  Where the legacy call
    let other commands run while it slept (the BKL is dropped in a sleep)
    and the converted one let none (it slept holding a mutex), that is one
    schedule of many the legacy driver allowed, not a difference, provided
    the call's own return, abort and events are the same.  A poll that
    needs another command still differs: it hangs or gives up."""
    if converted.behaviour == legacy.behaviour:
        return True
    return ("{" in legacy.behaviour and "{" not in converted.behaviour
            and own_events(legacy.behaviour) == converted.behaviour)


def compare(legacy: list[str], converted: list[str]) -> list[str]:
    """What the converted build does wrong against the legacy one: a return
    value or trace that differs, a lock left held or released twice at an
    exit, a hardware access without the lock that the legacy one made with
    it, an entry gone.  [] when it behaves the same.  CONVERTED may be a
    compat run (harness argument "compat"): its .compat_ioctl calls are
    held to the legacy .ioctl calls, fops without one are left out."""
    problems = []
    legacy_other, legacy_calls = parse(legacy)
    converted_other, converted_calls = parse(converted)
    for line in legacy_other + converted_other:
        if line.startswith("harness:"):
            problems.append(line)
    init_l = [line for line in legacy_other if line.startswith("init ")]
    init_c = [line for line in converted_other if line.startswith("init ")]
    if init_l != init_c:
        problems.append(f"init differs: legacy {init_l} converted {init_c}")
    # a fops whose legacy entry was empty (.ioctl = NULL) had none to lose
    for line in converted_other:
        if line.startswith("fops ") and line.endswith("entry=none") and line not in legacy_other:
            problems.append(f"no ioctl entry left: {line}")
    legacy_by_key = {(c.fops, c.key): c for c in legacy_calls if c.entry == "native"}
    for call in converted_calls:
        before = legacy_by_key.get((call.fops, call.key))
        where = f"fops {call.fops} {call.entry} {call.key}"
        if before is None:
            problems.append(f"{where}: no legacy call to compare")
            continue
        if not same_behaviour(before, call):
            problems.append(f"{where}: legacy {before.behaviour} | converted {call.behaviour}")
        if call.excess_bkl or call.excess_mutex:
            problems.append(f"{where}: lock held at exit (bkl {call.excess_bkl}, "
                            f"mutex {call.excess_mutex})")
        if call.unbalanced > before.unbalanced:
            problems.append(f"{where}: {call.unbalanced} unlock(s) of a lock not held")
        if call.unlocked_hw > before.unlocked_hw:
            problems.append(f"{where}: {call.unlocked_hw} hardware access(es) without the lock "
                            f"(legacy: {before.unlocked_hw})")
    seen = {(c.fops, c.key) for c in converted_calls}
    for key in legacy_by_key:
        compat_absent = f"fops {key[0]} no compat_ioctl" in converted_other
        if key not in seen and not compat_absent:
            problems.append(f"fops {key[0]} {key[1]}: called in the legacy build only")
    return problems
