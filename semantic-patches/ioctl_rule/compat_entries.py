"""The logic of add_compat_ioctl.cocci: the .compat_ioctl each fops with an
.unlocked_ioctl gets, from the class convert found for it (-D same_handler=,
-D compat_ptr=, ...), and what report mode says of it."""

import re
import types

from .bindings import Ident

classes = {}        # fops name -> class, from the -D lists
has_compat = set()  # (file, fops) already setting .compat_ioctl
has_fs_h = set()    # files including <linux/fs.h>
wrapped = set()     # (file, entry) whose compat_ptr() entry is written already
flags = types.SimpleNamespace(compat_ptr_ioctl=False)


def listed(names, compat_class):
    for name in names.split(","):
        if name:
            classes[name] = compat_class


def compat_present(fops, p):
    has_compat.add((p[0].file, fops))


def fs_h_included(p):
    has_fs_h.add(p[0].file)


def decide(fops, entry, p):
    """What the fops at p, whose .unlocked_ioctl is ENTRY, binds: same (the
    entry serves 32-bit callers as it is), ptr (compat_ptr_ioctl), or a
    wrapper wfn through compat_ptr(), written once per entry (wrap_new,
    then wrap_again).  A fops that sets .compat_ioctl already, or that
    needs a wrapper in a file without <linux/fs.h>, binds nothing."""
    compat_class = classes.get(fops)
    if (p[0].file, fops) in has_compat:
        compat_class = None
    wrap = compat_class == "compat-ptr" and not flags.compat_ptr_ioctl
    if wrap and p[0].file not in has_fs_h:
        compat_class = wrap = None
    first = wrap and (p[0].file, entry) not in wrapped
    if wrap:
        wrapped.add((p[0].file, entry))
    stem = re.sub(r"(_unlocked)?(_ioctl)?$", "", entry)
    return {"same": Ident(entry if compat_class == "same-handler" else None),
            "ptr": Ident(entry if compat_class == "compat-ptr" and not wrap else None),
            "wrap_new": Ident(entry if first else None),
            "wrap_again": Ident(entry if wrap and not first else None),
            "wfn": Ident(stem + "_compat_ioctl")}


def report(fops, entry, p):
    if (p[0].file, fops) not in has_compat:
        print("%s:%s: %s: .unlocked_ioctl = %s: compat: %s" % (
            p[0].file, p[0].line, fops, entry, classes.get(fops, "unclassified")))
