"""Command numbers as a tree's own headers define them, computed without
compiling: a small preprocessor for `#define` (object and function-like
macros, no conditionals: the first definition met wins) and an evaluator
of the integer expressions _IO/_IOR/_IOW/_IOWR expand to.

Used for the tree's compat table, whose headers are kernel headers that
do not compile outside a configured build.  `sizeof(T)` is the one thing
text cannot tell for a structure: the caller passes the sizes it knows (the
layout probe's, for the commands of the driver at hand); an unknown size
leaves the value uncertain, never guessed.
"""

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework.ctext import spans as c_spans

_TOKEN = re.compile(r"""\s*(?:(?P<number>(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*)
                         |(?P<char>'(?:\\.|[^'\\])+')
                         |(?P<string>"(?:\\.|[^"\\])*")
                         |(?P<name>[A-Za-z_]\w*)
                         |(?P<punct>\#\#|<<|>>|<=|>=|==|!=|&&|\|\||->|\.\.\.|[^\s\w]))""",
                    re.VERBOSE)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\([^)]*\))?((?:.*\\\n)*.*)$", re.MULTILINE)
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.MULTILINE)

# The kernel's form adds a compile-time check of the size argument; its
# value is sizeof (asm-generic/ioctl.h).
_BUILTIN = {"_IOC_TYPECHECK": (("t",), ["sizeof", "(", "t", ")"])}

# x86_64 sizes of the scalar types a command may encode.
_SCALARS = {
    "char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "_Bool": 1,
    "short": 2, "unsigned short": 2, "int": 4, "unsigned int": 4, "unsigned": 4,
    "signed": 4, "long": 8, "unsigned long": 8, "long long": 8, "unsigned long long": 8,
    "float": 4, "double": 8, "size_t": 8, "__kernel_size_t": 8, "loff_t": 8,
    "compat_int_t": 4, "compat_uint_t": 4, "compat_long_t": 4, "compat_ulong_t": 4,
    "compat_uptr_t": 4, "compat_size_t": 4, "compat_off_t": 4, "compat_time_t": 4,
    "compat_caddr_t": 4, "compat_loff_t": 8, "compat_u64": 8, "compat_s64": 8,
}
for _bits in (8, 16, 32, 64):
    for _spelling in ("u", "s", "__u", "__s", "__le", "__be", "uint", "int"):
        suffix = "_t" if _spelling in ("uint", "int") else ""
        _SCALARS[f"{_spelling}{_bits}{suffix}"] = _bits // 8
_TYPE_WORDS = {"struct", "union", "enum", "const", "volatile", "unsigned", "signed", "char",
               "short", "int", "long", "float", "double", "void", "__user"}


class Uncertain(Exception):
    """A value the text alone cannot give (an unknown size or macro)."""


@dataclass(frozen=True)
class Macro:
    params: tuple[str, ...] | None     # None: object-like
    body: tuple[str, ...]


def tokens(text: str) -> list[str]:
    found, pos = [], 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            break
        found.append(match.group(match.lastgroup))
        pos = match.end()
    return found


@functools.lru_cache(maxsize=None)
def _file_text(path: Path, _mtime: int) -> str:
    return c_spans.without_comments(path.read_text(errors="replace"))


def file_text(path: Path) -> str:
    """PATH without comments (lines kept), read once a run."""
    return _file_text(path, path.stat().st_mtime_ns)


def definitions(text: str) -> dict[str, Macro]:
    found: dict[str, Macro] = {}
    for name, params, body in _DEFINE.findall(text):
        if name in found:
            continue
        arguments = (tuple(p.strip() for p in params[1:-1].split(",") if p.strip())
                     if params else None)
        found[name] = Macro(arguments, tuple(tokens(body.replace("\\\n", " "))))
    return found


_ENUM = re.compile(r"\benum\s*\w*\s*\{([^{}]*)\}")


def enumerators(text: str) -> dict[str, Macro]:
    """Each enum constant of TEXT as a macro of its value (DM_VERSION_CMD)."""
    found: dict[str, Macro] = {}
    for match in _ENUM.finditer(text):
        previous: tuple[str, ...] = ("(", "-", "1", ")")
        for item in match[1].split(","):
            name, _, value = (part.strip() for part in item.partition("="))
            if not re.fullmatch(r"[A-Za-z_]\w*", name):
                continue
            body = ("(", *tokens(value), ")") if value else ("(", *previous, "+", "1", ")")
            found.setdefault(name, Macro(None, body))
            previous = body
    return found


def includes(text: str) -> list[tuple[str, str]]:
    return _INCLUDE.findall(text)



def expand(text: str, lookup) -> list[str]:
    """TEXT with every macro LOOKUP(name) knows expanded, rescanned with
    what follows as cpp does (`#define _SIO _IO` then `_SIO(...)`)."""
    return [tok for tok, _ in _expand([(t, frozenset()) for t in tokens(text)], lookup)]


def _arguments(toks: list, start: int) -> tuple[list[list], int] | None:
    """The arguments of a call whose "(" is at START, and the index after ")"."""
    if start >= len(toks) or toks[start][0] != "(":
        return None
    args, current, depth = [], [], 0
    for index in range(start + 1, len(toks)):
        tok = toks[index][0]
        if tok == "(":
            depth += 1
        elif tok == ")":
            if depth == 0:
                args.append(current)
                return args, index + 1
            depth -= 1
        elif tok == "," and depth == 0:
            args.append(current)
            current = []
            continue
        current.append(toks[index])
    return None


def _expand(toks: list, lookup) -> list:
    """Tokens paired with the macros they came from (which they may not
    call again: the hide sets of the C standard)."""
    out, index = [], 0
    while index < len(toks):
        tok, hidden = toks[index]
        macro = None if tok in hidden else (_builtin(tok) or lookup(tok))
        if macro is None:
            out.append(toks[index])
            index += 1
            continue
        hide = hidden | {tok}
        if macro.params is None:
            toks = toks[:index] + [(b, hide) for b in macro.body] + toks[index + 1:]
            continue
        call = _arguments(toks, index + 1)
        if call is None:
            out.append(toks[index])
            index += 1
            continue
        args, end = call
        bound = {p: _expand(a, lookup) for p, a in zip(macro.params, args)}
        body = []
        for b in macro.body:
            if b == "##":
                continue
            body += [(t, h | hide) for t, h in bound[b]] if b in bound else [(b, hide)]
        toks = toks[:index] + body + toks[end:]
    return out


def _builtin(name: str) -> Macro | None:
    found = _BUILTIN.get(name)
    return Macro(*found) if found else None


def type_size(type_text: str, sizes) -> int:
    """x86_64's sizeof TYPE_TEXT: a scalar's from the table above, any other
    from SIZES(normalised text) -> int | None."""
    text = " ".join(type_text.replace("__user", " ").split())
    array = re.fullmatch(r"(.*?)\s*\[\s*(\d+)\s*\]", text)
    if array:
        return type_size(array[1], sizes) * int(array[2])
    text = re.sub(r"\b(const|volatile)\b", " ", text)
    text = " ".join(text.split())
    if text.endswith("*"):
        return 8
    text = re.sub(r"^signed (char|short|int|long)", r"\1", text).replace(" int", "") \
        if text not in ("unsigned int", "signed int") else text
    text = {"short int": "short", "long int": "long", "signed": "int"}.get(text, text)
    if text in _SCALARS:
        return _SCALARS[text]
    size = sizes(text) if sizes else None
    if size is None:
        raise Uncertain(f"sizeof({type_text}) is not known")
    return size


class _Evaluator:
    """Recursive descent over C's integer expressions, as x86_64 gcc would."""

    def __init__(self, toks: list[str], sizes):
        self.toks, self.pos, self.sizes = toks, 0, sizes

    def peek(self) -> str | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise Uncertain(f"expected {expected or 'more'} in {' '.join(self.toks)}")
        self.pos += 1
        return tok

    def value(self) -> int:
        result = self.conditional()
        if self.peek() is not None:
            raise Uncertain(f"unexpected {self.peek()!r} in {' '.join(self.toks)}")
        return result

    def conditional(self) -> int:
        test = self.binary(0)
        if self.peek() == "?":
            self.take()
            yes = self.conditional()
            self.take(":")
            no = self.conditional()
            return yes if test else no
        return test

    _LEVELS = (("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="),
               ("<", ">", "<=", ">="), ("<<", ">>"), ("+", "-"), ("*", "/", "%"))

    def binary(self, level: int) -> int:
        if level == len(self._LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in self._LEVELS[level]:
            op = self.take()
            right = self.binary(level + 1)
            left = _apply(op, left, right)
        return left

    def _type_ahead(self, any_name: bool = False) -> int | None:
        """The index of the ")" closing a type name that starts here, or None."""
        depth, index = 0, self.pos
        words = []
        while index < len(self.toks):
            tok = self.toks[index]
            if tok == ")" and depth == 0:
                break
            if tok in ("[", "]"):
                depth += 1 if tok == "[" else -1
            words.append(tok)
            index += 1
        else:
            return None
        if not words:
            return None
        first = words[0]
        typed = (any_name or first in _TYPE_WORDS or first in _SCALARS
                 or (re.fullmatch(r"[A-Za-z_]\w*_t", first) is not None and len(words) <= 3))
        return index if typed and all(re.fullmatch(r"\w+|\*|\[|\]", w) for w in words) else None

    def unary(self) -> int:
        tok = self.peek()
        if tok in ("-", "+", "~", "!"):
            self.take()
            operand = self.unary()
            return {"-": -operand, "+": operand, "~": ~operand, "!": int(not operand)}[tok]
        if tok == "sizeof":
            self.take()
            self.take("(")
            end = self._type_ahead(any_name=True)
            if end is None:
                raise Uncertain("sizeof of an expression")
            text = " ".join(self.toks[self.pos:end]).replace(" [ ", "[").replace(" ]", "]")
            self.pos = end + 1
            return type_size(text, self.sizes)
        if tok == "(":
            self.take()
            end = self._type_ahead()
            if end is not None:        # a cast: the kernel's command is an unsigned int
                self.pos = end + 1
                return self.unary()
            inner = self.conditional()
            self.take(")")
            return inner
        return self.primary()

    def primary(self) -> int:
        tok = self.take()
        if re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*", tok):
            digits = tok.rstrip("uUlL")
            return int(digits, 16) if digits[:2] in ("0x", "0X") else \
                int(digits, 8) if len(digits) > 1 and digits[0] == "0" else int(digits)
        if tok.startswith("'"):
            return _char_value(tok[1:-1])
        raise Uncertain(f"{tok} is not defined where the table is")


def _char_value(body: str) -> int:
    if not body.startswith("\\"):
        return ord(body[0])
    escapes = {"n": 10, "t": 9, "r": 13, "0": 0, "\\": 92, "'": 39, '"': 34}
    if body[1] in "xX":
        return int(body[2:], 16)
    if body[1].isdigit():
        return int(body[1:], 8)
    return escapes.get(body[1], ord(body[1]))


def _apply(op: str, a: int, b: int) -> int:
    if op in ("/", "%") and b == 0:
        raise Uncertain("division by zero")
    return {"||": lambda: int(bool(a or b)), "&&": lambda: int(bool(a and b)),
            "|": lambda: a | b, "^": lambda: a ^ b, "&": lambda: a & b,
            "==": lambda: int(a == b), "!=": lambda: int(a != b), "<": lambda: int(a < b),
            ">": lambda: int(a > b), "<=": lambda: int(a <= b), ">=": lambda: int(a >= b),
            "<<": lambda: a << b, ">>": lambda: a >> b, "+": lambda: a + b,
            "-": lambda: a - b, "*": lambda: a * b,
            "/": lambda: int(a / b), "%": lambda: a % b}[op]()


def evaluate(expanded: list[str] | tuple[str, ...], sizes=None) -> int:
    """The unsigned int value of the expanded expression; Uncertain when a
    size or a name is not known."""
    return _Evaluator(list(expanded), sizes).value() & 0xFFFFFFFF


_STRUCT = re.compile(r"\bstruct\s+(\w+)\s*\{([^{}]*)\}\s*;")
_MEMBER = re.compile(r"^(?P<type>[\w\s]+?[\s*]+)(?P<name>\w+)\s*(?:\[\s*(?P<count>\w+)\s*\])?$")


def struct_members(text: str) -> dict[str, tuple[str, ...]]:
    """struct name -> its member declarations, for the structures of TEXT
    without nested braces (the compat structures a table file declares)."""
    return {name: tuple(m.strip() for m in body.split(";") if m.strip())
            for name, body in _STRUCT.findall(text)}


def struct_size(name: str, members: dict[str, tuple[str, ...]], sizes=None) -> int | None:
    """x86_64's sizeof(struct NAME) from its MEMBERS: natural alignment, no
    packing; None for anything else (a bit-field, an unknown type)."""
    found = _struct_layout(name, members, sizes, 0)
    return found[0] if found else None


def _struct_layout(name: str, members: dict, sizes, depth: int) -> tuple[int, int] | None:
    """(size, alignment) of struct NAME, or None."""
    if name not in members or depth > 4:
        return None
    offset, align = 0, 1
    for declaration in members[name]:
        match = _MEMBER.match(" ".join(declaration.split()))
        if not match or ":" in declaration or "__attribute__" in declaration:
            return None
        type_text = match["type"].strip()
        nested = re.fullmatch(r"struct\s+(\w+)", type_text)
        if nested:
            inner = _struct_layout(nested[1], members, sizes, depth + 1)
            if inner is None:
                return None
            size, member_align = inner
        else:
            try:
                size = type_size(type_text, sizes)
            except Uncertain:
                return None
            member_align = min(size, 8) or 1
        count = match["count"]
        if count is not None and not count.isdigit():
            return None
        offset = -(-offset // member_align) * member_align + size * int(count or 1)
        align = max(align, member_align)
    return -(-offset // align) * align, align
