/*
 * lease.c — the job's tag and lease (lease.h, lease-proto.h). The supervisor listens,
 * takes a connection only once it has sent the launch's secret, beats on every one it
 * holds and reads what the ranks say: beats, a proxy's death, their ends. One poll for
 * all and non-blocking sockets: thousands of connections cost a beat a second each, and a
 * beat that does not fit in a socket's buffer is dropped, never waited for.
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
#include "launch/lease-proto.h"
#include "launch/lease.h"

#define LEASE_BACKLOG	4096	/* the kernel caps it at net.core.somaxconn */
#define LEASE_MAX	65536	/* connections held; beyond, they wait in the backlog */

/* A connection: waiting for its secret, held, or lost (named in lease_silent). */
static struct lease_conn {
	int fd;			/* -1: closed */
	struct in_addr peer;
	int authed;		/* 1: it sent the secret: its silence is evidence */
	double since;		/* accepted (clock_mono): the secret's deadline runs from here */
	double heard;		/* its last bytes (clock_mono) */
	int lost;		/* a LEASE_LOST_* once judged lost (during a watch) */
	char line[RANK_END_LINE_MAX];	/* the line as it arrives */
	size_t len;		/* bytes of it so far; sizeof line: too long, dropped */
} *lease_conns;
static size_t lease_held, lease_cap;
static size_t lease_pending;	/* connections held that have not sent the secret yet */
static int lease_fd = -1;
static char lease_key[SECRET_HEX + 1];	/* this launch's secret ("": none) */
static char *lease_ends;	/* where the ranks' ends go (lease_ends_file), or NULL */
static double lease_timeout;	/* > 0: watching, a connection silent this long is lost */
static double lease_beat;	/* when the last beat went out (clock_mono) */
static size_t lease_nlost;	/* connections judged lost during this watch */

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
			/* a new launch, a new secret: the last one's ranks are not this one's */
			if (secret_new(lease_key) != 0)
				log_warn("lease: the secret is not renewed");
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
	if (secret_new(lease_key) != 0) {
		log_warn("no lease for the ranks: no secret");
		close(lease_fd);
		lease_fd = -1;
		goto none;
	}
	free(*value);
	xasprintf(value, "%s:%u", addr, (unsigned)ntohs(sa.sin_port));
	return;
none:
	free(*value);
	*value = xstrdup("");
}


/*
 * setenv puts it last, but launch_proc_start ends mpiexec's environment with a variable of
 * its own after it: hydra (MPICH 4.0.2, measured) forwards to the proxies on other hosts
 * every variable of mpiexec's environment but the last one (doc/restarts.md, "The secret").
 */
void
lease_child_env(void)
{
	if (lease_fd == -1 || lease_key[0] == '\0')
		return;
	setenv(LEASE_SECRET_ENV, lease_key, 1);
}

/* Close c (its descriptor; its slot stays until lease_silent empties the list). */
static void
lease_close(struct lease_conn *c)
{
	if (c->fd == -1)
		return;
	if (!c->authed)
		lease_pending--;
	close(c->fd);
	c->fd = -1;
}

static void lease_conn_read(struct lease_conn *);

/* Read the connections that have not sent their secret yet (whatever has arrived). */
static void
lease_read_pending(void)
{
	size_t i;

	for (i = 0; i < lease_held; i++)
		if (lease_conns[i].fd != -1 && !lease_conns[i].authed)
			lease_conn_read(&lease_conns[i]);
}

/*
 * Drop the slots of closed connections that say nothing (never authenticated, or their
 * rank ended), keeping the order of the rest: strangers that connect and are closed, again
 * and again, never fill the list that the ranks' connections need.
 */
static void
lease_compact(void)
{
	size_t i, n = 0;

	for (i = 0; i < lease_held; i++)
		if (lease_conns[i].fd != -1 || lease_conns[i].lost != 0)
			lease_conns[n++] = lease_conns[i];
	lease_held = n;
}

void
lease_accept(void)
{
	struct sockaddr_in sa;
	struct lease_conn *c;
	socklen_t len;
	int fd;

	if (lease_held == lease_cap || lease_held >= LEASE_MAX)
		lease_compact();
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
		/*
		 * too many that have not proved themselves: those whose secret has arrived
		 * are taken (a launch's ranks connect all at once), and if none has, this
		 * one goes at once
		 */
		if (lease_pending >= LEASE_PENDING_MAX)
			lease_read_pending();
		if (lease_pending >= LEASE_PENDING_MAX) {
			close(fd);
			continue;
		}
		if (lease_held == lease_cap)
			lease_compact();
		if (lease_held == lease_cap) {
			lease_cap = lease_cap ? lease_cap * 2 : 64;
			lease_conns = xreallocarray(lease_conns, lease_cap, sizeof *lease_conns);
		}
		c = &lease_conns[lease_held++];
		memset(c, 0, sizeof *c);
		c->fd = fd;
		c->peer = sa.sin_addr;
		c->since = c->heard = clock_mono();
		lease_pending++;
	}
}

void
lease_ends_file(const char *path)
{
	free(lease_ends);
	lease_ends = path != NULL ? xstrdup(path) : NULL;
}

/* A rank's end line (NUL-terminated, len bytes), checked, appended to the ends file. */
static void
lease_end_line(char *line, size_t len)
{
	struct rank_end e;
	int fd;

	if (lease_ends == NULL || rank_end_parse(line, &e) != 0)
		return;
	/* one write of the line and its newline: lines never mix */
	line[len] = '\n';
	if ((fd = open(lease_ends, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) == -1 ||
	    write(fd, line, len + 1) != (ssize_t)(len + 1))
		log_warn("%s: a rank's end", lease_ends);
	if (fd != -1)
		close(fd);
	line[len] = '\0';
}

/*
 * One complete line from c (without its newline): the secret first, then beats, a
 * proxy's death or the rank's end. 0, or -1 when c is to be closed (not the secret).
 */
static int
lease_line(struct lease_conn *c, char *line, size_t len)
{
	size_t hl = sizeof LEASE_HELLO - 1;

	if (!c->authed) {
		if (len != hl + SECRET_HEX || lease_key[0] == '\0' ||
		    memcmp(line, LEASE_HELLO, hl) != 0 ||
		    !secret_equal(line + hl, lease_key, SECRET_HEX))
			return -1;
		c->authed = 1;
		lease_pending--;
		return 0;
	}
	if (strcmp(line, LEASE_PROXY_LOST) == 0) {
		if (lease_timeout > 0 && !c->lost) {
			c->lost = LEASE_LOST_PROXY;
			lease_nlost++;
		}
	} else if (strcmp(line, LEASE_BEAT) != 0)
		lease_end_line(line, len);
	return 0;
}

/*
 * Read what c's peer sent, line by line (a line longer than the buffer is dropped whole),
 * then the end of the connection, which closes it here.
 */
static void
lease_conn_read(struct lease_conn *c)
{
	char buf[4096];
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
		c->heard = clock_mono();
		for (i = 0; i < (size_t)n; i++) {
			if (buf[i] != '\n') {
				if (c->len < sizeof c->line - 1)
					c->line[c->len++] = buf[i];
				else
					c->len = sizeof c->line;
				continue;
			}
			if (c->len < sizeof c->line) {
				c->line[c->len] = '\0';
				if (lease_line(c, c->line, c->len) == -1)
					goto out;
			} else if (!c->authed)
				goto out;
			c->len = 0;
		}
	}
out:
	lease_close(c);
}

/*
 * The clock's part: a beat to every held connection each LEASE_BEAT_EVERY (dropped when
 * its buffer is full), the secret's deadline for the new ones, and, while watching, the
 * silent ones judged lost.
 */
static void
lease_tick(void)
{
	double now = clock_mono();
	char beat[32];
	size_t i;
	int n, send_beat = now - lease_beat >= LEASE_BEAT_EVERY;

	n = snprintf(beat, sizeof beat, "%s %.0f\n", LEASE_BEAT,
	    lease_timeout > 0 ? lease_timeout : LEASE_TIMEOUT_DEFAULT);
	if (send_beat)
		lease_beat = now;
	for (i = 0; i < lease_held; i++) {
		struct lease_conn *c = &lease_conns[i];

		if (c->fd == -1)
			continue;
		if (!c->authed) {
			if (now - c->since >= LEASE_AUTH_WAIT)
				lease_close(c);
			continue;
		}
		if (send_beat)
			(void)send(c->fd, beat, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (lease_timeout > 0 && !c->lost && now - c->heard >= lease_timeout) {
			c->lost = LEASE_LOST_SILENT;
			lease_nlost++;
		}
	}
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
	if (n > 0 && poll(pfd, (nfds_t)n, 0) > 0)
		for (i = n = 0; i < lease_held; i++)
			if (lease_conns[i].fd != -1 && pfd[n++].revents != 0)
				lease_conn_read(&lease_conns[i]);
	lease_tick();
}

void
lease_watch(double timeout)
{
	double now = clock_mono();
	size_t i;

	lease_timeout = timeout;
	lease_nlost = 0;
	/* what was not read before the watch is no silence of the peer's */
	for (i = 0; i < lease_held; i++)
		if (lease_conns[i].fd != -1 && lease_conns[i].authed)
			lease_conns[i].heard = now;
}

size_t
lease_lost_count(void)
{
	return lease_nlost;
}

int
lease_silent_from(struct in_addr addr)
{
	size_t i;

	for (i = 0; i < lease_held; i++)
		if (lease_conns[i].authed && lease_conns[i].lost == LEASE_LOST_SILENT &&
		    lease_conns[i].peer.s_addr == addr.s_addr)
			return 1;
	return 0;
}

/* Connections open, authenticated or not (the ones to wait for). */
static size_t
lease_open_count(void)
{
	size_t i, open = 0;

	for (i = 0; i < lease_held; i++)
		open += lease_conns[i].fd != -1;
	return open;
}

void
lease_drain(double wait)
{
	struct timespec ts = { 0, 10000000L };
	double until = clock_mono() + wait;

	for (;;) {
		lease_read();
		if (lease_open_count() == lease_pending || clock_mono() >= until)
			return;
		nanosleep(&ts, NULL);
	}
}

size_t
lease_silent(struct lease_peer *peers, size_t max, double wait)
{
	struct timespec ts = { 0, 20000000L };
	double until = clock_mono() + wait;
	size_t i, n = 0;

	for (;;) {
		/* a connection ends when its rank closes it: read to there */
		lease_read();
		if (lease_open_count() == lease_pending || clock_mono() >= until)
			break;
		nanosleep(&ts, NULL);
	}
	for (i = 0; i < lease_held; i++) {
		struct lease_conn *c = &lease_conns[i];
		int how = c->lost ? c->lost : c->fd != -1 && c->authed ? LEASE_LOST_OPEN : 0;

		/* only a connection that proved itself names its node */
		if (how != 0 && n < max) {
			peers[n].addr = c->peer;
			peers[n++].how = how;
		}
		lease_close(c);
	}
	lease_held = lease_pending = lease_nlost = 0;
	lease_timeout = 0;
	return n;
}
