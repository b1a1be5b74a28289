/*
 * grt-config-unit — the unit test of libgrt's configuration from the environment
 * (runtime/core/grt-config.c): the task-migration variables (GRT_MIGRATION, GRT_THRESHOLD,
 * GRT_SPARE, GRT_CHECKPOINT_EVERY, GRT_MOVE_GAP, GRT_LOADS) and the time limit
 * (GRT_TIME_LIMIT), their defaults, the bad values named in why, and the policy names (grt_migration_name, grt_migration_parse). It lives
 * under tests/mpi because grt.h includes mpi.h, which the unit tests' compiler does not
 * see; it makes no MPI call and runs without mpiexec (tests/runtime/test-grt-config.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <grt/grt.h>

#include "tests/tap.h"

static const char *const vars[] = {
	"GRT_MIGRATION", "GRT_THRESHOLD", "GRT_SPARE", "GRT_CHECKPOINT_EVERY", "GRT_MOVE_GAP",
	"GRT_LOADS", "GRT_TIME_LIMIT", NULL
};

static void
clear(void)
{
	const char *const *v;

	for (v = vars; *v != NULL; v++)
		unsetenv(*v);
}

/* grt_config_from_env with var=value alone set: its code, and the variable it blames. */
static int
with(const char *var, const char *value, struct grt_config *cfg, const char **why)
{
	clear();
	setenv(var, value, 1);
	*why = NULL;
	return grt_config_from_env(cfg, why);
}

static void
test_names(void)
{
	is_str(grt_migration_name(GRT_MIGRATE_NONE), "none", "name: none");
	is_str(grt_migration_name(GRT_MIGRATE_LOAD_DIFF), "load-diff", "name: load-diff");
	is_str(grt_migration_name(GRT_MIGRATE_LOAD_ABS), "load-abs", "name: load-abs");
	is_str(grt_migration_name(GRT_MIGRATE_ROTATE), "rotate", "name: rotate");
	ok(grt_migration_name((enum grt_migration)99) == NULL, "name: out of range is NULL");
	is_int(grt_migration_parse("load-diff", 0), GRT_MIGRATE_LOAD_DIFF, "parse: load-diff");
	is_int(grt_migration_parse("Load-ABS", 0), GRT_MIGRATE_LOAD_ABS, "parse: any case");
	is_int(grt_migration_parse("NONE", 0), GRT_MIGRATE_NONE, "parse: NONE");
	is_int(grt_migration_parse("rotate", 0), -1, "parse: rotate unknown outside the tests");
	is_int(grt_migration_parse("rotate", 1), GRT_MIGRATE_ROTATE, "parse: rotate in the tests");
	is_int(grt_migration_parse("load", 1), -1, "parse: a prefix is not a name");
	is_int(grt_migration_parse("", 1), -1, "parse: empty");
	is_int(grt_migration_parse("load-diff ", 1), -1, "parse: trailing space");
}

static void
test_defaults(void)
{
	struct grt_config cfg;

	clear();
	memset(&cfg, 0xa5, sizeof cfg);
	if (!is_int(grt_config_from_env(&cfg, NULL), GRT_OK, "nothing set: ok"))
		return;
	is_int(cfg.migration, GRT_MIGRATE_NONE, "default migration none");
	is_dbl(cfg.threshold, 0, 0, "default threshold 0 (the policy's)");
	is_int(cfg.spare, 0, "default spare 0");
	is_int(cfg.checkpoint_every, 0, "default checkpoint_every 0");
	is_dbl(cfg.move_gap, 0, 0, "default move_gap 0 (the policy's)");
	ok(cfg.loads_path == NULL, "default loads_path NULL");
	is_dbl(cfg.time_limit, 0, 0, "default time_limit 0 (none)");
}

static void
test_values(void)
{
	struct grt_config cfg;
	const char *why;

	clear();
	setenv("GRT_MIGRATION", "Load-Diff", 1);
	setenv("GRT_THRESHOLD", "0.75", 1);
	setenv("GRT_SPARE", "2", 1);
	setenv("GRT_CHECKPOINT_EVERY", "20", 1);
	setenv("GRT_MOVE_GAP", "2.5", 1);
	setenv("GRT_LOADS", "/tmp/job/loads", 1);
	if (is_int(grt_config_from_env(&cfg, &why), GRT_OK, "every variable set: ok")) {
		is_int(cfg.migration, GRT_MIGRATE_LOAD_DIFF, "migration load-diff (any case)");
		is_dbl(cfg.threshold, 0.75, 0, "threshold 0.75");
		is_int(cfg.spare, 2, "spare 2");
		is_int(cfg.checkpoint_every, 20, "checkpoint_every 20");
		is_dbl(cfg.move_gap, 2.5, 0, "move_gap 2.5");
		is_str(cfg.loads_path, "/tmp/job/loads", "loads_path from GRT_LOADS");
	}
	if (is_int(with("GRT_MIGRATION", "rotate", &cfg, &why), GRT_OK, "GRT_MIGRATION rotate: ok"))
		is_int(cfg.migration, GRT_MIGRATE_ROTATE, "the environment takes rotate");
	if (is_int(with("GRT_MIGRATION", "load-abs", &cfg, &why), GRT_OK, "load-abs: ok"))
		is_int(cfg.migration, GRT_MIGRATE_LOAD_ABS, "migration load-abs");
	if (is_int(with("GRT_MOVE_GAP", "0", &cfg, &why), GRT_OK, "move_gap 0: ok"))
		is_dbl(cfg.move_gap, 0, 0, "move_gap 0");
	if (is_int(with("GRT_LOADS", "", &cfg, &why), GRT_OK, "GRT_LOADS empty: ok"))
		ok(cfg.loads_path == NULL, "GRT_LOADS empty: no loads file");
	if (is_int(with("GRT_TIME_LIMIT", "300", &cfg, &why), GRT_OK, "GRT_TIME_LIMIT 300: ok"))
		is_dbl(cfg.time_limit, 300, 0, "time_limit 300 s");
}

static void
test_bad(void)
{
	static const struct {
		const char *var, *value;
	} bad[] = {
		{ "GRT_MIGRATION", "load-dif" },
		{ "GRT_MIGRATION", "sched1" },
		{ "GRT_THRESHOLD", "0" },
		{ "GRT_THRESHOLD", "-0.5" },
		{ "GRT_THRESHOLD", "nan" },
		{ "GRT_THRESHOLD", "1x" },
		{ "GRT_SPARE", "-1" },
		{ "GRT_SPARE", "1.5" },
		{ "GRT_SPARE", "99999999999" },
		{ "GRT_CHECKPOINT_EVERY", "-3" },
		{ "GRT_CHECKPOINT_EVERY", "ten" },
		{ "GRT_MOVE_GAP", "-1" },
		{ "GRT_MOVE_GAP", "inf" },
		{ "GRT_TIME_LIMIT", "-1" },
		{ "GRT_TIME_LIMIT", "00:05" },
		{ "GRT_TIME_LIMIT", "nan" },
	};
	struct grt_config cfg;
	const char *why;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		is_int(with(bad[i].var, bad[i].value, &cfg, &why), GRT_EINVAL, "%s=%s: rejected",
		    bad[i].var, bad[i].value);
		is_str(why != NULL ? why : "(null)", bad[i].var, "%s=%s: why names it", bad[i].var,
		    bad[i].value);
	}
}

int
main(void)
{
	test_names();
	test_defaults();
	test_values();
	test_bad();
	clear();
	return tap_done();
}
