"""The builtins file spatch gets in place of Coccinelle's standard.h.

spatch applies the macros of its builtins file (standard.h) to every file,
before ours, and one of them cannot be parsed by spatch 1.1.1 once
expanded: standard.h's DEFINE_PER_CPU(type, name) costs a file the code
around it, while without the entry spatch parses the call by itself.  An
entry of our macro file (semantic-patches/macros.h) cannot win over a
builtin, so the builtins we pass are standard.h's own, less every macro
our file defines: there, ours decides.  The file is made from the
standard.h of the spatch that runs (nothing of it is kept in this
repository), once per content, in the cache directory.

    python3 -m ioctl_rework.spatch.macro_builtins [MACRO_FILE]

prints its path, for `make cocci`.
"""

import hashlib
import re
import sys
import threading
from functools import lru_cache
from pathlib import Path

from ioctl_rework import paths
from ioctl_rework.spatch import generated_files

DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", re.MULTILINE)
def defined_names(text: str) -> set[str]:
    return set(DEFINE.findall(text))


def without_macros(text: str, names: set[str]) -> tuple[str, list[str]]:
    """TEXT less the #define of each of NAMES (with its continuation
    lines), and the names it had."""
    out, dropped, lines, i = [], [], text.split("\n"), 0
    while i < len(lines):
        match = DEFINE.match(lines[i])
        if match and match.group(1) in names:
            dropped.append(match.group(1))
            while lines[i].endswith("\\") and i + 1 < len(lines):
                i += 1
        else:
            out.append(lines[i])
        i += 1
    return "\n".join(out), sorted(set(dropped))


def builtins_text(standard: str, macro_file_text: str) -> str:
    text, dropped = without_macros(standard, defined_names(macro_file_text))
    return ("// Coccinelle's standard.h for ioctl-rework, less the macros its macro\n"
            "// file defines: %s\n%s" % (", ".join(dropped) or "none", text))


@lru_cache(maxsize=8)
def _builtins_file(standard: Path, standard_text: str, macro_text: str,
                   cache_home: Path) -> Path:
    content = builtins_text(standard_text, macro_text).encode("latin-1")
    name = "standard-%s.h" % hashlib.sha256(content).hexdigest()[:16]
    return generated_files.written_once("builtins", name, content, cache_home)


def builtins_for(macro_file: Path, standard: Path | None) -> Path | None:
    """The builtins file to pass with MACRO_FILE, made from STANDARD, the
    standard.h of the spatch that runs (None without it: spatch then reads
    its own)."""
    if standard is None:
        return None
    key = (standard, standard.read_text("latin-1"), Path(macro_file).read_text("latin-1"),
           paths.cache_home())
    # Rules run from several threads at once (check's audit and signature
    # rule): one writes the file, the others wait for it.
    with _writing:
        built = _builtins_file(*key)
        if not built.is_file():
            # Removed since it was made (a cleaned cache): spatch would only warn
            # and parse without it, so make it again.
            _builtins_file.cache_clear()
            built = _builtins_file(*key)
    return built


_writing = threading.Lock()


if __name__ == "__main__":
    from ioctl_rework.spatch import installation
    built = builtins_for(Path(sys.argv[1]) if len(sys.argv) > 1 else paths.rules_dir() / "macros.h",
                         installation.standard_h())
    print(built or "")
