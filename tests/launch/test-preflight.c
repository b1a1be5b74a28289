/*
 * test-preflight.c — the checks before a multi-site launch (launch/preflight.h), as far as
 * they run on this host: the setup (DIR/.shared token, sha256 of the program and of
 * gridsubmit-rank, the connect-back's secret and listener: on the nodes' address alone,
 * 200 nodes at once answered, strangers and wrong secrets answered nothing, a cap on the
 * unauthenticated), the node's checks run here as a
 * node that shares our files would run them (as words, and as the one command line of a
 * speculative launch, in a job directory whose name is hostile to a shell), a node that
 * does not share them, the verdict on a node's answer (each kind of failure, garbage,
 * truncated), the wait for the answers of a speculative launch, and whole preflights: none
 * for a job on this host, and nodes that ssh cannot reach.
 */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "broker/broker.h"
#include "broker/errlist.h"
#include "common/clock.h"
#include "common/file.h"
#include "common/proc.h"
#include "common/xmalloc.h"
#include "launch/preflight.h"
#include "launch/stage.h"
#include "store/jobstore.h"
#include "tests/tap.h"

/*
 * sha256 of "#!abc" (sha256sum): the test's program, which starts as a script does, so
 * that the job loader takes it for a program
 */
#define PROG_SHA256 "1c0bb6f1399d964d1bd10107f9b96e0a7f912bb03fc8496ad50978a5b67a6427"

/* a job directory's name with a quote, a ';', $(...) and `...`: none may run */
#define HOSTILE "it's a ;touch INJECTED; $(touch INJECTED) `touch INJECTED` dir"

static char tmp[] = "/tmp/gs-test-preflight.XXXXXX";

/* Rank 0 on this host, a rank on each node of another site (node-a, node-b: write_files). */
static const char sites_yaml[] =
    "master: localhost\n"
    "sites:\n"
    "  - name: here\n"
    "    link: {bandwidth_mbps: 10000, latency_ms: 0.01}\n"
    "    nodes:\n"
    "      - {host: localhost, cpu_mhz: 2000, cores: 1, slots: 1}\n"
    "  - name: far\n"
    "    link: {bandwidth_mbps: 100, latency_ms: 10}\n"
    "    ssh: {config: %s/node.conf}\n"
    "    nodes:\n"
    "      - {host: node-a, cpu_mhz: 2000, cores: 1, slots: 1}\n"
    "      - {host: node-b, cpu_mhz: 2000, cores: 1, slots: 1}\n";

static char *
in_tmp(const char *name)
{
	char *p;

	xasprintf(&p, "%s/%s", tmp, name);
	return p;
}

static int
write_text(const char *path, const char *text, mode_t mode)
{
	return file_write(path, text, strlen(text)) == 0 ? chmod(path, mode) : -1;
}

/* The whole file (allocated), or NULL. */
static char *
read_text(const char *path)
{
	char *text;
	size_t len;

	return file_read(path, 1 << 20, &text, &len) == 0 ? text : NULL;
}

/*
 * Run argv here, its output in *out (allocated); home: $HOME for it. Its exit status, or
 * -1. The node's checks run so, as ssh would run them on a node.
 */
static int
run_here(char *const argv[], const char *home, char **out)
{
	char buf[4096];
	size_t len = 0;
	ssize_t n;
	int p[2], status;
	pid_t pid;

	*out = xstrdup("");
	if (pipe2(p, O_CLOEXEC) == -1)
		return -1;
	if ((pid = fork()) == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(p[1], 1);
		if (home != NULL)
			setenv("HOME", home, 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	while (pid > 0 && (n = read(p[0], buf, sizeof buf)) > 0) {
		*out = xreallocarray(*out, len + (size_t)n + 1, 1);
		memcpy(*out + len, buf, (size_t)n);
		len += (size_t)n;
		(*out)[len] = '\0';
	}
	close(p[0]);
	if (pid == -1 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* why on one line, for a TAP line: a message of several nodes has one a line. */
static const char *
oneline(char *why)
{
	char *p;

	for (p = why; (p = strchr(p, '\n')) != NULL; )
		*p = ' ';
	return why;
}

/* 1 when the answer has the line. */
static int
has_line(const char *answer, const char *line)
{
	size_t len = strlen(line);
	const char *p;

	for (p = answer; (p = strstr(p, line)) != NULL; p++)
		if ((p == answer || p[-1] == '\n') && (p[len] == '\n' || p[len] == '\0'))
			return 1;
	return 0;
}

/* 1 when nothing named INJECTED appeared where a shell could have made it. */
static int
no_injection(void)
{
	char *a = in_tmp("jobs/INJECTED"), *b = in_tmp("INJECTED");
	int none = access(a, F_OK) == -1 && access(b, F_OK) == -1 &&
	    access("INJECTED", F_OK) == -1;

	free(a);
	free(b);
	return none;
}

/*
 * What the checks print for a node that passes all of them, with this setup's hashes and
 * shared or not; every answer of test_answers is this one edited.
 */
static void
answer_pass(const struct preflight_setup *s, char *buf, size_t len)
{
	snprintf(buf, len, "S yes\nD ok\nP ok\nH %s\nH %s\nM ok\nEND\n", s->hashes[0],
	    s->hashes[1]);
}

/* The passing answer with line `from` replaced by `to` (NULL: dropped); allocated. */
static char *
answer_edit(const struct preflight_setup *s, const char *from, const char *to)
{
	char a[512], *p, *out;
	size_t len = strlen(from);

	answer_pass(s, a, sizeof a);
	if ((p = strstr(a, from)) == NULL || p[len] != '\n')
		return xstrdup("");
	*p = '\0';
	xasprintf(&out, "%s%s%s%s", a, to != NULL ? to : "", to != NULL ? "\n" : "",
	    p + len + 1);
	return out;
}

/* preflight_answer_ready's verdict; why (when not ready) must contain want. */
static void
verdict(const struct preflight_setup *s, const char *answer, int ready, const char *want,
    const char *name)
{
	char why[1024] = "";
	int got = preflight_answer_ready(s, "node-a", answer, why, sizeof why);

	if (ready)
		ok(got == 1, "%s: ready", name);
	else
		ok(got == 0 && strstr(why, want) != NULL, "%s: not ready, \"%s\"", name, why);
}

/* A job whose placement puts every rank on this host: no preflight at all. */
static void
test_no_remote(const struct gs_job *job)
{
	struct gs_sites sites;
	struct gs_ranking ranking;
	struct gs_placement place;
	struct gs_error err;
	struct gs_errlist errs;
	struct job_state st;
	struct preflight pf;
	char why[1024] = "", *shared, *config;
	struct gs_job over;
	int rc;

	memset(&st, 0, sizeof st);
	snprintf(st.id, sizeof st.id, "8");
	st.dir = in_tmp("jobs/local");
	mkdir(st.dir, 0700);
	if (sites_load_default_errs(&sites, &errs) != 0) {
		errlist_first(&errs, &err);
		ok(0, "the embedded default loads: %s", err.msg);
		free(st.dir);
		return;
	}
	/* its 3 ranks on this host whatever its cores, as run would with --oversubscribe */
	over = *job;
	over.oversubscribe = 1;
	if (broker_rank(&sites, &over, &ranking, &err) != 0 ||
	    broker_place_job(&sites, &ranking, &over, &place, &err) != 0) {
		ok(0, "the embedded default places the job: %s", err.msg);
		sites_free(&sites);
		free(st.dir);
		return;
	}
	memset(&pf, 0x5a, sizeof pf);
	rc = preflight_run(&sites, &over, &ranking, &place, &st, &pf, why, sizeof why);
	is_int(rc, 0, "every rank on this host: the preflight passes");
	ok(pf.nodes_checked == 0 && pf.nodes_failed == 0 && pf.nodes_staged == 0 &&
	    pf.replaced == 0, "no node checked, failed, staged or replaced");
	is_int(place.nranks, job->ranks, "the placement is left as it was");
	xasprintf(&shared, "%s/.shared", st.dir);
	xasprintf(&config, "%s/ssh_config", st.dir);
	ok(access(shared, F_OK) == -1 && access(config, F_OK) == -1,
	    "nothing written in the job directory (no token, no ssh_config)");
	free(shared);
	free(config);
	broker_placement_free(&place);
	broker_ranking_free(&ranking);
	sites_free(&sites);
	free(st.dir);
}

static void
test_setup(const struct gs_sites *sites, const struct gs_job *job, const struct job_state *st,
    const struct preflight_setup *s)
{
	struct preflight_setup again;
	struct sockaddr_in sin;
	char why[1024] = "", *path, *text, *out, *suffix;
	char *argv[] = { "sha256sum", s->rankexec, NULL };
	size_t i;
	int fd, hex = 1;

	xasprintf(&path, "%s/.shared", st->dir);
	text = read_text(path);
	is_str(text, s->token, "DIR/.shared holds the token a node must read back");
	free(text);
	for (i = 0; s->token[i] != '\0'; i++)
		hex &= strchr("0123456789abcdef", s->token[i]) != NULL;
	ok(i == 32 && hex, "the token: 128 random bits in hex");
	is_str(s->hashes[0], PROG_SHA256, "the program's sha256 is its content's");
	ok(s->rankexec != NULL && strstr(s->rankexec, "/gridsubmit-rank") != NULL &&
	    access(s->rankexec, X_OK) == 0, "gridsubmit-rank: the one next to this program");
	if (run_here(argv, NULL, &out) == 0 && strlen(out) >= 64)
		out[64] = '\0';
	is_str(s->hashes[1], out, "gridsubmit-rank's sha256 is sha256sum's");
	free(out);
	xasprintf(&suffix, "-%s-%.8s", st->id, s->token);
	ok(strlen(s->name) > strlen(suffix) &&
	    strcmp(s->name + strlen(s->name) - strlen(suffix), suffix) == 0,
	    "a node's own directory: HOST-ID-TOKEN8 (%s)", s->name);
	free(suffix);
	xasprintf(&text, "/home/u/.gridsubmit/jobs/%s", s->name);
	ok(stage_dir_valid(text, s->name), "which staging takes for a node's own directory");
	free(text);
	text = read_text(s->config);
	ok(text != NULL && strstr(text, "Host node-a") != NULL &&
	    strstr(text, "Host node-b") != NULL, "DIR/ssh_config has a block per node");
	free(text);

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)atoi(s->port));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ok(atoi(s->port) > 0 && fd != -1 && connect(fd, (struct sockaddr *)&sin,
	    sizeof sin) == 0, "the listener on port %s takes a node's connection", s->port);
	if (fd != -1)
		close(fd);
	{
		struct sockaddr_in bound;
		socklen_t blen = sizeof bound;
		struct stat sb;
		char *words[16];

		ok(getsockname(s->fd, (struct sockaddr *)&bound, &blen) == 0 &&
		    bound.sin_addr.s_addr == htonl(INADDR_LOOPBACK),
		    "it listens on the nodes' address toward us alone, not every interface");
		text = read_text(s->keyfile);
		ok(text != NULL && strlen(text) == SECRET_HEX && strncmp(text, s->key,
		    SECRET_HEX) == 0 && s->key[SECRET_HEX] == '\n' && stat(s->keyfile, &sb) == 0 &&
		    (sb.st_mode & 077) == 0, "DIR/%s: the secret, mode 0600",
		    PREFLIGHT_KEY_FILE);
		free(text);
		preflight_words(s, st, "127.0.0.1", 1, words);
		for (i = 0; words[i] != NULL; i++)
			if (memmem(words[i], strlen(words[i]), s->key, SECRET_HEX) != NULL)
				break;
		ok(words[i] == NULL, "the secret is in no word of the node's command");
		ok(strcmp(words[12], "-") == 0, "with the secret on its stdin, the word says -");
		preflight_words(s, st, "127.0.0.1", 0, words);
		ok(strcmp(words[12], s->keyfile) == 0, "else the file's path");
	}

	/* a node that read an earlier launch's token would pass for sharing our files */
	if (preflight_setup_make(sites, job, st, &again, why, sizeof why) == 0) {
		text = read_text(path);
		ok(strcmp(again.token, s->token) != 0 && text != NULL &&
		    strcmp(text, again.token) == 0, "each setup: a new token in DIR/.shared");
		free(text);
	} else
		ok(0, "a second setup: %s", why);
	preflight_setup_free(&again);
	if (file_write_atomic(st->dir, ".shared", s->token, strlen(s->token), 0644) != 0 ||
	    file_write_atomic(st->dir, PREFLIGHT_KEY_FILE, s->key, SECRET_HEX, 0600) != 0)
		ok(0, "the first token and secret back in DIR");
	free(path);
}

/*
 * The checks run here: a node that shares our files, in a job directory whose name a
 * shell would split and run. As words (ssh quotes each) and as the command line of a
 * speculative launch (a node's shell reads it).
 */
static void
test_checks_here(const struct preflight_setup *s, const struct job_state *st)
{
	char *words[16], *cmd, *a1 = NULL, *a2 = NULL, why[1024] = "";
	int rc;

	preflight_words(s, st, "127.0.0.1", 0, words);
	ok(words[15] == NULL && strcmp(words[0], "sh") == 0 && strcmp(words[1], "-c") == 0 &&
	    strcmp(words[4], st->dir) == 0, "the checks: sh -c SCRIPT sh DIR ..., the job "
	    "directory one word");
	rc = run_here(words, NULL, &a1);
	is_int(rc, 0, "a node that shares our files and has ours: the checks exit 0");
	ok(has_line(a1, "S yes") && has_line(a1, "D ok") && has_line(a1, "P ok") &&
	    has_line(a1, "M ok") && has_line(a1, "END"), "it says: shared, directory, proxy, "
	    "reaches us, end");
	ok(preflight_answer_ready(s, "here", a1, why, sizeof why) == 1,
	    "its answer: ready to start its proxy at once (%s)", why);
	ok(no_injection(), "a quote, ';', $(...) and `...` in the job directory's name ran "
	    "nothing");

	cmd = preflight_session_command(s, st, "127.0.0.1");
	{
		char *argv[] = { "sh", "-c", cmd, NULL };

		rc = run_here(argv, NULL, &a2);
	}
	is_int(rc, 0, "the same checks as one shell command line exit 0");
	is_str(a2, a1, "and give the same answer: every word arrived whole");
	ok(no_injection(), "the command line ran nothing of the directory's name");
	free(cmd);
	free(a1);
	free(a2);
}

/* A node that reads another token: it gets a job directory of its own in its home. */
static void
test_checks_not_shared(const struct preflight_setup *s, const struct job_state *st)
{
	struct preflight_setup other = *s;
	char *words[16], *answer, *home = in_tmp("nodehome"), *want, why[1024] = "";
	struct stat sb;
	int rc;

	memcpy(other.token, "00000000000000000000000000000000", sizeof other.token);
	preflight_words(&other, st, "127.0.0.1", 0, words);
	rc = run_here(words, home, &answer);
	is_int(rc, 1, "a node without our files: the checks exit 1 (staging first)");
	xasprintf(&want, "R %s/.gridsubmit/jobs/%s", home, s->name);
	ok(has_line(answer, want) && has_line(answer, "D ok") && !has_line(answer, "S yes"),
	    "it reports its own job directory, ~/.gridsubmit/jobs/NAME");
	ok(stat(want + 2, &sb) == 0 && S_ISDIR(sb.st_mode) && (sb.st_mode & 077) == 0,
	    "made there, private (0700)");
	ok(stage_dir_valid(want + 2, s->name), "a directory staging takes");
	free(want);
	xasprintf(&want, "%s/.gridsubmit/jobs/%s/bin", home, s->name);
	ok(access(want, F_OK) == 0, "with bin/ for the program and gridsubmit-rank");
	free(want);
	ok(preflight_answer_ready(s, "node", answer, why, sizeof why) == 0 &&
	    strcmp(why, "does not share this host's job directory") == 0,
	    "not ready for a speculative launch: %s", why);
	free(answer);

	rc = run_here(words, "not/absolute", &answer);
	ok(rc == 1 && has_line(answer, "D no (no HOME)"), "a node whose HOME is not absolute "
	    "makes nothing: D no (no HOME)");
	ok(preflight_answer_ready(s, "node", answer, why, sizeof why) == 0 &&
	    strstr(why, "cannot create its job directory (no HOME)") != NULL,
	    "and the reason says so: %s", why);
	free(answer);
	free(home);
}

/* The checks here that fail: a program changed since the setup, no proxy, no way back. */
static void
test_checks_fail_here(const struct gs_job *job, const struct preflight_setup *s,
    const struct job_state *st)
{
	struct preflight_setup other = *s;
	char *words[16], *answer, *noproxy = in_tmp("no-such-dir/hydra_pmi_proxy");
	char why[1024] = "", port[16];
	struct sockaddr_in sin;
	socklen_t len = sizeof sin;
	int fd, rc;

	if (write_text(job->program, "#!abd", 0755) == 0) {
		preflight_words(s, st, "127.0.0.1", 0, words);
		rc = run_here(words, NULL, &answer);
		ok(rc == 1 && preflight_answer_ready(s, "node", answer, why, sizeof why) == 0 &&
		    strstr(why, "has no copy of") != NULL && strstr(why, job->program) != NULL,
		    "a program that is not the one hashed here: %s", why);
		free(answer);
		write_text(job->program, "#!abc", 0755);
	}

	other.proxy = noproxy;
	preflight_words(&other, st, "127.0.0.1", 0, words);
	rc = run_here(words, NULL, &answer);
	ok(rc == 1 && preflight_answer_ready(&other, "node", answer, why, sizeof why) == 0 &&
	    strstr(why, noproxy) != NULL && strstr(why, "is missing") != NULL,
	    "no hydra proxy where hydra will look: %s", why);
	free(answer);
	free(noproxy);

	/* a port nothing listens on: the node cannot reach us (needs bash's /dev/tcp) */
	other = *s;
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1 || bind(fd, (struct sockaddr *)&sin, sizeof sin) == -1 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) == -1) {
		ok(0, "a free port: %s", strerror(errno));
		if (fd != -1)
			close(fd);
		return;
	}
	snprintf(port, sizeof port, "%d", ntohs(sin.sin_port));
	close(fd);
	memcpy(other.port, port, sizeof other.port);
	preflight_words(&other, st, "127.0.0.1", 0, words);
	rc = run_here(words, NULL, &answer);
	if (access("/bin/bash", X_OK) == 0 || access("/usr/bin/bash", X_OK) == 0)
		ok(rc == 1 && preflight_answer_ready(s, "node", answer, why, sizeof why) == 0 &&
		    strstr(why, "cannot reach this host's address") != NULL,
		    "a node that cannot connect back to us: %s", why);
	else
		printf("skip - a node that cannot connect back: no bash here\n");
	free(answer);
}

/* A blocking connection to 127.0.0.1:port, or -1. */
static int
connect_lo(const char *port)
{
	struct sockaddr_in sin;
	int fd;

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)atoi(port));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

/* What the listener answered on fd (up to its end), into buf. */
static const char *
answer_of(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	return buf;
}

/*
 * The connect-back with many nodes at once, and strangers: 200 connections, each sending
 * the secret before any answer is read (a listener that never accepts held 64), every one
 * answered "ok"; a wrong secret, a short one and a silent stranger answered nothing; 300
 * silent connections held open, beyond the cap, do not keep a node out. An alarm ends the
 * test if the listener hangs.
 */
static void
test_connect_back(const struct preflight_setup *s)
{
	static int fds[300];
	int i, nok = 0, proved0, refused0, proved, refused, fd, late;
	char buf[64];

	alarm(60);
	preflight_accept_counts(s, &proved0, &refused0);
	for (i = 0; i < 200; i++)
		if ((fds[i] = connect_lo(s->port)) == -1 ||
		    write(fds[i], s->key, SECRET_HEX + 1) != SECRET_HEX + 1)
			break;
	is_int(i, 200, "200 nodes connect back at once and send the secret");
	for (i = 0; i < 200 && fds[i] != -1; i++) {
		nok += strcmp(answer_of(fds[i], buf, sizeof buf), "ok\n") == 0;
		close(fds[i]);
	}
	is_int(nok, 200, "every one of them is answered ok");

	fd = connect_lo(s->port);
	memcpy(buf, s->key, SECRET_HEX + 1);
	buf[0] = buf[0] == 'a' ? 'b' : 'a';
	ok(fd != -1 && write(fd, buf, SECRET_HEX + 1) == SECRET_HEX + 1 &&
	    *answer_of(fd, buf, sizeof buf) == '\0', "a wrong secret: no answer, closed");
	if (fd != -1)
		close(fd);
	fd = connect_lo(s->port);
	ok(fd != -1 && write(fd, s->key, 10) == 10 && shutdown(fd, SHUT_WR) == 0 &&
	    *answer_of(fd, buf, sizeof buf) == '\0', "a part of it, then the end: no answer");
	if (fd != -1)
		close(fd);

	for (i = 0; i < 300; i++)
		fds[i] = connect_lo(s->port);
	late = connect_lo(s->port);
	ok(late != -1 && write(late, s->key, SECRET_HEX + 1) == SECRET_HEX + 1 &&
	    strcmp(answer_of(late, buf, sizeof buf), "ok\n") == 0,
	    "300 strangers holding connections open: a node still answered ok");
	if (late != -1)
		close(late);
	preflight_accept_counts(s, &proved, &refused);
	is_int(proved - proved0, 201, "201 connections proved, no stranger among them");
	ok(refused - refused0 >= 2 + 300 - 256, "the wrong ones refused, and the oldest "
	    "strangers closed beyond 256 (%d)", refused - refused0);
	for (i = 0; i < 300; i++)
		if (fds[i] != -1)
			close(fds[i]);
	alarm(0);
}

/*
 * The checks with the secret on their stdin (the preflight's own ssh) reach us; with a
 * wrong secret in the file, the node is failed for it, not for the way back.
 */
static void
test_checks_key(const struct preflight_setup *s, const struct job_state *st)
{
	struct preflight_setup other = *s;
	struct proc_task t;
	char *words[16], *wrong = in_tmp("wrong-key"), why[1024] = "";
	size_t i;
	int rc;

	if (access("/bin/bash", X_OK) != 0 && access("/usr/bin/bash", X_OK) != 0) {
		printf("skip - the connect-back's secret: no bash here\n");
		free(wrong);
		return;
	}
	memset(&t, 0, sizeof t);
	preflight_words(s, st, "127.0.0.1", 1, words);
	t.argv = xcalloc(17, sizeof *t.argv);
	for (i = 0; words[i] != NULL; i++)
		t.argv[i] = xstrdup(words[i]);
	t.in = s->key;
	proc_run_all(&t, 1, clock_mono() + 30, NULL);
	ok(t.status == 0 && has_line(t.out, "M ok"), "the secret on stdin: the node reaches "
	    "us and is answered (status %d)", t.status);
	proc_free(&t, 1);

	write_text(wrong, "0123456789abcdef0123456789abcdef", 0600);
	other.keyfile = wrong;
	preflight_words(&other, st, "127.0.0.1", 0, words);
	{
		char *answer;

		rc = run_here(words, NULL, &answer);
		ok(rc == 1 && preflight_answer_ready(s, "node", answer, why, sizeof why) == 0 &&
		    strstr(why, "did not take its secret") != NULL,
		    "a wrong secret: the node is failed for it: %s", why);
		free(answer);
	}
	free(wrong);
}

/* The verdict on what a node printed: each failure named, garbage and truncation too. */
static void
test_answers(const struct preflight_setup *s)
{
	char pass[512], *a, *huge, hp[80], hr[80], other[80];

	answer_pass(s, pass, sizeof pass);
	verdict(s, pass, 1, NULL, "every check passed");
	snprintf(hp, sizeof hp, "H %s", s->hashes[0]);
	snprintf(hr, sizeof hr, "H %s", s->hashes[1]);
	snprintf(other, sizeof other, "H %064d", 0);

	a = answer_edit(s, "END", NULL);
	verdict(s, a, 0, "the checks did not run", "truncated before END");
	free(a);
	verdict(s, "", 0, "the checks did not run", "an empty answer");
	verdict(s, "Welcome to node-a!\n\x01\x02\xff garbage\n", 0, "the checks did not run",
	    "garbage (a login banner, binary)");
	a = answer_edit(s, "P ok", "P no");
	verdict(s, a, 0, "is missing (install the same MPICH as here)", "no hydra proxy");
	free(a);
	a = answer_edit(s, "D ok", "D no");
	verdict(s, a, 0, "cannot create the job directory there", "no job directory");
	free(a);
	a = answer_edit(s, "M ok", "M no 10.9.8.7");
	verdict(s, a, 0, "cannot reach this host's address (connected from 10.9.8.7)",
	    "cannot connect back");
	free(a);
	a = answer_edit(s, "M ok", "M unknown 10.9.8.7");
	fprintf(stderr, "# a warning follows (no bash on the node):\n");
	verdict(s, a, 1, NULL, "no bash to check the way back: a warning, not a failure");
	free(a);
	a = answer_edit(s, "S yes", NULL);
	verdict(s, a, 0, "does not share this host's job directory", "not shared");
	free(a);
	a = answer_edit(s, hp, other);
	verdict(s, a, 0, "has no copy of", "the program differs");
	free(a);
	a = answer_edit(s, hr, "H -");
	verdict(s, a, 0, "gridsubmit-rank", "gridsubmit-rank is missing");
	free(a);
	a = answer_edit(s, hp, NULL);
	verdict(s, a, 0, "has no copy of", "one hash line short");
	free(a);

	/* a line far longer than any the checks print, then a whole answer: not ready */
	huge = xmalloc(200000);
	memset(huge, 'x', 199999);
	huge[0] = 'H';
	huge[1] = ' ';
	huge[199999] = '\0';
	xasprintf(&a, "%s\n%s", huge, pass);
	verdict(s, a, 0, "has no copy of", "a huge line before the answer");
	free(a);
	free(huge);
}

/* A fork that sleeps, standing for mpiexec; ended with kill and waitpid. */
static pid_t
fake_mpiexec(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		alarm(20);
		for (;;)
			pause();
	}
	return pid;
}

/* DIR/.remote/HOST.SUFFIX, written whole (temp + rename) */
static void
remote_file(const struct job_state *st, const char *host, const char *suffix,
    const char *text)
{
	char *path;

	xasprintf(&path, "%s/.remote/%s.%s", st->dir, host, suffix);
	if (text == NULL)
		unlink(path);
	else {
		char *part;

		xasprintf(&part, "%s.part", path);
		write_text(part, text, 0600);
		rename(part, path);
		free(part);
	}
	free(path);
}

/* The answers of a speculative launch, read from DIR/.remote as the nodes write them. */
static void
test_session_wait(const struct gs_sites *sites, const struct gs_placement *p,
    const struct job_state *st, const struct preflight_setup *s)
{
	char why[1024], pass[512], *bad = answer_edit(s, "P ok", "P no"), *remote;
	pid_t mpiexec, late;
	double t0;
	int rc;

	answer_pass(s, pass, sizeof pass);
	xasprintf(&remote, "%s/.remote", st->dir);
	mkdir(remote, 0700);
	free(remote);
	if ((mpiexec = fake_mpiexec()) == -1) {
		ok(0, "a process for mpiexec");
		return;
	}
	remote_file(st, "node-a", "preflight", pass);
	remote_file(st, "node-b", "preflight", pass);
	why[0] = '\0';
	rc = preflight_session_wait(sites, p, st, s, mpiexec, why, sizeof why);
	is_int(rc, 0, "both nodes answered ready: the launch goes on (%s)", why);

	remote_file(st, "node-b", "preflight", bad);
	rc = preflight_session_wait(sites, p, st, s, mpiexec, why, sizeof why);
	ok(rc == -1 && strncmp(why, "node-b: ", 8) == 0 && strstr(why, "is missing") != NULL,
	    "a node that failed a check stops the launch, named with its reason: %s", why);

	remote_file(st, "node-b", "preflight", NULL);
	remote_file(st, "node-b", "ended", "255\n");
	rc = preflight_session_wait(sites, p, st, s, mpiexec, why, sizeof why);
	ok(rc == -1 && strcmp(why, "node-b: its session ended (ssh status 255) without an "
	    "answer in our job directory") == 0, "a session that ended without an answer: %s",
	    why);
	remote_file(st, "node-b", "ended", NULL);

	/* an answer still being written (no END yet) while mpiexec runs: wait for it */
	remote_file(st, "node-b", "preflight", "S yes\nD ok\n");
	t0 = clock_mono();
	if ((late = fork()) == 0) {
		struct timespec nap = { 0, 300000000L };

		nanosleep(&nap, NULL);
		remote_file(st, "node-b", "preflight", pass);
		_exit(0);
	}
	rc = preflight_session_wait(sites, p, st, s, mpiexec, why, sizeof why);
	ok(rc == 0 && clock_mono() - t0 >= 0.25, "an answer that comes late is waited for "
	    "(%.2f s)", clock_mono() - t0);
	ok(clock_mono() - t0 < 5, "and taken as soon as it is whole");
	if (late > 0)
		waitpid(late, NULL, 0);

	remote_file(st, "node-b", "preflight", "S yes\nD ok\n");
	kill(mpiexec, SIGKILL);
	t0 = clock_mono();
	rc = preflight_session_wait(sites, p, st, s, mpiexec, why, sizeof why);
	ok(rc == -1 && strcmp(why, "mpiexec ended before every node answered") == 0 &&
	    clock_mono() - t0 < 5, "mpiexec ended while a node had not answered: %s", why);
	waitpid(mpiexec, NULL, 0);
	free(bad);
}

/*
 * A whole preflight whose nodes ssh cannot reach (their ssh config's ProxyCommand fails at
 * once): each named with ssh's failure; a job that needs them all is not launched, one
 * that can run with fewer ranks goes on without them.
 */
static void
test_run_unreachable(struct gs_sites *sites, const struct gs_job *job, struct job_state *st)
{
	struct gs_ranking ranking;
	struct gs_placement place;
	struct gs_error err;
	struct preflight pf;
	struct gs_job fewer = *job;
	char why[4096] = "";
	int rc, remote = 0, r;

	if (broker_rank(sites, job, &ranking, &err) != 0 || broker_place(sites, &ranking,
	    job->ranks, &place, &err) != 0) {
		ok(0, "the nodes place the job: %s", err.msg);
		return;
	}
	rc = preflight_run(sites, job, &ranking, &place, st, &pf, why, sizeof why);
	ok(rc == -1 && strstr(why, "node-a: ssh failed") != NULL &&
	    strstr(why, "node-b: ssh failed") != NULL, "unreachable nodes fail the "
	    "preflight, each named with ssh's failure");
	ok(strstr(why, "cannot do without these nodes") != NULL, "a job that needs them is "
	    "not launched: %s", oneline(why));
	ok(pf.nodes_checked == 2 && pf.nodes_failed == 2 && pf.replaced == 0,
	    "two nodes checked, two failed, none replaced");
	broker_placement_free(&place);
	broker_ranking_free(&ranking);

	/* ranks: {min: 1, max: 3}; the failed nodes lost their slots above: give them back */
	for (r = 0; r < (int)sites->nnodes; r++)
		sites->nodes[r].slots = 1;
	fewer.min_ranks = 1;
	if (broker_rank(sites, &fewer, &ranking, &err) != 0 || broker_place(sites, &ranking,
	    fewer.ranks, &place, &err) != 0) {
		ok(0, "the nodes place the job again: %s", err.msg);
		return;
	}
	why[0] = '\0';
	rc = preflight_run(sites, &fewer, &ranking, &place, st, &pf, why, sizeof why);
	for (r = 0; r < place.nranks; r++)
		remote += place.ranks[r].node != BROKER_NODE_NONE &&
		    strcmp(sites->nodes[place.ranks[r].node].host, "localhost") != 0;
	ok(rc == 0 && pf.replaced == 1 && pf.nodes_failed == 2, "a job that can run with "
	    "fewer ranks is placed again without the failed nodes (%s)", oneline(why));
	ok(place.nranks == 1 && remote == 0, "on what is left: rank 0 here");
	broker_placement_free(&place);
	broker_ranking_free(&ranking);
}

/* The job file, its program (content "#!abc"), the nodes' ssh config, the site file. */
static int
write_files(void)
{
	char *p, *text;
	int rc = 0;

	p = in_tmp("job.yaml");
	rc |= write_text(p, "name: pf\nprogram: prog\nranks: 3\n", 0644);
	free(p);
	p = in_tmp("prog");
	rc |= write_text(p, "#!abc", 0755);
	free(p);
	/* an address for the route toward the nodes, and an ssh that fails at once */
	p = in_tmp("node.conf");
	rc |= write_text(p, "HostName 127.0.0.1\nProxyCommand false\n", 0644);
	free(p);
	p = in_tmp("sites.yaml");
	xasprintf(&text, sites_yaml, tmp);
	rc |= write_text(p, text, 0644);
	free(text);
	free(p);
	return rc;
}

static void
remove_tmp(void)
{
	char *argv[] = { "rm", "-rf", tmp, NULL }, *out;

	run_here(argv, NULL, &out);
	free(out);
}

int
main(void)
{
	struct gs_sites sites;
	struct gs_job job;
	struct gs_ranking ranking;
	struct gs_placement place;
	struct gs_error err;
	struct gs_errlist errs;
	struct job_state st;
	struct preflight_setup s;
	char why[1024] = "", *p, *jobfile, *sitesfile;

	if (mkdtemp(tmp) == NULL)
		return 2;
	p = in_tmp("home");
	mkdir(p, 0700);
	setenv("GRIDSUBMIT_HOME", p, 1);
	free(p);
	p = in_tmp("jobs");
	mkdir(p, 0700);
	free(p);
	/* the checks look at SSH_CONNECTION first: make them try the way back */
	unsetenv("SSH_CONNECTION");
	memset(&st, 0, sizeof st);
	snprintf(st.id, sizeof st.id, "7");
	st.dir = in_tmp("jobs/" HOSTILE);
	jobfile = in_tmp("job.yaml");
	sitesfile = in_tmp("sites.yaml");
	memset(&err, 0, sizeof err);
	errlist_init(&errs, "");
	if (mkdir(st.dir, 0700) == -1 || write_files() != 0 ||
	    job_load_file_errs(jobfile, &job, &errs) != 0 ||
	    sites_load_file_errs(sitesfile, &sites, &errs) != 0) {
		errlist_first(&errs, &err);
		printf("not ok - the test's job and nodes: %s\n", err.msg);
		remove_tmp();
		return 1;
	}
	if (broker_rank(&sites, &job, &ranking, &err) != 0 ||
	    broker_place(&sites, &ranking, job.ranks, &place, &err) != 0) {
		printf("not ok - the test's job and nodes: %s\n", err.msg);
		remove_tmp();
		return 1;
	}
	free(jobfile);
	free(sitesfile);

	test_no_remote(&job);
	if (preflight_setup_make(&sites, &job, &st, &s, why, sizeof why) != 0 ||
	    preflight_accept_start(&s, "127.0.0.1", why, sizeof why) != 0) {
		ok(0, "the setup is made and listens: %s", why);
	} else {
		/* a proxy of our own, so that the checks do not depend on MPICH's path here */
		free(s.proxy);
		s.proxy = in_tmp("hydra_pmi_proxy");
		write_text(s.proxy, "#!/bin/sh\n", 0755);
		test_setup(&sites, &job, &st, &s);
		test_checks_here(&s, &st);
		test_checks_not_shared(&s, &st);
		test_checks_fail_here(&job, &s, &st);
		test_checks_key(&s, &st);
		test_connect_back(&s);
		test_answers(&s);
		test_session_wait(&sites, &place, &st, &s);
	}
	preflight_setup_free(&s);
	test_run_unreachable(&sites, &job, &st);

	broker_placement_free(&place);
	broker_ranking_free(&ranking);
	sites_free(&sites);
	job_free(&job);
	free(st.dir);
	remove_tmp();
	return tap_done();
}
