/*
 * preflight-accept.c — the preflight's connect-back (preflight.h): a node shows that it
 * reaches this host by connecting to a port here and sending the preflight's secret; the
 * answer "ok" is its proof. The socket listens on the address the nodes use to reach us,
 * never on every interface, and a thread of its own accepts as connections come, so that
 * any number of nodes may connect back at once (a listener that never accepts holds its
 * backlog, 64 before, and the 65th node's connection then waits until it times out).
 *
 * Whoever else reaches the port gets nothing: no answer without the secret, 5 s to send
 * it, at most 256 such connections held at once (the oldest closed for a new one), and
 * an accept that runs out of descriptors leaves the rest in the backlog for later.
 */
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/secret.h"
#include "common/xmalloc.h"
#include "launch/preflight.h"

#define ACCEPT_PENDING	256	/* connections held before they sent the secret */
#define ACCEPT_READ	5.0	/* seconds a connection has to send it */
#define ACCEPT_NAP	0.05	/* seconds before accepting again, out of descriptors */

struct pf_conn {
	int fd;
	double deadline;
	size_t len;
	char buf[SECRET_HEX + 1];	/* the secret and its newline */
};

struct pf_accept {
	pthread_t thread;
	int stop[2];		/* a byte, or the end of stop[1], ends the thread */
	int lfd;
	char key[SECRET_HEX];
	struct pf_conn conns[ACCEPT_PENDING];	/* oldest first */
	size_t nconn;
	double nap_until;	/* out of descriptors: no accept before then */
	pthread_mutex_t lock;
	int proved, refused;
};

/* Count a connection as proved (it sent the secret) or refused. */
static void
accept_count(struct pf_accept *a, int proved)
{
	pthread_mutex_lock(&a->lock);
	if (proved)
		a->proved++;
	else
		a->refused++;
	pthread_mutex_unlock(&a->lock);
}

/* Close connection i, already counted. */
static void
accept_drop(struct pf_accept *a, size_t i)
{
	close(a->conns[i].fd);
	memmove(&a->conns[i], &a->conns[i + 1], (a->nconn - i - 1) * sizeof a->conns[0]);
	a->nconn--;
}

/* Close connection i (the answer given or not), counting it. */
static void
accept_close(struct pf_accept *a, size_t i, int proved)
{
	accept_count(a, proved);
	accept_drop(a, i);
}

/*
 * Read what connection i sent: once it is the whole secret and a newline, the answer
 * "ok" (compared in constant time); anything else, its end or an error, no answer. 1 when
 * the connection was closed, else 0.
 */
static int
accept_read(struct pf_accept *a, size_t i)
{
	struct pf_conn *c = &a->conns[i];
	ssize_t n;
	int good;

	n = read(c->fd, c->buf + c->len, sizeof c->buf - c->len);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n > 0)
		c->len += (size_t)n;
	if (n > 0 && c->len < sizeof c->buf)
		return 0;
	good = c->len == sizeof c->buf && c->buf[SECRET_HEX] == '\n' &&
	    secret_equal(c->buf, a->key, SECRET_HEX);
	/* counted before the answer: whoever has read "ok" finds it among the proved */
	accept_count(a, good);
	/*
	 * three bytes on a fresh connection: the socket's buffer takes them at once; a node
	 * that cannot be written to has gone, and reads no answer whatever we do
	 */
	if (good)
		(void)send(c->fd, "ok\n", 3, MSG_NOSIGNAL);
	accept_drop(a, i);
	return 1;
}

/* Accept every connection waiting, each non-blocking, with its deadline. */
static void
accept_new(struct pf_accept *a, double now)
{
	int fd;

	for (;;) {
		fd = accept4(a->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd == -1) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			/* out of descriptors: the rest wait in the backlog */
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM)
				a->nap_until = now + ACCEPT_NAP;
			return;
		}
		if (a->nconn == ACCEPT_PENDING)
			accept_close(a, 0, 0);
		a->conns[a->nconn].fd = fd;
		a->conns[a->nconn].deadline = now + ACCEPT_READ;
		a->conns[a->nconn].len = 0;
		a->nconn++;
	}
}

/* The thread: poll the stop pipe, the listener and the connections until told to end. */
static void *
accept_thread(void *arg)
{
	struct pf_accept *a = arg;
	struct pollfd pfd[ACCEPT_PENDING + 2];
	double now, next;
	size_t i, n, listening;
	int ms;

	for (;;) {
		now = clock_mono();
		next = now + 1;
		pfd[0].fd = a->stop[0];
		pfd[0].events = POLLIN;
		n = 1;
		listening = now >= a->nap_until;
		if (listening) {
			pfd[n].fd = a->lfd;
			pfd[n++].events = POLLIN;
		} else if (a->nap_until < next)
			next = a->nap_until;
		for (i = 0; i < a->nconn; i++) {
			pfd[n].fd = a->conns[i].fd;
			pfd[n++].events = POLLIN;
			if (a->conns[i].deadline < next)
				next = a->conns[i].deadline;
		}
		ms = (int)((next - now) * 1000) + 1;
		if (poll(pfd, n, ms) == -1 && errno != EINTR)
			break;
		if (pfd[0].revents != 0)
			break;
		now = clock_mono();
		/* from the newest down: a close moves only the ones after it */
		for (i = a->nconn; i-- > 0;) {
			if (pfd[1 + listening + i].revents != 0 && accept_read(a, i))
				continue;
			if (now >= a->conns[i].deadline)
				accept_close(a, i, 0);
		}
		if (listening && pfd[1].revents != 0)
			accept_new(a, now);
	}
	while (a->nconn > 0)
		accept_close(a, a->nconn - 1, 0);
	return NULL;
}

/* A socket listening on addr (IPv4), any port: its descriptor, or -1 with why. */
static int
accept_listen(const char *addr, char *port, size_t portlen, char *why, size_t whylen)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof sin;
	int fd;

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
		snprintf(why, whylen, "a port for the nodes to reach this host: '%s' is not an "
		    "IPv4 address", addr);
		return -1;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1 || bind(fd, (struct sockaddr *)&sin, sizeof sin) == -1 ||
	    listen(fd, SOMAXCONN) == -1 || getsockname(fd, (struct sockaddr *)&sin, &len) == -1) {
		/* ours, not the nodes': each would be failed for "cannot reach this host" */
		snprintf(why, whylen, "a port for the nodes to reach this host on %s: %s", addr,
		    strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	snprintf(port, portlen, "%u", (unsigned)ntohs(sin.sin_port));
	return fd;
}

int
preflight_accept_start(struct preflight_setup *s, const char *addr, char *why,
    size_t whylen)
{
	struct pf_accept *a;
	sigset_t all, old;
	int rc;

	if (s->acc != NULL)
		return 0;
	if ((s->fd = accept_listen(addr, s->port, sizeof s->port, why, whylen)) == -1)
		return -1;
	a = xcalloc(1, sizeof *a);
	a->lfd = s->fd;
	memcpy(a->key, s->key, SECRET_HEX);
	pthread_mutex_init(&a->lock, NULL);
	if (pipe2(a->stop, O_CLOEXEC) == -1) {
		snprintf(why, whylen, "the connect-back's thread: %s", strerror(errno));
		free(a);
		return -1;
	}
	/* the thread takes no signal: the supervisor's handlers and signalfds stay whole */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&a->thread, NULL, accept_thread, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		snprintf(why, whylen, "the connect-back's thread: %s", strerror(rc));
		close(a->stop[0]);
		close(a->stop[1]);
		free(a);
		return -1;
	}
	s->acc = a;
	return 0;
}

void
preflight_accept_counts(const struct preflight_setup *s, int *proved, int *refused)
{
	*proved = *refused = 0;
	if (s->acc == NULL)
		return;
	pthread_mutex_lock(&s->acc->lock);
	*proved = s->acc->proved;
	*refused = s->acc->refused;
	pthread_mutex_unlock(&s->acc->lock);
}

void
preflight_accept_stop(struct preflight_setup *s)
{
	struct pf_accept *a = s->acc;

	if (a == NULL)
		return;
	close(a->stop[1]);
	pthread_join(a->thread, NULL);
	close(a->stop[0]);
	pthread_mutex_destroy(&a->lock);
	free(a);
	s->acc = NULL;
}
