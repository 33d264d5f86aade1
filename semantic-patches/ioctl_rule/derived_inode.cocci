// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// A converted handler that used its inode parameter derives it from the
// file: a local, a local marked unused, or the expression at each use.

virtual patch

@ derive_inode depends on patch @
identifier as_converted.dh, definition.ino;
expression as_converted.ie;
@@
  dh(...) {
+ struct inode *ino = ie;
  ...
  }

// A local that no use outside every #if names, only a macro or an #if
// (#ifdef USE_INODE / #define FL_MINOR() iminor(inode) / #else /
// #define FL_MINOR() 0): some build may not use it, and -Werror fails on
// an unused variable.  The attribute, not __maybe_unused: that exists
// only from 2.6.22, and spatch 1.1.1 pads it with blanks before "= ie".
@ derive_inode_unused depends on patch @
identifier as_converted.mh, definition.ino;
expression as_converted.ie;
@@
  mh(...) {
+ struct inode *ino __attribute__((unused)) = ie;
  ...
  }

// Every use of the inode is inside an #if of the body: a local would be
// unused where that code is compiled out, so each use names the inode.
// (No function context: Coccinelle's paths do not reach an #else after
// a return in its #if branch.)
@ inline_inode depends on patch @
identifier as_converted.uh, definition.ino;
expression as_converted.ie;
position p : script:python (uh) { p[0].current_element == uh };
@@
(
- ino@p
+ ie
|
  uh    // (only so that spatch sees uh used: a match of it changes nothing)
)

// A body that started with a statement gets a blank line after the new
// declaration, as checkpatch wants.
@ derive_inode_blank depends on patch @
identifier as_converted.dh, as_converted.mh, definition.ino;
expression as_converted.ie;
statement S;
@@
  \(dh\|mh\)(...) {
  struct inode *ino = ie;
+
  S
  ...
  }
