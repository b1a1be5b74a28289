/*
 * test-job-doc.c — a job without a job file (job.h): a document built in memory loaded
 * through the job loader's checks, its errors naming each node's origin (the option it
 * came from); the command line's stage_in items added to a loaded job with the checks a
 * job file's items get; the name check that name: and --name share.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tap.h"

#include "broker/errlist.h"
#include "broker/job.h"
#include "broker/yaml-doc.h"
#include "broker/yaml-emit.h"

/* A mapping of the scalars key=value, each from origin "--KEY". */
static struct ydoc_node *
doc_of(const char *const *kv)
{
	static char origins[8][32];
	struct ydoc_node *doc = calloc(1, sizeof *doc);
	int i;

	doc->type = YDOC_MAP;
	for (i = 0; kv[i] != NULL; i += 2) {
		snprintf(origins[i / 2], sizeof origins[i / 2], "--%s", kv[i]);
		ydoc_set(doc, kv[i], ydoc_scalar_new(kv[i + 1], 0, 0, origins[i / 2]));
	}
	return doc;
}

static void
test_doc(void)
{
	static const char *const good[] = { "name", "hello", "program", "/bin/../bin/echo",
		NULL };
	static const char *const bad[] = { "name", "a/b", "program", "/bin/echo", "ranks",
		"0", NULL };
	struct ydoc_node *doc;
	struct gs_errlist errs;
	struct gs_job job;

	doc = doc_of(good);
	if (is_int(job_load_doc_errs("the command line", doc, &job, &errs), 0,
	    "a document loads")) {
		is_str(job.name, "hello", "its name");
		is_str(job.program, "/bin/echo", "its program, made clean as a file's");
		is_int(job.ranks, 2, "the job file's defaults: ranks");
		is_int(job.restarts, 3, "the job file's defaults: restarts");
		is_str(job.path, "the command line", "named as given");
		job_free(&job);
	}
	ydoc_free(doc);

	doc = doc_of(bad);
	if (is_int(job_load_doc_errs("the command line", doc, &job, &errs), -1,
	    "a bad document is refused") && is_int((long long)errs.n, 2, "with both errors")) {
		is_str(errlist_get(&errs, 0)->msg, "--name: 'name' must be a job name (at most "
		    "128 bytes, no '/' or control characters), not 'a/b'",
		    "the name's error names its option");
		is_str(errlist_get(&errs, 1)->msg, "--ranks: 'ranks' must be a whole number >= 1 "
		    "or {min: N, max: M}, not '0'", "the ranks' error names its option");
	}
	ydoc_free(doc);

	doc = doc_of((const char *const[]){ "name", "x", NULL });
	if (is_int(job_load_doc_errs("the command line", doc, &job, &errs), -1,
	    "a document without a program is refused"))
		is_str(errlist_get(&errs, 0)->msg, "the command line: missing key 'program' "
		    "(the MPI program to run)", "named by the document's name");
	ydoc_free(doc);
}

static void
test_name(void)
{
	char big[200];

	ok(job_name_ok("mandel-pwd 2"), "a name with a space");
	ok(!job_name_ok("a/b"), "a '/' refused");
	ok(!job_name_ok("a\tb"), "a control character refused");
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ok(!job_name_ok(big), "199 bytes refused");
	big[128] = '\0';
	ok(job_name_ok(big), "128 bytes taken");
}

/* A job loaded from a file in dir that stages in.dat (made there). */
static int
job_in(const char *dir, struct gs_job *job)
{
	char path[PATH_MAX], text[] = "program: /bin/true\nstage_in: [in.dat]\n";
	struct gs_errlist errs;

	snprintf(path, sizeof path, "%s/job.yaml", dir);
	return job_load_buffer_errs(path, text, strlen(text), job, &errs);
}

/* Remove dir/name (a file or an empty directory). */
static void
remove_in(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	remove(path);
}

static void
test_stage_in_add(void)
{
	char tmpl[] = "/tmp/gs-job-doc.XXXXXX", why[PATH_MAX + 256], cwd[PATH_MAX], *src, *dir;
	char want[PATH_MAX + 64];
	struct gs_job job;
	FILE *f;

	if ((dir = mkdtemp(tmpl)) == NULL || getcwd(cwd, sizeof cwd) == NULL ||
	    chdir(dir) != 0) {
		ok(0, "a temporary directory");
		return;
	}
	mkdir("sub", 0755);
	mkdir("sub/in.dat", 0755);
	mkdir("data", 0755);
	if ((f = fopen("in.dat", "w")) != NULL)
		fclose(f);
	if ((f = fopen("data/x.txt", "w")) != NULL)
		fclose(f);
	mkfifo("pipe", 0644);
	if (!is_int(job_in(dir, &job), 0, "a job with a stage_in of its own"))
		return;

	is_int(job_stage_in_add(&job, "nope.txt", why, sizeof why), -1, "a missing file");
	is_str(why, "nope.txt: No such file or directory", "named as given, with errno's text");
	is_int(job_stage_in_add(&job, "pipe", why, sizeof why), -1, "a FIFO");
	is_str(why, "pipe: not a regular file or directory", "says what it is not");
	is_int(job_stage_in_add(&job, "sub/in.dat", why, sizeof why), -1,
	    "the name of the job file's item");
	is_str(why, "sub/in.dat: would be staged as 'in.dat', as stage_in item 'in.dat' is; "
	    "rename one", "names both");
	is_int(job_stage_in_add(&job, ".", why, sizeof why), -1, "the current directory");
	is_str(why, ".: would be staged as a hidden or empty name; name a file or directory",
	    "a hidden name");
	rename("data", "journal");
	is_int(job_stage_in_add(&job, "journal/", why, sizeof why), -1, "gridsubmit's own name");
	is_str(why, "journal/: would replace gridsubmit's own 'journal' in the job directory; "
	    "rename it", "names it");
	is_int((long long)job.nstage_in, 1, "a refused item is not added");

	rename("journal", "data");
	if (is_int(job_stage_in_add(&job, "data/x.txt", why, sizeof why), 0, "a file is added")) {
		snprintf(want, sizeof want, "%s/data/x.txt", dir);
		is_str(job.stage_in[1], want, "as an absolute item, from the current directory");
		src = job_stage_in_source(&job, 1);
		is_str(src, want, "read from there");
		free(src);
		src = job_stage_in_source(&job, 0);
		snprintf(want, sizeof want, "%s/in.dat", dir);
		is_str(src, want, "the file's item still from the file's directory");
		free(src);
		is_int(job_stage_in_check(&job, why, sizeof why), 0, "both pass the check");
	}
	snprintf(want, sizeof want, "%s/sub", dir);
	is_int(job_stage_in_add(&job, want, why, sizeof why), 0, "an absolute directory");
	is_str(job.stage_in[2], want, "kept as it is");
	is_int(job_stage_in_add(&job, "/bin", why, sizeof why), -1, "'bin' refused");
	is_str(why, "/bin: would replace gridsubmit's own 'bin' in the job directory; rename it",
	    "a node's bin/ is gridsubmit's");
	job_free(&job);

	if (chdir(cwd) != 0)
		ok(0, "back to the tree");
	remove_in(dir, "data/x.txt");
	remove_in(dir, "data");
	remove_in(dir, "sub/in.dat");
	remove_in(dir, "sub");
	remove_in(dir, "in.dat");
	remove_in(dir, "pipe");
	rmdir(dir);
}

int
main(void)
{
	test_doc();
	test_name();
	test_stage_in_add();
	return tap_done();
}
