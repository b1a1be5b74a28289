/*
 * test-metrics.c — the Prometheus text reader and its bounds, and metrics_fetch() against
 * a small HTTP server forked by this test on 127.0.0.1 (ok, garbage, chunked and too big,
 * 404, redirect, NaN, never answering; hostile: 80,000 CPU labels, a body trickled past
 * the deadline, absurd clocks and loads), a listener that never accepts, and a closed
 * port. A hang guard (alarm) ends the test if a fetch outlives its deadline.
 * The real prometheus-node-exporter is exercised by tests/broker/test-metrics.sh.
 */
#include <sys/socket.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "broker/metrics.h"
#include "tests/tap.h"

static const char node_body[] =
    "# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.\n"
    "# TYPE node_cpu_seconds_total counter\n"
    "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 1234.5\n"
    "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"} 10\n"
    "node_cpu_seconds_total{cpu=\"1\",mode=\"idle\"} 1200\n"
    "node_cpu_seconds_total{mode=\"idle\",cpu=\"2\"} 1100\n"
    "node_cpu_seconds_total{cpu=\"1\",mode=\"system\"} 3\n"
    "node_cpu_scaling_frequency_hertz{cpu=\"0\"} 2.0e+09\n"
    "node_cpu_scaling_frequency_hertz{cpu=\"1\"} 3e9\n"
    "node_cpu_scaling_frequency_hertz{cpu=\"2\"} NaN\n"
    "# HELP node_load1 1m load average.\n"
    "# TYPE node_load1 gauge\n"
    "node_load1 3.5\n";

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
parse(const char *body, struct metrics_sample *s, char *why)
{
	*why = '\0';
	return metrics_parse(body, strlen(body), s, why, 256);
}

/* A body of n idle CPUs and a load. */
static int
parse_cpus(int n, struct metrics_sample *s, char *why)
{
	char *body = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&body, &len);
	int i, rc;

	for (i = 0; i < n; i++)
		fprintf(f, "node_cpu_seconds_total{cpu=\"%d\",mode=\"idle\"} 1\n", i);
	fprintf(f, "node_load1 0\n");
	fclose(f);
	rc = parse(body, s, why);
	free(body);
	return rc;
}

static void
test_parse(void)
{
	struct metrics_sample s;
	char why[256];
	static const char nul[] = "node_load1 1\n\0junk";

	is_int(parse(node_body, &s, why), 0, "parse: node_exporter body");
	is_dbl(s.load1, 3.5, 0, "parse: load1");
	is_int(s.cores, 3, "parse: 3 distinct idle cpus");
	is_dbl(s.mhz, 2500, 1e-9, "parse: mean scaling frequency in MHz, NaN ignored");
	is_dbl(s.cpu_total, 1234.5 + 10 + 1200 + 1100 + 3, 1e-9, "parse: CPU seconds, all modes");
	is_dbl(s.cpu_idle, 1234.5 + 1200 + 1100, 1e-9, "parse: CPU seconds idle");
	is_int(parse("node_cpu_seconds_total{cpu=\"0\",mode=\"iowait\"} 5\n"
	    "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"} NaN\n"
	    "node_cpu_seconds_total{cpu=\"0\",mode=\"nice\"} -1\nnode_load1 0\n", &s, why), 0,
	    "parse: iowait, a NaN and a negative counter");
	ok(s.cpu_total == 5 && s.cpu_idle == 5, "parse: iowait is not busy; bad counters left out");
	is_int(parse("node_cpu_frequency_hertz{cpu=\"0\"} 1e9\nnode_load1 0\n", &s, why), 0,
	    "parse: cpu_frequency");
	is_dbl(s.mhz, 1000, 1e-9, "parse: node_cpu_frequency_hertz used without scaling");
	is_int(s.cores, 0, "parse: no cpu counters: cores unknown");
	is_int(parse("node_load1{} 0.25 1700000000000\r\n", &s, why), 0,
	    "parse: empty labels, timestamp, CRLF");
	is_dbl(s.load1, 0.25, 0, "parse: load1 0.25");
	is_int(parse("x{a=\"q\\\"uo,te}\",b=\"\\\\\",} 1\nnode_load1 2\n", &s, why), 0,
	    "parse: escaped label values, trailing comma");
	/* the values a site file may leave to the monitor (node-values.h) */
	is_int(parse("node_cpu_frequency_max_hertz{cpu=\"0\"} 3.1e9\n"
	    "node_cpu_frequency_max_hertz{cpu=\"1\"} 3.5e9\n"
	    "node_cpu_scaling_frequency_max_hertz{cpu=\"0\"} 2e9\n"
	    "node_memory_MemTotal_bytes 8.589934592e+09\nnode_load1 0\n", &s, why), 0,
	    "parse: maximum clock and memory");
	is_dbl(s.max_mhz, 3500, 1e-9, "parse: the highest cpuinfo maximum, before scaling's");
	is_dbl(s.mem_mb, 8192, 1e-9, "parse: MemTotal in MiB");
	is_int(parse("node_cpu_scaling_frequency_max_hertz{cpu=\"0\"} 2e9\nnode_load1 0\n", &s,
	    why), 0, "parse: scaling maximum alone");
	is_dbl(s.max_mhz, 2000, 1e-9, "parse: scaling maximum used without cpuinfo's");
	is_int(parse("node_cpu_frequency_max_hertz{cpu=\"0\"} 5e10\nnode_load1 0\n", &s, why), -1,
	    "parse: a 50 GHz CPU is refused");
	is_str(why, "it claims a CPU of 50000 MHz (at most 10000)", "parse: 50 GHz message");
	is_int(parse("node_cpu_scaling_frequency_hertz{cpu=\"0\"} 2e10\nnode_load1 0\n", &s, why),
	    -1, "parse: a current clock of 20 GHz is refused");
	is_int(parse("node_memory_MemTotal_bytes 1e30\nnode_load1 0\n", &s, why), -1,
	    "parse: 1e30 bytes of memory are refused");
	is_str(why, "it claims 9.53674e+23 MiB of memory (at most 67108864)",
	    "parse: memory message");
	is_int(parse("node_memory_MemTotal_bytes NaN\nnode_load1 0\n", &s, why), 0,
	    "parse: NaN memory is none");
	is_dbl(s.mem_mb, 0, 0, "parse: NaN memory read as 0");
	is_int(parse_cpus(4096, &s, why), 0, "parse: 4096 CPUs");
	is_int(s.cores, 4096, "parse: 4096 CPUs counted");
	is_int(parse_cpus(4097, &s, why), -1, "parse: 4097 CPUs refused");
	is_str(why, "it claims more than 4096 CPUs", "parse: CPUs message");
	is_int(parse("node_load15 1\nnode_load1x 2\n", &s, why), -1, "parse: no node_load1");
	is_str(why, "no node_load1 in the response", "parse: no node_load1 message");
	is_int(parse("node_load1 NaN\n", &s, why), -1, "parse: NaN load");
	is_str(why, "node_load1 is NaN", "parse: NaN message");
	is_int(parse("node_load1 +Inf\n", &s, why), -1, "parse: +Inf load");
	is_str(why, "node_load1 is +Inf", "parse: +Inf message");
	is_int(parse("node_load1 -1\n", &s, why), -1, "parse: negative load");
	is_int(parse("<html><body>hello</body></html>\n", &s, why), -1, "parse: html");
	is_str(why, "not Prometheus text format (line 1)", "parse: html message");
	is_int(parse("# ok\nnode_load1 1\nnode_load1 one\n", &s, why), -1, "parse: bad value");
	is_str(why, "not Prometheus text format (line 3)", "parse: bad value line");
	is_int(parse("node_load1{cpu=\"0\" 1\n", &s, why), -1, "parse: unclosed labels");
	is_int(parse("node_load1 1 2 3\n", &s, why), -1, "parse: trailing junk");
	is_int(parse("node_load1\n", &s, why), -1, "parse: no value");
	is_int(parse("", &s, why), -1, "parse: empty");
	is_str(why, "empty response", "parse: empty message");
	is_int(metrics_parse(nul, sizeof nul - 1, &s, why, sizeof why), -1, "parse: NUL byte");
	is_str(why, "binary data in the response", "parse: binary message");
}

/* A body of n lines, each an idle CPU of its own label, then a load; free it. */
static char *
body_labels(int n, size_t *len)
{
	char *body = NULL;
	FILE *f = open_memstream(&body, len);
	int i;

	for (i = 0; i < n; i++)
		fprintf(f, "node_cpu_seconds_total{cpu=\"%d\",mode=\"idle\"} 1\n", i);
	fprintf(f, "node_load1 0\n");
	fclose(f);
	return body;
}

/* The parser's bounds on work and values (metrics.h). */
static void
test_parse_bounds(void)
{
	struct metrics_sample s;
	char why[256], *body;
	size_t len;
	int i;

	body = body_labels(80000, &len);
	is_int(metrics_parse(body, len, &s, why, sizeof why), -1, "bounds: 80,000 CPU labels");
	is_str(why, "it claims more than 4096 CPUs", "bounds: 80,000 labels message");
	/* the same labels again and again are one CPU each: the hash finds them */
	free(body);
	body = NULL;
	{
		FILE *f = open_memstream(&body, &len);

		for (i = 0; i < 100000; i++)
			fprintf(f, "node_cpu_seconds_total{cpu=\"%d\",mode=\"idle\"} 1\n",
			    i % 64);
		fprintf(f, "node_load1 0\n");
		fclose(f);
	}
	is_int(metrics_parse(body, len, &s, why, sizeof why), 0, "bounds: 64 labels, 100,000 times");
	is_int(s.cores, 64, "bounds: 64 distinct CPUs counted once each");
	/* a deadline already passed: the parse stops at its first look at the clock */
	is_int(metrics_parse_by(body, len, now() - 1, &s, why, sizeof why), -1,
	    "bounds: no parse after the deadline");
	is_str(why, "no time left to read its 1024 lines", "bounds: deadline message");
	free(body);
	body = body_labels(METRICS_MAX_SAMPLES, &len);
	is_int(metrics_parse(body, len, &s, why, sizeof why), -1, "bounds: too many samples");
	is_str(why, "more than 200000 samples", "bounds: samples message");
	free(body);
	is_int(parse("node_load1 1e300\n", &s, why), -1, "bounds: a load of 1e300 refused");
	is_str(why, "it claims a load of 1e+300 (at most 1000000)", "bounds: load message");
	is_int(parse("node_load1 1000000\n", &s, why), 0, "bounds: a load of 1,000,000 taken");
	is_int(parse("node_cpu_scaling_frequency_hertz{cpu=\"0\"} 1e306\nnode_load1 0\n", &s,
	    why), -1, "bounds: a clock of 1e300 MHz refused");
	is_str(why, "it claims a CPU of 1e+300 MHz (at most 10000)", "bounds: clock message");
	is_int(parse("node_cpu_scaling_frequency_hertz{cpu=\"0\"} 1e-300\n"
	    "node_cpu_frequency_max_hertz{cpu=\"0\"} 999999\nnode_load1 0\n", &s, why), 0,
	    "bounds: clocks below 1 MHz");
	ok(s.mhz == 0 && s.max_mhz == 0, "bounds: a clock below 1 MHz is none (%g, %g)", s.mhz,
	    s.max_mhz);
	is_int(parse("node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 1e308\n"
	    "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"} 1e308\n"
	    "node_cpu_seconds_total{cpu=\"0\",mode=\"system\"} 7\nnode_load1 0\n", &s, why), 0,
	    "bounds: CPU counters of 1e308 s");
	ok(s.cpu_total == 7 && s.cpu_idle == 0, "bounds: counters past 10^12 s left out (%g)",
	    s.cpu_total);
	is_int(parse("node_cpu_seconds_total{cpu=\"1000000000\",mode=\"idle\"} 1\n"
	    "node_load1 0\n", &s, why), 0, "bounds: a CPU labelled 10^9");
	is_int(s.cores, 1, "bounds: a label is one CPU, not a count");
}

/* --- a tiny HTTP server: one process per connection, all in one process group */

static int
listen_any(int *port)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof sa;
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) == -1 || listen(fd, 64) == -1)
		return -1;
	getsockname(fd, (struct sockaddr *)&sa, &len);
	*port = ntohs(sa.sin_port);
	return fd;
}

static void
writes(int fd, const char *s)
{
	size_t n = strlen(s);
	ssize_t w;

	while (n > 0 && (w = write(fd, s, n)) > 0) {
		s += w;
		n -= (size_t)w;
	}
}

static void
serve_one(int c, int hits)
{
	char req[2048], path[256], hdr[256];
	ssize_t n;
	size_t got = 0;
	int i;

	while (got < sizeof req - 1 && (n = read(c, req + got, sizeof req - 1 - got)) > 0) {
		got += (size_t)n;
		req[got] = '\0';
		if (strstr(req, "\r\n\r\n") != NULL)
			break;
	}
	req[got] = '\0';
	if (sscanf(req, "GET %255s", path) != 1)
		_exit(0);
	if (write(hits, "x", 1) != 1)
		_exit(1);
	if (strncmp(path, "/ok", 3) == 0) {
		snprintf(hdr, sizeof hdr, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
		    "Content-Length: %zu\r\nConnection: close\r\n\r\n", strlen(node_body));
		writes(c, hdr);
		writes(c, node_body);
	} else if (strcmp(path, "/junk") == 0) {
		writes(c, "HTTP/1.1 200 OK\r\nContent-Length: 17\r\nConnection: close\r\n\r\n"
		    "%%garbage%%\x01\x02xyz\n");
	} else if (strcmp(path, "/nan") == 0) {
		writes(c, "HTTP/1.1 200 OK\r\nContent-Length: 15\r\nConnection: close\r\n\r\n"
		    "node_load1 NaN\n");
	} else if (strcmp(path, "/big") == 0) {
		/* chunked, like node_exporter: no length for curl to check up front */
		writes(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
		    "Connection: close\r\n\r\n");
		for (i = 0; i < 200; i++) {
			char chunk[1100];

			memset(chunk, 'a', sizeof chunk);
			memcpy(chunk, "400\r\n# ", 7);
			memcpy(chunk + 5 + 1024, "\r\n", 2);
			if (write(c, chunk, 5 + 1024 + 2) <= 0)
				break;
		}
		writes(c, "0\r\n\r\n");
	} else if (strcmp(path, "/redirect") == 0) {
		writes(c, "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/ok\r\n"
		    "Content-Length: 0\r\nConnection: close\r\n\r\n");
	} else if (strcmp(path, "/silent") == 0) {
		sleep(30);
	} else if (strcmp(path, "/labels") == 0) {
		/* 80,000 distinct CPU labels, chunked (under the 4 MiB cap) */
		writes(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
		    "Connection: close\r\n\r\n");
		for (i = 0; i < 80000; i++) {
			char line[128], chunk[160];

			snprintf(line, sizeof line,
			    "node_cpu_seconds_total{cpu=\"%d\",mode=\"idle\"} 1\n", i);
			snprintf(chunk, sizeof chunk, "%zx\r\n%s\r\n", strlen(line), line);
			writes(c, chunk);
		}
		writes(c, "d\r\nnode_load1 0\n\r\n0\r\n\r\n");
	} else if (strcmp(path, "/trickle") == 0) {
		/* a valid body, one line every 50 ms for 30 s: never done by the deadline */
		writes(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
		    "Connection: close\r\n\r\n");
		for (i = 0; i < 600; i++) {
			writes(c, "d\r\nnode_load1 0\n\r\n");
			usleep(50000);
		}
		writes(c, "0\r\n\r\n");
	} else if (strcmp(path, "/hostile") == 0) {
		writes(c, "HTTP/1.1 200 OK\r\nContent-Length: 74\r\nConnection: close\r\n\r\n"
		    "node_cpu_scaling_frequency_hertz{cpu=\"1000000000\"} 1e306\n"
		    "node_load1 1e300\n");
	} else {
		writes(c, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n"
		    "Connection: close\r\n\r\n");
	}
	shutdown(c, SHUT_WR);
	_exit(0);
}

static pid_t
server_start(int lfd, int hits)
{
	pid_t pid = fork();
	int c;

	if (pid != 0)
		return pid;
	setpgid(0, 0);
	signal(SIGCHLD, SIG_IGN);
	for (;;) {
		if ((c = accept(lfd, NULL, NULL)) == -1)
			continue;
		if (fork() == 0) {
			close(lfd);
			serve_one(c, hits);
		}
		close(c);
	}
}

static struct gs_node *
node(struct gs_sites *s, const char *url)
{
	struct gs_node *n = &s->nodes[s->nnodes++];

	memset(n, 0, sizeof *n);
	n->host = "h";
	n->cpu_mhz = 1000;
	n->cores = 4;
	n->monitor = url != NULL ? strdup(url) : NULL;
	return n;
}

static void
nodes_free(struct gs_sites *s)
{
	size_t i;

	for (i = 0; i < s->nnodes; i++) {
		free(s->nodes[i].monitor);
		free(s->nodes[i].stale);
	}
}

static void
test_fetch(void)
{
	struct gs_sites s;
	struct gs_node nodes[16];
	struct metrics_opts opt;
	char url[16][128], want[256], buf[64];
	int lfd, sfd, dead, port, sport, deadport, hits[2], rc, i;
	pid_t srv;
	double t0, el;
	ssize_t n;

	if ((lfd = listen_any(&port)) == -1 || (sfd = listen_any(&sport)) == -1 ||
	    (dead = listen_any(&deadport)) == -1) {
		ok(0, "cannot listen on 127.0.0.1: %s", strerror(errno));
		return;
	}
	close(dead);		/* a port nobody listens on: connection refused */
	if (pipe(hits) == -1)
		return;
	srv = server_start(lfd, hits[1]);
	close(lfd);
	close(hits[1]);

	memset(&s, 0, sizeof s);
	s.nodes = nodes;
	snprintf(url[0], 128, "http://127.0.0.1:%d/ok", port);
	snprintf(url[1], 128, "http://127.0.0.1:%d/junk", port);
	snprintf(url[2], 128, "http://127.0.0.1:%d/big", port);
	snprintf(url[3], 128, "http://127.0.0.1:%d/nope", port);
	snprintf(url[4], 128, "http://127.0.0.1:%d/redirect", port);
	snprintf(url[5], 128, "http://127.0.0.1:%d/nan", port);
	snprintf(url[6], 128, "http://127.0.0.1:%d/metrics", deadport);
	snprintf(url[7], 128, "http://127.0.0.1:%d/metrics", sport);	/* never accepted */
	snprintf(url[8], 128, "http://127.0.0.1:%d/silent", port);	/* accepted, no reply */
	snprintf(url[9], 128, "file:///etc/passwd");
	snprintf(url[10], 128, "http://127.0.0.1:%d/ok?n=2", port);
	for (i = 0; i < 11; i++)
		node(&s, url[i]);
	node(&s, url[0]);	/* the same URL as node 0: fetched once */
	node(&s, NULL);		/* no monitor: left alone */
	nodes[12].stale = NULL;

	memset(&opt, 0, sizeof opt);
	opt.timeout = 1.5;
	opt.connect_timeout = 1.0;
	opt.max_body = 100000;
	t0 = now();
	rc = metrics_fetch(&s, &opt);
	el = now() - t0;
	is_int(rc, 3, "fetch: 3 nodes read (ok, ok?n=2, and ok's twin)");
	ok(el < 1.5 * 1.5, "fetch: returned within 1.5x the timeout (%.2f s)", el);
	ok(el >= 0.9, "fetch: waited for the slow ones (%.2f s)", el);

	ok(nodes[0].have_metrics && nodes[0].stale == NULL, "ok: metrics");
	is_dbl(nodes[0].load1, 3.5, 0, "ok: load1 3.5");
	is_int(nodes[0].live_cores, 3, "ok: 3 cpus");
	is_dbl(nodes[0].live_mhz, 2500, 1e-9, "ok: 2500 MHz");
	is_dbl(metrics_node_cl(&nodes[0]), 1 + 3.5 / 3, 1e-12, "ok: CL = 1 + 3.5/3");
	is_dbl(metrics_node_cs(&nodes[0]), 2500 * 3, 1e-9, "ok: CS = live MHz x 3 cores");
	ok(nodes[11].have_metrics && nodes[11].load1 == 3.5, "dedup: the twin has metrics");
	ok(nodes[10].have_metrics, "query string: a distinct URL, read");

#define STALE(i, reason) do { \
	snprintf(want, sizeof want, "%s: %s", url[i], reason); \
	ok(!nodes[i].have_metrics, "node %d not live", i); \
	is_str(nodes[i].stale, want, "node %d stale reason", i); \
	is_dbl(metrics_node_cl(&nodes[i]), 1, 0, "node %d CL 1", i); \
} while (0)
	STALE(1, "not Prometheus text format (line 1)");
	STALE(2, "response larger than 100000 bytes");
	STALE(3, "HTTP status 404");
	STALE(4, "HTTP status 302 (redirects are not followed)");
	STALE(5, "node_load1 is NaN");
	STALE(6, "connection refused");
	STALE(7, "timed out after 1.5 s");
	STALE(8, "timed out after 1.5 s");
	STALE(9, "unsupported protocol (http and https only)");
	ok(nodes[12].stale == NULL && !nodes[12].have_metrics, "no monitor: not stale");

	/* requests: ok, junk, big, nope, redirect, nan, silent, ok?n=2 = 8; the twin adds none */
	usleep(100000);
	fcntl(hits[0], F_SETFL, O_NONBLOCK);
	rc = 0;
	while ((n = read(hits[0], buf, sizeof buf)) > 0)
		rc += (int)n;
	is_int(rc, 8, "dedup: one request per distinct URL");

	/* a second fetch replaces the old stale reasons */
	s.nnodes = 1;
	free(nodes[0].monitor);
	nodes[0].monitor = strdup(url[6]);
	is_int(metrics_fetch(&s, &opt), 0, "refetch: nothing read");
	snprintf(want, sizeof want, "%s: connection refused", url[6]);
	is_str(nodes[0].stale, want, "refetch: new reason");
	ok(!nodes[0].have_metrics, "refetch: live values cleared");
	s.nnodes = 13;

	kill(-srv, SIGKILL);
	waitpid(srv, NULL, 0);
	close(hits[0]);
	close(sfd);
	nodes_free(&s);
}

/*
 * Hostile exporters: 80,000 labels, a body trickled past the deadline, a clock of 1e300
 * MHz with a load of 1e300. Each node is named with its reason and the fetch returns: an
 * alarm ends the test (a failure) if it outlives its deadline four times over.
 */
static void
test_fetch_hostile(void)
{
	struct gs_sites s;
	struct gs_node nodes[4];
	struct metrics_opts opt;
	char url[3][128], want[256];
	int lfd, port, hits[2], i;
	pid_t srv;

	if ((lfd = listen_any(&port)) == -1 || pipe(hits) == -1) {
		ok(0, "cannot listen on 127.0.0.1: %s", strerror(errno));
		return;
	}
	srv = server_start(lfd, hits[1]);
	close(lfd);
	close(hits[1]);
	memset(&s, 0, sizeof s);
	s.nodes = nodes;
	snprintf(url[0], 128, "http://127.0.0.1:%d/labels", port);
	snprintf(url[1], 128, "http://127.0.0.1:%d/trickle", port);
	snprintf(url[2], 128, "http://127.0.0.1:%d/hostile", port);
	for (i = 0; i < 3; i++)
		node(&s, url[i]);
	memset(&opt, 0, sizeof opt);
	opt.timeout = 3;
	opt.connect_timeout = 1;
	alarm(12);
	is_int(metrics_fetch(&s, &opt), 0, "hostile: no node read");
	alarm(0);
	STALE(0, "it claims more than 4096 CPUs");
	STALE(1, "timed out after 3.0 s");
	STALE(2, "it claims a load of 1e+300 (at most 1000000)");
	ok(metrics_node_cores(&nodes[0]) == 4 && metrics_node_cs(&nodes[2]) == 4000,
	    "hostile: the site file's cores and clock rank them (cores %d, CS %g)",
	    metrics_node_cores(&nodes[0]), metrics_node_cs(&nodes[2]));
	kill(-srv, SIGKILL);
	waitpid(srv, NULL, 0);
	close(hits[0]);
	nodes_free(&s);
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_parse();
	test_parse_bounds();
	test_fetch();
	test_fetch_hostile();
	return tap_done();
}
