// SPDX-License-Identifier: GPL-2.0-only
// Part of ioctl_to_unlocked_ioctl.cocci, which includes it.
// What a -D mutex decision follows: where a function sleeps until woken,
// polls, downs and ups a semaphore, and which functions it calls (read
// also where -ENOIOCTLCMD is returned).  Writes state.sleeps_at,
// poll_calls, downs, ups, calls_in and the fact "enoioctlcmd".

virtual mutex

// With -D mutex, what a handler may sleep on until another call wakes it,
// in any function of the file: the decision follows the calls between them.
@ sleeps_until_woken depends on mutex @
identifier sleeper =~ "^(wait_event[a-z_0-9]*|interruptible_sleep_on[a-z_0-9]*|sleep_on[a-z_0-9]*|schedule|schedule_timeout[a-z_0-9]*|io_schedule[a-z_0-9]*|wait_for_completion[a-z_0-9]*)$";
position p;
@@
sleeper@p(...)

@ script:python @
sleeper << sleeps_until_woken.sleeper; p << sleeps_until_woken.p;
@@
matches.sleeps_until_woken(sleeper, p)

// With -D mutex, a wait or a delay in a loop polls for what another call
// may set (while (!dev->ready) msleep(10);): the decision reads the loop.
@ polls depends on mutex @
identifier poller =~ "^(msleep|msleep_interruptible|ssleep|udelay|mdelay|ndelay|cpu_relax|schedule_timeout[a-z_]*|yield)$";
position p;
@@
poller@p(...)

@ script:python @
poller << polls.poller; p << polls.p;
@@
matches.polls(poller, p)

@ semaphore_down depends on mutex @
identifier downer =~ "^down(_interruptible|_killable|_timeout)?$";
expression sem;
position p;
@@
downer@p(sem, ...)

@ script:python @
downer << semaphore_down.downer; sem << semaphore_down.sem; p << semaphore_down.p;
@@
matches.semaphore_down(downer, sem, p)

@ semaphore_up depends on mutex @
expression sem;
position p;
@@
up@p(sem)

@ script:python @
sem << semaphore_up.sem; p << semaphore_up.p;
@@
matches.semaphore_up(sem, p)

@ enoioctlcmd @
position p;
@@
  -ENOIOCTLCMD@p

@ script:python @
p << enoioctlcmd.p;
@@
matches.enoioctlcmd(p)

// The calls between functions: -D mutex follows them to what a handler
// sleeps on; without it they are read only where some function returns
// -ENOIOCTLCMD (a helper of the file may pass it back).
@ call_in_function depends on mutex || enoioctlcmd @
identifier callee;
position p;
@@
callee@p(...)

@ script:python @
callee << call_in_function.callee; p << call_in_function.p;
@@
matches.call_in_function(callee, p)
