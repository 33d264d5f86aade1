"""What code that left the lock may still read.

A pushdown takes the lock after the handler's declarations: their
initializers, which ran under the BKL, now run before it.  One that reads
shared state, `int users = dev->users;` before `dev->users = users + 1;`
under the lock, splits a read-modify-write the BKL made one step: a
racing ioctl's update between the two is lost.  The same holds for any
code the conversion moved out of the lock, before it or after it.

Default-deny, such code may read only: its locals and parameters (their
values, and the members of a local struct), sizeof, constants (a name
only when what defines it was read and is constant: constant_names.py),
addresses (`&dev->users` computes one, it loads nothing), `jiffies`, a
member of `current` (the calling task's own: `current->pid`), purity.py's
calls that compute from their arguments or from what is set once when the
file, inode or device is made (iminor(), PDE(), dev_get_drvdata()), and
the members of the handler's file and inode that no ioctl call changes
while the file is open (STABLE_MEMBERS: its private_data, the dentry, the
device number), unless the handler itself writes them.  Anything else is
a load through a pointer, a global, a static or another call.
"""

from ioctl_rework.lockproof.constant_names import KERNEL
from ioctl_rework.lockproof.lexer import Token
from ioctl_rework.lockproof.purity import Locals, Scan, initializers, STABLE_NAMES

# Members of struct file and struct inode set when the file is opened (or
# the inode created) and not changed by another call on the open file.
STABLE_MEMBERS = frozenset({
    "private_data", "f_dentry", "f_path", "dentry", "d_inode", "f_vfsmnt", "mnt", "f_op",
    "f_mapping", "f_flags", "f_mode", "f_inode",
    "i_rdev", "i_cdev", "i_private", "i_ino", "i_sb", "i_mapping", "i_bdev"})
# The calling task: one member of it is its own (current->mm->x is not).
_TASK = frozenset({"current", "get_current"})
_ASSIGNS = frozenset("= += -= *= /= %= &= |= ^= <<= >>=".split())


def written_members(tokens: list[Token]) -> frozenset:
    """Names of the members TOKENS (a function) assign, increment or
    decrement: `file->f_flags |= O_NONBLOCK;` makes f_flags not stable."""
    found = set()
    for i, token in enumerate(tokens):
        if token.kind != "ident" or i == 0 or tokens[i - 1].text not in ("->", "."):
            continue
        after = tokens[i + 1].text if i + 1 < len(tokens) else ""
        before = tokens[i - 3].text if i >= 3 else ""
        if after in _ASSIGNS or after in ("++", "--") or before in ("++", "--"):
            found.add(token.text)
    return frozenset(found)


def early_read(tokens: list[Token], kind: str, local: Locals,
               written: frozenset, constants=KERNEL) -> str | None:
    """What TOKENS (a leaf of KIND that runs outside the lock) read that only
    the lock kept consistent, or None.  WRITTEN: the members the handler
    writes; CONSTANTS: the names read as constants (constant_names.py)."""
    if kind == "declaration":
        for initializer in initializers(tokens):
            why = _EarlyScan(initializer, local, written, constants).run()
            if why:
                return why
        return None
    return _EarlyScan(tokens, local, written, constants).run()


class _EarlyScan(Scan):
    """purity.Scan with READS, stricter: only the reads the module doc lists."""

    def __init__(self, tokens: list[Token], local: Locals, written: frozenset,
                 constants):
        super().__init__(tokens, local, reads=True)
        self.written = written
        self.constants = constants

    def run(self) -> str | None:
        return self.scan(0, len(self.t))      # what it writes, purity.py judges

    def _operand(self, i: int, stop: int) -> tuple[str | None, int]:
        t = self.t
        if i + 1 < stop and t[i + 1].is_("("):
            return super()._operand(i, stop)
        why, end, root, derefs = self._chain(i, stop)
        if why or (derefs and derefs[-1] != "[" and end < stop and t[end].is_("(")):
            return super()._operand(i, stop)
        if not self._may_read(i, end, root, derefs):
            if self._kind(root) == "constant" and root not in self.constants:
                return f"reads {root}, a name not read as a constant", i
            return f"reads {self._spelled(i, end)}", i
        return None, end

    def _may_read(self, i: int, end: int, root: str, derefs: list[str]) -> bool:
        address = self._address_taken(i)
        kind = self._kind(root)
        if kind in ("constant", "shared") and root not in self.local.statics and \
                root in self.constants:
            return not derefs
        loads = derefs[:-1] if address and derefs else derefs
        if kind == "stable":
            if root in STABLE_NAMES:
                return not loads or (root in _TASK and loads == ["->"])
            members = self._members(i, end)
            members = members[:len(loads)]
            return all(d != "[" for d in loads) and \
                all(m in STABLE_MEMBERS and m not in self.written for m in members)
        if kind == "local":
            return all(d == "." for d in loads)      # a local pointer's target is shared
        if kind == "array":
            return not loads or (loads[0] == "[" and all(d == "." for d in loads[1:]))
        return address and all(d in (".", "[") for d in derefs)   # a global's address

    def _members(self, i: int, end: int) -> list[str]:
        """The member names of the accessor chain from I to END, in order."""
        t, names, j = self.t, [], i + 1
        while j < end:
            if t[j].is_("->") or t[j].is_("."):
                names.append(t[j + 1].text)
                j += 2
            elif t[j].is_("["):
                names.append("[")
                j = self._match(j, end) + 1
            else:
                j += 1
        return names

    def _accessors(self, j: int, stop: int) -> tuple[str | None, int]:
        """After file_inode(f), PDE(i) or get_current(): stable members only
        (one of the task's own)."""
        call = self.t[self._open_of(j - 1) - 1].text
        if call in _TASK and j + 1 < stop and self.t[j].is_("->"):
            j += 2
            if j >= stop or self.t[j].text not in ("->", ".", "["):
                return None, j
        while j < stop and (self.t[j].is_("->") or self.t[j].is_(".")):
            member = self.t[j + 1].text if j + 1 < stop else ""
            if member not in STABLE_MEMBERS or member in self.written:
                return f"reads the member {member} of what {call}() returns", j
            j += 2
        if j < stop and self.t[j].is_("["):
            return "reads memory through a computed pointer", j
        return None, j
