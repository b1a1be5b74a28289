/*
 * lease.c — the job's tag and lease (lease.h). The supervisor listens, accepts and reads
 * the one line a rank may send before it closes (its end, common/rank-end.h); it never
 * writes, so holding thousands costs nothing, and it has nothing to do to end them: when
 * it dies the kernel closes every one.
 */
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/file.h"
#include "common/log.h"
#include "common/rank-end.h"
#include "common/secret.h"
#include "common/xmalloc.h"
#include "launch/lease.h"

#define LEASE_BACKLOG	4096	/* the kernel caps it at net.core.somaxconn */
#define LEASE_MAX	65536	/* connections held; beyond, they wait in the backlog */

static int lease_fd = -1;
static size_t lease_held;
/* the connections held, with their peers: which node a silent one is (lease_silent) */
static struct lease_conn {
	int fd;
	struct in_addr peer;
	char line[RANK_END_LINE_MAX];	/* the rank's end as it arrives */
	size_t len;			/* bytes of it so far; sizeof line: done with it */
} *lease_conns;
static size_t lease_cap;
static char *lease_ends;	/* where the ranks' ends go (lease_ends_file), or NULL */

char *
lease_tag_new(const struct job_state *st, char *why, size_t whylen)
{
	char *tag, hex[SECRET_HEX + 1];

	if (secret_new(hex) != 0) {
		snprintf(why, whylen, "getrandom: %s", strerror(errno));
		return NULL;
	}
	xasprintf(&tag, "%s-%s", st->id, hex);
	if (file_write_atomic(st->dir, LEASE_TAG_FILE, tag, strlen(tag), 0644) != 0) {
		snprintf(why, whylen, "%s/%s: %s", st->dir, LEASE_TAG_FILE, strerror(errno));
		free(tag);
		return NULL;
	}
	return tag;
}

int
lease_tag_read(const char *dir, char *buf, size_t len)
{
	char *path;
	size_t n, i;
	FILE *f;

	xasprintf(&path, "%s/%s", dir, LEASE_TAG_FILE);
	f = fopen(path, "r");
	free(path);
	if (f == NULL)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* it goes into a remote command line (quoted) and a grep pattern: plain only */
	if (n < 8 || n == len - 1)
		return -1;
	for (i = 0; i < n; i++)
		if (!((buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f') ||
		    buf[i] == '-'))
			return -1;
	return 0;
}

void
lease_open(char **argv)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof sa;
	char addr[64], *colon, **value = NULL;
	size_t i;
	int fd;

	for (i = 0; argv[i] != NULL; i++)
		if (strcmp(argv[i], "-genv") == 0 && argv[i + 1] != NULL &&
		    strcmp(argv[i + 1], LEASE_ENV) == 0 && argv[i + 2] != NULL) {
			value = &argv[i + 2];
			break;
		}
	if (value == NULL)
		return;
	snprintf(addr, sizeof addr, "%s", *value);
	if ((colon = strrchr(addr, ':')) != NULL)
		*colon = '\0';
	/*
	 * a relaunch of the same job toward the same interface: the same listening socket;
	 * toward another (the nodes replaced, another route), a new one there
	 */
	if (lease_fd != -1) {
		char had[64];

		if (getsockname(lease_fd, (struct sockaddr *)&sa, &len) == 0 &&
		    inet_ntop(AF_INET, &sa.sin_addr, had, sizeof had) != NULL &&
		    strcmp(had, addr) == 0) {
			free(*value);
			xasprintf(value, "%s:%u", had, (unsigned)ntohs(sa.sin_port));
			return;
		}
		close(lease_fd);
		lease_fd = -1;
		len = sizeof sa;
	}
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	if (colon == NULL || inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		log_warnx("no lease for the ranks: '%s' is not an IPv4 address", *value);
		goto none;
	}
	/* close-on-exec: mpiexec and the ranks must not hold it when we die */
	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof sa) == -1 || listen(fd, LEASE_BACKLOG) == -1 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) == -1) {
		log_warn("no lease for the ranks: cannot listen on %s", addr);
		if (fd != -1)
			close(fd);
		goto none;
	}
	lease_fd = fd;
	free(*value);
	xasprintf(value, "%s:%u", addr, (unsigned)ntohs(sa.sin_port));
	return;
none:
	free(*value);
	*value = xstrdup("");
}

void
lease_accept(void)
{
	int fd;

	struct sockaddr_in sa;
	socklen_t len;

	while (lease_fd != -1 && lease_held < LEASE_MAX) {
		len = sizeof sa;
		memset(&sa, 0, sizeof sa);
		fd = accept4(lease_fd, (struct sockaddr *)&sa, &len, SOCK_CLOEXEC |
		    SOCK_NONBLOCK);
		if (fd == -1) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			/*
			 * out of descriptors (EMFILE, ENFILE) or nothing waiting: the rest stay
			 * in the backlog, taken by a later call once descriptors are free
			 */
			return;
		}
		/* held, never read, until we exit or the launch ends: that is the lease */
		if (lease_held == lease_cap) {
			lease_cap = lease_cap ? lease_cap * 2 : 64;
			lease_conns = xreallocarray(lease_conns, lease_cap, sizeof *lease_conns);
		}
		lease_conns[lease_held].fd = fd;
		lease_conns[lease_held].peer = sa.sin_addr;
		lease_conns[lease_held].len = 0;
		lease_held++;
	}
}

void
lease_ends_file(const char *path)
{
	free(lease_ends);
	lease_ends = path != NULL ? xstrdup(path) : NULL;
}

/* A rank's end line, checked, appended to the ends file (one write: lines never mix). */
static void
lease_end_line(struct lease_conn *c)
{
	struct rank_end e;
	int fd;

	c->line[c->len - 1] = '\0';
	if (lease_ends == NULL || rank_end_parse(c->line, &e) != 0)
		return;
	c->line[c->len - 1] = '\n';
	if ((fd = open(lease_ends, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) == -1 ||
	    write(fd, c->line, c->len) != (ssize_t)c->len)
		log_warn("%s: a rank's end", lease_ends);
	if (fd != -1)
		close(fd);
}

/*
 * Read what c's rank sent: its end line (recorded once complete; anything beyond is
 * dropped), then the end of the connection, which closes it here (fd -1).
 */
static void
lease_conn_read(struct lease_conn *c)
{
	char buf[RANK_END_LINE_MAX];
	size_t i;
	ssize_t n;

	for (;;) {
		n = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0)
			break;
		for (i = 0; i < (size_t)n && c->len < sizeof c->line; i++) {
			c->line[c->len++] = buf[i];
			if (buf[i] == '\n') {
				lease_end_line(c);
				c->len = sizeof c->line;
			}
		}
	}
	close(c->fd);
	c->fd = -1;
}

void
lease_read(void)
{
	static struct pollfd *pfd;
	static size_t pcap;
	size_t i, n = 0;

	lease_accept();
	/* one poll for all: only the few connections with something to say are read */
	if (pcap < lease_held) {
		pcap = lease_cap;
		pfd = xreallocarray(pfd, pcap, sizeof *pfd);
	}
	for (i = 0; i < lease_held; i++)
		if (lease_conns[i].fd != -1) {
			pfd[n].fd = lease_conns[i].fd;
			pfd[n].events = POLLIN | POLLRDHUP;
			pfd[n++].revents = 0;
		}
	if (n == 0 || poll(pfd, (nfds_t)n, 0) <= 0)
		return;
	for (i = n = 0; i < lease_held; i++)
		if (lease_conns[i].fd != -1 && pfd[n++].revents != 0)
			lease_conn_read(&lease_conns[i]);
}

void
lease_drain(double wait)
{
	struct timespec ts = { 0, 10000000L };
	double until = clock_mono() + wait;
	size_t i, open;

	for (;;) {
		lease_read();
		for (i = open = 0; i < lease_held; i++)
			open += lease_conns[i].fd != -1;
		if (open == 0 || clock_mono() >= until)
			return;
		nanosleep(&ts, NULL);
	}
}

size_t
lease_silent(struct in_addr *addrs, size_t max, double wait)
{
	struct timespec ts = { 0, 20000000L };
	double until = clock_mono() + wait;
	size_t i, open, n = 0;

	for (;;) {
		/* a connection ends when its rank closes it: read to there */
		lease_read();
		for (i = open = 0; i < lease_held; i++)
			open += lease_conns[i].fd != -1;
		if (open == 0 || clock_mono() >= until)
			break;
		nanosleep(&ts, NULL);
	}
	for (i = 0; i < lease_held; i++) {
		if (lease_conns[i].fd == -1)
			continue;
		if (n < max)
			addrs[n++] = lease_conns[i].peer;
		close(lease_conns[i].fd);
	}
	lease_held = 0;
	return n;
}
