// SPDX-License-Identifier: GPL-2.0-only
/// Find ioctl handlers whose signature does not fit the file_operations
/// member they are assigned to. .unlocked_ioctl and .compat_ioctl take
/// (struct file *, unsigned int, unsigned long) and return long; the legacy
/// .ioctl takes the inode first and returns int. A mismatch is a cast the
/// compiler warns about at best, and a handler that reads its arguments
/// from the wrong registers at worst.
///
/// In patch mode, only an int return behind .unlocked_ioctl/.compat_ioctl
/// is fixed (to long); a handler with the other member's parameters needs
/// the conversion rule, ioctl_to_unlocked_ioctl.cocci, or a person.
//
// The rules are
//  - unlocked_member / legacy_member: the fops entries, by member;
//  - unlocked_takes_inode, unlocked_returns_int: a legacy signature behind
//    .unlocked_ioctl or .compat_ioctl;
//  - legacy_takes_file, legacy_returns_long: an unlocked signature behind
//    the legacy .ioctl.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python depends on report@
@@
def emit(p, q, message):
    print("%s:%s: %s" % (p[0].file, p[0].line, message))

@initialize:python depends on org@
@@
def emit(p, q, message):
    cocci.print_main(message, p)
    cocci.print_secs("handler", q)

@initialize:python depends on report || org@
@@
def mismatch(p, fops, member, handler, q, reason):
    emit(p, q, "%s: .%s = %s: signature mismatch: %s (handler at line %s)"
         % (fops, member, handler, reason, q[0].line))

@ unlocked_member @
identifier fops, handler;
identifier member =~ "^(unlocked|compat)_ioctl$";
position p;
@@
struct file_operations fops = { ..., .member = handler@p, ... };

@ legacy_member @
identifier fops, handler;
position p;
@@
struct file_operations fops = { ..., .ioctl = handler@p, ... };

@ unlocked_takes_inode depends on !patch @
identifier unlocked_member.handler, i;
type T;
parameter list ps;
position q;
@@
T handler@q(struct inode *i, ps)
{ ... }

@ unlocked_returns_int depends on !patch @
identifier unlocked_member.handler, f;
parameter list ps;
position q;
@@
int handler@q(struct file *f, ps)
{ ... }

@ legacy_takes_file depends on !patch @
identifier legacy_member.handler, f;
type T;
parameter list ps;
position q;
@@
T handler@q(struct file *f, ps)
{ ... }

@ legacy_returns_long depends on !patch @
identifier legacy_member.handler, i;
parameter list ps;
position q;
@@
long handler@q(struct inode *i, ps)
{ ... }

@ depends on context @
type T;
identifier handler;
parameter list ps;
position q = {unlocked_takes_inode.q, unlocked_returns_int.q,
              legacy_takes_file.q, legacy_returns_long.q};
@@
* T handler@q(ps)
  { ... }

// Only the return type has one right answer; the parameters must stay
// (struct file *, ...) for the fix to be the whole fix.
@ depends on patch @
identifier unlocked_member.handler, f;
parameter list ps;
@@
- int
+ long
  handler(struct file *f, ps)
  { ... }

@ script:python depends on report || org @
p << unlocked_member.p; fops << unlocked_member.fops; member << unlocked_member.member;
handler << unlocked_member.handler; q << unlocked_takes_inode.q;
@@
mismatch(p, fops, member, handler, q, "takes a struct inode * first: the legacy .ioctl signature")

@ script:python depends on report || org @
p << unlocked_member.p; fops << unlocked_member.fops; member << unlocked_member.member;
handler << unlocked_member.handler; q << unlocked_returns_int.q;
@@
mismatch(p, fops, member, handler, q, "returns int, ." + member + " returns long")

@ script:python depends on report || org @
p << legacy_member.p; fops << legacy_member.fops; handler << legacy_member.handler;
q << legacy_takes_file.q;
@@
mismatch(p, fops, "ioctl", handler, q, "takes a struct file * first; .ioctl passes the inode first")

@ script:python depends on report || org @
p << legacy_member.p; fops << legacy_member.fops; handler << legacy_member.handler;
q << legacy_returns_long.q;
@@
mismatch(p, fops, "ioctl", handler, q, "returns long, .ioctl returns int")
