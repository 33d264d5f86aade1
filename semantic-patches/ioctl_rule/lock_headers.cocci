// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// The lock's headers and the mutex: <linux/smp_lock.h> or <linux/mutex.h>
// where placement.py says, and the file's (or the module's) mutex before
// its first use.  Reads the header tables of header_facts.cocci.

virtual patch
virtual mutex
virtual no_bkl

// After the include header_site() picks (placement.py), <...> or quoted.
@ add_smp_lock_h depends on patch && !mutex @
position p : script:python () { placement.needs_header(p, "smp_lock.h") };
@@
(
#include <...>@p
+#include <linux/smp_lock.h>
|
#include "..."@p
+#include <linux/smp_lock.h>
)

@ script:python mutex_of_file depends on patch && mutex @
h << any_function.f; p << any_function.p;
mfn; mfn_home; mfn_extern; mname;
@@
bindings.bind(cocci, coccinelle, rewriting.mutex_of_file(h, p))

// No kernel since 2.6.39 has the header; only the BKL's own calls needed
// it.  Where it is the last include, <linux/mutex.h> takes its line.
@ remove_smp_lock_h depends on patch && mutex && no_bkl @
position p : script:python () { placement.drops_smp_lock_h(p) and not placement.needs_header(p, "mutex.h") };
@@
- #include <linux/smp_lock.h>@p

@ replace_smp_lock_h depends on patch && mutex && no_bkl @
position p : script:python () { placement.drops_smp_lock_h(p) and placement.needs_header(p, "mutex.h") };
@@
- #include <linux/smp_lock.h>@p
+ #include <linux/mutex.h>

@ add_mutex_h depends on patch && mutex @
position p : script:python () { placement.needs_header(p, "mutex.h") and not placement.drops_smp_lock_h(p) };
@@
(
#include <...>@p
+#include <linux/mutex.h>
|
#include "..."@p
+#include <linux/mutex.h>
)

// Before the first converted handler, which a comment may precede; or,
// when an #if around it leaves out another use, before the last function
// ahead of every use that every use compiles with (mutex_line()).
@ add_mutex depends on patch && mutex @
identifier mutex_of_file.mfn, mutex_of_file.mname;
declarer name DEFINE_MUTEX;
@@
+static DEFINE_MUTEX(mname);
+
  mfn(...) { ... }

// The module's mutex: defined in one file of the module, declared in the
// rest; declared before its definition too, or sparse asks whether a
// symbol no declaration names should be static.
@ add_module_mutex depends on patch && mutex @
identifier mutex_of_file.mfn_home, mutex_of_file.mname;
declarer name DEFINE_MUTEX;
@@
+extern struct mutex mname;
+DEFINE_MUTEX(mname);
+
  mfn_home(...) { ... }

@ declare_module_mutex depends on patch && mutex @
identifier mutex_of_file.mfn_extern, mutex_of_file.mname;
@@
+extern struct mutex mname;
+
  mfn_extern(...) { ... }
