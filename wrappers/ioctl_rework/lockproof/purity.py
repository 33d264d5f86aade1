"""Which code may run outside the lock: pure code.

Pure is GCC's `pure`: no effect but its value.  A leaf is pure when it
writes only the function's own (non-static) locals and calls only a short
list of functions and macros that compute from their arguments
(iminor(), MINOR(), file_inode(), container_of, PDE()...); it may read
memory, as `struct evdev *evdev = list->evdev;` before the lock does.
With reads=True (a stricter audit) a read counts too, except of locals,
constants and the fields of the handler's file and inode (and of
`current`), which no other ioctl call changes under it.
"""

from dataclasses import dataclass

from ioctl_rework.lockproof.lexer import Token
from ioctl_rework.lockproof.statements import TYPE_WORDS

# Calls that only compute from their arguments.
PURE_CALLS = frozenset("""
    iminor imajor MINOR MAJOR MKDEV minor major kdev_t_to_nr new_encode_dev old_encode_dev
    to_delayed_work dev_get_drvdata
    file_inode PDE PDE_DATA PROC_I get_current container_of list_entry hlist_entry
    _IOC_NR _IOC_TYPE _IOC_SIZE _IOC_DIR IOCSIZE_MASK ERR_PTR PTR_ERR IS_ERR
    min max min_t max_t likely unlikely __builtin_expect compat_ptr u64_to_user_ptr
    """.split())
# Of those, the ones whose result is the file's or inode's own object.
_STABLE_RESULTS = frozenset({"file_inode", "PDE", "PROC_I", "get_current"})
# Calls whose later arguments are a type and a member, not values.
_TYPE_MEMBER_ARGS = frozenset({"container_of", "list_entry", "hlist_entry"})
_NOT_EVALUATED = frozenset({"sizeof", "typeof", "__typeof__", "__typeof", "__alignof__",
                            "_Alignof", "__builtin_offsetof", "offsetof",
                            "__builtin_types_compatible_p", "__builtin_constant_p"})
# Names that read like variables but are per task or a clock, not data the lock orders.
STABLE_NAMES = frozenset({"current", "jiffies", "jiffies_64"})
_ASSIGN = frozenset("= += -= *= /= %= &= |= ^= <<= >>=".split())
_OPERAND_START = ("(", "-", "!", "~", "*", "&", "+")


@dataclass(frozen=True)
class Locals:
    """What the function declares: its parameters and block-scope names."""

    names: frozenset            # non-static locals and parameters
    arrays: frozenset           # locals that are arrays (indexing reads the local)
    stable: frozenset           # struct file * and struct inode * locals and parameters
    statics: frozenset          # static locals: shared, like globals


def stable_initialized(tokens: list[Token]) -> set[str]:
    """Names a declaration initializes to the file's own objects:
    `struct proc_dir_entry *dp = PDE(inode);` makes dp as stable as PDE()."""
    texts = [t.text for t in tokens]
    found = set()
    for i, text in enumerate(texts):
        if text != "=" or i == 0 or tokens[i - 1].kind != "ident":
            continue
        j = i + 1
        if j < len(texts) and texts[j] == "(":           # a cast
            depth = 0
            while j < len(texts):
                depth += (texts[j] == "(") - (texts[j] == ")")
                j += 1
                if depth == 0:
                    break
        if j < len(texts) and (texts[j] in STABLE_NAMES or
                               (texts[j] in _STABLE_RESULTS and j + 1 < len(texts)
                                and texts[j + 1] == "(")):
            found.add(texts[i - 1])
    return found


def impurity(tokens: list[Token], kind: str, local: Locals, reads: bool = False) -> str | None:
    """Why TOKENS (a leaf of KIND) must run under the lock, or None; with
    READS, reading shared memory is a reason too."""
    if kind == "declaration":
        return _declaration(tokens, local, reads)
    return Scan(tokens, local, reads).run()


def _declaration(tokens: list[Token], local: Locals, reads: bool) -> str | None:
    for initializer in initializers(tokens):
        why = Scan(initializer, local, reads).run()
        if why:
            return why
    return None


def initializers(tokens: list[Token]) -> list[list[Token]]:
    """The initializers of the declaration TOKENS that run where it stands
    (none for a static, initialized once at compile time)."""
    texts = [t.text for t in tokens]
    if "static" in texts or not tokens:
        return []
    if (texts[0].startswith(("DECLARE_", "DEFINE_")) or texts[0].endswith("_HEAD")) \
            and len(texts) > 1 and texts[1] == "(":
        return []              # DECLARE_WAITQUEUE(wait, current): a local's initializer
    found, depth, start = [], 0, None
    for i, token in enumerate(tokens + [Token("punct", ",", 0)]):
        if token.kind == "punct" and token.text in "([{":
            depth += 1
        elif token.kind == "punct" and token.text in ")]}":
            depth -= 1
        elif depth == 0 and token.is_("=") and start is None:
            start = i + 1
        elif depth == 0 and token.is_(","):
            if start is not None:
                found.append(tokens[start:i])
            start = None
    return found


class Scan:
    """Why a leaf's tokens need the lock: what they write, call or (with
    READS) read."""

    def __init__(self, tokens: list[Token], local: Locals, reads: bool):
        self.t = tokens
        self.local = local
        self.reads = reads

    def run(self) -> str | None:
        return self.writes() or self.scan(0, len(self.t))

    # -- writes ---------------------------------------------------------------

    def writes(self) -> str | None:
        """What the leaf assigns (=, op=, ++, --) other than a local."""
        t = self.t
        for k, token in enumerate(t):
            if token.kind != "punct" or not (token.text in _ASSIGN or token.text in ("++", "--")):
                continue
            if token.text in _ASSIGN:
                target = self._before(k)
                if target and t[target.start].text in (".", "[") and \
                        (target.start == 0 or t[target.start - 1].text in ("{", ",")):
                    continue           # a designator: { .member = value, [i] = value }
            elif self._operand_ends(k - 1):
                target = self._postfix_operand(k)
            else:
                target = self._after(k)
            if not self._local_lvalue(target):
                return "writes " + (self._spelled(target.start, target.stop) if target
                                    else "through a pointer")
        return None

    def _operand_ends(self, k: int) -> bool:
        return k >= 0 and (self.t[k].kind in ("ident", "number") or
                           self.t[k].text in (")", "]"))

    _DELIMITERS = frozenset(", ; ( [ { ? : && || return".split()) | _ASSIGN

    def _before(self, k: int) -> range:
        """The operand before position K, back to a delimiter at its level."""
        j, depth = k - 1, 0
        while j >= 0:
            text = self.t[j].text
            if text in (")", "]"):
                depth += 1
            elif text in ("(", "[") and depth:
                depth -= 1
            elif depth == 0 and text in self._DELIMITERS:
                break
            j -= 1
        return range(j + 1, k)

    def _postfix_operand(self, k: int) -> range:
        """The postfix expression before a postfix ++/-- at K: a[i].m, p->n, f(x)."""
        t, j = self.t, k - 1
        while j >= 0:
            if t[j].text in (")", "]") and t[j].kind == "punct":
                j = self._open_of(j) - 1
            elif t[j].kind == "ident":
                j -= 1
                if j >= 0 and t[j].text in (".", "->"):
                    j -= 1
                    continue
                break
            else:
                break
        return range(j + 1, k)

    def _open_of(self, j: int) -> int:
        depth = 0
        for i in range(j, -1, -1):
            if self.t[i].text in (")", "]") and self.t[i].kind == "punct":
                depth += 1
            elif self.t[i].text in ("(", "[") and self.t[i].kind == "punct":
                depth -= 1
                if depth == 0:
                    return i
        return 0

    def _after(self, k: int) -> range:
        """The operand after a prefix ++/-- at K: a name and its accessors."""
        j = k + 1
        if j < len(self.t) and self.t[j].kind == "ident":
            return range(j, self._chain(j, len(self.t))[1])
        return range(j, j)

    def _local_lvalue(self, span: range) -> bool:
        """NAME, NAME.m or NAME[i] of a local: nothing shared is written."""
        t = self.t
        if not span or t[span.start].kind != "ident":
            return False
        name = t[span.start].text
        _, end, _, derefs = self._chain(span.start, span.stop)
        if end != span.stop or "->" in derefs:
            return False
        if name not in self.local.names:
            return False
        if name in self.local.arrays:
            return not derefs or derefs[0] == "["
        return "[" not in derefs

    def _match(self, i: int, stop: int) -> int:
        depth = 0
        for j in range(i, stop):
            if self.t[j].kind == "punct" and self.t[j].text in "([{":
                depth += 1
            elif self.t[j].kind == "punct" and self.t[j].text in ")]}":
                depth -= 1
                if depth == 0:
                    return j
        return stop - 1

    def _unary_position(self, i: int) -> bool:
        if i == 0:
            return True
        before = self.t[i - 1]
        return before.kind == "punct" and before.text not in (")", "]") or \
            before.text in ("return", "case", "sizeof")

    def _is_cast(self, i: int, stop: int) -> bool:
        close = self._match(i, stop)
        inner = self.t[i + 1:close]
        if not inner or close + 1 >= stop:
            return False
        if not all(t.kind == "ident" or t.is_("*") for t in inner) or inner[0].is_("*"):
            return False               # (*fp)(x) calls through a pointer
        after = self.t[close + 1]
        typed = any(t.text in TYPE_WORDS or t.is_("*") or t.text.startswith("__")
                    for t in inner)
        if typed:
            return after.kind != "punct" or after.text in _OPERAND_START
        # (foo_t)x: an unknown name in parentheses before an operand.
        # (fp)(x) is a call through fp, not a cast.
        return len(inner) == 1 and inner[0].text not in self.local.names and \
            after.kind in ("ident", "number", "char", "string")

    def scan(self, i: int, stop: int) -> str | None:
        t = self.t
        cast_end = -1                  # where the last cast ended
        while i < stop:
            token = t[i]
            if token.kind in ("number", "string", "char"):
                i += 1
            elif token.kind == "ident" and token.text in _NOT_EVALUATED:
                i = self._match(i + 1, stop) + 1 if i + 1 < stop and t[i + 1].is_("(") else i + 2
            elif token.is_("(") and self._is_cast(i, stop):
                i = cast_end = self._match(i, stop) + 1
            elif token.is_("(") and i and t[i - 1].text in (")", "]") and i != cast_end:
                return "calls through a function pointer"
            elif token.kind == "ident" and token.text in TYPE_WORDS:
                i += 2 if token.text in ("struct", "union", "enum") else 1
            elif token.kind == "ident":
                why, i = self._operand(i, stop)
                if why:
                    return why
            elif token.is_("*") and self._unary_position(i):
                if self.reads:
                    return "dereferences a pointer"
                i += 1
            elif token.is_(".") and i + 1 < stop and t[i + 1].kind == "ident":
                i += 2             # a designator: { .member = value }
            elif token.is_("[") and i and t[i - 1].text in ("{", ","):
                i = self._match(i, stop) + 1   # a designator: { [index] = value }
            elif token.text in ("->", ".") and token.kind == "punct":
                if self.reads:
                    return "reads memory through a computed pointer"
                i += 2
            elif token.is_("["):
                if self.reads:
                    return "reads memory through a computed pointer"
                i += 1
            else:
                i += 1
        return None

    def _operand(self, i: int, stop: int) -> tuple[str | None, int]:
        """An identifier and what follows it: a call, or a variable and its
        accessors."""
        t = self.t
        token = t[i]
        name = token.text
        if i + 1 < stop and t[i + 1].is_("("):
            if name not in PURE_CALLS:
                return f"calls {name}()", i
            close = self._match(i + 1, stop)
            args_end = close
            if name in _TYPE_MEMBER_ARGS:
                args_end = self._first_comma(i + 2, close)
            why = self.scan(i + 2, args_end)
            if why:
                return why, i
            if close + 1 < stop and t[close + 1].text in ("->", ".", "[") and \
                    t[close + 1].kind == "punct" and name not in _STABLE_RESULTS:
                if self.reads and not self._address_taken(i):
                    return f"reads through the result of {name}()", i
            if name in _STABLE_RESULTS:
                return self._accessors(close + 1, stop)
            return None, close + 1
        why, end, root, derefs = self._chain(i, stop)
        if why:
            return why, i
        if derefs and derefs[-1] != "[" and end < stop and t[end].is_("("):
            # dev->ops->ioctl(x), ops[i].fn(x): a call of whatever the member points to.
            return f"calls {self._spelled(i, end)}() through a function pointer", i
        address = self._address_taken(i)
        if self.reads and not self._readable(root, derefs, address):
            return f"reads {self._spelled(i, end)}", i
        return None, end

    def _spelled(self, i: int, end: int) -> str:
        """The accessed object as written, indexes elided: list->evdev, fb[...]."""
        out, depth = [], 0
        for token in self.t[i:end]:
            if token.is_("["):
                if depth == 0:
                    out.append("[...]")
                depth += 1
            elif token.is_("]"):
                depth -= 1
            elif depth == 0:
                out.append(token.text)
        return "".join(out)

    def _first_comma(self, i: int, stop: int) -> int:
        depth = 0
        for j in range(i, stop):
            if self.t[j].text in "([{" and self.t[j].kind == "punct":
                depth += 1
            elif self.t[j].text in ")]}" and self.t[j].kind == "punct":
                depth -= 1
            elif depth == 0 and self.t[j].is_(","):
                return j
        return stop

    def _chain(self, i: int, stop: int):
        """NAME followed by ->m, .m and [index]: (why, end, root, derefs) where
        derefs counts the accesses that read memory the name points to."""
        t = self.t
        derefs = []
        j = i + 1
        while j < stop:
            token = t[j]
            if token.is_("->") or token.is_("."):
                derefs.append(token.text)
                j += 2
            elif token.is_("["):
                close = self._match(j, stop)
                why = self.scan(j + 1, close)
                if why:
                    return why, j, t[i].text, derefs
                derefs.append("[")
                j = close + 1
            else:
                break
        return None, j, t[i].text, derefs

    def _accessors(self, j: int, stop: int) -> tuple[str | None, int]:
        """Skip ->m, .m and [index] after a stable object, checking the indexes."""
        t = self.t
        while j < stop:
            if t[j].is_("->") or t[j].is_("."):
                j += 2
            elif t[j].is_("["):
                close = self._match(j, stop)
                why = self.scan(j + 1, close)
                if why:
                    return why, j
                j = close + 1
            else:
                break
        return None, j

    def _address_taken(self, i: int) -> bool:
        return i > 0 and self.t[i - 1].is_("&") and self._unary_position(i - 1)

    def _kind(self, root: str) -> str:
        local = self.local
        if root in local.stable or root in STABLE_NAMES:
            return "stable"
        if root in local.statics:
            return "shared"
        if root in local.names:
            return "array" if root in local.arrays else "local"
        if root.isupper() or root in ("NULL", "true", "false"):
            return "constant"
        return "shared"

    def _readable(self, root: str, derefs: list[str], address: bool) -> bool:
        kind = self._kind(root)
        if kind == "stable":
            return True
        if kind == "constant":
            return not derefs
        reads = derefs[:-1] if address and derefs else derefs
        if kind == "local":
            # A local pointer's target is shared; a local struct is not.
            return all(d == "." for d in reads)
        if kind == "array":
            return not reads or (reads[0] == "[" and all(d == "." for d in reads[1:]))
        # A global or static: only its address (and the address of a part).
        return address and all(d in (".", "[") for d in derefs)
