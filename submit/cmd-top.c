/*
 * cmd-top.c — gridsubmit top: the live console of a job (tui/), following the events.jsonl
 * of a job in the store (the latest by default), or replaying a recorded one; --once and
 * --json print one snapshot instead, for scripts and logs.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/home.h"
#include "common/jsonout.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "submit/cmd.h"
#include "submit/top-job.h"
#include "tui/tui.h"

static const struct option top_longopts[] = {
	{ "replay", required_argument, NULL, 'r' },
	{ "speed", required_argument, NULL, 's' },
	{ "once", no_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' },
	{ "no-color", no_argument, NULL, 'C' },
	{ "interval", required_argument, NULL, 'i' },
	{ "exit-at-end", no_argument, NULL, 'e' },
	{ NULL, 0, NULL, 0 }
};

static int cmd_top_exec(int, char **);

const struct cmd_entry cmd_top_entry = {
	"top", "[ID | --replay events.jsonl] [--speed N] [--once] [--json] [--no-color] "
	    "[--interval S] [--exit-at-end]",
	"the live console of a job: per-rank units, times, migrations",
	"  ID                    the job to follow (default: the latest)\n"
	"  --replay FILE         replay a recorded events.jsonl at the pace of its times\n"
	"  --speed N             replay N times faster (0.01 to 1e6; default 1)\n"
	"  --once                print one plain-text snapshot and exit\n"
	"  --json                print one JSON snapshot (schema_version " JSONOUT_SCHEMA_TEXT ") and exit\n"
	"  --no-color            no colours (as does NO_COLOR in the environment)\n"
	"  --interval S          seconds between refreshes (0.05 to 60; default 1)\n"
	"  --exit-at-end         leave as soon as the job's end is on screen\n"
	"a program without libgrt writes no events: its ranks and their ends are shown;\n"
	"each placed node's load and CPU from its monitor are shown while the job runs;\n"
	"keys as htop's: F1 help, Tab the timeline and the log, F9 or k cancels the job\n"
	"(live, after a y), F10 or q quits;\n"
	"see doc/console.md\n"
	"exit status: 0 after q or the end, 1 the recording or a terminal is missing, 2 a\n"
	"usage error or no such job, 3 the recording holds no valid event\n",
	cmd_top_exec, NULL, top_longopts, NULL, CMD_OPERAND_JOB
};

/* The job store root, without creating it: top only reads (common/home.h). */
static char *
top_root(void)
{
	const char *root;
	char why[1024];

	if ((root = home_find(why, sizeof why)) == NULL)
		fatalx("%s", why);
	return xstrdup(root);
}

static int
top_is_id(const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return i > 0 && i < 20;
}

/* The highest numeric job id in root/jobs, or NULL when there is none. */
static char *
top_latest(const char *root)
{
	char *dir, *best = NULL;
	unsigned long long v, bv = 0;
	struct dirent *de;
	DIR *d;

	xasprintf(&dir, "%s/jobs", root);
	if ((d = opendir(dir)) == NULL) {
		free(dir);
		return NULL;
	}
	while ((de = readdir(d)) != NULL) {
		if (!top_is_id(de->d_name))
			continue;
		v = strtoull(de->d_name, NULL, 10);
		if (best == NULL || v > bv) {
			free(best);
			best = xstrdup(de->d_name);
			bv = v;
		}
	}
	closedir(d);
	free(dir);
	return best;
}

static int
cmd_top_exec(int argc, char **argv)
{
	const struct cmd_entry *cmd = &cmd_top_entry;
	struct tui_opts opts;
	struct top_job tj;
	const char *replay = NULL;
	char *root = NULL, *id = NULL, *path, *jobdir;
	int c, once = 0, json = 0, speed_set = 0, rc;
	struct stat sb;

	memset(&opts, 0, sizeof opts);
	memset(&tj, 0, sizeof tj);
	while ((c = cmd_getopt(argc, argv, cmd)) != -1) {
		switch (c) {
		case 'r':
			replay = optarg;
			break;
		case 's':
			opts.speed = cmd_parse_double(cmd, "--speed", optarg, 0.01, 1e6);
			speed_set = 1;
			break;
		case 'o':
			once = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'C':
			opts.no_color = 1;
			break;
		case 'i':
			opts.interval = cmd_parse_double(cmd, "--interval", optarg, 0.05, 60);
			break;
		case 'e':
			opts.exit_at_end = 1;
			break;
		}
	}
	if (optind < argc - 1)
		cmd_usage_error(cmd, "one job id at most");
	if (optind < argc) {
		if (replay != NULL)
			cmd_usage_error(cmd, "a job id and --replay do not go together");
		if (!top_is_id(argv[optind]))
			cmd_usage_error(cmd, "'%s' is not a job id (a number)", argv[optind]);
	}
	if (speed_set && replay == NULL)
		cmd_usage_error(cmd, "--speed is for --replay");

	if (replay != NULL) {
		path = xstrdup(replay);
		opts.replay = 1;
	} else {
		root = top_root();
		if (optind < argc)
			id = xstrdup(argv[optind]);
		else if ((id = top_latest(root)) == NULL) {
			/* as every command that takes an id: exit 2 (README.md, "Exit codes") */
			log_warnx("no job yet in %s/jobs (submit one, or use --replay FILE)", root);
			free(root);
			return EXIT_USAGE;
		}
		xasprintf(&jobdir, "%s/jobs/%s", root, id);
		if (stat(jobdir, &sb) == -1 || !S_ISDIR(sb.st_mode)) {
			log_warnx("job %s: no such job (see gridsubmit list)", id);
			free(jobdir);
			free(id);
			free(root);
			return EXIT_USAGE;
		}
		xasprintf(&path, "%s/events.jsonl", jobdir);
		/* a live job: F9 cancels it, and its record tells an end its events do not */
		top_job_init(&tj, id, jobdir);
		opts.job = &tj.job;
		free(jobdir);
	}

	/* a recording without one valid event is bad input, said before anything is shown */
	if (replay != NULL && (once || json) && (rc = tui_replay_check(path)) != 1)
		rc = rc == 0 ? EXIT_INPUT : EXIT_FAILED;
	else if (once || json)
		rc = tui_snapshot(path, opts.job, json, stdout) == 0 ? EXIT_OK : EXIT_FAILED;
	else {
		rc = tui_follow(path, &opts);
		if (rc >= TUI_SIGNAL) {
			/* The terminal is back: now die of the signal, as the shell expects. */
			signal(rc - TUI_SIGNAL, SIG_DFL);
			raise(rc - TUI_SIGNAL);
		} else if (rc == TUI_NO_EVENTS)
			rc = EXIT_INPUT;
		else if (rc < 0)
			rc = EXIT_FAILED;
		else
			rc = EXIT_OK;
	}
	top_job_free(&tj);
	free(path);
	free(id);
	free(root);
	return rc;
}
