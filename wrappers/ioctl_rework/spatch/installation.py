"""Where the spatch that runs is, and the standard.h beside it.

The bottom of the spatch package: the rule files, the macro builtins and
the runner all ask here, and this module asks none of them.
"""

import os
import shutil
from pathlib import Path

# The environment variable that names the spatch to run, and what it names.
ENVIRONMENT_VARIABLE = "SPATCH"
SPATCH = os.environ.get(ENVIRONMENT_VARIABLE, "spatch")
# The same, for a module that only looks at the program (the run memo
# stats it): no module outside spatch/ names what it would start.
PROGRAM = SPATCH
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
