/*
 * relay.c — the supervisor's side of the relay (relay.h): a thread that accepts rank 0's
 * connection and keeps the job directory for it: the rank map and the journal sent at
 * HELLO, events and journal records appended as they come, each COMMIT acknowledged only
 * once DIR/journal is fdatasync'ed.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/file.h"
#include "common/log.h"
#include "common/secret.h"
#include "common/xmalloc.h"
#include "launch/relay.h"

#define RELAY_IO_TIMEOUT	30	/* seconds a frame may take to arrive whole */
#define RELAY_RANKMAP_MAX	(16u << 20)

/* One connection's files. */
struct relay_conn {
	int fd;
	int hello;		/* 1: HELLO came with the key */
	int efd;		/* DIR/events.jsonl, appending */
	int jfd;		/* DIR/journal, appending */
	int jnew;		/* the journal was created: its directory is synced at commit */
	const char *dir;
	const char *key;
};

/* No relay: nothing to close. */
void
relay_none(struct relay *r)
{
	memset(r, 0, sizeof *r);
	r->lfd = -1;
	r->stop[0] = r->stop[1] = -1;
}

/* All of len bytes sent (out) or received on the socket fd; 0, or -1 (EOF: ECONNRESET). */
static int
relay_io(int fd, void *p, size_t len, int out)
{
	unsigned char *b = p;
	ssize_t n;

	while (len > 0) {
		n = out ? send(fd, b, len, MSG_NOSIGNAL) : recv(fd, b, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ECONNRESET;
			return -1;
		}
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A payload's 8-byte little-endian number. */
static uint64_t
relay_u64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* One frame to rank 0; 0, or -1. */
static int
relay_send(int fd, int type, const void *p, size_t len)
{
	unsigned char h[RELAY_HEAD];

	memset(h, 0, sizeof h);
	h[0] = (unsigned char)type;
	h[4] = (unsigned char)len;
	h[5] = (unsigned char)(len >> 8);
	h[6] = (unsigned char)(len >> 16);
	h[7] = (unsigned char)(len >> 24);
	return relay_io(fd, h, sizeof h, 1) == 0 && (len == 0 ||
	    relay_io(fd, (void *)p, len, 1) == 0) ? 0 : -1;
}

/* One frame whose payload is the number v. */
static int
relay_send_u64(int fd, int type, uint64_t v)
{
	unsigned char p[8];
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
	return relay_send(fd, type, p, sizeof p);
}

/* HELLO: DIR/rankmap, DIR/journal as it is (frames), READY with its length. */
static int
relay_hello(struct relay_conn *c)
{
	unsigned char buf[65536];
	char *path, *map = NULL;
	size_t maplen = 0;
	uint64_t sent = 0;
	struct stat sb;
	ssize_t n;
	int rc;

	xasprintf(&path, "%s/rankmap", c->dir);
	rc = file_read(path, RELAY_RANKMAP_MAX, &map, &maplen);
	free(path);
	if (rc == 0 && relay_send(c->fd, RELAY_RANKMAP, map, maplen) == -1) {
		free(map);
		return -1;
	}
	free(map);
	xasprintf(&path, "%s/journal", c->dir);
	c->jnew = stat(path, &sb) == -1;
	c->jfd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	free(path);
	xasprintf(&path, "%s/events.jsonl", c->dir);
	c->efd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	free(path);
	if (c->jfd == -1 || c->efd == -1)
		return -1;
	while ((n = pread(c->jfd, buf, sizeof buf, (off_t)sent)) > 0) {
		if (relay_send(c->fd, RELAY_JOURNAL, buf, (size_t)n) == -1)
			return -1;
		sent += (uint64_t)n;
	}
	return n < 0 ? -1 : relay_send_u64(c->fd, RELAY_READY, sent);
}

/* COMMIT: the journal (and, once, its directory entry) on disk, then ACK. */
static int
relay_commit(struct relay_conn *c, uint64_t seq)
{
	int dfd;

	if (fdatasync(c->jfd) != 0)
		return -1;
	if (c->jnew) {
		if ((dfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
		    fsync(dfd) != 0) {
			if (dfd != -1)
				close(dfd);
			return -1;
		}
		close(dfd);
		c->jnew = 0;
	}
	return relay_send_u64(c->fd, RELAY_ACK, seq);
}

/* One frame of rank 0's: 1 done, 0 go on, -1 the connection is over (EOF or error). */
static int
relay_frame(struct relay_conn *c, unsigned char **buf)
{
	unsigned char h[RELAY_HEAD];
	uint32_t len;

	if (relay_io(c->fd, h, sizeof h, 0) == -1)
		return -1;
	len = (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 |
	    (uint32_t)h[7] << 24;
	if (len > RELAY_MAX) {
		log_warnx("relay: a frame of %u bytes from rank 0: closed", len);
		return -1;
	}
	*buf = xreallocarray(*buf, (size_t)len + 1, 1);
	if (len > 0 && relay_io(c->fd, *buf, len, 0) == -1)
		return -1;
	if (!c->hello && (h[0] != RELAY_HELLO || len != strlen(c->key) ||
	    !secret_equal(*buf, c->key, len))) {
		log_warnx("relay: a connection without the job's key: closed");
		return -1;
	}
	switch (h[0]) {
	case RELAY_HELLO:
		if (c->hello)
			return -1;
		c->hello = 1;
		return relay_hello(c) == 0 ? 0 : -1;
	case RELAY_EVENTS:
		return file_write_all(c->efd, *buf, len);
	case RELAY_JOURNAL:
		return file_write_all(c->jfd, *buf, len);
	case RELAY_TRUNCATE:
		return len == 8 && ftruncate(c->jfd, (off_t)relay_u64(*buf)) == 0 ? 0 : -1;
	case RELAY_COMMIT:
		return len == 8 && relay_commit(c, relay_u64(*buf)) == 0 ? 0 : -1;
	default:
		log_warnx("relay: an unknown frame '%c' from rank 0: closed", h[0]);
		return -1;
	}
}

/*
 * Serve one connection to its end: EOF, an error, or the stop (then, what is still coming
 * for up to drain seconds).
 */
static void
relay_serve(struct relay *r, int fd)
{
	struct relay_conn c = { fd, 0, -1, -1, 0, r->dir, r->key };
	struct pollfd p[2] = { { fd, POLLIN, 0 }, { r->stop[0], POLLIN, 0 } };
	struct timeval tv = { RELAY_IO_TIMEOUT, 0 };
	unsigned char *buf = NULL;
	double until = 0;
	int one = 1, n;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	for (;;) {
		/* HELLO within RELAY_IO_TIMEOUT: a silent stranger must not hold the relay */
		n = poll(p, until > 0 ? 1 : 2, until > 0 ?
		    (int)((until - clock_mono()) * 1000) : c.hello ? -1 : RELAY_IO_TIMEOUT * 1000);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 && (n < 0 || until > 0 || !c.hello))
			break;
		if (until == 0 && (p[1].revents & POLLIN)) {
			until = clock_mono() + r->drain;
			continue;
		}
		if ((p[0].revents & (POLLIN | POLLHUP | POLLERR)) && relay_frame(&c, &buf) != 0)
			break;
	}
	free(buf);
	if (c.jfd != -1)
		close(c.jfd);
	if (c.efd != -1)
		close(c.efd);
}

/* The relay's thread: accept, serve to the end, again, until the stop (relay_close). */
static void *
relay_thread(void *arg)
{
	struct relay *r = arg;
	struct pollfd p[2] = { { r->lfd, POLLIN, 0 }, { r->stop[0], POLLIN, 0 } };
	int fd;

	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents & POLLIN) {
			/* a last connection may be waiting in the backlog */
			if ((fd = accept4(r->lfd, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
				relay_serve(r, fd);
				close(fd);
			}
			break;
		}
		if ((fd = accept4(r->lfd, NULL, NULL, SOCK_CLOEXEC)) < 0)
			continue;
		fcntl(fd, F_SETFL, 0);
		relay_serve(r, fd);
		close(fd);
	}
	return NULL;
}

/* relay.h; the thread starts with every signal blocked. */
int
relay_open(struct relay *r, const char *ip, const char *dir, char *why, size_t whylen)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof sa;
	sigset_t all, old;

	relay_none(r);
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	if (inet_pton(AF_INET, ip, &sa.sin_addr) != 1) {
		snprintf(why, whylen, "relay: '%s' is not an IPv4 address", ip);
		return -1;
	}
	/* non-blocking: a connection gone between poll and accept must not hang the thread */
	if ((r->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)) == -1 ||
	    bind(r->lfd, (struct sockaddr *)&sa, sizeof sa) == -1 || listen(r->lfd, 4) == -1 ||
	    getsockname(r->lfd, (struct sockaddr *)&sa, &len) == -1 ||
	    pipe2(r->stop, O_CLOEXEC) == -1) {
		snprintf(why, whylen, "relay: cannot listen on %s: %s", ip, strerror(errno));
		relay_close(r, 0);
		return -1;
	}
	if (secret_new(r->key) == -1) {
		snprintf(why, whylen, "relay: getrandom: %s", strerror(errno));
		relay_close(r, 0);
		return -1;
	}
	snprintf(r->addr, sizeof r->addr, "%s:%u/%s", ip, (unsigned)ntohs(sa.sin_port),
	    r->key);
	r->dir = xstrdup(dir);
	/* the supervisor's signals are for its main thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r->running = pthread_create(&r->thread, NULL, relay_thread, r) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!r->running) {
		snprintf(why, whylen, "relay: cannot start its thread");
		relay_close(r, 0);
		return -1;
	}
	return 0;
}

/* relay.h: the stop written once, the thread joined, everything closed. */
void
relay_close(struct relay *r, double drain)
{
	if (r->running) {
		r->drain = drain;
		if (write(r->stop[1], "s", 1) != 1)
			log_warn("relay: cannot stop its thread");
		pthread_join(r->thread, NULL);
	}
	if (r->lfd != -1)
		close(r->lfd);
	if (r->stop[0] != -1)
		close(r->stop[0]);
	if (r->stop[1] != -1)
		close(r->stop[1]);
	free(r->dir);
	relay_none(r);
}
