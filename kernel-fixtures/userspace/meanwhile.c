// SPDX-License-Identifier: GPL-2.0
/*
 * A case whose call waits for another task's call: a helper process
 * makes that call once the case's process sleeps in the driver.
 *
 * If the two calls deadlock (a conversion that holds a private mutex
 * while it sleeps), a watchdog process interrupts the waiting call after
 * MEANWHILE_TIMEOUT seconds (the fixture kernel has no POSIX timers, so
 * no alarm()): it fails with EINTR, the helper's call then goes through,
 * and the case fails instead of hanging the boot.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "meanwhile.h"

#define MEANWHILE_TIMEOUT	10	/* seconds */
#define MEANWHILE_POLL_MS	10

static void interrupt(int sig)
{
	(void)sig;
}

/*
 * Sleep MS milliseconds with poll(): the fixture kernel has no 32-bit
 * time syscalls, so a 32-bit nanosleep() returns at once.
 */
static void pause_ms(int ms)
{
	poll(NULL, 0, ms);
}

/*
 * Whether process PID sleeps (state S or D in /proc/PID/stat): D for a
 * driver that polls with msleep(), which sleeps uninterruptibly.
 */
static int sleeping(pid_t pid)
{
	char path[64], text[512], *state;
	FILE *stat;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	stat = fopen(path, "re");
	if (!stat)
		return 0;
	len = fread(text, 1, sizeof(text) - 1, stat);
	fclose(stat);
	text[len] = '\0';
	state = strrchr(text, ')');
	return state && state[1] == ' ' && (state[2] == 'S' || state[2] == 'D');
}

static void helper(const struct fx_case *call, pid_t waiter)
{
	unsigned char buf[64];
	char path[64];
	int fd, tries;

	for (tries = 0; tries * MEANWHILE_POLL_MS < MEANWHILE_TIMEOUT * 1000 &&
	     !sleeping(waiter); tries++)
		pause_ms(MEANWHILE_POLL_MS);
	snprintf(path, sizeof(path), "/dev/%s", call->device);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		_exit(1);
	memset(buf, 0, sizeof(buf));
	if (call->in)
		memcpy(buf, call->in, call->size < sizeof(buf) ? call->size : sizeof(buf));
	_exit(ioctl(fd, call->cmd, call->arg == FX_ARG_VALUE ? call->value :
		    (unsigned long)buf) ? 1 : 0);
}

static void watchdog(pid_t waiter)
{
	pause_ms(MEANWHILE_TIMEOUT * 1000);
	kill(waiter, SIGALRM);
	_exit(0);
}

struct meanwhile meanwhile_start(const struct fx_case *call)
{
	struct meanwhile started = { 0, 0 };
	struct sigaction action;
	pid_t waiter = getpid();

	if (!call)
		return started;
	/* No SA_RESTART: the watchdog ends the sleeping call with EINTR. */
	memset(&action, 0, sizeof(action));
	action.sa_handler = interrupt;
	sigaction(SIGALRM, &action, NULL);
	fflush(stdout);
	started.helper = fork();
	if (started.helper == 0)
		helper(call, waiter);
	started.watchdog = fork();
	if (started.watchdog == 0)
		watchdog(waiter);
	return started;
}

void meanwhile_finish(struct meanwhile started)
{
	if (started.watchdog > 0) {
		kill(started.watchdog, SIGKILL);
		waitpid(started.watchdog, NULL, 0);
	}
	if (started.helper > 0)
		waitpid(started.helper, NULL, 0);
}
