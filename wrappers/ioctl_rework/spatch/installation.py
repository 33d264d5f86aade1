"""Where the spatch that runs is, and the standard.h beside it.

The bottom of the spatch package: the rule files, the macro builtins and
the runner all ask here, and this module asks none of them.
"""

import os
import shutil
from pathlib import Path

SPATCH = os.environ.get("SPATCH", "spatch")
# Where Debian's and a source build's spatch keep standard.h, when spatch is
# not a link into its own tree.
STANDARD_H_PLACES = (Path("/usr/lib/coccinelle/standard.h"),
                     Path("/usr/local/lib/coccinelle/standard.h"))


def standard_h() -> Path | None:
    """Coccinelle's standard.h beside the spatch that runs, or None."""
    found = shutil.which(SPATCH)
    beside = [Path(found).resolve().parents[1] / "lib" / "coccinelle" / "standard.h"] \
        if found else []
    return next((p for p in [*beside, *STANDARD_H_PLACES] if p.is_file()), None)
