"""Which lines of a C file the preprocessor keeps, for a given kernel.

A driver written for several kernels keeps its legacy `.ioctl` in a branch
that a modern kernel never compiles (`#ifndef HAVE_UNLOCKED_IOCTL`, `#if
LINUX_VERSION_CODE < KERNEL_VERSION(2,6,36)`).  Whether such a branch is
dead is a question for the preprocessor, not for the macro's name: a
renamed test or an `#undef HAVE_UNLOCKED_IOCTL` makes it live.  This walks
the file's conditionals as cpp does, in three values: a line is compiled
(True), never (False), or that depends on what no one here knows (None: a
CONFIG_ option, a macro of some header).  Known are the macros of the
target (HAVE_UNLOCKED_IOCTL, HAVE_COMPAT_IOCTL, LINUX_VERSION_CODE and
KERNEL_VERSION), what the file itself #defines and #undefs, and what its
kbuild flags set up to its first #include (the headers are not read here).
"""

import re

from ioctl_rework.ctext.spans import code_only

_DIRECTIVE = re.compile(r"^\s*#\s*(\w+)\b(.*)$")
_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)[uUlL]*|(\w+)|(&&|\|\||==|!=|<=|>=|<<|>>"
                    r"|[-+*/%<>!~()?:,&|^]))")
UNKNOWN = None


# The macros that decide which half of a multi-kernel driver compiles.
TARGET_NAMES = ("HAVE_UNLOCKED_IOCTL", "HAVE_COMPAT_IOCTL", "LINUX_VERSION_CODE",
                "KERNEL_VERSION")


def target_macros(version: tuple[int, int, int]) -> dict[str, str]:
    """The macros a kernel of VERSION defines that decide ioctl branches.
    HAVE_UNLOCKED_IOCTL and HAVE_COMPAT_IOCTL count as defined: a branch
    on them is the accepted multi-kernel form, whose legacy half is dead."""
    code = (version[0] << 16) + (version[1] << 8) + min(version[2], 255)
    return {"HAVE_UNLOCKED_IOCTL": "1", "HAVE_COMPAT_IOCTL": "1",
            "LINUX_VERSION_CODE": str(code)}


class _Expr:
    """A #if expression in three values: int, or None when unknown."""

    def __init__(self, text: str, macros: dict[str, str | None]):
        self.tokens, self.pos, self.macros = [], 0, macros
        text = self._defined(text)
        pos = 0
        while pos < len(text) and text[pos:].strip():
            match = _TOKEN.match(text, pos)
            if not match:
                raise ValueError(text[pos:])
            pos = match.end()
            if match[1]:
                self.tokens.append(int(match[1], 0))
            else:
                self.tokens.append(match[2] or match[3])

    def _defined(self, text: str) -> str:
        def value(m):
            name = m[1] or m[2]
            if name in self.macros:
                return " 0 " if self.macros[name] is False else (
                    " 1 " if self.macros[name] is not None else " __unknown__ ")
            return " __unknown__ "
        return re.sub(r"\bdefined\s*(?:\(\s*(\w+)\s*\)|(\w+))", value, text)

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self):
        self.pos += 1
        return self.tokens[self.pos - 1]

    def value(self):
        result = self.ternary()
        if self.peek() is not None:
            raise ValueError(str(self.peek()))
        return result

    def ternary(self):
        cond = self.binary(0)
        if self.peek() == "?":
            self.take()
            yes = self.ternary()
            if self.take() != ":":
                raise ValueError(":")
            no = self.ternary()
            return UNKNOWN if cond is UNKNOWN else (yes if cond else no)
        return cond

    _LEVELS = (("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="),
               ("<", ">", "<=", ">="), ("<<", ">>"), ("+", "-"), ("*", "/", "%"))

    def binary(self, level: int):
        if level == len(self._LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in self._LEVELS[level]:
            op = self.take()
            right = self.binary(level + 1)
            left = _apply(op, left, right)
        return left

    def unary(self):
        token = self.take() if self.peek() is not None else None
        if token in ("!", "-", "+", "~"):
            operand = self.unary()
            if operand is UNKNOWN:
                return UNKNOWN
            return {"!": int(not operand), "-": -operand, "+": operand, "~": ~operand}[token]
        if token == "(":
            inner = self.ternary()
            if self.take() != ")":
                raise ValueError(")")
            return inner
        if isinstance(token, int):
            return token
        if token == "__unknown__":
            return UNKNOWN
        if token == "KERNEL_VERSION" and self.peek() == "(":
            self.take()
            args = [self.ternary()]
            while self.peek() == ",":
                self.take()
                args.append(self.ternary())
            if self.take() != ")" or len(args) != 3:
                raise ValueError("KERNEL_VERSION")
            if UNKNOWN in args:
                return UNKNOWN
            return (args[0] << 16) + (args[1] << 8) + min(args[2], 255)
        if isinstance(token, str) and re.match(r"\w+$", token):
            if self.peek() == "(":          # a function-like macro of some header
                depth = 0
                while self.peek() is not None:
                    t = self.take()
                    depth += t == "("
                    depth -= t == ")"
                    if depth == 0:
                        break
                return UNKNOWN
            text = self.macros.get(token)
            if text is False:               # #undef'd: 0, as cpp reads it
                return 0
            if isinstance(text, str) and re.fullmatch(r"\s*\d+[uUlL]*\s*", text):
                return int(re.match(r"\s*(\d+)", text)[1])
            return UNKNOWN
        raise ValueError(str(token))


def _apply(op: str, left, right):
    if op == "&&":
        if left == 0 or right == 0:
            return 0
        return UNKNOWN if UNKNOWN in (left, right) else 1
    if op == "||":
        if (left is not UNKNOWN and left != 0) or (right is not UNKNOWN and right != 0):
            return 1
        return UNKNOWN if UNKNOWN in (left, right) else 0
    if UNKNOWN in (left, right):
        return UNKNOWN
    if op in ("/", "%") and right == 0:
        return UNKNOWN
    return {"|": left | right, "^": left ^ right, "&": left & right,
            "==": int(left == right), "!=": int(left != right), "<": int(left < right),
            ">": int(left > right), "<=": int(left <= right), ">=": int(left >= right),
            "<<": left << min(right, 64) if right >= 0 else UNKNOWN,
            ">>": left >> min(right, 64) if right >= 0 else UNKNOWN,
            "+": left + right, "-": left - right, "*": left * right,
            "/": int(left / right), "%": left % right}[op]


def _truth(value) -> bool | None:
    return None if value is UNKNOWN else value != 0


def _and(a: bool | None, b: bool | None) -> bool | None:
    if a is False or b is False:
        return False
    return None if None in (a, b) else True


def compiled_lines(text: str, macros: dict[str, str],
                   reset_by_headers: frozenset = frozenset()) -> list[bool | None]:
    """For each line of TEXT (index 0 is line 1): compiled (True), never
    (False), or not known (None), with MACROS defined before the file.
    The names of RESET_BY_HEADERS (set by a kbuild flag) are not known after
    an #include that may compile: the header, not read here, may #undef or
    #define them again; the file's own #define or #undef after it is."""
    known: dict[str, str | None | bool] = dict(macros)    # False: #undef'd
    stack: list[list] = []          # [outer, this branch, some branch taken]
    found = []
    # Continued directive lines are joined; comments are not code.
    lines = code_only(text).split("\n")
    joined_from = {}
    for i in range(len(lines) - 1, 0, -1):
        if lines[i - 1].endswith("\\"):
            lines[i - 1] = lines[i - 1][:-1] + " " + lines[i]
            lines[i] = ""
            joined_from[i] = i - 1
    for line in lines:
        outer = stack[-1][0] if stack else True
        here = _and(outer, stack[-1][1]) if stack else True
        match = _DIRECTIVE.match(line)
        found.append(here)
        if not match:
            continue
        name, rest = match[1], match[2]
        if name in ("if", "ifdef", "ifndef"):
            value = _condition(name, rest, known)
            stack.append([here, value, value])
        elif name == "elif" and stack:
            frame = stack[-1]
            before = frame[2]
            value = _condition("if", rest, known)
            frame[1] = _and(_not(before), value)
            frame[2] = True if before or value else (None if None in (before, value)
                                                     else False)
        elif name == "else" and stack:
            frame = stack[-1]
            frame[1] = _not(frame[2])
            frame[2] = True
        elif name == "endif" and stack:
            stack.pop()
        elif name in ("include", "include_next") and here is not False:
            known.update(dict.fromkeys(reset_by_headers, None))
        elif name in ("define", "undef") and here is not False:
            word = re.match(r"\s*(\w+)(\(?)\s*(.*)", rest)
            if word:
                if here is None:
                    known[word[1]] = None                   # maybe, maybe not
                elif name == "undef":
                    known[word[1]] = False
                else:
                    known[word[1]] = word[3].strip() if not word[2] else ""
    return found


def _not(value: bool | None) -> bool | None:
    return None if value is None else not value


def _condition(kind: str, rest: str, known: dict) -> bool | None:
    if kind in ("ifdef", "ifndef"):
        word = re.match(r"\s*(\w+)", rest)
        if not word:
            return None
        state = known.get(word[1], None) if word[1] in known else None
        defined = None if word[1] not in known or state is None else state is not False
        return defined if kind == "ifdef" or defined is None else not defined
    try:
        return _truth(_Expr(rest, {k: (v if v is not False else False)
                                   for k, v in known.items()}).value())
    except (ValueError, IndexError, TypeError, OverflowError):
        return None
