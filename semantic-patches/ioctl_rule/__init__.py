"""The logic of ioctl_to_unlocked_ioctl.cocci, which imports it (and, in
compat_entries, that of add_compat_ioctl.cocci).

SmPL finds the facts; this package joins them per handler, which a single
SmPL rule cannot do, decides each handler's strategy, and says what the
rewriting rules bind and what report mode prints.  Its modules, from the
bottom up:

  ctext         C text: comments and strings blanked, types an int holds
  state         what the matching rules found in the current file, the
                -D flags, and the reset between files
  source        the file's lines as spatch counts them, its code, braces
  conditionals  #if blocks: dead branches, what is compiled where
  macros        the file's macros, and exits they hide in a handler
  entries       the .ioctl entries of fops initializers, live or dead
  handler_body  a handler's declarations, locals and returns
  locking       lock names, and what the private mutex cannot do
  forwarded_calls  -D mutex: a call through a member named ioctl refuses
                the file's handlers (the sites: ioctl_rework.ctext.member_calls)
  placement     where added code (wrapper, mutex, header) may land
  decisions     decide(): one handler's strategy, or why it is refused
  rewriting     what the rewriting rules bind, and their constraints
  reporting     what report and org mode print
  matches       one function per script rule of the facts part
  bindings      bound values made for spatch (the only use of its cocci)

Nothing here imports spatch's Python.  The C-text functions the rule shares
with the wrappers (code_only, dead_branches, legacy_half) have one copy, in
ioctl_rework.ctext.spans, which imports nothing of the project; the
wrappers import nothing here.
"""
