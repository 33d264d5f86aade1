// SPDX-License-Identifier: GPL-2.0-only
/// Convert legacy .ioctl file operations to .unlocked_ioctl.
///
/// Until 2.6.36 the VFS called a file_operations' .ioctl handler with the
/// Big Kernel Lock held.  Each handler becomes an .unlocked_ioctl handler,
/// long h(struct file *, unsigned int, unsigned long), that takes the lock
/// itself, so every path still holds it where the VFS held it.  Where the
/// body used the inode parameter, the inode is derived from the file.
//
// Confidence: High
// Copyright: (C) 2026 The ioctl-rework authors.
// Options: --no-includes --include-headers --smpl-spacing --no-ifdef-to-if
//
// What it does, rule by rule, with examples (the fops spellings, the
// pushdown, wrapper and default-deny auto strategies, what is left alone and
// why, -ENOIOCTLCMD, the -D flags for mutex, inode spellings, compat,
// multi_kernel, no_bkl): README.md, "The semantic patches".

virtual patch
virtual context
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

// The rules, one concern a file in ioctl_rule/ (each says what it reads and
// writes of ioctl_rule/state.py).  spatch runs the rules of the included
// files before this file's, and those of the LAST #include first (each
// included file is parsed before the ones above it, so a part can inherit
// only from a part below it): the pipeline reads from the bottom up.
// spatch opens an included file relative to its working directory; the
// wrappers and make cocci give it a copy naming the parts by absolute path
// (wrappers/ioctl_rework/spatch/rule_parts.py).
#include "ioctl_rule/report_modes.cocci"
#include "ioctl_rule/lock_headers.cocci"
#include "ioctl_rule/other_references.cocci"
#include "ioctl_rule/entry_rewrite.cocci"
#include "ioctl_rule/derived_inode.cocci"
#include "ioctl_rule/wrappers.cocci"
#include "ioctl_rule/pushdown.cocci"
#include "ioctl_rule/decisions.cocci"
#include "ioctl_rule/handler_uses.cocci"
#include "ioctl_rule/body_facts.cocci"
#include "ioctl_rule/sleep_facts.cocci"
#include "ioctl_rule/handler_facts.cocci"
#include "ioctl_rule/header_facts.cocci"
#include "ioctl_rule/fops_entries.cocci"
#include "ioctl_rule/run_options.cocci"

@initialize:python@
@@
try:
    from ioctl_rule import (bindings, decisions, entries, handler_body, matches,
                            placement, reporting, rewriting, source, state)
except ImportError as error:
    raise ImportError("ioctl-rework: cannot import the package ioctl_rule (%s): put "
                      "the directory of this rule, semantic-patches, on PYTHONPATH"
                      % error) from error
