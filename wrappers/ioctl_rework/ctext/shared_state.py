"""May two functions of one file reach the same state?  By text, default-deny.

Under the private mutex a handler no longer excludes a .compat_ioctl of its
file that takes the BKL itself (convert/groups.py).  That is safe only for
a handler that shares nothing with it, which this module proves or not:
each function is read with every function and macro of the file it reaches
(transitively), and the names each side uses are compared.  A name both
sides use that is state (a variable of the file, a static local, a member,
a macro argument) is shared; a name neither side's file defines and that is
not known to hold no driver state (copy_to_user, printk, an errno) is
unknown: a function of another file, a header's macro, a port; it may reach
the other side's state, so nothing is proven.  Locals and parameters are
the function's own.  It imports nothing of the project but ctext.spans.
"""

import re
from dataclasses import dataclass

from ioctl_rework.ctext import spans as c_spans

_WORD = re.compile(r"\b[A-Za-z_]\w*")
_KEYWORDS = frozenset("""auto break case char const continue default do double else enum
    extern float for goto if inline int long register return short signed sizeof static
    struct switch typedef union unsigned void volatile while __inline __inline__ __volatile__
    asm __asm__ typeof __typeof__""".split())
# Names of the kernel that hold no state of a driver, or take their own lock:
# copying to and from the caller, messages, capabilities, the BKL itself,
# the constants and types every handler names.
_STATELESS = frozenset("""copy_from_user copy_to_user get_user put_user __get_user
    __put_user clear_user access_ok VERIFY_READ VERIFY_WRITE printk pr_debug pr_info
    pr_err pr_warning pr_warn pr_notice capable memset memcpy memcmp strlen strncpy
    strlcpy snprintf sprintf NULL lock_kernel unlock_kernel compat_ptr likely unlikely
    __user _IO _IOR _IOW _IOWR _IOC_NR _IOC_TYPE _IOC_SIZE _IOC_DIR current
    u8 u16 u32 u64 s8 s16 s32 s64 __u8 __u16 __u32 __u64 __s8 __s16 __s32 __s64 size_t
    ssize_t loff_t mode_t compat_uptr_t compat_ulong_t compat_long_t compat_int_t
    compat_uint_t ulong uint u_long u_int bool true false file inode""".split())
_CONSTANT = re.compile(r"E[A-Z0-9]+|KERN_[A-Z]+|CAP_[A-Z_]+")
# A declaration of locals at the start of a statement: its type words, then
# the declarators (`int a, *b = x;`, `struct foo *p = file->private_data;`).
_DECLARATION = re.compile(
    r"\s*(?:(?:const|volatile|register|unsigned|signed|short|long)\s+)*"
    r"(?:(?:struct|union|enum)\s+\w+|\w+)(?:\s+|\s*\*)(?=[\s*]*[A-Za-z_])")


@dataclass(frozen=True)
class Reach:
    """What two functions of one file may share: SHARED, names of state both
    reach; UNKNOWN, names defined outside the file either reaches (each
    may hold state of the other); both empty: provably nothing."""

    shared: frozenset[str]
    unknown: frozenset[str]

    @property
    def disjoint(self) -> bool:
        return not self.shared and not self.unknown


def reach(text: str, first: str, second: str) -> Reach:
    """What functions FIRST and SECOND of TEXT (a C file) may share."""
    code = c_spans.code_only(text)
    file = _FileNames(code)
    one, two = file.reached(first), file.reached(second)
    shared = {n for n in (one.state & two.state) - file.functions - set(file.macros)
              if n not in _STATELESS and not _CONSTANT.fullmatch(n)}
    defined = file.functions | set(file.macros)
    unknown = {n for n in one.state | two.state
               if n not in defined and n not in _STATELESS and not _CONSTANT.fullmatch(n)
               and (n in one.calls | two.calls or
                    n not in file.variables and n not in one.members | two.members)}
    return Reach(frozenset(shared), frozenset(unknown))


@dataclass
class _Names:
    state: set[str]         # every name that is no local, keyword or tag
    members: set[str]       # those of them used as members (p->x, s.x)
    calls: set[str]         # those of them called (f(...))


class _FileNames:
    """The functions, macros and top-level names of a file's CODE."""

    def __init__(self, code: str):
        self.code = code
        self.macros = {}
        for match in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)((?:\\\n|[^\n])*)", code,
                                 re.M):
            self.macros[match[1]] = match[2]
        self.bodies = {}
        for match in re.finditer(r"\b([A-Za-z_]\w*)\s*\(([^;{}()]*(?:\([^()]*\)[^;{}()]*)*)\)"
                                 r"\s*\{", code):
            if match[1] in _KEYWORDS or _depth(code, match.start()):
                continue
            end = c_spans.closing(code, match.end() - 1)
            self.bodies[match[1]] = (match[2], code[match.end():end])
        self.functions = set(self.bodies)
        top = _outside_braces(re.sub(r"^[ \t]*#[^\n]*(?:\\\n[^\n]*)*", "", code, flags=re.M))
        self.variables = _top_level_variables(top)
        # A static local keeps state between calls: a variable of the file.
        for _, body in self.bodies.values():
            for statement in re.split(r"[;{}]", body):
                if re.match(r"\s*static\b", statement):
                    self.variables.update(_declared(statement))

    def reached(self, name: str) -> _Names:
        names = _Names(set(), set(), set())
        todo, seen = [name], set()
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            if current in self.bodies:
                params, body = self.bodies[current]
                own = _locals(params, body) - self.variables
                text = body
            elif current in self.macros:
                own, text = set(), self.macros[current]
            else:
                continue
            for word in _WORD.finditer(text):
                w = word[0]
                before = text[max(0, word.start() - 20):word.start()]
                if w in _KEYWORDS or w in own or \
                        re.search(r"\b(?:struct|union|enum)\s*\Z", before):
                    continue
                if re.search(r"(?:\.|->)\s*\Z", before):
                    names.members.add(w)
                names.state.add(w)
                if re.match(r"\s*\(", text[word.end():]):
                    names.calls.add(w)
                if w in self.bodies or w in self.macros:
                    todo.append(w)
        return names


def _top_level_variables(top: str) -> set[str]:
    """The names TOP (a file's text outside braces and directives) declares
    that may be variables: every word of a declaration, and the arguments
    of a macro that declares one (DEFINE_MUTEX(x)); not the parameters of
    a prototype or definition (a list whose every part has a type)."""
    found = set()
    for statement in re.split(r"[;}]", top):
        def params(match: re.Match) -> str:
            parts = match[1].split(",")
            typed = all(len(_WORD.findall(p)) > 1 or p.strip() in ("void", "...", "")
                        for p in parts)
            return "()" if typed else match[0]
        statement = re.sub(r"\(([^()]*)\)", params, statement)
        found.update(_WORD.findall(statement))
    return found - _KEYWORDS


def _depth(code: str, offset: int) -> int:
    return code.count("{", 0, offset) - code.count("}", 0, offset)


def _outside_braces(code: str) -> str:
    """CODE with what is inside braces blanked: the file's top-level text."""
    out, depth = [], 0
    for ch in code:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        out.append(ch if depth == 0 or ch == "\n" else " ")
    return "".join(out)


def _locals(params: str, body: str) -> set[str]:
    """The parameters of a function (PARAMS, its head's), the non-static
    locals its BODY declares, their type names and its labels: its own
    names, no state of the file."""
    found = set(re.findall(r"\bgoto\s+(\w+)", body))
    found |= {m for m in re.findall(r"(?:^|[;{}])\s*(\w+)\s*:(?!:)", body)
              if m not in ("default", "case")}
    for param in params.split(","):
        words = _WORD.findall(re.sub(r"\[[^\]]*\]", "", param))
        if len(words) > 1:
            found.add(words[-1])
    for statement in re.split(r"[;{}]", body):
        if re.match(r"\s*static\b", statement):
            continue            # a static local keeps state between calls
        declaration = _DECLARATION.match(statement)
        if declaration is None or declaration[0].split()[0] in _KEYWORDS - {
                "const", "volatile", "register", "unsigned", "signed", "short", "long",
                "struct", "union", "enum", "char", "int", "double", "float", "void"}:
            continue
        found.update(w for w in _WORD.findall(declaration[0]) if w not in _KEYWORDS)
        found |= _declared(statement)
    return found


def _declared(statement: str) -> set[str]:
    """The names a declaration STATEMENT (`static int a, *b = x`) declares."""
    declaration = _DECLARATION.match(re.sub(r"^\s*static\b", "", statement))
    if declaration is None:
        return set()
    found = set()
    for part in c_spans.split_top_level(re.sub(r"^\s*static\b", "", statement)[declaration.end():]):
        name = re.match(r"[\s*]*(?:const\s+)?([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?:=|$)",
                        part, re.S)
        if name:
            found.add(name[1])
    return found

