/*
 * test-jobstore.c — the job store (store/jobstore.h) and its one file writer
 * (common/file.h), on stores of their own: a store that is world-writable or not a
 * directory refused with the reason; ids never handed out twice, also when jobs/next-id was
 * removed, and a corrupt next-id refused with its path; a job whose first state cannot be
 * written leaves nothing and its id is skipped; every field of state.json written and read
 * back, as schema_version 2 with a numeric id, and a schema-1 file (string id) still read;
 * torn, empty, binary or wrong state files refused with the file's path, never a crash;
 * record_end waiting for the job's lock; the atomic writer giving the exact mode, leaving
 * no temporary file when it fails, and a reader never seeing half a file. What the store
 * did not make is refused with its path and what is wrong, nothing made or followed: a
 * group-writable root, a jobs/ of another uid (nobody, as root), a symbolic link planted
 * at jobs/.lock, a job directory or state.json others can write, a state.json whose
 * allocation id is "1; rm -rf", whose login is "-oProxyCommand=...", whose host is not
 * a host name, or whose pid is 1.
 */
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/tap.h"

#include "common/file.h"
#include "common/xmalloc.h"
#include "store/jobstore.h"

static char base[] = "/tmp/gs-test-jobstore.XXXXXX";

/* A file of text (the tests' own: a plain write). */
static void
put(const char *path, const char *text)
{
	if (file_write(path, text, strlen(text)) != 0)
		printf("# cannot write %s: %s\n", path, strerror(errno));
}

/* path's text (allocated), or NULL. */
static char *
slurp(const char *path)
{
	size_t len;
	char *buf;

	return file_read(path, 1 << 22, &buf, &len) == 0 ? buf : NULL;
}

static int
exists(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) == 0;
}

/* How many entries of dir start with prefix. */
static int
count_prefix(const char *dir, const char *prefix)
{
	struct dirent *de;
	DIR *d;
	int n = 0;

	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += strncmp(de->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return n;
}

/* A new job with only what the command line always sets; its id, or "" on failure. */
static const char *
create(struct job_state *st, char *why, size_t whylen)
{
	memset(st, 0, sizeof *st);
	st->name = xstrdup("t");
	st->ranks = 2;
	st->exit_code = -1;
	st->submitted = 1764083760.5;
	why[0] = '\0';
	if (jobstore_create(st, why, whylen) != 0)
		return "";
	return st->id;
}

/* Remove job id's directory (its state.json first). */
static void
remove_job(const char *jobs, const char *id)
{
	char *p;

	xasprintf(&p, "%s/%s/state.json", jobs, id);
	unlink(p);
	free(p);
	xasprintf(&p, "%s/%s", jobs, id);
	rmdir(p);
	free(p);
}

/* Before any good store: home_root keeps the first usable one for the process. */
static void
test_refused(void)
{
	char why[1024], *home, **ids;
	struct job_state st;
	size_t n;

	xasprintf(&home, "%s/open", base);
	mkdir(home, 0700);
	chmod(home, 0777);
	setenv("GRIDSUBMIT_HOME", home, 1);
	create(&st, why, sizeof why);
	ok(strstr(why, home) != NULL && strstr(why, "world-writable") != NULL,
	    "a world-writable store is refused, named (%s)", why);
	job_state_free(&st);
	free(home);
	xasprintf(&home, "%s/open/jobs", base);
	ok(!exists(home), "nothing was made in it");
	free(home);

	xasprintf(&home, "%s/file", base);
	put(home, "not a directory\n");
	setenv("GRIDSUBMIT_HOME", home, 1);
	create(&st, why, sizeof why);
	ok(strstr(why, home) != NULL && strstr(why, "not a directory") != NULL,
	    "a store that is a file is refused, named (%s)", why);
	job_state_free(&st);
	is_int(jobstore_list(&ids, &n, why, sizeof why), -1, "list: -1 with the reason");
	ok(ids == NULL && n == 0 && strstr(why, "not a directory") != NULL,
	    "list: nothing, and why (%s)", why);
	is_int(jobstore_read_state("1", &st, why, sizeof why), JOBSTORE_ERROR,
	    "read_state: JOBSTORE_ERROR when the store cannot be used");
	ok(jobstore_job_dir("1", why, sizeof why) == NULL, "job_dir: NULL with why");
	free(home);

	xasprintf(&home, "%s/group", base);
	mkdir(home, 0700);
	chmod(home, 0770);
	setenv("GRIDSUBMIT_HOME", home, 1);
	create(&st, why, sizeof why);
	ok(strstr(why, home) != NULL && strstr(why, "writable by its group") != NULL,
	    "a group-writable store is refused, named (%s)", why);
	job_state_free(&st);
	is_int(jobstore_list(&ids, &n, why, sizeof why), -1, "list: refused as well");
	free(home);
	xasprintf(&home, "%s/group/jobs", base);
	ok(!exists(home), "nothing was made in it");
	free(home);
}

/*
 * Below a good root (jobs): a jobs/ of another uid, a link at jobs/.lock, a job directory
 * and a state.json that others can write, and values no gridsubmit writes.
 */
static void
test_trust(const char *jobs)
{
	static const struct {
		const char *text, *field;
	} lies[] = {
		{ "\"allocations\": [{\"site\": \"s\", \"login\": \"login\", \"id\": "
		    "\"1; rm -rf ~\", \"hosts\": [\"n1\"], \"state\": \"RUNNING\"}]",
		    "\"allocations\"[0].\"id\" is not a Slurm job id" },
		{ "\"allocations\": [{\"site\": \"s\", \"login\": "
		    "\"-oProxyCommand=touch /tmp/gs-owned\", \"id\": \"12\", \"hosts\": "
		    "[\"n1\"], \"state\": \"RUNNING\"}]",
		    "\"allocations\"[0].\"login\" is not a host name" },
		{ "\"allocations\": [{\"site\": \"s\", \"login\": \"login\", \"id\": "
		    "\"12\", \"hosts\": [\"n1;reboot\"], \"state\": \"RUNNING\"}]",
		    "\"allocations\"[0].\"hosts\" is not a host name" },
		{ "\"mpiexec_pid\": 1", "\"mpiexec_pid\" is not a process id" },
		{ "\"supervisor_pid\": -1", "\"supervisor_pid\" is not a process id" },
	};
	char why[1024], *dir, *path, *lock, *text;
	struct job_state st;
	struct stat sb;
	size_t i;

	xasprintf(&dir, "%s/300", jobs);
	xasprintf(&path, "%s/state.json", dir);
	mkdir(dir, 0700);
	for (i = 0; i < sizeof lies / sizeof lies[0]; i++) {
		xasprintf(&text, "{\"schema_version\": 2, \"id\": 300, \"state\": \"running\", "
		    "%s}", lies[i].text);
		put(path, text);
		free(text);
		why[0] = '\0';
		is_int(jobstore_read_state("300", &st, why, sizeof why), JOBSTORE_BAD,
		    "a state.json gridsubmit never writes (%zu): JOBSTORE_BAD", i);
		ok(strncmp(why, path, strlen(path)) == 0 && strstr(why, lies[i].field) != NULL,
		    "its path and field named (%s)", why);
	}
	put(path, "{\"schema_version\": 2, \"id\": 300, \"state\": \"running\"}");
	chmod(path, 0666);
	is_int(jobstore_read_state("300", &st, why, sizeof why), JOBSTORE_BAD,
	    "a state.json others can write: JOBSTORE_BAD");
	ok(strstr(why, path) != NULL && strstr(why, "writable by others") != NULL,
	    "named, with what is wrong (%s)", why);
	chmod(path, 0644);
	chmod(dir, 0770);
	is_int(jobstore_read_state("300", &st, why, sizeof why), JOBSTORE_BAD,
	    "a job directory its group can write: JOBSTORE_BAD");
	ok(strstr(why, dir) != NULL && strstr(why, "writable by its group") != NULL,
	    "named, with what is wrong (%s)", why);
	chmod(dir, 0700);
	unlink(path);
	symlink("/etc/hostname", path);
	is_int(jobstore_read_state("300", &st, why, sizeof why), JOBSTORE_BAD,
	    "a state.json that is a symbolic link: JOBSTORE_BAD, not followed");
	ok(strstr(why, "not a regular file") != NULL, "said so (%s)", why);
	unlink(path);
	rmdir(dir);

	/* a link where the ids' lock goes: never followed, nothing made at its target */
	xasprintf(&lock, "%s/.lock", jobs);
	xasprintf(&text, "%s/planted", base);
	unlink(lock);
	symlink(text, lock);
	ok(strcmp(create(&st, why, sizeof why), "") == 0 && strstr(why, lock) != NULL,
	    "a link planted at jobs/.lock: the job is refused, named (%s)", why);
	job_state_free(&st);
	ok(!exists(text), "and the link's target was not created");
	unlink(lock);
	free(text);
	free(lock);

	if (geteuid() != 0) {
		printf("ok - # SKIP a jobs/ of another uid needs root (chown)\n");
		free(path);
		free(dir);
		return;
	}
	chown(jobs, 65534, 65534);
	ok(strcmp(create(&st, why, sizeof why), "") == 0 && strstr(why, jobs) != NULL &&
	    strstr(why, "belongs to uid 65534") != NULL,
	    "a jobs/ of another uid: the job is refused, named (%s)", why);
	job_state_free(&st);
	xasprintf(&text, "%s/next-id", jobs);
	ok(stat(text, &sb) == -1 || sb.st_uid == 0, "and no id was taken in it");
	free(text);
	ok(jobstore_job_dir("1", why, sizeof why) == NULL && strstr(why, "65534") != NULL,
	    "job_dir: refused as well (%s)", why);
	chown(jobs, 0, 0);
	free(path);
	free(dir);
}

static void
test_ids(const char *jobs)
{
	char why[1024], id[32], *path, *text;
	struct job_state st;

	is_int(jobstore_latest_id(id, sizeof id, why, sizeof why), JOBSTORE_NOJOB,
	    "an empty store has no latest job");
	ok(strstr(why, "no job yet in ") != NULL && strstr(why, jobs) != NULL,
	    "and says where it looked (%s)", why);

	is_str(create(&st, why, sizeof why), "1", "the first job is 1");
	job_state_free(&st);
	is_str(create(&st, why, sizeof why), "2", "the second is 2");
	job_state_free(&st);
	is_str(create(&st, why, sizeof why), "3", "the third is 3");
	xasprintf(&path, "%s/state.json", st.dir);
	ok(exists(path), "a new job has its state.json at once");
	free(path);
	job_state_free(&st);
	xasprintf(&path, "%s/next-id", jobs);
	text = slurp(path);
	is_str(text, "4\n", "next-id holds the next id");
	free(text);

	/* next-id lost, and job 1 removed: the ids go on after the highest */
	unlink(path);
	remove_job(jobs, "1");
	is_str(create(&st, why, sizeof why), "4", "next-id removed: 4, not the free 1");
	job_state_free(&st);

	put(path, "four\n");
	is_str(create(&st, why, sizeof why), "", "a corrupt next-id: no job");
	ok(strstr(why, path) != NULL && strstr(why, "corrupt") != NULL,
	    "the error names next-id (%s)", why);
	job_state_free(&st);
	put(path, "5\n");
	is_str(create(&st, why, sizeof why), "5", "next-id mended: 5");
	job_state_free(&st);

	/* a first state that cannot be written (a name that is not UTF-8) */
	memset(&st, 0, sizeof st);
	st.name = xstrdup("bad \xff name");
	is_int(jobstore_create(&st, why, sizeof why), -1, "an unwritable first state: -1");
	ok(strstr(why, "state.json") != NULL, "why names state.json (%s)", why);
	ok(st.id[0] == '\0' && st.dir == NULL, "no id or directory given back");
	job_state_free(&st);
	free(path);
	xasprintf(&path, "%s/6", jobs);
	ok(!exists(path), "nothing of job 6 is left");
	free(path);
	is_str(create(&st, why, sizeof why), "7", "its id is skipped, never handed out");
	job_state_free(&st);

	is_int(jobstore_latest_id(id, sizeof id, why, sizeof why), JOBSTORE_OK, "latest id");
	is_str(id, "7", "the latest is the highest");
}

/* Every field set, written, read back. */
static void
test_roundtrip(void)
{
	char why[1024], *path, *text, *hosts[] = { "thu1", "thu2" }, *ex[] = { "lz1" };
	struct job_state st, back;
	struct job_alloc *a;
	json_t *o, *doc;

	create(&st, why, sizeof why);
	free(st.name);
	st.name = xstrdup("mandel");
	st.job_file = xstrdup("/home/u/mandel.yaml");
	st.phase = JOB_FAILED;
	st.reason = xstrdup("rank 0 killed");
	st.submitted = 1764083760.831;
	st.started = 1764083761.002;
	st.ended = 1764083799.250;
	st.ranks = 8;
	st.scheme = xstrdup("pss");
	st.supervisor_pid = 4242;
	st.mpiexec_pid = 4343;
	st.supervisor_start = 123456789ULL;
	st.mpiexec_start = 123456999ULL;
	st.exit_code = 137;
	st.failed_ranks = 2;
	st.requeued = 17;
	st.makespan = 12.345678;
	st.t0 = 1764083760.9;
	st.restarts = 1;
	st.restarts_max = 3;
	st.sites_file = xstrdup("/home/u/sites.yaml");
	st.ranks_option = 8;
	st.no_metrics = 1;
	jobstore_restart_add(&st, 1764083780.5, "node lost", ex, 1);
	a = jobstore_alloc_add(&st, "HPC", "login1", "991", hosts, 2);
	jobstore_alloc_set_state(a, "RUNNING", "None");
	a->released = JOB_ALLOC_ENDED;
	is_int(jobstore_write_state(&st), 0, "the full state is written");

	is_int(jobstore_read_state(st.id, &back, why, sizeof why), JOBSTORE_OK,
	    "and read back by id");
	is_str(back.id, st.id, "id");
	is_str(back.dir, st.dir, "dir");
	is_str(back.name, "mandel", "name");
	is_str(back.job_file, "/home/u/mandel.yaml", "job_file");
	is_int(back.phase, JOB_FAILED, "state");
	is_str(back.reason, "rank 0 killed", "reason");
	is_dbl(back.submitted, st.submitted, 5e-4, "submitted, to the millisecond");
	is_dbl(back.started, st.started, 5e-4, "started");
	is_dbl(back.ended, st.ended, 5e-4, "ended");
	is_int(back.ranks, 8, "ranks");
	is_str(back.scheme, "pss", "scheme");
	is_int(back.supervisor_pid, 4242, "supervisor_pid");
	is_int(back.mpiexec_pid, 4343, "mpiexec_pid");
	is_int(back.supervisor_start, 123456789LL, "supervisor_start");
	is_int(back.mpiexec_start, 123456999LL, "mpiexec_start");
	is_int(back.exit_code, 137, "exit_code (mpiexec's)");
	is_int(back.failed_ranks, 2, "failed_ranks");
	is_int(back.requeued, 17, "requeued");
	is_dbl(back.makespan, 12.345678, 1e-6, "makespan");
	is_dbl(back.t0, st.t0, 5e-4, "t0");
	is_int(back.restarts, 1, "restarts");
	is_int(back.restarts_max, 3, "restarts_max");
	ok(back.nrestart_log == 1 && strcmp(back.restart_log[0].reason, "node lost") == 0 &&
	    back.restart_log[0].nexcluded == 1 &&
	    strcmp(back.restart_log[0].excluded[0], "lz1") == 0, "restart_log");
	is_str(back.sites_file, "/home/u/sites.yaml", "sites_file");
	is_int(back.ranks_option, 8, "ranks_option");
	is_int(back.no_metrics, 1, "metrics false");
	ok(back.nallocs == 1 && strcmp(back.allocs[0].site, "HPC") == 0 &&
	    strcmp(back.allocs[0].login, "login1") == 0 &&
	    strcmp(back.allocs[0].id, "991") == 0 && back.allocs[0].nhosts == 2 &&
	    strcmp(back.allocs[0].hosts[1], "thu2") == 0 &&
	    strcmp(back.allocs[0].state, "RUNNING") == 0 &&
	    strcmp(back.allocs[0].reason, "None") == 0 &&
	    back.allocs[0].released == JOB_ALLOC_ENDED, "allocations");
	job_state_free(&back);

	xasprintf(&path, "%s/state.json", st.dir);
	text = slurp(path);
	doc = text != NULL ? json_loads(text, 0, NULL) : NULL;
	is_int(json_integer_value(json_object_get(doc, "schema_version")), 2,
	    "state.json: schema_version 2");
	ok(json_is_integer(json_object_get(doc, "id")) &&
	    json_integer_value(json_object_get(doc, "id")) == strtoll(st.id, NULL, 10),
	    "state.json: the id is a number");
	json_decref(doc);
	free(text);
	free(path);

	/* the encoding status shares: the job's state, not what only the store keeps */
	o = jobstore_state_json(&st);
	ok(o != NULL && json_is_integer(json_object_get(o, "id")) &&
	    strcmp(json_string_value(json_object_get(o, "state")), "failed") == 0 &&
	    json_is_array(json_object_get(o, "restart_log")) &&
	    json_is_array(json_object_get(o, "allocations")),
	    "jobstore_state_json: id a number, state, restart_log, allocations");
	ok(o != NULL && json_object_get(o, "mpiexec_pid") == NULL &&
	    json_object_get(o, "exit_code") == NULL &&
	    json_object_get(o, "schema_version") == NULL,
	    "jobstore_state_json: no store-only field (mpiexec_pid, exit_code)");
	json_decref(o);
	job_state_free(&st);
}

/*
 * Every state by its name in state.json, read back (the last of the enum, timeout, too);
 * done, failed, cancelled and timeout are final, the others not.
 */
static void
test_phases(void)
{
	char why[1024];
	struct job_state st, back;
	int p;

	create(&st, why, sizeof why);
	for (p = JOB_BROKERING; p <= JOB_TIMEOUT; p++) {
		is_int(jobstore_set_phase(&st, (enum job_phase)p, p == JOB_TIMEOUT ?
		    "time limit 00:05 reached after 5.0 s of running" : NULL), 0,
		    "state %s written", job_phase_name((enum job_phase)p));
		is_int(jobstore_read_state(st.id, &back, why, sizeof why), JOBSTORE_OK,
		    "state %s read back (%s)", job_phase_name((enum job_phase)p), why);
		is_int(back.phase, p, "state %s is itself", job_phase_name((enum job_phase)p));
		is_int(job_phase_final((enum job_phase)p), p >= JOB_DONE, "state %s %s",
		    job_phase_name((enum job_phase)p), p >= JOB_DONE ? "final" : "not final");
		job_state_free(&back);
	}
	is_str(job_phase_name(JOB_TIMEOUT), "timeout", "timeout's name");
	ok(st.ended > 0, "timeout sets the end time");
	job_state_free(&st);
}

/* A state.json of gridsubmit before schema 2, and versions it must refuse. */
static void
test_schema1(const char *jobs)
{
	char why[1024], *dir, *path;
	struct job_state st;

	xasprintf(&dir, "%s/100", jobs);
	mkdir(dir, 0700);
	xasprintf(&path, "%s/state.json", dir);
	put(path, "{\n  \"schema_version\": 1,\n  \"id\": \"100\",\n  \"name\": \"old\",\n"
	    "  \"job_file\": null,\n  \"state\": \"done\",\n  \"reason\": null,\n"
	    "  \"submitted\": \"2025-11-25T15:16:00.831Z\",\n  \"started\": null,\n"
	    "  \"ended\": \"2025-11-25T15:17:00.000Z\",\n  \"ranks\": 4,\n"
	    "  \"scheme\": \"gss\",\n  \"supervisor_pid\": 77,\n  \"mpiexec_pid\": 78,\n"
	    "  \"exit_code\": 0,\n  \"failed_ranks\": 0,\n  \"requeued\": 0,\n"
	    "  \"makespan\": 1.5,\n  \"supervisor_start\": 5,\n  \"mpiexec_start\": 6\n}\n");
	why[0] = '\0';
	is_int(jobstore_read_state("100", &st, why, sizeof why), JOBSTORE_OK,
	    "a schema-1 state.json (id a string) is read (%s)", why);
	is_str(st.id, "100", "its id");
	is_str(st.name, "old", "its name");
	is_int(st.phase, JOB_DONE, "its state");
	is_dbl(st.ended - st.submitted, 59.169, 5e-4, "its times");
	is_int(st.ranks, 4, "its ranks");
	is_int(st.restarts, 0, "no restart fields: none");
	job_state_free(&st);

	put(path, "{\"schema_version\": 1, \"id\": 100, \"state\": \"done\"}\n");
	is_int(jobstore_read_state("100", &st, why, sizeof why), JOBSTORE_BAD,
	    "schema 1 with a numeric id: refused");
	ok(strstr(why, "\"id\" has the wrong type") != NULL, "(%s)", why);
	put(path, "{\"schema_version\": 2, \"id\": \"100\", \"state\": \"done\"}\n");
	is_int(jobstore_read_state("100", &st, why, sizeof why), JOBSTORE_BAD,
	    "schema 2 with a string id: refused");
	put(path, "{\"schema_version\": 3, \"id\": 100, \"state\": \"done\"}\n");
	is_int(jobstore_read_state("100", &st, why, sizeof why), JOBSTORE_BAD,
	    "schema 3: refused");
	ok(strstr(why, "newer gridsubmit") != NULL, "as written by a newer one (%s)", why);
	put(path, "{\"schema_version\": 2, \"id\": 100, \"state\": \"done\"}\n");
	is_int(jobstore_read_state("100", &st, why, sizeof why), JOBSTORE_OK,
	    "schema 2, only the required fields: read");
	is_int(st.exit_code, -1, "mpiexec's exit status unknown");
	job_state_free(&st);
	free(path);
	free(dir);
}

/* Damaged state files: JOBSTORE_BAD with the file's path, never a crash. */
static void
test_corrupt(const char *jobs)
{
	static const char *const bad[] = {
		"{\"schema_version\": 2, \"id\": 7, \"sta",			/* torn */
		"",								/* empty */
		"\x89PNG\r\n\x1a\n\x00\x01\xff\xfe",				/* binary */
		"[1, 2]",						/* not an object */
		"{\"schema_version\": 2, \"id\": 7, \"state\": \"zombie\"}",	/* bad state */
		"{\"schema_version\": 2, \"id\": 7, \"state\": \"done\", \"ranks\": \"8\"}",
		"{\"schema_version\": 2, \"id\": -7, \"state\": \"done\"}",
		"{\"schema_version\": 2, \"state\": \"done\"}",			/* no id */
		"{\"id\": 7, \"state\": \"done\"}",				/* no version */
		"{\"schema_version\": 2, \"id\": 7, \"state\": \"done\", \"restart_log\": 3}",
		"{\"schema_version\": 2, \"id\": 7, \"state\": \"done\", \"allocations\": [1]}",
	};
	char why[1024], *dir, *path;
	struct job_state st;
	size_t i;

	xasprintf(&dir, "%s/200", jobs);
	mkdir(dir, 0700);
	xasprintf(&path, "%s/state.json", dir);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		put(path, bad[i]);
		why[0] = '\0';
		is_int(jobstore_read_state("200", &st, why, sizeof why), JOBSTORE_BAD,
		    "bad state file %zu: JOBSTORE_BAD", i);
		ok(strncmp(why, path, strlen(path)) == 0, "bad state file %zu: its path (%s)",
		    i, why);
	}
	unlink(path);
	mkdir(path, 0700);
	is_int(jobstore_read_state("200", &st, why, sizeof why), JOBSTORE_BAD,
	    "a directory for state.json: JOBSTORE_BAD");
	rmdir(path);
	is_int(jobstore_read_state("200", &st, why, sizeof why), JOBSTORE_BAD,
	    "no state.json: JOBSTORE_BAD");
	ok(strstr(why, "missing") != NULL, "said missing (%s)", why);
	is_int(jobstore_read_state("9999", &st, why, sizeof why), JOBSTORE_NOJOB,
	    "no such job: JOBSTORE_NOJOB");
	is_int(jobstore_read_state("../1", &st, why, sizeof why), JOBSTORE_NOJOB,
	    "a path with no job: JOBSTORE_NOJOB");
	rmdir(dir);
	free(path);
	free(dir);
}

/* record_end re-reads under the job's lock: it waits for whoever holds it. */
static void
test_record_end(void)
{
	struct timespec pause = { 0, 300000000L };
	char why[1024], *path;
	struct job_state st, now;
	int fd, status;
	pid_t pid;

	create(&st, why, sizeof why);
	is_int(jobstore_set_phase(&st, JOB_RUNNING, NULL), 0, "a running job");
	ok(st.started > 0, "its start time is set");
	fd = jobstore_lock(st.dir, why, sizeof why);
	ok(fd != -1, "its lock taken");
	fflush(stdout);
	if ((pid = fork()) == 0) {
		char cwhy[1024];

		/* its copy of our descriptor would hold the lock for it: another holder */
		close(fd);
		_exit(jobstore_record_end(&st, JOB_FAILED, "supervisor died", cwhy,
		    sizeof cwhy) == 1 ? 0 : 1);
	}
	nanosleep(&pause, NULL);
	jobstore_read_state(st.dir, &now, why, sizeof why);
	is_int(now.phase, JOB_RUNNING, "record_end waits while the lock is held");
	job_state_free(&now);
	close(fd);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "then records the end (returns 1)");
	jobstore_read_state(st.dir, &now, why, sizeof why);
	ok(now.phase == JOB_FAILED && now.reason != NULL &&
	    strcmp(now.reason, "supervisor died") == 0 && now.ended > 0,
	    "failed, with its reason and end time");
	job_state_free(&now);
	is_int(jobstore_record_end(&st, JOB_CANCELLED, "late", why, sizeof why), 0,
	    "an ended job: 0, nothing written");
	ok(st.phase == JOB_FAILED && strcmp(st.reason, "supervisor died") == 0,
	    "st is the recorded end");
	xasprintf(&path, "%s/state.json", st.dir);
	unlink(path);
	free(path);
	is_int(jobstore_record_end(&st, JOB_CANCELLED, NULL, why, sizeof why), -1,
	    "no state to re-read: -1");
	ok(strstr(why, "state.json") != NULL, "with why (%s)", why);
	job_state_free(&st);
}

/* The one atomic writer. */
static void
test_writer(void)
{
	char *dir, *path, *text, *big;
	struct timespec nap = { 0, 1000000L };
	struct rlimit rl, small;
	struct stat sb;
	size_t size = 1 << 16;
	int i, halves = 0, reads = 0, status;
	mode_t old;
	pid_t pid;

	xasprintf(&dir, "%s/w", base);
	mkdir(dir, 0700);
	xasprintf(&path, "%s/f", dir);
	old = umask(077);
	is_int(file_write_atomic(dir, "f", "old\n", 4, 0644), 0, "a file written");
	umask(old);
	memset(&sb, 0, sizeof sb);
	i = stat(path, &sb);
	ok(i == 0 && (sb.st_mode & 07777) == 0644,
	    "with exactly its mode, whatever the umask (%o)", (unsigned)(sb.st_mode & 07777));
	is_int(count_prefix(dir, ".f."), 0, "no temporary file left");
	ok(file_write_atomic(dir, "a/b", "x", 1, 0644) == -1 && errno == EINVAL,
	    "a name with a '/' is refused");

	/* a write cut short (a full disk, here RLIMIT_FSIZE): the old file stays whole */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &rl);
	small = rl;
	small.rlim_cur = 1000;
	big = xmalloc(size);
	memset(big, 'a', size);
	setrlimit(RLIMIT_FSIZE, &small);
	i = file_write_atomic(dir, "f", big, size, 0644);
	setrlimit(RLIMIT_FSIZE, &rl);
	ok(i == -1 && errno == EFBIG, "a write cut short fails (%s)", strerror(errno));
	text = slurp(path);
	is_str(text, "old\n", "the old file is whole");
	free(text);
	is_int(count_prefix(dir, ".f."), 0, "no temporary file left");

	/* a rename that fails (a directory in the way): no temporary file left */
	xasprintf(&text, "%s/d", dir);
	mkdir(text, 0700);
	ok(file_write_atomic(dir, "d", "x", 1, 0644) == -1, "a rename onto a directory fails");
	is_int(count_prefix(dir, ".d."), 0, "no temporary file left");
	rmdir(text);
	free(text);

	/* a reader while a writer replaces the file: always one whole version */
	memset(big, 'b', size);
	file_write_atomic(dir, "f", big, size, 0644);
	fflush(stdout);
	if ((pid = fork()) == 0) {
		for (i = 0;; i++) {
			memset(big, i % 2 ? 'a' : 'b', size);
			file_write_atomic(dir, "f", big, size, 0644);
		}
	}
	for (i = 0; i < 400; i++) {
		size_t len, k;
		char *buf;

		if (file_read(path, size * 2, &buf, &len) != 0) {
			halves++;
			continue;
		}
		for (k = 1; k < len && buf[k] == buf[0]; k++)
			;
		halves += len != size || k != len;
		reads++;
		free(buf);
		nanosleep(&nap, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	ok(halves == 0 && reads == 400, "400 reads during rewrites: never half a file (%d)",
	    halves);

	/* killed in its middle, the writer left a temporary file: the sweep removes it */
	xasprintf(&text, "%s/.f.Ab12Yz.tmp", dir);
	put(text, "half");
	free(text);
	xasprintf(&text, "%s/.f.keep", dir);
	put(text, "not ours");
	is_int(file_atomic_sweep(dir, "f"), 0, "the sweep");
	is_int(count_prefix(dir, ".f."), 1, "removes the temporary files, and only them");
	ok(exists(path) && exists(text), "the file and a stranger stay");
	unlink(text);
	free(text);
	unlink(path);
	rmdir(dir);
	free(big);
	free(path);
	free(dir);
}

/* Remove what the tests made (a flat walk: two levels are enough here). */
static void
cleanup(const char *dir, int depth)
{
	struct dirent *de;
	char *p;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		xasprintf(&p, "%s/%s", dir, de->d_name);
		if (unlink(p) == -1 && depth > 0)
			cleanup(p, depth - 1);
		free(p);
	}
	closedir(d);
	rmdir(dir);
}

int
main(void)
{
	char *home, *jobs;

	if (mkdtemp(base) == NULL)
		return 2;
	test_refused();
	xasprintf(&home, "%s/home", base);
	xasprintf(&jobs, "%s/jobs", home);
	setenv("GRIDSUBMIT_HOME", home, 1);
	test_ids(jobs);
	test_roundtrip();
	test_phases();
	test_schema1(jobs);
	test_corrupt(jobs);
	test_trust(jobs);
	test_record_end();
	test_writer();
	cleanup(base, 3);
	free(jobs);
	free(home);
	return tap_done();
}
