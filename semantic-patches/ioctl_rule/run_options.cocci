// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// The run's options, once per file: the first rule empties every per-file
// table of the previous file (state.forget_previous_file()); the -D flags
// become state.flags, and -D handlers=, keep=, wrapper_for= the sets
// state.listed, state.kept and state.wrapper_for, which decide() reads.

virtual org
virtual report
virtual pushdown
virtual wrapper
virtual mutex
virtual inode_f_dentry
virtual inode_f_path
virtual multi_kernel
virtual compat
virtual no_bkl
virtual enoioctlcmd_einval
virtual enoioctlcmd_refuse
virtual module_mutex_home

@script:python forget_previous_file@
@@
state.forget_previous_file()

// Flags become python booleans once, so that decide() can read them.
@script:python depends on multi_kernel@
@@
state.flags.multi_kernel = True
@script:python depends on pushdown@
@@
state.flags.pushdown = True
@script:python depends on wrapper@
@@
state.flags.wrapper = True
@script:python depends on mutex@
@@
state.flags.mutex = True
@script:python depends on compat@
@@
state.flags.compat = True
@script:python depends on report@
@@
state.flags.report = True
@script:python depends on org@
@@
state.flags.org = True
@script:python depends on enoioctlcmd_einval@
@@
state.flags.enoioctlcmd_einval = True
@script:python depends on inode_f_dentry@
@@
state.flags.inode_f_dentry = True
@script:python depends on inode_f_path@
@@
state.flags.inode_f_path = True
@script:python depends on enoioctlcmd_refuse@
@@
state.flags.enoioctlcmd_refuse = True
@script:python depends on no_bkl@
@@
state.flags.no_bkl = True
// -D module_mutex=NAME: one mutex for every file of a kbuild module, defined
// in the file run with -D module_mutex_home and declared extern in the others.
@script:python module_mutex_name@
given_mutex << virtual.module_mutex;
@@
matches.module_mutex(given_mutex)
@script:python depends on module_mutex_home@
@@
state.flags.module_mutex_home = True

@script:python name_list@
names << virtual.handlers;
@@
matches.listed_names(names)

@script:python keep_list@
names << virtual.keep;
@@
matches.kept_names(names)

@script:python wrapper_list@
names << virtual.wrapper_for;
@@
matches.wrapper_names(names)
