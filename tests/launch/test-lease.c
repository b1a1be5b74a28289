/*
 * test-lease.c — the supervisor's side of the ranks' lease (launch/lease.h) when this
 * process runs out of descriptors: the connections it cannot accept wait in the backlog
 * and are taken once descriptors are free again, and lease_silent walks only the
 * connections it holds (an earlier version marked the list full with a count past its
 * array and then read and closed memory beyond it; the sanitizer build of this test
 * stops there).
 */
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch/lease.h"
#include "tests/tap.h"

#define NCONN	150	/* the ranks' connections: more than the descriptors left */
#define SPARE	40	/* descriptors this process may still open under its lowered limit */

/* How many descriptors this process has open. */
static int
open_fds(void)
{
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* opendir's own */
}

/*
 * A child holding n connections to port, as n ranks would; it says 'c' on ready once all
 * are made and keeps them until it is killed.
 */
static pid_t
ranks_connect(unsigned port, int n, int ready)
{
	struct sockaddr_in sa;
	pid_t pid;
	int i, fd;

	if ((pid = fork()) != 0)
		return pid;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (i = 0; i < n; i++)
		if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
		    connect(fd, (struct sockaddr *)&sa, sizeof sa) == -1)
			_exit(1);
	if (write(ready, "c", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

int
main(void)
{
	char *argv[] = { "mpiexec", "-genv", LEASE_ENV, NULL, NULL };
	struct in_addr addrs[NCONN];
	struct rlimit old, low;
	unsigned port = 0;
	size_t silent;
	int p[2], used;
	pid_t child;
	char c;

	argv[3] = strdup("127.0.0.1:0");
	lease_open(argv);
	if (sscanf(argv[3], "127.0.0.1:%u", &port) != 1 || port == 0) {
		ok(0, "the lease listens on 127.0.0.1 (got '%s')", argv[3]);
		return tap_done();
	}
	ok(1, "the lease listens on 127.0.0.1");
	if (pipe(p) == -1 || getrlimit(RLIMIT_NOFILE, &old) == -1 || (used = open_fds()) < 0) {
		ok(0, "a pipe, the descriptor limit and /proc/self/fd");
		return tap_done();
	}
	child = ranks_connect(port, NCONN, p[1]);
	ok(child > 0 && read(p[0], &c, 1) == 1 && c == 'c', "%d ranks connected", NCONN);

	/* out of descriptors: some accepted, the rest left waiting */
	low = old;
	low.rlim_cur = (rlim_t)(used + SPARE);
	ok(setrlimit(RLIMIT_NOFILE, &low) == 0, "the limit lowered to %d descriptors",
	    used + SPARE);
	lease_accept();
	lease_accept();
	ok(open_fds() <= used + SPARE, "no more descriptors than the limit");

	/* descriptors free again: the waiting connections are taken too */
	ok(setrlimit(RLIMIT_NOFILE, &old) == 0, "the limit restored");
	lease_accept();
	silent = lease_silent(addrs, NCONN, 0);
	is_int(silent, NCONN, "every rank's connection held, still open, so reported silent");
	ok(silent == 0 || addrs[0].s_addr == htonl(INADDR_LOOPBACK), "each from its peer");
	is_int(lease_silent(addrs, NCONN, 0), 0, "and closed: the next launch starts empty");

	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	free(argv[3]);
	return tap_done();
}
