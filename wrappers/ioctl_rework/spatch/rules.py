"""The semantic patches as the wrappers see them: where they are, which
options they take, and what their report mode says.

Everything the rules decide (convert or refuse, which strategy, whether the
handler uses the inode) is decided in SmPL; this module only gives spatch
its options and parses the report lines back into values (the typed
conversion options and their -D flags are ioctl_rework.settings).
"""

import enum
import functools
import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework import paths
from ioctl_rework.ctext import spans
from ioctl_rework.spatch import installation, macro_builtins

RULES_DIR = paths.rules_dir()
# The directory holding the ioctl_rework package: wrappers/ in a checkout,
# site-packages (or the like) when installed.
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
CONVERSION_RULE = RULES_DIR / "ioctl_to_unlocked_ioctl.cocci"
FORWARDING_RULE = RULES_DIR / "f_op_ioctl_forwarding.cocci"
# Hints for spatch's parser about kernel macros; every run passes it.
MACRO_FILE = RULES_DIR / "macros.h"

def rule_options(rule: Path) -> list[str]:
    """The spatch options a rule's header asks for (`// Options: ...`)."""
    for line in Path(rule).read_text().splitlines():
        if line.startswith("// Options:"):
            return line.split(":", 1)[1].split()
    return []


class MacroFileMissing(RuntimeError):
    """The macro file is not beside the rules: spatch would only warn and
    parse less, so no run starts without it."""


def require_macro_file(path: Path | None = None) -> Path:
    """PATH (default MACRO_FILE), which must exist."""
    path = Path(path or MACRO_FILE)
    if not path.is_file():
        raise MacroFileMissing(f"{path}: the macro file is missing; reinstall the rules")
    return path


def spatch_options(rule: Path, macro_file: Path | None = None) -> list[str]:
    """Everything spatch is given for RULE besides the mode and the files:
    the options the rule's header asks for, the macro file (MACRO_FILE
    unless another is named) and the builtins that let it decide
    (macro_builtins.py).  The one place a command line gets them."""
    macros = require_macro_file(macro_file)
    builtins = macro_builtins.builtins_for(macros, installation.standard_h())
    return [*rule_options(rule), "--macro-file", str(macros),
            *(["--macro-file-builtins", str(builtins)] if builtins else [])]


def spatch_environment(rule: Path, environ: dict[str, str] | None = None) -> dict[str, str]:
    """ENVIRON (the process's own unless given) with the directory of RULE
    first on PYTHONPATH, then the directory that holds this ioctl_rework
    package: the Python of a rule imports its logic from a package beside
    it (semantic-patches/ioctl_rule/), and that the C-text helpers it
    shares with the wrappers (ioctl_rework.ctext.spans).  The one place an
    environment for spatch is made."""
    env = dict(os.environ if environ is None else environ)
    rules_dir = str(Path(rule).resolve().parent)
    env["PYTHONPATH"] = os.pathsep.join([rules_dir, str(PACKAGE_ROOT),
                                         *filter(None, [env.get("PYTHONPATH")])])
    return env


@functools.lru_cache(maxsize=None)
def rules_digest(rules_dir: Path = RULES_DIR) -> str:
    """A hash of every rule file, of their packages (the Python and the
    parts a rule includes) and of the macro file, for cache keys: a rule's
    text alone is not enough, its Python imports ioctl_rule and ctext, and
    the conversion rule includes its parts.  Read once a process."""
    digest = hashlib.sha256()
    packages = [path for init in rules_dir.glob("*/__init__.py")
                for pattern in ("*.py", "*.cocci") for path in init.parent.glob(pattern)]
    for path in sorted([*rules_dir.glob("*.cocci"), *rules_dir.glob("*.h"), *packages]):
        digest.update(str(path.relative_to(rules_dir)).encode() + b"\0" + path.read_bytes())
    # The C-text helpers the rules import from the wrappers decide too: all
    # of ctext (null_inode, include_search, member_calls and what they
    # import), so that a change to any of them is no stale cached verdict.
    for path in sorted(Path(spans.__file__).parent.glob("*.py")):
        digest.update(b"ioctl_rework/ctext/" + path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def macros_digest(macro_file: Path | None = None) -> str:
    """A hash of the macro file, for the cache keys of a single rule."""
    return hashlib.sha256(require_macro_file(macro_file).read_bytes()).hexdigest()


@dataclass(frozen=True)
class HandlerDecision:
    """One `.ioctl` fops entry, as the rule's report mode judged it."""

    file: str
    line: int
    fops: str
    handler: str
    convert: bool
    strategy: str | None
    # Why it is left alone, or why auto chose the wrapper.
    reason: str | None
    uses_inode: bool
    returns_enoioctlcmd: bool
    # The wrapper calls the handler with its legacy signature, kept because
    # something else of the file uses it (a function pointer of that type).
    keeps_signature: bool = False


# The start of every line the conversion rule prints about one entry.  The
# fops is a structure's name or, for a run-time assignment, the expression
# assigned to ("ops", "dev->fops", "f[1]"); a handler named through a macro
# is shown as the call ("DRM(ioctl)").
ENTRY_LINE = (r"^(?P<file>.+?):(?P<line>\d+): (?P<fops>[^\s:]+): "
              r"\.ioctl = (?P<handler>\w+(?:\([^()]*\))?): ")
_REPORT_LINE = re.compile(
    ENTRY_LINE +
    # A detail may name a function: "returns -ENOIOCTLCMD through en_unknown()".
    r"(?:convert \((?P<details>(?:[^()]|\([^()]*\))*)\)(?:: (?P<why>.*))?"
    r"|left alone: (?P<refusal>.*))$")


class ChangeKind(enum.Enum):
    REMOVED_ENTRY = "removed-entry"        # a NULL or dead .ioctl
    # A run-time `F.ioctl = NULL;`, now `F.unlocked_ioctl = NULL;`: it may
    # clear what a copy of another file_operations set.
    CLEARED_ENTRY = "cleared-entry"
    DELETED_HANDLER = "deleted-handler"    # static, and only dead entries named it
    CHANGED_CALLER = "changed-caller"      # a direct call loses the inode argument


@dataclass(frozen=True)
class OtherChange:
    """A change the conversion makes besides converting a handler."""

    file: str
    line: int
    kind: ChangeKind
    handler: str
    where: str              # the fops of an entry, the function of a call
    reason: str


REMOVE_LINE = re.compile(ENTRY_LINE + r"remove \((?P<reason>.*)\)$")
_CLEAR_LINE = re.compile(ENTRY_LINE + r"clear \((?P<reason>.*)\)$")
# The forwarding rule: FILE:LINE: FUNCTION: forward: what was done or why not.
FORWARD_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<function>\S+): forward: "
                          r"(?P<what>.*)$")


def forward_refused(what: str) -> bool:
    """Whether a FORWARD_LINE's WHAT says the site was left for a human."""
    return "refused" in what
_DELETE_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<handler>\w+): "
                          r"delete the handler: (?P<reason>.*)$")
# WHERE: a function, or a #define's body (ioctl_rule/matches.py: caller_name)
_CALL_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<handler>\w+): "
                        r"change the call in (?P<where>\w+|a macro body \(line \d+\)): "
                        r"(?P<reason>.*)$")


def parse_changes(stdout: str) -> list[OtherChange]:
    """Read the lines of the conversion rule's report mode about entries it
    removes, handlers it deletes and calls it changes."""
    found = []
    for line in stdout.splitlines():
        for pattern, kind in ((REMOVE_LINE, ChangeKind.REMOVED_ENTRY),
                              (_CLEAR_LINE, ChangeKind.CLEARED_ENTRY),
                              (_DELETE_LINE, ChangeKind.DELETED_HANDLER),
                              (_CALL_LINE, ChangeKind.CHANGED_CALLER)):
            match = pattern.match(line)
            if match:
                fields = match.groupdict()
                found.append(OtherChange(fields["file"], int(fields["line"]), kind,
                                         fields["handler"],
                                         fields.get("fops") or fields.get("where") or "",
                                         fields["reason"]))
                break
    return found


def parse_report(stdout: str) -> list[HandlerDecision]:
    """Read the decision lines of the conversion rule's report mode."""
    decisions = []
    for line in stdout.splitlines():
        match = _REPORT_LINE.match(line)
        if not match:
            continue
        details = [d.strip() for d in (match["details"] or "").split(",") if d.strip()]
        refusal = match["refusal"]
        decisions.append(HandlerDecision(
            file=match["file"], line=int(match["line"]), fops=match["fops"],
            handler=match["handler"], convert=refusal is None,
            strategy=details[0] if details else None,
            reason=refusal if refusal is not None else match["why"],
            uses_inode="uses inode" in details,
            returns_enoioctlcmd=any(d.startswith("returns -ENOIOCTLCMD") for d in details)
            or "-ENOIOCTLCMD" in (refusal or ""),
            keeps_signature="keeps signature" in details))
    return decisions
