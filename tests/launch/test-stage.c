/*
 * test-stage.c — the job's files where its ranks run (launch/stage.h). On this host: the
 * stage_in check and copy into the job directory (content, modes, a directory whole, a
 * missing source named), a node's own directory's name and what is accepted as one, and
 * the DIR/remote-dirs record. With two "nodes" that are this host reached over ssh (an
 * sshd of the test's own, started by ssh's ProxyCommand: no network, no port), what needs
 * ssh: the copies to the nodes that lack the files, a node that cannot be reached, the
 * stage_out collection (NAME from the node of the lowest rank, NAME.HOST from the others,
 * what rank 0 wrote kept) and the removal of the nodes' directories. Those cases print
 * "skip" lines when this host has no sshd.
 */
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/broker.h"
#include "broker/errlist.h"
#include "common/clock.h"
#include "common/file.h"
#include "common/xmalloc.h"
#include "launch/rank/rank-preload.h"
#include "launch/stage.h"
#include "store/jobstore.h"
#include "tests/tap.h"

#define SSHD	"/usr/sbin/sshd"

static char tmp[] = "/tmp/gs-test-stage.XXXXXX";

static const char job_yaml[] =
    "name: staged\n"
    "program: prog\n"
    "ranks: 3\n"
    "stage_in: [input.dat, run.sh, inputs/]\n"
    "stage_out: [out.txt, res/, only-a.txt, here.txt, sub/deep.txt, nobody.txt]\n";

static const char sites_yaml[] =
    "sites:\n"
    "  - name: far\n"
    "    link: {bandwidth_mbps: 100, latency_ms: 10}\n"
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

/* Write path (its parent directories made) with text and mode. 0, or -1. */
static int
put(const char *path, const char *text, mode_t mode)
{
	char *c = xstrdup(path), *p;

	for (p = strchr(c + 1, '/'); p != NULL; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(c, 0755);
		*p = '/';
	}
	free(c);
	return file_write(path, text, strlen(text)) == 0 ? chmod(path, mode) : -1;
}

/* put() of DIR/NAME */
static int
put_in(const char *dir, const char *name, const char *text, mode_t mode)
{
	char *p;
	int rc;

	xasprintf(&p, "%s/%s", dir, name);
	rc = put(p, text, mode);
	free(p);
	return rc;
}

/* The whole file (allocated), or NULL. */
static char *
slurp(const char *path)
{
	char *text;
	size_t len;

	return file_read(path, 1 << 20, &text, &len) == 0 ? text : NULL;
}

/* 1 when DIR/NAME holds exactly text. */
static int
holds(const char *dir, const char *name, const char *text)
{
	char *p, *got;
	int same;

	xasprintf(&p, "%s/%s", dir, name);
	got = slurp(p);
	same = got != NULL && strcmp(got, text) == 0;
	free(got);
	free(p);
	return same;
}

static int
exists(const char *dir, const char *name)
{
	char *p;
	int rc;

	xasprintf(&p, "%s/%s", dir, name);
	rc = access(p, F_OK) == 0;
	free(p);
	return rc;
}

/* The permission bits of DIR/NAME, or -1. */
static int
mode_of(const char *dir, const char *name)
{
	struct stat sb;
	char *p;
	int rc;

	xasprintf(&p, "%s/%s", dir, name);
	rc = stat(p, &sb) == 0 ? (int)(sb.st_mode & 07777) : -1;
	free(p);
	return rc;
}

/* 1 when two files have the same bytes. */
static int
same_file(const char *a, const char *b)
{
	char *x = slurp(a), *y = slurp(b);
	int same = x != NULL && y != NULL && strcmp(x, y) == 0;

	free(x);
	free(y);
	return same;
}

/* 1 when a line of DIR/stage.log starts with start and ends with end. */
static int
logged(const struct job_state *st, const char *start, const char *end)
{
	char *p, *text, *line, *save = NULL;
	int found = 0;

	xasprintf(&p, "%s/stage.log", st->dir);
	text = slurp(p);
	free(p);
	for (line = text != NULL ? strtok_r(text, "\n", &save) : NULL; line != NULL && !found;
	    line = strtok_r(NULL, "\n", &save))
		found = strncmp(line, start, strlen(start)) == 0 &&
		    strlen(line) >= strlen(end) &&
		    strcmp(line + strlen(line) - strlen(end), end) == 0;
	free(text);
	return found;
}

/* Run argv with no output; its exit status, or -1. */
static int
run(char *const argv[])
{
	int status, fd;
	pid_t pid;

	if ((pid = fork()) == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if ((fd = open("/dev/null", O_RDWR)) != -1) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid == -1 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The job's source files, beside its job file in tmp/src. */
static int
write_sources(void)
{
	char *src = in_tmp("src");
	int rc = 0;

	rc |= put_in(src, "job.yaml", job_yaml, 0644);
	rc |= put_in(src, "prog", "#!/bin/sh\necho program\n", 0755);
	rc |= put_in(src, "input.dat", "1 2 3\n", 0640);
	rc |= put_in(src, "run.sh", "#!/bin/sh\necho run\n", 0750);
	rc |= put_in(src, "inputs/a.txt", "a\n", 0644);
	rc |= put_in(src, "inputs/deeper/b.txt", "b\n", 0600);
	free(src);
	return rc;
}

static void
test_stage_in_check(const struct gs_job *job)
{
	struct gs_job bad = *job;
	char why[1024] = "", *items[1], *fifo = in_tmp("src/fifo"), *want;

	is_int(job_stage_in_check(job, why, sizeof why), 0, "every stage_in item is there: the "
	    "job may be made (%s)", why);
	items[0] = "missing.dat";
	bad.stage_in = items;
	bad.nstage_in = 1;
	xasprintf(&want, "stage_in: %s/src/missing.dat: No such file or directory", tmp);
	ok(job_stage_in_check(&bad, why, sizeof why) == -1 && strcmp(why, want) == 0,
	    "a missing item: refused, its path named (%s)", why);
	free(want);
	if (mkfifo(fifo, 0600) == 0) {
		items[0] = "fifo";
		ok(job_stage_in_check(&bad, why, sizeof why) == -1 &&
		    strstr(why, "fifo: not a regular file or directory") != NULL,
		    "a FIFO: refused (%s)", why);
		unlink(fifo);
	}
	free(fifo);
}

static void
test_stage_in_local(const struct gs_job *job, const struct job_state *st)
{
	struct gs_job bad = *job;
	char why[1024] = "", *items[2];

	is_int(stage_in_local(job, st, why, sizeof why), 0, "the stage_in files are copied "
	    "into the job directory (%s)", why);
	ok(holds(st->dir, "input.dat", "1 2 3\n"), "a file: its content");
	is_int(mode_of(st->dir, "input.dat"), 0640, "a file: its mode");
	is_int(mode_of(st->dir, "run.sh"), 0750, "a script stays executable");
	ok(holds(st->dir, "inputs/a.txt", "a\n") && holds(st->dir, "inputs/deeper/b.txt",
	    "b\n"), "a directory (named with a trailing '/'): whole, under its name");
	is_int(mode_of(st->dir, "inputs/deeper/b.txt"), 0600, "a file in it keeps its mode");
	ok(!exists(st->dir, "inputs.tmp") && !exists(st->dir, "input.dat.tmp"),
	    "no temporary copy is left");

	items[0] = "input.dat";
	items[1] = "gone.dat";
	bad.stage_in = items;
	bad.nstage_in = 2;
	ok(stage_in_local(&bad, st, why, sizeof why) == -1 && strstr(why, "gone.dat") != NULL &&
	    strncmp(why, "stage_in: ", 10) == 0, "a source gone since the check: an error "
	    "naming it (%s)", why);
	ok(!exists(st->dir, "gone.dat") && !exists(st->dir, "gone.dat.tmp"),
	    "and nothing of it in the job directory");
}

static void
test_dir_name(const struct job_state *st)
{
	char *name = stage_dir_name(st, "0123456789abcdef"), *d;
	size_t len = strlen(name);

	ok(len > 11 && strcmp(name + len - 11, "-5-01234567") == 0, "NAME: HOST-ID-TOKEN8, "
	    "the token's first 8 digits (%s)", name);
	ok(strchr(name, '/') == NULL && strchr(name, ' ') == NULL, "NAME is one path "
	    "component");
	xasprintf(&d, "/home/alice/.gridsubmit/jobs/%s", name);
	ok(stage_dir_valid(d, name), "a node's directory as preflight makes it is usable");
	free(d);
	xasprintf(&d, "/home/al ice/.gridsubmit/jobs/%s", name);
	ok(!stage_dir_valid(d, name), "not with a space in it");
	free(d);
	xasprintf(&d, "/home/a;rm -rf ~/.gridsubmit/jobs/%s", name);
	ok(!stage_dir_valid(d, name), "not with a ';' in it");
	free(d);
	xasprintf(&d, "/home/$(id)/.gridsubmit/jobs/%s", name);
	ok(!stage_dir_valid(d, name), "not with $(...) in it");
	free(d);
	xasprintf(&d, "/home/alice/../../etc/.gridsubmit/jobs/%s", name);
	ok(!stage_dir_valid(d, name), "not with /../ in it");
	free(d);
	xasprintf(&d, "home/alice/.gridsubmit/jobs/%s", name);
	ok(!stage_dir_valid(d, name), "not relative");
	free(d);
	xasprintf(&d, "/home/alice/.gridsubmit/jobs/other-5-01234567");
	ok(!stage_dir_valid(d, name), "not another job's NAME");
	free(d);
	xasprintf(&d, "/home/alice/%s", name);
	ok(!stage_dir_valid(d, name), "not outside .gridsubmit/jobs/");
	free(d);
	ok(!stage_dir_valid("/", name), "not /");
	free(name);
}

/* DIR/remote-dirs: what the cleanup and cancel will find. */
static void
test_remote_dirs(void)
{
	struct stage_dir d[3], *back = NULL;
	struct job_state st;
	size_t n = 9;
	char *path;

	memset(&st, 0, sizeof st);
	st.dir = in_tmp("dirs");
	mkdir(st.dir, 0700);
	ok(stage_dirs_read(st.dir, &back, &n) == 0 && n == 0 && back == NULL,
	    "no remote-dirs: no remote directory");
	memset(d, 0, sizeof d);
	d[0].host = "node-a";
	d[0].dir = "/home/a/.gridsubmit/jobs/h-5-01234567";
	d[0].program = 1;
	d[0].rankexec = 1;
	d[2].host = "node-b";
	d[2].dir = "/home/b/.gridsubmit/jobs/h-5-01234567";
	d[2].rankexec = 1;
	is_int(stage_dirs_write(&st, d, 3), 0, "remote-dirs is written");
	ok(stage_dirs_read(st.dir, &back, &n) == 0 && n == 2, "the entries with a host are "
	    "read back");
	ok(n == 2 && strcmp(back[0].host, "node-a") == 0 &&
	    strcmp(back[0].dir, d[0].dir) == 0 && back[0].program == 1 &&
	    back[0].rankexec == 1, "node-a: its directory, program and gridsubmit-rank "
	    "staged");
	ok(n == 2 && strcmp(back[1].host, "node-b") == 0 && back[1].program == 0 &&
	    back[1].rankexec == 1, "node-b: only gridsubmit-rank staged");
	ok(stage_dirs_find(back, n, "node-b") == &back[1] &&
	    stage_dirs_find(back, n, "node-c") == NULL, "found by host, and only by it");
	stage_dirs_free(back, n);

	/* lines a person or a torn write could leave: only the well-formed are taken */
	xasprintf(&path, "%s/remote-dirs", st.dir);
	put(path, "# comment\nnode-a /x/.gridsubmit/jobs/n 1 1\n-oProxyCommand=x /y 1 1\n"
	    "node-c relative/dir 0 0\nnode-d /z/.gridsubmit/jobs/n\n\nnode-e /w 0 1", 0600);
	ok(stage_dirs_read(st.dir, &back, &n) == 0 && n == 2 &&
	    strcmp(back[0].host, "node-a") == 0 && strcmp(back[1].host, "node-e") == 0,
	    "an option for a host, a relative directory and a short line are skipped");
	stage_dirs_free(back, n);

	memset(d, 0, sizeof d);
	is_int(stage_dirs_write(&st, d, 3), 0, "no entry left: written as none");
	ok(access(path, F_OK) == -1 && errno == ENOENT, "the file is gone");
	free(path);
	free(st.dir);
}

/* A job with no remote directory: stage_out and stage_cleanup do nothing. */
static void
test_nothing_remote(const struct gs_sites *sites, const struct gs_job *job)
{
	struct gs_rank_place rp[1] = { { BROKER_NODE_NONE, 0, 0 } };
	struct gs_placement p = { rp, 1 };
	struct job_state st;
	double t0 = clock_mono();

	memset(&st, 0, sizeof st);
	snprintf(st.id, sizeof st.id, "6");
	st.dir = in_tmp("quiet");
	mkdir(st.dir, 0700);
	put_in(st.dir, "out.txt", "rank 0's\n", 0644);
	stage_out(sites, &p, job, &st);
	stage_cleanup(&st);
	stage_cleanup(&st);
	ok(holds(st.dir, "out.txt", "rank 0's\n") && !exists(st.dir, "stage.log") &&
	    !exists(st.dir, "remote-dirs") && !exists(st.dir, "ssh_config"),
	    "no remote directory: stage_out and stage_cleanup (twice) touch nothing");
	ok(clock_mono() - t0 < 2, "and return at once");
	free(st.dir);
}

/*
 * Connect to both nodes at once, as staging will (the options of remote.c: shared
 * connections in $GRIDSUBMIT_HOME/ssh, which later copies reuse). 0 when both answer.
 */
static int
nodes_connect(const struct job_state *st)
{
	char *cfg, *path, *a[] = { "ssh", "-F", NULL, "-o", "BatchMode=yes", "-o", NULL,
	    "-o", "ControlMaster=auto", "-o", "ControlPersist=60", NULL, "true", NULL };
	const char *const hosts[] = { "node-a", "node-b" };
	pid_t pid[2];
	int i, status, rc = 0;

	xasprintf(&cfg, "%s/ssh_config", st->dir);
	xasprintf(&path, "%s/home/ssh", tmp);
	mkdir(path, 0700);
	free(path);
	xasprintf(&path, "ControlPath=%s/home/ssh/%%C", tmp);
	a[2] = cfg;
	a[6] = path;
	for (i = 0; i < 2; i++) {
		a[11] = (char *)hosts[i];
		if ((pid[i] = fork()) == 0)
			_exit(run(a));
	}
	for (i = 0; i < 2; i++)
		if (pid[i] == -1 || waitpid(pid[i], &status, 0) != pid[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			rc = -1;
	free(cfg);
	free(path);
	return rc;
}

/*
 * The nodes: an sshd of our own for node-a and node-b (ssh starts it as its ProxyCommand,
 * talking over a pipe), keys made here; node-down's ssh fails at once. Written into
 * DIR/ssh_config, which staging uses. 0, or -1 with why (no sshd: the cases are skipped).
 */
static int
nodes_setup(const struct job_state *st, char *why, size_t whylen)
{
	char *k = in_tmp("ssh"), *p, *pub, *text;
	char *hostkey, *userkey;
	int rc;

	if (access(SSHD, X_OK) == -1) {
		snprintf(why, whylen, "no %s here", SSHD);
		free(k);
		return -1;
	}
	mkdir(k, 0700);
	xasprintf(&hostkey, "%s/hostkey", k);
	xasprintf(&userkey, "%s/userkey", k);
	{
		char *a[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", NULL, NULL };

		a[7] = hostkey;
		rc = run(a);
		a[7] = userkey;
		rc = rc == 0 && run(a) == 0 ? 0 : -1;
	}
	if (rc == 0) {
		xasprintf(&p, "%s.pub", userkey);
		pub = slurp(p);
		free(p);
		rc |= pub != NULL ? put_in(k, "authorized_keys", pub, 0600) : -1;
		free(pub);
		xasprintf(&p, "%s.pub", hostkey);
		pub = slurp(p);
		free(p);
		xasprintf(&text, "gs-test-node %s", pub != NULL ? pub : "");
		rc |= pub != NULL ? put_in(k, "known_hosts", text, 0600) : -1;
		free(text);
		free(pub);
		/*
		 * SHLVL=1: bash started by sshd at level 0 reads ~/.bashrc, which may take
		 * seconds on a developer's machine; a node's answer should not
		 */
		xasprintf(&text, "HostKey %s\nAuthorizedKeysFile %s/authorized_keys\n"
		    "StrictModes no\nUsePAM no\nPasswordAuthentication no\n"
		    "KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n"
		    "Subsystem sftp internal-sftp\nLogLevel ERROR\nSetEnv SHLVL=1\n",
		    hostkey, k);
		rc |= put_in(k, "sshd_config", text, 0600);
		free(text);
		xasprintf(&text, "Host node-a node-b\n\tHostName 127.0.0.1\n"
		    "\tHostKeyAlias gs-test-node\n\tProxyCommand %s -i -f %s/sshd_config\n"
		    "\tIdentityFile %s\n\tUserKnownHostsFile %s/known_hosts\n"
		    "\tStrictHostKeyChecking yes\n\tLogLevel ERROR\n"
		    "Host node-down\n\tProxyCommand false\n\tUserKnownHostsFile /dev/null\n",
		    SSHD, k, userkey, k);
		rc |= put_in(st->dir, "ssh_config", text, 0600);
		free(text);
	}
	if (rc == 0 && nodes_connect(st) != 0) {
		snprintf(why, whylen, "ssh to an sshd of our own fails");
		rc = -1;
	} else if (rc != 0)
		snprintf(why, whylen, "cannot make ssh keys (ssh-keygen)");
	free(hostkey);
	free(userkey);
	free(k);
	return rc;
}

/* End the shared connections to the nodes (ssh keeps them 60 s): none outlives the test. */
static void
nodes_disconnect(const struct job_state *st)
{
	char *cfg, *path, *a[] = { "ssh", "-F", NULL, "-o", NULL, "-O", "exit", NULL, NULL };
	const char *const hosts[] = { "node-a", "node-b" };
	size_t i;

	xasprintf(&cfg, "%s/ssh_config", st->dir);
	xasprintf(&path, "ControlPath=%s/home/ssh/%%C", tmp);
	a[2] = cfg;
	a[4] = path;
	for (i = 0; i < 2; i++) {
		a[7] = (char *)hosts[i];
		run(a);
	}
	free(cfg);
	free(path);
}

/* The gridsubmit-rank that staging sends: the one beside this program (allocated). */
static char *
wrapper_here(void)
{
	char *self = realpath("/proc/self/exe", NULL), *slash, *p = NULL;

	if (self != NULL && (slash = strrchr(self, '/')) != NULL) {
		*slash = '\0';
		xasprintf(&p, "%s/gridsubmit-rank", self);
	}
	free(self);
	return p;
}

/* The index of host among the nodes. */
static size_t
node_index(const struct gs_sites *sites, const char *host)
{
	size_t i;

	for (i = 0; i < sites->nnodes && strcmp(sites->nodes[i].host, host) != 0; i++)
		;
	return i;
}

/* A node's own job directory as preflight makes it: dir, dir/bin, dir/.remote. */
static char *
node_dir(const char *host, const char *name)
{
	char *d, *p;

	xasprintf(&d, "%s/%s/.gridsubmit/jobs/%s", tmp, host, name);
	xasprintf(&p, "%s/bin/x", d);
	put(p, "", 0600);
	unlink(p);
	free(p);
	xasprintf(&p, "%s/.remote", d);
	mkdir(p, 0700);
	free(p);
	return d;
}

/*
 * node-a lacks the program and gridsubmit-rank, node-b only gridsubmit-rank, node-down
 * cannot be reached: each gets what it lacks (gridsubmit-rank always with the finalize
 * library it preloads), the copies are checked, node-down fails.
 */
static void
test_copy_in(const struct gs_job *job, const struct job_state *st, struct stage_dir *d)
{
	struct stage_dir *ptr[3] = { &d[0], &d[1], &d[2] };
	char *rankexec, *lib, *lib_here = NULL, *real, *end, *here = wrapper_here();
	int nfail;

	nfail = stage_copy_in(job, st, ptr, 3);
	is_int(nfail, 1, "staging to three nodes: one failed");
	ok(!d[0].failed && !d[1].failed, "node-a and node-b got their files (%s%s)", d[0].why,
	    d[1].why);
	ok(d[2].failed && strstr(d[2].why, "staging: copying") != NULL &&
	    strstr(d[2].why, d[2].dir) != NULL, "node-down failed, its reason names the copy "
	    "and where to (%s)", d[2].why);
	ok(holds(d[0].dir, "bin/prog", "#!/bin/sh\necho program\n") &&
	    (mode_of(d[0].dir, "bin/prog") & 0100) != 0, "node-a: the program in bin/, "
	    "executable");
	xasprintf(&rankexec, "%s/bin/gridsubmit-rank", d[0].dir);
	ok(here != NULL && same_file(here, rankexec) && access(rankexec, X_OK) == 0,
	    "node-a: gridsubmit-rank in bin/, the same bytes as here, executable");
	free(rankexec);
	xasprintf(&lib, "%s/bin/" RANK_FINALIZE_LIB, d[0].dir);
	/* beside the wrapper's real path, where gridsubmit takes it from */
	if (here != NULL && (real = realpath(here, NULL)) != NULL) {
		*strrchr(real, '/') = '\0';
		xasprintf(&lib_here, "%s/" RANK_FINALIZE_LIB, real);
		free(real);
	}
	ok(lib_here != NULL && same_file(lib_here, lib), "node-a: " RANK_FINALIZE_LIB
	    " beside it, the same bytes as here");
	free(lib);
	free(lib_here);
	free(here);
	ok(holds(d[0].dir, "input.dat", "1 2 3\n") && holds(d[0].dir, "inputs/deeper/b.txt",
	    "b\n") && (mode_of(d[0].dir, "run.sh") & 0100) != 0, "node-a: the stage_in files "
	    "and directories, modes kept");
	ok(!exists(d[1].dir, "bin/prog") && exists(d[1].dir, "bin/gridsubmit-rank") &&
	    exists(d[1].dir, "bin/" RANK_FINALIZE_LIB) && holds(d[1].dir, "input.dat",
	    "1 2 3\n"), "node-b: only what it lacks (not the program it has)");
	xasprintf(&end, " ok %s/bin", d[0].dir);
	ok(logged(st, "bin node-a 3 ", end), "stage.log: three binaries copied to node-a's bin/ "
	    "(the program, gridsubmit-rank, its library)");
	free(end);
	xasprintf(&end, " ok %s", d[1].dir);
	ok(logged(st, "in node-b 4 ", end), "stage.log: four stage_in files to node-b's "
	    "directory (a directory's files counted)");
	free(end);
	ok(logged(st, "verify node-a 6 ", " ok") && logged(st, "verify node-b 5 ", " ok"),
	    "stage.log: every copy checked by sha256 on the node (6 on node-a, 5 on node-b)");
	xasprintf(&end, " failed %s/bin", d[2].dir);
	ok(logged(st, "bin node-down 3 ", end), "stage.log: the failed copy to node-down");
	free(end);
}

/*
 * After the run: rank 1 on node-b, rank 2 on node-a. What both have: node-b's is NAME,
 * node-a's NAME.node-a; what rank 0 wrote in DIR stays, the node's copy beside it.
 */
static void
test_stage_out(const struct gs_sites *sites, const struct gs_job *job,
    const struct job_state *st, const struct stage_dir *d)
{
	struct gs_rank_place rp[3] = { { BROKER_NODE_NONE, 0, 0 },
	    { node_index(sites, "node-b"), 0, 0 }, { node_index(sites, "node-a"), 0, 0 } };
	struct gs_placement p = { rp, 3 };
	char *end;

	put_in(d[0].dir, "out.txt", "from a\n", 0644);
	put_in(d[1].dir, "out.txt", "from b\n", 0644);
	put_in(d[0].dir, "res/r.txt", "a\n", 0644);
	put_in(d[1].dir, "res/r.txt", "b\n", 0644);
	put_in(d[0].dir, "only-a.txt", "only a\n", 0644);
	put_in(d[1].dir, "here.txt", "b's\n", 0644);
	put_in(d[0].dir, "sub/deep.txt", "deep\n", 0644);
	put_in(st->dir, "here.txt", "rank 0's\n", 0644);
	if (stage_dirs_write(st, d, 2) != 0)
		ok(0, "remote-dirs is written");
	stage_out(sites, &p, job, st);
	ok(holds(st->dir, "out.txt", "from b\n"), "a file on both nodes: DIR/NAME is the "
	    "copy of the node of the lowest rank (node-b)");
	ok(holds(st->dir, "out.txt.node-a", "from a\n"), "the other's is DIR/NAME.node-a");
	ok(holds(st->dir, "res/r.txt", "b\n") && holds(st->dir, "res.node-a/r.txt", "a\n"),
	    "a directory (named res/ in the job file): whole, the same way");
	ok(holds(st->dir, "only-a.txt", "only a\n"), "a file on one node only: DIR/NAME");
	ok(holds(st->dir, "here.txt", "rank 0's\n") && holds(st->dir, "here.txt.node-b",
	    "b's\n"), "what rank 0 wrote in DIR stays; the node's copy is DIR/NAME.HOST");
	ok(holds(st->dir, "sub/deep.txt", "deep\n"), "a name with a directory: made in DIR");
	ok(!exists(st->dir, "nobody.txt") && !exists(st->dir, "out.txt.part") &&
	    !exists(st->dir, "out.txt.node-a.part"), "nothing for a file no node has, no "
	    "partial copy left");
	xasprintf(&end, " ok %s/out.txt.node-a", st->dir);
	ok(logged(st, "out 7 ", end), "stage.log: each file collected, with its size");
	free(end);
}

/* The nodes' directories removed; one that cannot be reached stays listed. */
static void
test_cleanup(const struct job_state *st, struct stage_dir *d)
{
	struct stage_dir *back = NULL;
	size_t n = 0;
	char *parent;
	double t0;

	if (stage_dirs_write(st, d, 3) != 0) {
		ok(0, "remote-dirs is written");
		return;
	}
	t0 = clock_mono();
	stage_cleanup(st);
	ok(access(d[0].dir, F_OK) == -1 && access(d[1].dir, F_OK) == -1,
	    "the nodes' own job directories are removed");
	xasprintf(&parent, "%s/node-a/.gridsubmit", tmp);
	ok(access(parent, F_OK) == -1, "with their parents, now empty");
	free(parent);
	ok(stage_dirs_read(st->dir, &back, &n) == 0 && n == 1 &&
	    strcmp(back[0].host, "node-down") == 0, "remote-dirs keeps only the node that "
	    "could not be reached");
	stage_dirs_free(back, n);
	ok(logged(st, "removed node-a ", d[0].dir) && logged(st, "removed node-b ", d[1].dir),
	    "stage.log: each removal");
	stage_cleanup(st);
	ok(stage_dirs_read(st->dir, &back, &n) == 0 && n == 1, "a second cleanup: the same");
	stage_dirs_free(back, n);
	ok(clock_mono() - t0 < 30, "within the cleanup's 30 s");
}

static void
test_remote(const struct gs_sites *sites, const struct gs_job *job, const struct job_state *st)
{
	struct stage_dir d[3];
	char why[256] = "", *name;
	int i;

	if (nodes_setup(st, why, sizeof why) != 0) {
		nodes_disconnect(st);
		printf("skip - staging to nodes, stage_out, stage_cleanup: %s\n", why);
		return;
	}
	name = stage_dir_name(st, "0123abcd");
	memset(d, 0, sizeof d);
	d[0].host = "node-a";
	d[0].dir = node_dir("node-a", name);
	d[0].program = d[0].rankexec = 1;
	d[1].host = "node-b";
	d[1].dir = node_dir("node-b", name);
	d[1].rankexec = 1;
	d[2].host = "node-down";
	xasprintf(&d[2].dir, "%s/node-down/.gridsubmit/jobs/%s", tmp, name);
	d[2].program = d[2].rankexec = 1;
	test_copy_in(job, st, d);
	test_stage_out(sites, job, st, d);
	test_cleanup(st, d);
	nodes_disconnect(st);
	for (i = 0; i < 3; i++)
		free(d[i].dir);
	free(name);
}

int
main(void)
{
	struct gs_sites sites;
	struct gs_job job;
	struct gs_error err;
	struct gs_errlist errs;
	struct job_state st;
	char *p, *jobfile;
	int rc = 0;

	if (mkdtemp(tmp) == NULL)
		return 2;
	p = in_tmp("home");
	mkdir(p, 0700);
	setenv("GRIDSUBMIT_HOME", p, 1);
	free(p);
	memset(&st, 0, sizeof st);
	snprintf(st.id, sizeof st.id, "5");
	st.dir = in_tmp("job");
	mkdir(st.dir, 0700);
	jobfile = in_tmp("src/job.yaml");
	memset(&err, 0, sizeof err);
	errlist_init(&errs, "");
	if (write_sources() != 0 || job_load_file_errs(jobfile, &job, &errs) != 0 ||
	    sites_load_buffer_errs("sites.yaml", sites_yaml, sizeof sites_yaml - 1, &sites,
	    &errs) != 0) {
		errlist_first(&errs, &err);
		printf("not ok - the test's job and nodes: %s\n", err.msg);
		rc = 1;
	} else {
		test_stage_in_check(&job);
		test_stage_in_local(&job, &st);
		test_dir_name(&st);
		test_remote_dirs();
		test_nothing_remote(&sites, &job);
		test_remote(&sites, &job, &st);
		job_free(&job);
		sites_free(&sites);
	}
	free(jobfile);
	free(st.dir);
	{
		char *argv[] = { "rm", "-rf", tmp, NULL };

		run(argv);
	}
	return rc != 0 ? rc : tap_done();
}
