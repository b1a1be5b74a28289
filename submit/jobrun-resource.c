/*
 * jobrun-resource.c — a launch that failed because a process of the job had no file
 * descriptor or no memory left (doc/restarts.md, "Out of descriptors or memory"): failed
 * with the reason and the limit that caused it, never relaunched, since the relaunch
 * inherits the same limits and would fail the same way, each time starting over.
 *
 * The evidence: this process cannot open a descriptor itself, or the job's processes said
 * so on the launch's stderr (DIR/stderr): hydra's proxy and mpiexec name the failed call
 * with strerror's words ("pipe error (Too many open files)"), as do the ranks' wrappers;
 * the first such line is quoted.
 */
#include <sys/resource.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "submit/jobrun.h"

#define RESOURCE_LINE_MAX	4096	/* bytes of a stderr line looked at */
#define RESOURCE_QUOTE_MAX	160	/* bytes of that line quoted in the reason */

/* What ran out, as the reason says it, and the errno whose words show it. */
static const struct resource_kind {
	int err;
	const char *what;
	int limit;		/* the rlimit that bounds it here */
	const char *ulimit;	/* the shell's option for that limit */
} resource_kinds[] = {
	{ EMFILE, "file descriptors", RLIMIT_NOFILE, "ulimit -n" },
	{ ENFILE, "file descriptors (the system's table)", RLIMIT_NOFILE, "ulimit -n" },
	{ ENOMEM, "memory", RLIMIT_AS, "ulimit -v" },
};

/* The limit of kind k in this process, in words: "1024", "unlimited" (KiB for memory). */
static void
resource_limit(const struct resource_kind *k, char *dst, size_t len)
{
	struct rlimit rl;

	if (getrlimit(k->limit, &rl) == -1 || rl.rlim_cur == RLIM_INFINITY)
		snprintf(dst, len, "unlimited");
	else if (k->limit == RLIMIT_AS)
		snprintf(dst, len, "%llu KiB", (unsigned long long)rl.rlim_cur / 1024);
	else
		snprintf(dst, len, "%llu", (unsigned long long)rl.rlim_cur);
}

/*
 * The supervisor itself short of descriptors: then mpiexec may not even have started
 * (its child could not open /dev/null), and nothing of it is in DIR/stderr. 1 with reason.
 */
static int
resource_self(char *reason, size_t len)
{
	char limit[64];
	int fd, err;

	if ((fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0) {
		close(fd);
		return 0;
	}
	err = errno;
	if (err != EMFILE && err != ENFILE)
		return 0;
	resource_limit(&resource_kinds[err == EMFILE ? 0 : 1], limit, sizeof limit);
	snprintf(reason, len, "the supervisor ran out of file descriptors (the limit here: %s, "
	    "ulimit -n); no restart: a relaunch would meet the same limit", limit);
	return 1;
}

int
jobrun_resource_failure(struct jobrun *jr, char *reason, size_t len)
{
	const struct resource_kind *k = NULL;
	char *path, *line = NULL, limit[64];
	size_t cap = 0, i;
	ssize_t n;
	FILE *fp;

	if (resource_self(reason, len))
		return 1;
	xasprintf(&path, "%s/stderr", jr->st.dir);
	fp = fopen(path, "r");
	free(path);
	if (fp == NULL)
		return 0;
	while (k == NULL && (n = getline(&line, &cap, fp)) > 0) {
		if (n > RESOURCE_LINE_MAX)
			continue;
		for (i = 0; k == NULL && i < sizeof resource_kinds / sizeof *resource_kinds; i++)
			if (strstr(line, strerror(resource_kinds[i].err)) != NULL)
				k = &resource_kinds[i];
	}
	fclose(fp);
	if (k == NULL) {
		free(line);
		return 0;
	}
	line[strcspn(line, "\n")] = '\0';
	resource_limit(k, limit, sizeof limit);
	snprintf(reason, len, "the job ran out of %s: \"%.*s\" (the limit here: %s, %s); no "
	    "restart: a relaunch would meet the same limit", k->what, RESOURCE_QUOTE_MAX,
	    line, limit, k->ulimit);
	free(line);
	return 1;
}
