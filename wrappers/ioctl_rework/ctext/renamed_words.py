"""kbuild flags that define a word the tools read as C.

`ccflags-y += -Dunlocked_ioctl=ioctl` makes the compiler see a legacy
`.ioctl` where the text says `.unlocked_ioctl`; `-Dioctl=...`,
`-Dfile_operations=...`, `-Dinode=...` or `-Dlock_kernel=...` likewise
make the code gcc compiles another than the code the rule, the audit and
check read.  None of them reads a flag's value, so default-deny: a file
whose kbuild flags define or undefine such a word is not converted (the
rule refuses each handler) nor checked (NOT_CHECKED), with the flag named;
so is one whose flags may define any word (a header forced in, a flag not
expanded, a file a Makefile includes), and one where a macro of a header
read or of the file itself is named as a member or type the rules read
(MEMBER_WORDS: `#define unlocked_ioctl ioctl`).

Imports nothing of the project but include_search (the rule imports it too).
"""

import os
import re

from ioctl_rework.ctext import include_search

# The members, types, parameters and calls the rules match or write, and
# the macros a multi-kernel driver tests.
WORDS = frozenset("""
    ioctl unlocked_ioctl compat_ioctl file_operations inode file f_op f_dentry d_inode
    f_path dentry private_data lock_kernel unlock_kernel file_inode iminor imajor
    mutex_lock mutex_unlock DEFINE_MUTEX ENOIOCTLCMD HAVE_UNLOCKED_IOCTL HAVE_COMPAT_IOCTL
    """.split())


# The words a kernel header never defines as a macro (lock_kernel,
# file_inode, f_dentry and HAVE_UNLOCKED_IOCTL are macros of some 2.6
# kernels): a macro of one of these names, in a header or the file, renames
# what the rules read.
MEMBER_WORDS = frozenset("""
    ioctl unlocked_ioctl compat_ioctl file_operations inode file f_op d_inode f_path
    dentry private_data""".split())
# A make include: flags in the file it names are not read here.
_MAKE_INCLUDE = re.compile(r"^[ \t]*(?:-include|sinclude|include)[ \t]+(\S.*)$", re.M)


def renaming_flags(root, rel, flags=None) -> list[tuple[str, str]]:
    """(flag, Makefile) of each kbuild flag of REL (under ROOT) that
    defines or undefines one of WORDS (FLAGS: REL's KbuildFlags, if read)."""
    flags = include_search.kbuild_flags(root, rel) if flags is None else flags
    return [(flag, makefile) for flag, _variable, makefile in flags.macro_flags
            if include_search.flag_name(flag) in WORDS]


def unread_flags(root, rel, flags=None) -> list[str]:
    """What may define any word among REL's kbuild flags: a header forced
    in, a flag not expanded, a file its directory's Makefile includes
    (make's include), each with its Makefile."""
    flags = include_search.kbuild_flags(root, rel) if flags is None else flags
    included = []
    # The directory's own Makefile, whose every flag variable applies: a
    # parent's reach it only by subdir-ccflags, and a tree's top Makefile
    # includes .config and the arch Makefile in every tree.
    for makefile in (m for m in flags.makefiles
                     if os.path.dirname(m) == os.path.dirname(rel)):
        try:
            with open(os.path.join(root, makefile), errors="replace") as handle:
                text = handle.read()
        except OSError:
            continue
        included += ["include %s (%s)" % (match.group(1).strip(), makefile)
                     for match in _MAKE_INCLUDE.finditer(text)]
    return [*flags.forced, *flags.unexpanded, *included]


def refusal(root, rel, flags=None,
            advice: str = "convert this directory's files by hand") -> str | None:
    """Why REL's flags make its code another than the text read, ending in
    ADVICE, or None (FLAGS: REL's KbuildFlags, if read)."""
    flags = include_search.kbuild_flags(root, rel) if flags is None else flags
    unread = unread_flags(root, rel, flags)
    if unread:
        return ("a kbuild flag of its Makefile, %s, brings in what the rules do not read, "
                "which may define a word they read as C; %s" % (unread[0], advice))
    found = renaming_flags(root, rel, flags)
    if not found:
        return None
    flag, makefile = found[0]
    word = include_search.flag_name(flag)
    return ("a kbuild flag of %s, %s, %s %s, a word the rules read as C: what the "
            "compiler sees is not the text they read; %s" % (
                makefile, flag, "undefines" if flag.startswith("-U") else "defines", word,
                advice))


def refusals(root, rels) -> dict[str, str]:
    """Each of RELS (under ROOT) whose flags make its code another than
    the text read, with why (refusal's words), in the order of RELS."""
    found = {}
    for rel in rels:
        why = refusal(root, rel)
        if why is not None:
            found[rel] = why
    return found
