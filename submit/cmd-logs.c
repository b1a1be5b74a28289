/*
 * cmd-logs.c — gridsubmit logs: print a job's output, DIR/stdout (or DIR/stderr).
 *
 * With --follow it keeps printing what is appended until the job has ended (or its
 * supervisor died), then prints the rest and exits, like tail -f that knows when to stop.
 * The bytes are the program's, passed through as they are.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "launch/jobctl.h"
#include "store/jobstore.h"
#include "submit/cmd.h"

#define LOGS_POLL_NS	200000000L

extern const struct cmd_entry cmd_logs_entry;

/*
 * Copy what path holds beyond *off to stdout. A file that shrank was started again (a
 * relaunch truncates it): read it from the beginning. Returns 0, or -1 when stdout fails.
 */
static int
logs_copy(const char *path, off_t *off)
{
	char buf[65536];
	struct stat sb;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;	/* not there yet: the job has not been launched */
	if (fstat(fd, &sb) == 0 && sb.st_size < *off)
		*off = 0;
	if (lseek(fd, *off, SEEK_SET) == -1) {
		close(fd);
		return 0;
	}
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n) {
			close(fd);
			return -1;
		}
		*off += n;
	}
	close(fd);
	return fflush(stdout) == EOF ? -1 : 0;
}

static const struct option logs_longopts[] = {
	{ "follow", no_argument, NULL, 'f' },
	{ "stderr", no_argument, NULL, 'e' },
	{ NULL, 0, NULL, 0 }
};

static int
cmd_logs_exec(int argc, char **argv)
{
	struct timespec ts = { 0, LOGS_POLL_NS };
	struct job_state st;
	const char *name = "stdout";
	char *path, id[32];
	off_t off = 0;
	int c, follow = 0, code, final;

	while ((c = cmd_getopt(argc, argv, &cmd_logs_entry)) != -1) {
		if (c == 'f')
			follow = 1;
		else if (c == 'e')
			name = "stderr";
	}
	if (optind != argc - 1)
		cmd_usage_error(&cmd_logs_entry, optind >= argc ? "missing job id" :
		    "one job id at a time");
	if ((code = cmd_open_job(argv[optind], &st, 1)) != EXIT_OK)
		return code;
	xasprintf(&path, "%s/%s", st.dir, name);
	snprintf(id, sizeof id, "%s", st.id);
	final = job_phase_final(st.phase);
	if (!follow && access(path, F_OK) == -1)
		log_warnx("job %s has no %s%s (%s)", id, name, final ? "" : " yet",
		    job_phase_name(st.phase));
	job_state_free(&st);
	for (;;) {
		if (logs_copy(path, &off) == -1) {
			log_warn("writing the output of job %s", id);
			free(path);
			return EXIT_FAILED;
		}
		if (!follow || final)
			break;
		nanosleep(&ts, NULL);
		/* the end is recorded after mpiexec is reaped: one more copy drains it all */
		if ((code = cmd_open_job(id, &st, 1)) != EXIT_OK) {
			free(path);
			return code;
		}
		final = job_phase_final(st.phase);
		job_state_free(&st);
	}
	free(path);
	return EXIT_OK;
}

const struct cmd_entry cmd_logs_entry = {
	"logs", "ID [--follow] [--stderr]",
	"print a job's output",
	"  ID                    the job\n"
	"  -f, --follow          keep printing as the output grows, until the job has ended\n"
	"  -e, --stderr          the job's standard error instead of its standard output\n",
	cmd_logs_exec, "fe", logs_longopts, NULL, CMD_OPERAND_JOB
};
