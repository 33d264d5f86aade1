"""Which names left in a handler's reading are constants.

Code moved out of the lock may read a constant (early_reads.py), but a
name's spelling says nothing: `BOARD_STATUS` of a tree header may be
`readl(BOARD_BASE)`, and a tree macro that cannot leave the function is
left unexpanded.  Default-deny, a name is a constant only when it is one of
the kernel's own (KERNEL: errno values, open and mode flags, allocation
flags, HZ, the page size) or every definition of it that was read is an
object-like macro whose body is a constant expression (literals, operators,
casts to a plain type, sizeof, other constant names), or it is an
enumerator of an `enum` read.  An unresolved name is not a constant.
"""

from typing import Callable

from ioctl_rework.lockproof.lexer import Token

_ERRNO = """EPERM ENOENT ESRCH EINTR EIO ENXIO E2BIG ENOEXEC EBADF ECHILD EAGAIN ENOMEM
    EACCES EFAULT ENOTBLK EBUSY EEXIST EXDEV ENODEV ENOTDIR EISDIR EINVAL ENFILE EMFILE
    ENOTTY ETXTBSY EFBIG ENOSPC ESPIPE EROFS EMLINK EPIPE EDOM ERANGE EDEADLK ENAMETOOLONG
    ENOLCK ENOSYS ENOTEMPTY ELOOP EWOULDBLOCK ENOMSG EIDRM ENOSTR ENODATA ETIME ENOSR
    ENOLINK EPROTO EBADMSG EOVERFLOW EILSEQ ENOTSOCK EMSGSIZE EOPNOTSUPP ENOTSUPP ENOBUFS
    EADDRINUSE ENETDOWN ECONNRESET ENOTCONN ETIMEDOUT ECONNREFUSED EHOSTUNREACH EALREADY
    EINPROGRESS ECANCELED ENOMEDIUM EMEDIUMTYPE ERESTARTSYS ERESTARTNOINTR ENOIOCTLCMD
    EREMOTEIO""".split()
_FLAGS = """O_RDONLY O_WRONLY O_RDWR O_ACCMODE O_NONBLOCK O_NDELAY O_APPEND O_SYNC O_CREAT
    O_EXCL O_TRUNC FMODE_READ FMODE_WRITE FMODE_LSEEK FMODE_PREAD FMODE_PWRITE FMODE_EXEC
    GFP_KERNEL GFP_ATOMIC GFP_USER GFP_DMA GFP_NOIO GFP_NOFS __GFP_ZERO
    HZ PAGE_SIZE PAGE_SHIFT PAGE_MASK THIS_MODULE KERN_ERR KERN_INFO KERN_DEBUG
    KERN_WARNING KERN_NOTICE KERN_CRIT KERN_ALERT KERN_EMERG
    VERIFY_READ VERIFY_WRITE CAP_SYS_ADMIN CAP_SYS_RAWIO CAP_NET_ADMIN
    INT_MAX INT_MIN UINT_MAX LONG_MAX ULONG_MAX""".split()
# The kernel's own: constants in every configuration of every 2.6 and later tree.
KERNEL = frozenset(_ERRNO + _FLAGS + ["NULL", "true", "false"])

_TYPE_WORDS = frozenset("""unsigned signed int long short char u8 u16 u32 u64 s8 s16 s32 s64
    __u8 __u16 __u32 __u64 __s8 __s16 __s32 __s64 size_t""".split())
_OPERATORS = frozenset("( ) + - * / % << >> & | ^ ~ ! == != < > <= >= && || ? :".split())


class Names:
    """The constant names of one reading, decided when asked (a tree's
    headers define thousands of macros; a handler uses a few)."""

    def __init__(self, definitions: Callable[[str], list | None], tokens: list[Token]):
        # DEFINITIONS: name -> each Macro read for it (None for an #undef or
        # a definition that could not be read), or None when never defined.
        self._definitions = definitions
        self._tokens = tokens
        self._enumerators: set[str] | None = None
        self._known: dict[str, bool] = {}

    def __contains__(self, name: object) -> bool:
        if name in KERNEL:
            return True
        if name not in self._known:
            self._known[name] = False          # a macro defined by itself is not a constant
            self._known[name] = self._decide(name)
        return self._known[name]

    def _decide(self, name: str) -> bool:
        macros = self._definitions(name)
        if macros:
            return all(m is not None and m.params is None and _constant(list(m.body), self)
                       for m in macros)
        if self._enumerators is None:
            self._enumerators = _enumerators(self._tokens)
        return macros is None and name in self._enumerators


def _constant(body: list[Token], known) -> bool:
    """Whether BODY is a constant expression over KNOWN names."""
    if not body:
        return False                   # `#define FLAG`: a marker, not a value
    if len(body) == 1 and body[0].kind in ("string", "char"):
        return True
    i = 0
    while i < len(body):
        token = body[i]
        if token.text == "sizeof":
            close = _close(body, i + 1)
            if close is None:
                return False
            i = close + 1
            continue
        if token.kind == "ident":
            if token.text not in known and token.text not in _TYPE_WORDS:
                return False
        elif token.kind == "number" or token.kind == "char":
            pass
        elif token.kind != "punct" or token.text not in _OPERATORS:
            return False
        i += 1
    return True


def _close(body: list[Token], at: int) -> int | None:
    """The `)` matching the `(` at AT, or None."""
    if at >= len(body) or not body[at].is_("("):
        return None
    depth = 0
    for j in range(at, len(body)):
        depth += body[j].is_("(") - body[j].is_(")")
        if depth == 0:
            return j
    return None


def _enumerators(tokens: list[Token]) -> set[str]:
    """The names an `enum { A, B = 2 }` of TOKENS declares."""
    found: set[str] = set()
    for i, token in enumerate(tokens):
        if token.text != "enum" or token.kind != "ident":
            continue
        j = i + 1
        if j < len(tokens) and tokens[j].kind == "ident":
            j += 1
        if j >= len(tokens) or not tokens[j].is_("{"):
            continue
        depth, expect = 0, True
        for k in range(j + 1, len(tokens)):
            text = tokens[k].text
            if text in ("(", "[", "{"):
                depth += 1
            elif text in (")", "]") and depth:
                depth -= 1
            elif text == "}":
                if not depth:
                    break
                depth -= 1
            elif text == "," and not depth:
                expect = True
                continue
            if expect and tokens[k].kind == "ident":
                found.add(text)
            expect = False
    return found
