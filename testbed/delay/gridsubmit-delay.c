/*
 * gridsubmit-delay — the delay line of a testbed node on a kernel without sch_netem
 * (doc/testbed.md). `gridsubmit testbed up` runs one in each such node's network namespace
 * and sends the node's non-loopback IPv4 packets, both directions, to its NFQUEUE queue
 * with iptables; this program hands each packet back to the kernel (NF_ACCEPT) exactly
 * --delay milliseconds after it arrived. The delay is the same for every packet, so one
 * FIFO keeps the order, and one timerfd armed at the oldest packet's deadline does the
 * waiting: no sleep per packet, no thread.
 *
 * Nothing is dropped silently: a full kernel queue, a socket receive buffer overflow
 * (ENOBUFS) or a failed verdict is counted and written to stderr (the node's delay.log),
 * and the totals again at exit (SIGTERM from `testbed down`).
 *
 * usage: gridsubmit-delay --delay MS [--queue N] [--ready-fd FD]
 * --ready-fd: "ready\n" is written to FD once the queue is bound, then FD is closed; the
 * caller installs the iptables rules only then, since an unbound queue drops packets.
 */
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>

#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"

/*
 * Sizes for the fastest links of the site files (10 Gbit/s) and latencies up to seconds:
 * a packet waits in the kernel queue (at most QUEUE_MAXLEN of them) while its metadata
 * (a few hundred bytes, NFQNL_COPY_META) waits in the socket buffer until read.
 */
#define QUEUE_MAXLEN	65536
#define RCVBUF_BYTES	(16 * 1024 * 1024)
#define STATS_EVERY_NS	1000000000LL	/* look at the kernel's drop counters once a second */

struct pkt {
	uint32_t id;		/* the kernel's packet id in the queue */
	int64_t due;		/* CLOCK_MONOTONIC ns at which it is let through */
};

struct line {
	struct nfq_q_handle *qh;
	unsigned queue;
	int64_t delay;		/* ns */
	struct pkt *v;		/* ring buffer: v[head], ... v[head + n - 1] (mod cap) */
	size_t cap, head, n, peak;
	uint64_t delayed, enobufs, verdict_errors;
	unsigned kdropped, kuser_dropped;	/* the kernel's counters, last seen */
};

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void
line_push(struct line *l, uint32_t id, int64_t due)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024, i;
		struct pkt *v = xreallocarray(NULL, cap, sizeof *v);

		for (i = 0; i < l->n; i++)
			v[i] = l->v[(l->head + i) % l->cap];
		free(l->v);
		l->v = v;
		l->cap = cap;
		l->head = 0;
	}
	l->v[(l->head + l->n) % l->cap] = (struct pkt){ id, due };
	if (++l->n > l->peak)
		l->peak = l->n;
	l->delayed++;
}

/*
 * Let through every packet whose time has come, with one batch verdict: it accepts all
 * packets of the queue with an id up to the given one, and ids are handed out in arrival
 * order, which is the order of the FIFO.
 */
static void
line_release(struct line *l, int64_t now)
{
	uint32_t last = 0;
	int any = 0;

	while (l->n > 0 && l->v[l->head].due <= now) {
		last = l->v[l->head].id;
		l->head = (l->head + 1) % l->cap;
		l->n--;
		any = 1;
	}
	if (any && nfq_set_verdict_batch(l->qh, last, NF_ACCEPT) == -1) {
		l->verdict_errors++;
		log_warn("queue %u: verdict for packets up to id %" PRIu32 " failed", l->queue,
		    last);
	}
}

static int
line_packet(struct nfq_q_handle *qh, struct nfgenmsg *msg, struct nfq_data *nfa, void *arg)
{
	struct line *l = arg;
	struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);

	(void)qh;
	(void)msg;
	if (ph != NULL)
		line_push(l, ntohl(ph->packet_id), now_ns() + l->delay);
	return 0;
}

/* The timer fires at the oldest packet's deadline; disarmed when the line is empty. */
static void
line_arm(struct line *l, int tfd)
{
	struct itimerspec its;

	memset(&its, 0, sizeof its);
	if (l->n > 0) {
		int64_t due = l->v[l->head].due;

		its.it_value.tv_sec = (time_t)(due / 1000000000LL);
		its.it_value.tv_nsec = (long)(due % 1000000000LL);
		if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
			its.it_value.tv_nsec = 1;
	}
	if (timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL) == -1)
		fatal("timerfd_settime");
}

/*
 * The kernel's own counters of this queue (the namespace's
 * /proc/net/netfilter/nfnetlink_queue, one line per queue: number, port id, waiting,
 * copy mode, copy range, dropped because the queue was full, dropped because the message
 * could not be delivered, last id, 1).
 */
static void
line_kernel_drops(struct line *l, int final)
{
	unsigned q, portid, total, mode, range, dropped, udropped;
	char buf[256];
	FILE *f;

	if ((f = fopen("/proc/net/netfilter/nfnetlink_queue", "r")) == NULL)
		return;
	while (fgets(buf, sizeof buf, f) != NULL) {
		if (sscanf(buf, "%u %u %u %u %u %u %u", &q, &portid, &total, &mode, &range,
		    &dropped, &udropped) != 7 || q != l->queue)
			continue;
		if (dropped != l->kdropped || udropped != l->kuser_dropped || final)
			log_warnx("queue %u: %u packets dropped by the kernel because the "
			    "queue was full (limit %d), %u because this program's socket "
			    "buffer was full; %" PRIu64 " ENOBUFS", l->queue, dropped,
			    QUEUE_MAXLEN, udropped, l->enobufs);
		l->kdropped = dropped;
		l->kuser_dropped = udropped;
	}
	fclose(f);
}

static void
usage(void)
{
	fprintf(stderr, "usage: gridsubmit-delay --delay MS [--queue N] [--ready-fd FD]\n");
	exit(2);
}

/* The options into l (queue, delay) and *readyfd; the delay in ms. Exits on bad ones. */
static double
parse_options(int argc, char **argv, struct line *l, int *readyfd)
{
	static const struct option longopts[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "queue", required_argument, NULL, 'q' },
		{ "ready-fd", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	double ms = -1;
	char *end;
	long v;
	int c;

	while ((c = getopt_long(argc, argv, "d:q:r:", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			errno = 0;
			ms = strtod(optarg, &end);
			if (errno != 0 || end == optarg || *end != '\0' || !isfinite(ms) ||
			    ms < 0 || ms > 1e6)
				fatalx("--delay %s: not a number of milliseconds in "
				    "0..1e6", optarg);
			break;
		case 'q':
		case 'r':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' || v < 0 || v > 65535)
				fatalx("--%s %s: not a number in 0..65535", c == 'q' ? "queue" :
				    "ready-fd", optarg);
			if (c == 'q')
				l->queue = (unsigned)v;
			else
				*readyfd = (int)v;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || ms < 0)
		usage();
	l->delay = (int64_t)llround(ms * 1e6);
	return ms;
}

/* The netfilter queue of l, bound and set up; its socket non-blocking. */
static struct nfq_handle *
queue_open(struct line *l, double ms)
{
	struct nfq_handle *h;
	int rcvbuf, nlfd;

	if ((h = nfq_open()) == NULL)
		fatal("cannot open a netfilter queue socket (needs root, "
		    "CONFIG_NETFILTER_NETLINK_QUEUE)");
	if ((l->qh = nfq_create_queue(h, (uint16_t)l->queue, line_packet, l)) == NULL)
		fatal("cannot bind queue %u (is another program bound to it?)", l->queue);
	/* the packet's id is all a verdict needs: no payload is copied */
	if (nfq_set_mode(l->qh, NFQNL_COPY_META, 0) == -1)
		fatal("queue %u: cannot set the copy mode", l->queue);
	if (nfq_set_queue_maxlen(l->qh, QUEUE_MAXLEN) == -1)
		fatal("queue %u: cannot set the queue length to %d", l->queue, QUEUE_MAXLEN);
	/* GSO packets queued whole, not cut into segments first: the payload is not read */
	if (nfq_set_queue_flags(l->qh, NFQA_CFG_F_GSO, NFQA_CFG_F_GSO) == -1)
		log_warnx("queue %u: this kernel cannot queue GSO packets whole; they are "
		    "segmented first (more work per byte)", l->queue);
	rcvbuf = (int)nfnl_rcvbufsiz(nfq_nfnlh(h), RCVBUF_BYTES);
	nlfd = nfq_fd(h);
	if (fcntl(nlfd, F_SETFL, fcntl(nlfd, F_GETFL) | O_NONBLOCK) == -1)
		fatal("fcntl");
	log_warnx("queue %u: delaying every packet by %.3f ms (queue limit %d, socket buffer "
	    "%d bytes)", l->queue, ms, QUEUE_MAXLEN, rcvbuf);
	return h;
}

/* Every packet the queue's socket has now, handed to libnetfilter_queue. */
static void
queue_drain(struct nfq_handle *h, struct line *l)
{
	static char buf[1 << 16] __attribute__((aligned));
	int nlfd = nfq_fd(h);

	for (;;) {
		ssize_t n = recv(nlfd, buf, sizeof buf, 0);

		if (n > 0) {
			nfq_handle_packet(h, buf, (int)n);
			continue;
		}
		if (n == -1 && errno == ENOBUFS) {
			/* the kernel dropped what it could not deliver */
			l->enobufs++;
			continue;
		}
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			return;
		fatal("queue %u: recv", l->queue);
	}
}

int
main(int argc, char **argv)
{
	struct nfq_handle *h;
	struct line l;
	struct pollfd pfd[3];
	sigset_t sigs;
	double ms;
	int readyfd = -1, tfd, sfd, running = 1;
	int64_t next_stats;

	log_progname = "gridsubmit-delay";
	setvbuf(stderr, NULL, _IOLBF, 0);
	memset(&l, 0, sizeof l);
	ms = parse_options(argc, argv, &l, &readyfd);

	/* SIGTERM and friends arrive through a descriptor: the loop finishes cleanly */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &sigs, NULL) == -1 ||
	    (sfd = signalfd(-1, &sigs, SFD_NONBLOCK | SFD_CLOEXEC)) == -1)
		fatal("signalfd");
	if ((tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)) == -1)
		fatal("timerfd_create");
	h = queue_open(&l, ms);
	if (readyfd >= 0) {
		if (write(readyfd, "ready\n", 6) != 6)
			fatal("--ready-fd %d", readyfd);
		close(readyfd);
	}

	pfd[0] = (struct pollfd){ nfq_fd(h), POLLIN, 0 };
	pfd[1] = (struct pollfd){ tfd, POLLIN, 0 };
	pfd[2] = (struct pollfd){ sfd, POLLIN, 0 };
	next_stats = now_ns() + STATS_EVERY_NS;
	while (running) {
		int64_t now;

		if (poll(pfd, 3, 1000) == -1) {
			if (errno == EINTR)
				continue;
			fatal("poll");
		}
		if (pfd[0].revents & (POLLIN | POLLERR))
			queue_drain(h, &l);
		if (pfd[1].revents & POLLIN) {
			uint64_t expirations;

			if (read(tfd, &expirations, sizeof expirations) == -1 &&
			    errno != EAGAIN)
				fatal("timerfd read");
		}
		if (pfd[2].revents & POLLIN)
			running = 0;
		now = now_ns();
		line_release(&l, now);
		line_arm(&l, tfd);
		if (now >= next_stats) {
			line_kernel_drops(&l, 0);
			next_stats = now + STATS_EVERY_NS;
		}
	}
	line_kernel_drops(&l, 1);
	log_warnx("queue %u: stopping: %" PRIu64 " packets delayed (at most %zu at once), "
	    "%zu still waiting, %" PRIu64 " ENOBUFS, %" PRIu64 " failed verdicts", l.queue,
	    l.delayed, l.peak, l.n, l.enobufs, l.verdict_errors);
	nfq_destroy_queue(l.qh);
	nfq_close(h);
	free(l.v);
	return 0;
}
