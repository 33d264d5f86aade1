"""What kbuild records of a compile, read back: the command line and the
files it read (`.NAME.o.cmd`, written by fixdep), and the raw dependency
list gcc writes (`-Wp,-MMD,FILE`) when a command runs without kbuild.

The recorded command is what lets convert --kdir preprocess the legacy
text of a file without a second make: the same gcc, with the same flags
kbuild gave the converted file's compile, run with -E (kbuild's own `%.i`
rule is `$(CC) -E $(c_flags)` too).
"""

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

# Added to the compiles' flags: the .i beside the .o comes from that compile.
SAVE_TEMPS = "-save-temps=obj"


@dataclass(frozen=True)
class CompileCommand:
    """gcc's arguments for one object, as kbuild ran them in the scratch tree TREE."""

    argv: tuple[str, ...]
    tree: str

    def preprocessor(self, tree: Path, output: Path, depfile: Path) -> list[str]:
        """The same compiler and flags run on the same path under TREE
        (another state of the files), preprocessing only, into OUTPUT,
        writing the files it read to DEPFILE."""
        argv, skip = [self.argv[0], "-E"], False
        for arg in self.argv[1:]:
            if skip:
                skip = False
                argv.append(str(output))
            elif arg == "-o":
                skip = True
                argv.append(arg)
            elif arg.startswith("-Wp,-MMD,") or arg.startswith("-Wp,-MD,"):
                argv.append(f"-Wp,-MMD,{depfile}")
            elif arg not in ("-c", SAVE_TEMPS):
                argv.append(arg.replace(self.tree, str(tree)))
        return argv


def compile_command(cmd_file: Path, tree: Path) -> CompileCommand | None:
    """The gcc command of `cmd_OBJECT := ...` in CMD_FILE, without what
    kbuild runs after it (`; objtool ...`); None when there is none or it
    is not a plain `gcc ... -c -o OBJECT SOURCE`."""
    try:
        text = cmd_file.read_text("latin-1")
    except OSError:
        return None
    line = next((l for l in text.splitlines() if l.startswith("cmd_") and " := " in l), None)
    if line is None:
        return None
    # fixdep writes the command as a make variable: $ doubled, # as $(pound).
    command = line.split(" := ", 1)[1].replace("$(pound)", "#").replace("$$", "$")
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if ";" in words:
        words = words[:words.index(";")]
    if "-c" not in words or "-o" not in words or any(w.startswith(";") for w in words):
        return None
    return CompileCommand(tuple(words), str(tree))


def recorded_dependencies(cmd_file: Path, kdir: Path) -> list[str] | None:
    """The files kbuild recorded as read by a compile (fixdep's list in
    .NAME.o.cmd), absolute (make ran in KDIR); None when there is no list."""
    try:
        text = cmd_file.read_text("latin-1")
    except OSError:
        return None
    found, inside = [], False
    for line in text.splitlines():
        if line.startswith(("source_", "deps_")):
            inside = True
            words = line.split(":=", 1)[1].split()
        elif inside and line.startswith(" "):
            words = line.split()
        else:
            inside = False
            continue
        # $(wildcard include/config/X) names a configuration option, not a file.
        found += [w for w in words if w != "\\" and "$(" not in w and not w.endswith(")")]
    return _absolute(found, kdir)


def depfile_dependencies(depfile: Path, kdir: Path) -> list[str] | None:
    """The files gcc listed in DEPFILE (`target: source header ...`, lines
    continued with a backslash), absolute (gcc ran in KDIR)."""
    try:
        text = depfile.read_text("latin-1")
    except OSError:
        return None
    rule = text.replace("\\\n", " ")
    if ":" not in rule:
        return None
    return _absolute([w for w in rule.split(":", 1)[1].split() if w != "\\"], kdir)


def _absolute(names: list[str], kdir: Path) -> list[str] | None:
    return [os.path.normpath(n if os.path.isabs(n) else kdir / n) for n in names] or None
