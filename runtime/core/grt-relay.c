/*
 * grt-relay.c — rank 0's side of the relay (grt-relay.h): the connection to the
 * supervisor, the files it hands over at start, frames out, and the journal's commit
 * that waits for the supervisor's acknowledgment.
 */
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grt/grt-error.h"
#include "runtime/core/grt-relay.h"

/* All of len bytes to the socket; 0, or -1 (a broken connection raises no SIGPIPE). */
static int
relay_write_all(int fd, const void *p, size_t len)
{
	const unsigned char *b = p;
	ssize_t n;

	while (len > 0) {
		n = send(fd, b, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

/* All of len bytes from the socket; 0, or -1 (EOF: ECONNRESET; SO_RCVTIMEO: EAGAIN). */
static int
relay_read_all(int fd, void *p, size_t len)
{
	unsigned char *b = p;
	ssize_t n;

	while (len > 0) {
		n = recv(fd, b, len, 0);
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

/* Little-endian numbers of the frames (grt-relay.h). */
static void
relay_put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static uint64_t
relay_get_u64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void
relay_put_u64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* One frame's header: its type and payload length; 0, or -1. */
static int
relay_read_head(int fd, int *type, uint32_t *len)
{
	unsigned char h[GRT_RELAY_HEAD];

	if (relay_read_all(fd, h, sizeof h) == -1)
		return -1;
	*type = h[0];
	*len = (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 |
	    (uint32_t)h[7] << 24;
	if (*len > GRT_RELAY_MAX) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/* grt-relay.h: the header and the payload under the mutex, so frames never interleave. */
int
grt_relay_send(struct grt_relay *r, int type, const void *p, size_t len)
{
	unsigned char h[GRT_RELAY_HEAD];
	int rc;

	memset(h, 0, sizeof h);
	h[0] = (unsigned char)type;
	relay_put_u32(h + 4, (uint32_t)len);
	pthread_mutex_lock(&r->mu);
	rc = r->fd < 0 ? -1 : relay_write_all(r->fd, h, sizeof h) == 0 &&
	    (len == 0 || relay_write_all(r->fd, p, len) == 0) ? 0 : -1;
	pthread_mutex_unlock(&r->mu);
	return rc;
}

/* A TCP connection to "A.B.C.D:PORT" within GRT_RELAY_TIMEOUT; the socket, or -1. */
static int
relay_connect(const char *addr, char *why, size_t whylen)
{
	struct sockaddr_in sa;
	struct timeval tv = { GRT_RELAY_TIMEOUT, 0 };
	struct pollfd pfd;
	char host[64], *colon;
	int fd, one = 1, err = 0;
	socklen_t elen = sizeof err;
	long port;

	snprintf(host, sizeof host, "%s", addr);
	host[strcspn(host, "/")] = '\0';
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	if ((colon = strrchr(host, ':')) == NULL || (*colon = '\0',
	    port = strtol(colon + 1, NULL, 10)) <= 0 || port > 65535 ||
	    inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
		snprintf(why, whylen, "GRT_RELAY=%.64s is not ADDR:PORT/KEY", addr);
		return -1;
	}
	sa.sin_port = htons((uint16_t)port);
	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)) == -1) {
		snprintf(why, whylen, "relay %s: socket: %s", addr, strerror(errno));
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == -1 && errno != EINPROGRESS)
		err = errno;
	pfd.fd = fd;
	pfd.events = POLLOUT;
	if (err == 0 && poll(&pfd, 1, GRT_RELAY_TIMEOUT * 1000) != 1)
		err = ETIMEDOUT;
	if (err == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) == -1)
		err = errno;
	if (err != 0 || fcntl(fd, F_SETFL, 0) == -1) {
		snprintf(why, whylen, "relay %s: cannot connect: %s", host,
		    strerror(err != 0 ? err : errno));
		close(fd);
		return -1;
	}
	/* a commit is one small frame each way: no Nagle; a silent supervisor is an error */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	return fd;
}

/*
 * What the supervisor sends after HELLO, up to READY: the rank map into rankmap, the
 * journal into journal. 0, or -1 with why.
 */
static int
relay_receive(struct grt_relay *r, const char *rankmap, const char *journal, char *why,
    size_t whylen)
{
	int mfd = -1, jfd = -1, type, rc = -1;
	unsigned char *buf = NULL;
	uint32_t len;

	if (journal != NULL && (jfd = open(journal, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) == -1) {
		snprintf(why, whylen, "%s: %s", journal, strerror(errno));
		return -1;
	}
	for (;;) {
		if (relay_read_head(r->fd, &type, &len) == -1 ||
		    (buf = realloc(buf, len + 1)) == NULL ||
		    relay_read_all(r->fd, buf, len) == -1) {
			snprintf(why, whylen, "relay: no answer from the supervisor: %s",
			    strerror(errno));
			break;
		}
		if (type == GRT_RELAY_READY && len == 8) {
			r->journal_len = relay_get_u64(buf);
			rc = jfd == -1 || fdatasync(jfd) == 0 ? 0 : -1;
			if (rc == -1)
				snprintf(why, whylen, "%s: %s", journal, strerror(errno));
			break;
		}
		if (type == GRT_RELAY_RANKMAP && rankmap != NULL) {
			if ((mfd = open(rankmap, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			    0644)) == -1 || (len > 0 && write(mfd, buf, len) != (ssize_t)len) ||
			    close(mfd) != 0) {
				snprintf(why, whylen, "%s: %s", rankmap, strerror(errno));
				break;
			}
		} else if (type == GRT_RELAY_JOURNAL && jfd != -1) {
			if (len > 0 && write(jfd, buf, len) != (ssize_t)len) {
				snprintf(why, whylen, "%s: %s", journal, strerror(errno));
				break;
			}
		}
	}
	free(buf);
	if (jfd != -1)
		close(jfd);
	return rc;
}

/* grt-relay.h. */
int
grt_relay_open(struct grt_relay *r, const char *addr, const char *rankmap,
    const char *journal, char *why, size_t whylen)
{
	const char *key;

	memset(r, 0, sizeof *r);
	pthread_mutex_init(&r->mu, NULL);
	if ((r->fd = relay_connect(addr, why, whylen)) == -1)
		return GRT_EIO;
	key = strchr(addr, '/');
	if (grt_relay_send(r, GRT_RELAY_HELLO, key != NULL ? key + 1 : "",
	    key != NULL ? strlen(key + 1) : 0) == -1) {
		snprintf(why, whylen, "relay: %s", strerror(errno));
		grt_relay_close(r);
		return GRT_EIO;
	}
	if (relay_receive(r, rankmap, journal, why, whylen) == -1) {
		grt_relay_close(r);
		return GRT_EIO;
	}
	return GRT_OK;
}

/* grt-relay.h: frames before the ACK are none (the supervisor answers COMMIT only). */
int
grt_relay_commit(struct grt_relay *r)
{
	unsigned char p[8];
	uint64_t seq;
	uint32_t len;
	int type;

	seq = ++r->seq;
	relay_put_u64(p, seq);
	if (grt_relay_send(r, GRT_RELAY_COMMIT, p, sizeof p) == -1)
		return -1;
	/* the supervisor sends nothing but ACKs once READY is past */
	for (;;) {
		if (relay_read_head(r->fd, &type, &len) == -1 || len != sizeof p ||
		    type != GRT_RELAY_ACK || relay_read_all(r->fd, p, sizeof p) == -1)
			return -1;
		if (relay_get_u64(p) == seq)
			return 0;
	}
}

/* A sink's write: frames of the sink's type, at most GRT_RELAY_MAX bytes each. */
static int
relay_sink_write(struct grt_sink *s, const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t n;

	while (len > 0) {
		n = len < GRT_RELAY_MAX ? len : GRT_RELAY_MAX;
		if (grt_relay_send(s->relay, s->frame, b, n) == -1)
			return -1;
		b += n;
		len -= n;
	}
	return 0;
}

/* events: nothing to wait for (the stream is not durable, doc/runtime.md); journal: ACK */
static int
relay_sink_sync(struct grt_sink *s)
{
	return s->frame == GRT_RELAY_JOURNAL ? grt_relay_commit(s->relay) : 0;
}

/* grt-relay.h. */
void
grt_relay_sink(struct grt_relay *r, int type, struct grt_sink *s)
{
	memset(s, 0, sizeof *s);
	s->write = relay_sink_write;
	s->sync = relay_sink_sync;
	s->fd = r->fd;
	s->relay = r;
	s->frame = type;
}

/* grt-relay.h. */
void
grt_relay_close(struct grt_relay *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	pthread_mutex_destroy(&r->mu);
}
