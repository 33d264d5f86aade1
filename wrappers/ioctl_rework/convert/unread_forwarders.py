"""Names of headers the run could not read, which may forward through ->ioctl.

A macro (or a static inline function) of a header forwards a command as
a stacking driver does, `(lf)->f_op->ioctl(inode, lf, cmd, arg)`, where
the file only says `redstack_pass(lf, cmd, arg)`.  Where the header is
read, macro_sites.py finds that call; where it is not found (outside a
tree every `<linux/...>` header, in a tree a quoted or generated one the
search does not find) nothing tells such a macro from a function.  Which
fops it reaches is not known either: a macro may use its arguments, the
caller's locals, the file's globals or the kernel's (`current`), so no
argument list proves it reaches none of the run's.  Default-deny: a name
a file of the run calls or states alone whose definition was not read
(not defined or declared in the file or in a header found, not a local
or parameter, not a kernel interface known not to forward) is a refused
site, as the forwarding rule's refusals are: it denies the run
(forwarding.denied), naming the name and the headers not found.  A
header included inside the run is read like the file.
"""

import re
from pathlib import Path

from ioctl_rework.convert.sources import Sources
from ioctl_rework.convert.summary import HandlerRecord, HandlerStatus
from ioctl_rework.ctext import declared_names, include_search, ioctl_tokens
from ioctl_rework.ctext.spans import code_only
from ioctl_rework.lockproof.constant_names import KERNEL as KERNEL_CONSTANTS
from ioctl_rework.lockproof.unread_names import KERNEL_CALLS

# Kernel interfaces that a driver's own file uses for registration and
# module information, read in 2.6.9 and 6.1: functions of the kernel, or
# macros that expand to declarations and data; none calls through ->ioctl.
# Add a name only after reading its definition; never a driver's own helper.
NOT_FORWARDING = frozenset("""
module_init module_exit MODULE_LICENSE MODULE_AUTHOR MODULE_DESCRIPTION MODULE_VERSION
MODULE_ALIAS MODULE_PARM_DESC MODULE_DEVICE_TABLE module_param module_param_named
misc_register misc_deregister register_chrdev unregister_chrdev
alloc_chrdev_region register_chrdev_region unregister_chrdev_region cdev_init cdev_add cdev_del
request_region release_region ioremap iounmap
""".split())

# A local, a parameter or a pointer to a function declared in a body:
# `type name` then `=`, `;`, `,`, `[` or `)`, or `(*name)`.
_LOCAL = re.compile(r"(\w+|\*)\s*\**\s*\b([A-Za-z_]\w*)\s*(?=[=;,\[)])")
_POINTER = re.compile(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)")
_NOT_A_TYPE = frozenset("return case goto else sizeof do".split())


def _locals(code: str) -> set[str]:
    """Names CODE declares anywhere (locals, parameters, function pointers)."""
    found = {m.group(2) for m in _LOCAL.finditer(code) if m.group(1) not in _NOT_A_TYPE}
    return found | set(_POINTER.findall(code))


_MACRO_HEAD = re.compile(r"^[ \t]*#[ \t]*define[ \t]+\w+\(([^)]*)\)", re.MULTILINE)


def _macro_parameters(code: str) -> dict[int, set[str]]:
    """Line -> the parameters of the function-like macro of the file whose
    #define spans it: a macro's body is read as code of the file (it is
    expanded there), its parameters are no names."""
    found: dict[int, set[str]] = {}
    for head in _MACRO_HEAD.finditer(code):
        names = {p.strip() for p in head.group(1).split(",")} - {"", "..."}
        line = code.count("\n", 0, head.start()) + 1
        lines = code.split("\n")
        while True:
            found.setdefault(line, set()).update(names)
            if line > len(lines) or not lines[line - 1].rstrip().endswith("\\"):
                break
            line += 1
    return found


def sites(root: Path, files: set[str], sources: Sources) -> list[HandlerRecord]:
    """A refused record for the first unread name each of FILES (the run's
    .c and .h files) uses, where one of the headers it includes was not found."""
    root = Path(root)
    found = []
    for rel in sorted(f for f in files if f.endswith((".c", ".h"))):
        headers = include_search.read_headers(root, rel)
        not_found = headers.unread + headers.missing
        if not not_found:
            continue
        try:
            text = sources.read(rel).decode("utf-8", "surrogateescape")
        except OSError:
            continue
        known = set(KERNEL_CALLS) | KERNEL_CONSTANTS | NOT_FORWARDING | declared_names.C_WORDS
        for header_text in headers.texts.values():
            facts = declared_names.text_facts(header_text)
            known |= {name for name, _, _, _ in facts.defines} | facts.declared | \
                facts.enumerators
        code = code_only(text)
        known |= _locals(code)
        parameters = _macro_parameters(code)
        for name, offset in sorted(declared_names.names_used(code), key=lambda u: u[1]):
            line = code.count("\n", 0, offset) + 1
            if name in known or name.startswith("__builtin_") or \
                    name in parameters.get(line, ()):
                continue
            function = ioctl_tokens.enclosing_function(code, line) or "?"
            found.append(HandlerRecord(
                rel, line, "?", function, HandlerStatus.FAILED,
                f"{name} at {rel}:{line} is not defined in the file or in a header found "
                f"(not found: {', '.join(not_found)}) and is not a kernel interface known "
                "not to forward: it may be a macro of one of them that calls through "
                "->ioctl (`(lf)->f_op->ioctl(...)`), which fops it reaches is not known, "
                "and a converted fops has a NULL .ioctl; run convert in the kernel tree so "
                "that its headers are read, or convert by hand"))
            break
    return found
