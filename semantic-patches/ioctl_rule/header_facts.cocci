// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// Which headers the file includes and where a new one goes, and whether
// it still calls the BKL itself.  Writes state.include_lines,
// quoted_include_lines, headers, smp_lock_h_line and bkl_callers, which
// placement.py reads.

// Every <...> include: where a new header goes, and which of the lock's
// headers the file has.
@ include @
position p;
@@
#include <...>@p

@ script:python @
p << include.p;
@@
matches.include(p)

// A file whose only includes are quoted (an umbrella header of the
// driver) gets the new header after the last of them.
@ quoted_include @
position p;
@@
#include "..."@p

@ script:python @
p << quoted_include.p;
@@
matches.quoted_include(p)

@ bkl_call @
position p;
@@
(
lock_kernel@p(...)
|
unlock_kernel@p(...)
|
kernel_locked@p(...)
)

@ script:python @
p << bkl_call.p;
@@
matches.bkl_call(p)
