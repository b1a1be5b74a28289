/*
 * test-lease.c — the supervisor's side of the ranks' lease (launch/lease.h,
 * lease-proto.h): only a connection that sends the launch's secret is held as a rank's,
 * and only its silence or its "proxy-lost" names its node; one without the secret or with
 * a wrong one is closed and never reported; at most LEASE_PENDING_MAX wait for their
 * secret at once; beats go out to the authenticated ones. Out of descriptors, the
 * connections it cannot accept wait in the backlog and are taken once descriptors are
 * free again, and lease_silent walks only the connections it holds (an earlier version
 * marked the list full with a count past its array and then read and closed memory
 * beyond it; the sanitizer build of this test stops there).
 */
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "launch/lease-proto.h"
#include "launch/lease.h"
#include "tests/tap.h"

#define NCONN	150	/* the ranks' connections: more than the descriptors left */
#define SPARE	40	/* descriptors this process may still open under its lowered limit */
#define CROWD	100	/* connections that never send the secret */
#define WAIT	5.0	/* seconds at most for what a check waits for */

static unsigned port;
static char hello[128];	/* "lease SECRET\n" */

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

/* A connection to the lease that sends first (NULL: nothing); -1 when it fails. */
static int
dial(const char *first)
{
	struct sockaddr_in sa;
	int fd;

	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    connect(fd, (struct sockaddr *)&sa, sizeof sa) == -1)
		return -1;
	if (first != NULL && write(fd, first, strlen(first)) != (ssize_t)strlen(first))
		return -1;
	return fd;
}

/* 1 when the supervisor closed fd's connection (its end reads 0 bytes, beats skipped). */
static int
closed_by_peer(int fd)
{
	char buf[256];
	ssize_t n;

	while ((n = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0)
		;
	return n == 0;
}

/* lease_read every 20 ms for secs seconds, or until lease_lost_count reaches want. */
static void
pump(double secs, size_t want)
{
	struct timespec ts = { 0, 20000000L };
	double until = clock_mono() + secs;

	while (clock_mono() < until && (want == 0 || lease_lost_count() < want)) {
		lease_read();
		nanosleep(&ts, NULL);
	}
}

/*
 * A child holding n connections to port, as n ranks would, each opened with the secret;
 * it says 'c' on ready once all are made and keeps them until it is killed.
 */
static pid_t
ranks_connect(int n, int ready)
{
	pid_t pid;
	int i;

	if ((pid = fork()) != 0)
		return pid;
	for (i = 0; i < n; i++)
		if (dial(hello) == -1)
			_exit(1);
	if (write(ready, "c", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/* Without the secret, with a wrong one, and too many waiting: closed, never evidence. */
static void
test_unauthenticated(void)
{
	struct lease_peer peers[CROWD + 4];
	struct in_addr lo = { .s_addr = htonl(INADDR_LOOPBACK) };
	int none, wrong, garbage, crowd[CROWD], i, closed = 0, before = open_fds();

	lease_watch(0.3);
	none = dial(NULL);
	wrong = dial("lease 0123456789abcdef0123456789abcdef\n");
	garbage = dial("GET / HTTP/1.0\r\n\r\n");
	pump(0.2, 0);
	ok(closed_by_peer(wrong), "a wrong secret: closed at once");
	ok(closed_by_peer(garbage), "garbage first: closed at once");
	ok(!closed_by_peer(none), "nothing sent yet: held while the secret may come");
	pump(LEASE_AUTH_WAIT + 0.5, 0);
	ok(closed_by_peer(none), "no secret within %g s: closed", LEASE_AUTH_WAIT);
	is_int(lease_lost_count(), 0, "none of them judged lost, however silent");
	for (i = 0; i < CROWD; i++)
		crowd[i] = dial(NULL);
	lease_accept();
	for (i = 0; i < CROWD; i++)
		closed += crowd[i] != -1 && closed_by_peer(crowd[i]);
	is_int(closed, CROWD - LEASE_PENDING_MAX, "%d waiting for their secret: the rest "
	    "closed at once", LEASE_PENDING_MAX);
	ok(open_fds() - before <= CROWD + 3 + LEASE_PENDING_MAX,
	    "no more than %d of them held here", LEASE_PENDING_MAX);
	ok(!lease_silent_from(lo), "nor their address taken for a silent node's");
	is_int(lease_silent(peers, CROWD + 4, 0), 0, "and none named by lease_silent");
	close(none);
	close(wrong);
	close(garbage);
	for (i = 0; i < CROWD; i++)
		close(crowd[i]);
}

/* A rank that beats is held; a silent one and one whose proxy died are named. */
static void
test_authenticated(void)
{
	struct lease_peer peers[4];
	struct in_addr lo = { .s_addr = htonl(INADDR_LOOPBACK) };
	char buf[256];
	int beating, silent, proxy, i, beat_seen = 0, silent_how = 0, proxy_how = 0;
	size_t n;
	ssize_t r;

	lease_watch(0.5);
	beating = dial(hello);
	silent = dial(hello);
	proxy = dial(hello);
	pump(0.1, 0);
	ok(write(proxy, LEASE_PROXY_LOST "\n", sizeof LEASE_PROXY_LOST) ==
	    (ssize_t)sizeof LEASE_PROXY_LOST, "a wrapper says its proxy died");
	for (i = 0; i < 100 && lease_lost_count() < 2; i++) {
		if (write(beating, LEASE_BEAT "\n", sizeof LEASE_BEAT) != (ssize_t)sizeof LEASE_BEAT)
			break;
		pump(0.05, 2);
	}
	is_int(lease_lost_count(), 2, "the silent rank and the proxy's judged lost");
	ok(lease_silent_from(lo), "its address silent: the cleanup leaves that node alone");
	while ((r = recv(beating, buf, sizeof buf - 1, MSG_DONTWAIT)) > 0) {
		buf[r] = '\0';
		beat_seen |= strstr(buf, LEASE_BEAT " ") != NULL;
	}
	ok(beat_seen, "the supervisor beats on an authenticated connection");
	n = lease_silent(peers, 4, 0);
	for (i = 0; i < (int)n; i++) {
		silent_how |= peers[i].how == LEASE_LOST_SILENT;
		proxy_how |= peers[i].how == LEASE_LOST_PROXY;
	}
	is_int(n, 3, "lease_silent: the two lost and the beating one still open");
	ok(silent_how && proxy_how, "the silence and the proxy's death named as such");
	ok(n == 0 || peers[0].addr.s_addr == htonl(INADDR_LOOPBACK), "each from its peer");
	close(beating);
	close(silent);
	close(proxy);
}

/* Out of descriptors: some accepted, the rest left waiting, nothing beyond the array. */
static void
test_emfile(void)
{
	struct lease_peer peers[NCONN];
	struct rlimit old, low;
	int p[2], used;
	size_t silent;
	pid_t child;
	char c;

	if (pipe(p) == -1 || getrlimit(RLIMIT_NOFILE, &old) == -1 || (used = open_fds()) < 0) {
		ok(0, "a pipe, the descriptor limit and /proc/self/fd");
		return;
	}
	child = ranks_connect(NCONN, p[1]);
	ok(child > 0 && read(p[0], &c, 1) == 1 && c == 'c', "%d ranks connected", NCONN);
	low = old;
	low.rlim_cur = (rlim_t)(used + SPARE);
	ok(setrlimit(RLIMIT_NOFILE, &low) == 0, "the limit lowered to %d descriptors",
	    used + SPARE);
	lease_read();
	lease_read();
	ok(open_fds() <= used + SPARE, "no more descriptors than the limit");
	ok(setrlimit(RLIMIT_NOFILE, &old) == 0, "the limit restored");
	pump(0.5, 0);
	silent = lease_silent(peers, NCONN, 0);
	is_int(silent, NCONN, "every rank's connection held, still open, so reported");
	ok(silent == 0 || peers[0].addr.s_addr == htonl(INADDR_LOOPBACK), "each from its peer");
	is_int(lease_silent(peers, NCONN, 0), 0, "and closed: the next launch starts empty");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(p[0]);
	close(p[1]);
}

int
main(void)
{
	char *argv[] = { "mpiexec", "-genv", LEASE_ENV, NULL, NULL };
	const char *secret;

	argv[3] = strdup("127.0.0.1:0");
	lease_open(argv);
	if (sscanf(argv[3], "127.0.0.1:%u", &port) != 1 || port == 0) {
		ok(0, "the lease listens on 127.0.0.1 (got '%s')", argv[3]);
		return tap_done();
	}
	ok(1, "the lease listens on 127.0.0.1");
	lease_child_env();
	secret = getenv(LEASE_SECRET_ENV);
	ok(secret != NULL && strlen(secret) == 32, "mpiexec's environment gets a secret");
	snprintf(hello, sizeof hello, "%s%s\n", LEASE_HELLO, secret != NULL ? secret : "");
	test_unauthenticated();
	test_authenticated();
	test_emfile();
	free(argv[3]);
	return tap_done();
}
