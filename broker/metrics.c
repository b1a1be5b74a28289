/*
 * metrics.c — live node metrics over HTTP (metrics.h): libcurl multi, every monitor URL at
 * once, bounded in time and size, and a careful but simple reader of the Prometheus text
 * format (one "name{labels} value [timestamp]" sample per line).
 *
 * libcurl 7.88 facts this relies on (doc/reliability.md, "HTTP metrics"): CURLOPT_MAXFILESIZE
 * does not stop chunked bodies, and node_exporter sends chunked bodies, so the size cap is
 * enforced in the write callback; the default timeouts are 300 s connect and none total.
 */
#include <sys/resource.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "broker/metrics.h"
#include "broker/node-values.h"
#include "common/clock.h"
#include "common/xmalloc.h"
#include "gen/gs-config.h"


/* The most distinct CPUs we count: one more than a response may claim (metrics.h). */
#define METRICS_MAX_CPUS	(METRICS_MAX_CORES + 1)
/* The CPU labels' hash: a power of two, at least twice METRICS_MAX_CPUS (open addressing). */
#define METRICS_CPU_SLOTS	8192
/* The parse looks at the clock once per this many lines. */
#define METRICS_CLOCK_LINES	1024

/* --- the Prometheus text format */

struct parse_state {
	int have_load;
	double load1;
	char **cpus;		/* distinct cpu label values of idle CPU time: a hash */
	size_t ncpus;
	double scaling_sum, freq_sum;
	int scaling_n, freq_n;
	double freq_max, scaling_max;	/* Hz; 0: none */
	double mem_bytes;		/* node_memory_MemTotal_bytes; 0: none */
	double cpu_total, cpu_idle;	/* CPU seconds: all modes, idle and iowait */
};

static int
metric_name_start(int c)
{
	return isalpha(c) || c == '_' || c == ':';
}

static int
metric_name_char(int c)
{
	return isalnum(c) || c == '_' || c == ':';
}

/*
 * One sample line: name, optional {labels}, value, optional timestamp. The label values we
 * need (cpu, mode) are copied into cpu/mode. Returns 0, or -1 when the line is malformed.
 */
static int
parse_sample(const char *s, const char *end, char *name, size_t namelen, char *cpu,
    size_t cpulen, char *mode, size_t modelen, double *value)
{
	const char *p = s, *v;
	char num[64];
	char *ep;
	size_t n;

	*cpu = *mode = '\0';
	if (p == end || !metric_name_start((unsigned char)*p))
		return -1;
	while (p < end && metric_name_char((unsigned char)*p))
		p++;
	n = (size_t)(p - s);
	if (n >= namelen)
		n = namelen - 1;
	memcpy(name, s, n);
	name[n] = '\0';
	if (p < end && *p == '{') {
		p++;
		for (;;) {
			const char *ln;
			size_t lnlen, vlen = 0;
			char val[64];

			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			if (p < end && *p == '}') {
				p++;
				break;
			}
			ln = p;
			if (p == end || !(isalpha((unsigned char)*p) || *p == '_'))
				return -1;
			while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
				p++;
			lnlen = (size_t)(p - ln);
			if (p == end || *p++ != '=' || p == end || *p++ != '"')
				return -1;
			while (p < end && *p != '"') {
				char c = *p++;

				if (c == '\\') {
					if (p == end)
						return -1;
					c = *p++;
					if (c == 'n')
						c = '\n';
					else if (c != '\\' && c != '"')
						return -1;
				}
				if (vlen < sizeof val - 1)
					val[vlen++] = c;
			}
			if (p == end)
				return -1;
			p++;	/* the closing quote */
			val[vlen] = '\0';
			if (lnlen == 3 && memcmp(ln, "cpu", 3) == 0)
				snprintf(cpu, cpulen, "%s", val);
			else if (lnlen == 4 && memcmp(ln, "mode", 4) == 0)
				snprintf(mode, modelen, "%s", val);
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			if (p < end && *p == ',') {
				p++;
				continue;
			}
			if (p < end && *p == '}') {
				p++;
				break;
			}
			return -1;
		}
	}
	if (p == end || (*p != ' ' && *p != '\t'))
		return -1;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	v = p;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	if (p == v || (size_t)(p - v) >= sizeof num)
		return -1;
	memcpy(num, v, (size_t)(p - v));
	num[p - v] = '\0';
	/* strtod reads NaN, +Inf, -Inf as the format writes them */
	errno = 0;
	*value = strtod(num, &ep);
	if (*ep != '\0')
		return -1;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end) {
		/* an optional integer timestamp (ms) */
		if (*p == '-')
			p++;
		if (p == end || !isdigit((unsigned char)*p))
			return -1;
		while (p < end && isdigit((unsigned char)*p))
			p++;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p != end)
			return -1;
	}
	return 0;
}

/*
 * Count a distinct CPU label: a lookup in an open-addressed hash (FNV-1a), so that a
 * response of 80,000 labels costs 80,000 lookups, not a scan of every label seen for
 * each (the table never holds more than METRICS_MAX_CPUS, under half its slots).
 */
static void
parse_add_cpu(struct parse_state *st, const char *cpu)
{
	uint32_t h = 2166136261u;
	const unsigned char *c;
	size_t i;

	for (c = (const unsigned char *)cpu; *c != '\0'; c++)
		h = (h ^ *c) * 16777619u;
	for (i = h & (METRICS_CPU_SLOTS - 1); st->cpus[i] != NULL;
	    i = (i + 1) & (METRICS_CPU_SLOTS - 1))
		if (strcmp(st->cpus[i], cpu) == 0)
			return;
	if (st->ncpus >= METRICS_MAX_CPUS)
		return;
	st->cpus[i] = xstrdup(cpu);
	st->ncpus++;
}

/*
 * A frequency in Hz worth taking: finite and at least METRICS_MIN_MHZ (a clock near 0
 * would make CS near 0; one too high is refused later, by parse_bounds, with its value).
 */
static int
parse_hz_usable(double v)
{
	return isfinite(v) && v >= METRICS_MIN_MHZ * 1e6;
}

/* The node values a site file may leave to the monitor (node-values.h): the largest seen. */
static void
parse_node_values(struct parse_state *st, const char *name, double v)
{
	double *to = NULL;

	if (strcmp(name, "node_cpu_frequency_max_hertz") == 0)
		to = &st->freq_max;
	else if (strcmp(name, "node_cpu_scaling_frequency_max_hertz") == 0)
		to = &st->scaling_max;
	else if (strcmp(name, "node_memory_MemTotal_bytes") == 0)
		to = &st->mem_bytes;
	/* NaN fails every comparison: it is never taken; nor is a clock below 1 MHz */
	if (to != NULL && to != &st->mem_bytes && !parse_hz_usable(v))
		return;
	if (to != NULL && v > *to)
		*to = v;
}

/* What a monitor may claim (metrics.h): 0, or -1 with why. */
static int
parse_bounds(const struct metrics_sample *s, char *why, size_t whylen)
{
	if (s->load1 > METRICS_MAX_LOAD)
		snprintf(why, whylen, "it claims a load of %g (at most %.0f)", s->load1,
		    METRICS_MAX_LOAD);
	else if (s->cores > METRICS_MAX_CORES)
		snprintf(why, whylen, "it claims more than %d CPUs", METRICS_MAX_CORES);
	else if (s->mhz > METRICS_MAX_MHZ || s->max_mhz > METRICS_MAX_MHZ)
		snprintf(why, whylen, "it claims a CPU of %g MHz (at most %.0f)",
		    s->mhz > s->max_mhz ? s->mhz : s->max_mhz, METRICS_MAX_MHZ);
	else if (!isfinite(s->mem_mb) || s->mem_mb > METRICS_MAX_MEM_MB)
		snprintf(why, whylen, "it claims %g MiB of memory (at most %.0f)", s->mem_mb,
		    METRICS_MAX_MEM_MB);
	else
		return 0;
	return -1;
}

/*
 * CPU seconds for the busy fraction between two fetches (jobrun-loads.c): a counter that is
 * not a finite non-negative number is left out, so that one bad line cannot make the
 * fraction up.
 */
static void
metrics_cpu_add(struct parse_state *st, const char *mode, double v)
{
	if (!isfinite(v) || v < 0 || v > METRICS_MAX_CPU_SECONDS)
		return;
	st->cpu_total += v;
	if (strcmp(mode, "idle") == 0 || strcmp(mode, "iowait") == 0)
		st->cpu_idle += v;
}

int
metrics_parse(const char *body, size_t len, struct metrics_sample *out, char *why,
    size_t whylen)
{
	return metrics_parse_by(body, len, 0, out, why, whylen);
}

int
metrics_parse_by(const char *body, size_t len, double deadline,
    struct metrics_sample *out, char *why, size_t whylen)
{
	struct parse_state st;
	const char *p = body, *end = body + len;
	size_t i, line = 0, samples = 0;
	int rc = -1;

	memset(&st, 0, sizeof st);
	memset(out, 0, sizeof *out);
	st.cpus = xcalloc(METRICS_CPU_SLOTS, sizeof *st.cpus);
	if (len == 0) {
		snprintf(why, whylen, "empty response");
		goto out;
	}
	if (memchr(body, '\0', len) != NULL) {
		snprintf(why, whylen, "binary data in the response");
		goto out;
	}
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *le;
		char name[128], cpu[64], mode[64];
		double v;

		if (eol == NULL)
			eol = end;
		le = eol;
		line++;
		if (deadline > 0 && line % METRICS_CLOCK_LINES == 0 && clock_mono() > deadline) {
			snprintf(why, whylen, "no time left to read its %zu lines", line);
			goto out;
		}
		if (le > p && le[-1] == '\r')
			le--;
		while (p < le && (*p == ' ' || *p == '\t'))
			p++;
		if (p == le || *p == '#') {
			p = eol + 1;
			continue;
		}
		if (parse_sample(p, le, name, sizeof name, cpu, sizeof cpu, mode, sizeof mode,
		    &v) == -1) {
			snprintf(why, whylen, "not Prometheus text format (line %zu)", line);
			goto out;
		}
		if (++samples > METRICS_MAX_SAMPLES) {
			snprintf(why, whylen, "more than %d samples", METRICS_MAX_SAMPLES);
			goto out;
		}
		if (strcmp(name, "node_load1") == 0 && !st.have_load) {
			st.have_load = 1;
			st.load1 = v;
		} else if (strcmp(name, "node_cpu_seconds_total") == 0) {
			if (strcmp(mode, "idle") == 0 && *cpu != '\0')
				parse_add_cpu(&st, cpu);
			metrics_cpu_add(&st, mode, v);
		} else if (strcmp(name, "node_cpu_scaling_frequency_hertz") == 0) {
			/* frequency is optional: an unusable value is ignored, not fatal */
			if (parse_hz_usable(v)) {
				st.scaling_sum += v;
				st.scaling_n++;
			}
		} else if (strcmp(name, "node_cpu_frequency_hertz") == 0) {
			if (parse_hz_usable(v)) {
				st.freq_sum += v;
				st.freq_n++;
			}
		} else
			parse_node_values(&st, name, v);
		p = eol + 1;
	}
	if (!st.have_load) {
		snprintf(why, whylen, "no node_load1 in the response");
		goto out;
	}
	if (isnan(st.load1)) {
		snprintf(why, whylen, "node_load1 is NaN");
		goto out;
	}
	if (isinf(st.load1)) {
		snprintf(why, whylen, "node_load1 is %sInf", st.load1 < 0 ? "-" : "+");
		goto out;
	}
	if (st.load1 < 0) {
		snprintf(why, whylen, "node_load1 is negative (%g)", st.load1);
		goto out;
	}
	out->load1 = st.load1;
	out->cores = (int)st.ncpus;
	out->cpu_total = st.cpu_total;
	out->cpu_idle = st.cpu_idle;
	/* Hz -> MHz; the scaling driver's current frequency is preferred when both exist */
	if (st.scaling_n > 0)
		out->mhz = st.scaling_sum / st.scaling_n / 1e6;
	else if (st.freq_n > 0)
		out->mhz = st.freq_sum / st.freq_n / 1e6;
	out->max_mhz = (st.freq_max > 0 ? st.freq_max : st.scaling_max) / 1e6;
	out->mem_mb = st.mem_bytes / (1024.0 * 1024.0);
	rc = parse_bounds(out, why, whylen);
out:
	for (i = 0; i < METRICS_CPU_SLOTS; i++)
		free(st.cpus[i]);
	free(st.cpus);
	return rc;
}

/* --- the terms of the performance function */

int
metrics_node_cores(const struct gs_node *n)
{
	int c = n->cores;

	if (n->have_metrics && n->live_cores > 0 && (c <= 0 || n->live_cores < c))
		c = n->live_cores;
	return c > 0 ? c : 1;
}

double
metrics_node_mhz(const struct gs_node *n)
{
	if (n->have_metrics && n->live_mhz > 0)
		return n->live_mhz;
	return n->cpu_mhz > 0 ? n->cpu_mhz : 0;
}

double
metrics_node_cs(const struct gs_node *n)
{
	return metrics_node_mhz(n) * metrics_node_cores(n);
}

double
metrics_node_cl(const struct gs_node *n)
{
	int cores;

	if (!n->have_metrics)
		return 1;
	cores = n->live_cores > 0 ? n->live_cores : n->cores;
	if (cores <= 0)
		cores = 1;
	return 1 + n->load1 / cores;
}

void
metrics_clear(struct gs_node *n)
{
	n->have_metrics = 0;
	n->load1 = 0;
	n->live_cores = 0;
	n->live_mhz = 0;
	n->live_cpu_total = 0;
	n->live_cpu_idle = 0;
	free(n->stale);
	n->stale = NULL;
}

/* --- fetching */

struct fetch {
	const char *url;
	CURL *h;
	char *buf;
	size_t len, cap, max;
	int over;		/* the body passed max */
	int done;
	int ok;
	struct metrics_sample sample;
	char why[256];
	char errbuf[CURL_ERROR_SIZE];
};

static size_t
metrics_write(char *data, size_t size, size_t nmemb, void *arg)
{
	struct fetch *f = arg;
	size_t n = size * nmemb;

	/* returning less than n makes curl stop with CURLE_WRITE_ERROR */
	if (n > f->max - f->len) {
		f->over = 1;
		return 0;
	}
	if (f->len + n + 1 > f->cap) {
		size_t cap = f->cap ? f->cap : 16384;

		while (cap < f->len + n + 1)
			cap *= 2;
		f->buf = xreallocarray(f->buf, 1, cap);
		f->cap = cap;
	}
	memcpy(f->buf + f->len, data, n);
	f->len += n;
	f->buf[f->len] = '\0';
	return n;
}

/* A lowercase first letter, as our messages are written. */
static void
metrics_lower(char *s)
{
	if (s[0] != '\0' && isupper((unsigned char)s[0]) &&
	    (s[1] == '\0' || !isupper((unsigned char)s[1])))
		s[0] = (char)tolower((unsigned char)s[0]);
}

static void
fetch_result(struct fetch *f, CURLcode rc, const struct metrics_opts *opt, double deadline)
{
	long status = 0, oserr = 0;
	curl_off_t connected = 0;

	f->done = 1;
	switch (rc) {
	case CURLE_OK:
		curl_easy_getinfo(f->h, CURLINFO_RESPONSE_CODE, &status);
		if (status != 200) {
			snprintf(f->why, sizeof f->why, "HTTP status %ld%s", status,
			    status >= 300 && status < 400 ? " (redirects are not followed)" : "");
			return;
		}
		if (metrics_parse_by(f->buf != NULL ? f->buf : "", f->len, deadline, &f->sample,
		    f->why, sizeof f->why) == 0)
			f->ok = 1;
		return;
	case CURLE_WRITE_ERROR:
		if (f->over) {
			snprintf(f->why, sizeof f->why, "response larger than %zu bytes", f->max);
			return;
		}
		break;
	case CURLE_OPERATION_TIMEDOUT:
		curl_easy_getinfo(f->h, CURLINFO_CONNECT_TIME_T, &connected);
		if (connected == 0)
			snprintf(f->why, sizeof f->why, "connect timed out after %.1f s",
			    opt->connect_timeout);
		else
			snprintf(f->why, sizeof f->why, "timed out after %.1f s", opt->timeout);
		return;
	case CURLE_COULDNT_CONNECT:
		curl_easy_getinfo(f->h, CURLINFO_OS_ERRNO, &oserr);
		if (oserr != 0) {
			snprintf(f->why, sizeof f->why, "%s", strerror((int)oserr));
			metrics_lower(f->why);
			return;
		}
		break;
	case CURLE_UNSUPPORTED_PROTOCOL:
		snprintf(f->why, sizeof f->why, "unsupported protocol (http and https only)");
		return;
	case CURLE_COULDNT_RESOLVE_HOST:
		snprintf(f->why, sizeof f->why, "cannot resolve the host name");
		return;
	default:
		break;
	}
	snprintf(f->why, sizeof f->why, "%s", f->errbuf[0] != '\0' ? f->errbuf :
	    curl_easy_strerror(rc));
	metrics_lower(f->why);
}

static int
fetch_url_cmp(const void *a, const void *b)
{
	const struct gs_node *const *x = a, *const *y = b;
	int c = strcmp((*x)->monitor, (*y)->monitor);

	if (c != 0)
		return c;
	return *x < *y ? -1 : *x > *y;
}

static int
metrics_setup(struct fetch *f, const struct metrics_opts *opt, struct curl_slist *hdr)
{
	if ((f->h = curl_easy_init()) == NULL)
		return -1;
	curl_easy_setopt(f->h, CURLOPT_URL, f->url);
	/* http and https only, and no redirects: a node's URL must not send us elsewhere */
	curl_easy_setopt(f->h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(f->h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(f->h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(f->h, CURLOPT_CONNECTTIMEOUT_MS, (long)(opt->connect_timeout * 1000));
	curl_easy_setopt(f->h, CURLOPT_TIMEOUT_MS, (long)(opt->timeout * 1000));
	curl_easy_setopt(f->h, CURLOPT_NOSIGNAL, 1L);
	/* exporters live on the grid's own network: never through an http_proxy */
	curl_easy_setopt(f->h, CURLOPT_PROXY, "");
	curl_easy_setopt(f->h, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(f->h, CURLOPT_USERAGENT, "gridsubmit/" GS_VERSION);
	curl_easy_setopt(f->h, CURLOPT_WRITEFUNCTION, metrics_write);
	curl_easy_setopt(f->h, CURLOPT_WRITEDATA, f);
	curl_easy_setopt(f->h, CURLOPT_PRIVATE, f);
	curl_easy_setopt(f->h, CURLOPT_ERRORBUFFER, f->errbuf);
	return 0;
}

/* opt from optp (NULL: all defaults) with its defaults filled in; the parallel transfers. */
static long
metrics_opts_fill(struct metrics_opts *opt, const struct metrics_opts *optp)
{
	struct rlimit rl;
	long maxpar;

	if (optp != NULL)
		*opt = *optp;
	else
		memset(opt, 0, sizeof *opt);
	if (opt->connect_timeout <= 0)
		opt->connect_timeout = METRICS_CONNECT_TIMEOUT;
	if (opt->timeout <= 0)
		opt->timeout = METRICS_TIMEOUT;
	if (opt->connect_timeout > opt->timeout)
		opt->connect_timeout = opt->timeout;
	if (opt->max_body == 0)
		opt->max_body = METRICS_MAX_BODY;
	maxpar = opt->max_parallel > 0 ? opt->max_parallel : METRICS_MAX_PARALLEL;
	/* leave descriptors for the rest of the program */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (rlim_t)maxpar + 64 > rl.rlim_cur)
		maxpar = rl.rlim_cur > 80 ? (long)rl.rlim_cur - 64 : 16;
	return maxpar;
}

/*
 * Run the n fetches at once (curl multi, at most maxpar connections) until all are done or
 * opt->timeout has passed. 0, or -1 when libcurl could not be set up (every fetch then
 * says so).
 */
static int
metrics_run(struct fetch *fetches, size_t n, const struct metrics_opts *opt, long maxpar)
{
	static int curl_ready;
	struct curl_slist *hdr = NULL;
	CURLM *multi = NULL;
	CURLMsg *msg;
	double deadline;
	int running = 0, left;
	size_t i;

	if ((!curl_ready && curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) ||
	    (multi = curl_multi_init()) == NULL) {
		for (i = 0; i < n; i++)
			snprintf(fetches[i].why, sizeof fetches[i].why, "cannot set up libcurl");
		return -1;
	}
	curl_ready = 1;
	curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, maxpar);
	hdr = curl_slist_append(NULL, "Accept: text/plain;version=0.0.4");
	deadline = clock_mono() + opt->timeout;
	for (i = 0; i < n; i++) {
		if (metrics_setup(&fetches[i], opt, hdr) == -1 ||
		    curl_multi_add_handle(multi, fetches[i].h) != CURLM_OK) {
			snprintf(fetches[i].why, sizeof fetches[i].why, "cannot set up libcurl");
			fetches[i].done = 1;
		}
	}
	/*
	 * Each handle has its own timeouts; the deadline here is the guarantee that the whole
	 * fetch never blocks past opt->timeout, whatever the handles do (queued ones included).
	 */
	for (;;) {
		double now;
		int ms;

		if (curl_multi_perform(multi, &running) != CURLM_OK)
			break;
		while ((msg = curl_multi_info_read(multi, &left)) != NULL) {
			struct fetch *f;

			if (msg->msg != CURLMSG_DONE)
				continue;
			curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&f);
			fetch_result(f, msg->data.result, opt, deadline);
		}
		if (running == 0 || (now = clock_mono()) >= deadline)
			break;
		ms = (int)((deadline - now) * 1000) + 1;
		if (curl_multi_poll(multi, NULL, 0, ms > 100 ? 100 : ms, NULL) != CURLM_OK)
			break;
	}
	for (i = 0; i < n; i++) {
		struct fetch *f = &fetches[i];

		if (!f->done)
			snprintf(f->why, sizeof f->why, "timed out after %.1f s", opt->timeout);
		if (f->h != NULL) {
			curl_multi_remove_handle(multi, f->h);
			curl_easy_cleanup(f->h);
		}
	}
	curl_multi_cleanup(multi);
	curl_slist_free_all(hdr);
	return 0;
}

int
metrics_fetch(struct gs_sites *sites, const struct metrics_opts *optp)
{
	struct metrics_opts opt;
	struct gs_node **byurl;
	struct fetch *fetches;
	size_t *which;		/* node (in byurl order) -> fetch */
	size_t i, nmon = 0, nfetch = 0;
	int good = 0, failed;
	long maxpar = metrics_opts_fill(&opt, optp);

	byurl = xcalloc(sites->nnodes ? sites->nnodes : 1, sizeof *byurl);
	for (i = 0; i < sites->nnodes; i++) {
		struct gs_node *n = &sites->nodes[i];

		if (n->monitor == NULL || *n->monitor == '\0')
			continue;
		metrics_clear(n);
		byurl[nmon++] = n;
	}
	if (nmon == 0) {
		free(byurl);
		return 0;
	}
	/* identical URLs (whole strings, query included) are fetched once */
	qsort(byurl, nmon, sizeof *byurl, fetch_url_cmp);
	fetches = xcalloc(nmon, sizeof *fetches);
	which = xcalloc(nmon, sizeof *which);
	for (i = 0; i < nmon; i++) {
		if (i == 0 || strcmp(byurl[i]->monitor, byurl[i - 1]->monitor) != 0) {
			fetches[nfetch].url = byurl[i]->monitor;
			fetches[nfetch].max = opt.max_body;
			nfetch++;
		}
		which[i] = nfetch - 1;
	}
	failed = metrics_run(fetches, nfetch, &opt, maxpar) != 0;
	for (i = 0; i < nmon; i++) {
		struct gs_node *n = byurl[i];
		struct fetch *f = &fetches[which[i]];

		if (f->ok) {
			n->have_metrics = 1;
			n->load1 = f->sample.load1;
			n->live_cores = f->sample.cores;
			n->live_mhz = f->sample.mhz;
			node_values_from_monitor(n, &f->sample);
			n->live_cpu_total = f->sample.cpu_total;
			n->live_cpu_idle = f->sample.cpu_idle;
			good++;
		} else
			xasprintf(&n->stale, "%s: %s", f->url, f->why);
	}
	for (i = 0; i < nfetch; i++)
		free(fetches[i].buf);
	free(fetches);
	free(which);
	free(byurl);
	return failed ? -1 : good;
}
