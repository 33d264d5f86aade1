"""Files whose compiled code is not the text the rule reads: a kbuild flag
defines a word the rule reads as C (`-Dunlocked_ioctl=ioctl`,
`-Dfile_operations=...`), or may define any (a header forced in, a flag
not expanded, a Makefile's make include), or a macro of the file or of a
header read, object-like, is named as a member or type the rule reads
(`#define unlocked_ioctl ioctl`).  No handler of such a file is converted, in any
strategy (ioctl_rework.ctext.renamed_words; check says NOT_CHECKED)."""

from ioctl_rework.ctext import renamed_words

from .state import per_file
from .macros import macros_of, root_and_path

_why = per_file({})     # file -> why its code is renamed, or None


def renamed(file):
    """Why the file's code is not the text the rule reads, or None."""
    if file not in _why:
        why = renamed_words.refusal(*root_and_path(file))
        # Object-like only: a function-like one renames calls alone (2.6.9's
        # drm.h defines ioctl(a,b,c) for FreeBSD), which forwarding reads.
        table = macros_of(file)
        macro = sorted((set(table.bodies) - table.function_like) & renamed_words.MEMBER_WORDS)
        if why is None and macro:
            why = "%s is a macro of the file or of a header it includes, a word the " \
                  "rule reads as C: what the compiler sees is not the text it reads; " \
                  "convert it by hand" % macro[0]
        _why[file] = why
    return _why[file]
