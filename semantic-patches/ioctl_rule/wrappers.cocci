// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// The wrapper forms: a locked wrapper before the fops, the function or the
// function whose local fops names it, and for -D multi_kernel one under
// HAVE_UNLOCKED_IOCTL.  Reads the decisions through rewriting.wrapper_site().

virtual patch

// wcall passes the inode where the handler keeps its signature (a function
// pointer also uses it), as the VFS did.
@ wrapper_before_fops depends on patch @
identifier switch_fops.wfn;
identifier switch_fops.wfilp, switch_fops.wcmd, switch_fops.warg;
expression switch_fops.wcall;
statement switch_fops.wlock, switch_fops.wunlock;
type T;
identifier fops;
initializer I;
position wq1 : script:python (wfn) { rewriting.wrapper_site(wq1, wfn, "wrapper") };
symbol ret;
@@
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	int ret;
+
+	wlock
+	ret = wcall;
+	wunlock
+	return ret;
+}
+
  T fops@wq1 = I;

@ wrapper_before_function depends on patch @
identifier switch_runtime.wfn;
identifier switch_runtime.wfilp, switch_runtime.wcmd, switch_runtime.warg;
expression switch_runtime.wcall;
statement switch_runtime.wlock, switch_runtime.wunlock;
identifier fn;
position wq3 : script:python (wfn) { rewriting.wrapper_site(wq3, wfn, "wrapper") };
symbol ret;
@@
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	int ret;
+
+	wlock
+	ret = wcall;
+	wunlock
+	return ret;
+}
+
  fn@wq3(...) { ... }

@ wrapper_declared_early depends on patch @
identifier wrapper_proto.pfn, wrapper_proto.pname;
identifier wrapper_proto.pfilp, wrapper_proto.pcmd, wrapper_proto.parg;
@@
+static long pname(struct file *pfilp, unsigned int pcmd,
+		  unsigned long parg);
+
  pfn(...) { ... }

// A fops that is a static local of a function: the wrapper goes at file
// scope, before that function (the site of its entry is the function).
@ wrapper_before_local_fops depends on patch @
identifier switch_fops.wfn;
identifier switch_fops.wfilp, switch_fops.wcmd, switch_fops.warg;
expression switch_fops.wcall;
statement switch_fops.wlock, switch_fops.wunlock;
identifier fn;
position wq2 : script:python (wfn) { rewriting.wrapper_site(wq2, wfn, "wrapper") };
symbol ret;
@@
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	int ret;
+
+	wlock
+	ret = wcall;
+	wunlock
+	return ret;
+}
+
  fn@wq2(...) { ... }

// --------------------------------------------------------- multi-kernel
// The legacy handler stays as it is for kernels before 2.6.11; the new
// entry point exists only where HAVE_UNLOCKED_IOCTL says it is used.

@ multi_wrapper_before_fops depends on patch @
identifier switch_fops.wfn;
identifier switch_fops.wfilp, switch_fops.wcmd, switch_fops.warg;
expression switch_fops.wcall;
statement switch_fops.wlock, switch_fops.wunlock;
type T;
identifier fops;
initializer I;
position mq1 : script:python (wfn) { rewriting.wrapper_site(mq1, wfn, "multi-kernel") };
symbol ret;
@@
+#ifdef HAVE_UNLOCKED_IOCTL
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	int ret;
+
+	wlock
+	ret = wcall;
+	wunlock
+	return ret;
+}
+#endif
+
  T fops@mq1 = I;
