/* grt-config.c — libgrt's configuration from the GRT_* environment and the rank map. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grt/grt-keys.h"
#include "grt/grt.h"
#include "runtime/core/grt-deadline.h"

/* the variable each runtime key of a job file reaches the ranks as */
#define CONFIG_ENV(id, key)	[GRT_KEY_##id] = "GRT_" #id,
static const char *const config_env[GRT_KEY_COUNT] = { GRT_RUNTIME_KEYS(CONFIG_ENV) };
#undef CONFIG_ENV
#define KEY_ENV(id)	config_env[GRT_KEY_##id]

/* enum grt_migration's names: a job file's, then the tests' own */
static const char *const config_migration[] = { GRT_MIGRATION_NAMES, "rotate" };
#define CONFIG_NMIGRATION	(int)(sizeof config_migration / sizeof config_migration[0])

const char *
grt_migration_name(enum grt_migration p)
{
	if ((int)p < 0 || (int)p >= CONFIG_NMIGRATION)
		return NULL;
	return config_migration[p];
}

int
grt_migration_parse(const char *name, int tests)
{
	int i;

	for (i = 0; i < CONFIG_NMIGRATION; i++)
		if (strcasecmp(name, config_migration[i]) == 0)
			return i == GRT_MIGRATE_ROTATE && !tests ? -1 : i;
	return -1;
}

static int
config_double(const char *name, double min, double max, double *out, const char **why)
{
	const char *s = getenv(name);
	char *end;
	double v;

	if (s == NULL || *s == '\0')
		return GRT_OK;
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || errno != 0 || !isfinite(v) || v < min || v > max) {
		if (why != NULL)
			*why = name;
		return GRT_EINVAL;
	}
	*out = v;
	return GRT_OK;
}

static int
config_int(const char *name, int64_t min, int64_t max, int64_t *out, const char **why)
{
	const char *s = getenv(name);
	char *end;
	long long v;

	if (s == NULL || *s == '\0')
		return GRT_OK;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || errno != 0 || v < min || v > max) {
		if (why != NULL)
			*why = name;
		return GRT_EINVAL;
	}
	*out = v;
	return GRT_OK;
}

/* GRT_HIERARCHY: none, site, auto (the default) or the workers per sub-master, >= 2 */
static int
config_hierarchy(struct grt_config *cfg, const char **why)
{
	const char *s = getenv(KEY_ENV(HIERARCHY));
	int64_t n;

	cfg->hierarchy = GRT_HIER_AUTO;
	if (s == NULL || *s == '\0' || strcmp(s, "auto") == 0)
		return GRT_OK;
	if (strcmp(s, "none") == 0)
		cfg->hierarchy = GRT_HIER_NONE;
	else if (strcmp(s, "site") == 0)
		cfg->hierarchy = GRT_HIER_SITE;
	else if (config_int(KEY_ENV(HIERARCHY), 2, INT32_MAX, &n, why) == GRT_OK)
		cfg->hierarchy = (int)n;
	else
		return GRT_EINVAL;
	return GRT_OK;
}

int
grt_config_from_env(struct grt_config *cfg, const char **why)
{
	const char *s, *dummy;
	int64_t k = 1, chunks = 1, mc = 0, rounds = 0, pf = 0, spare = 0;
	double swr = 1;
	int sch, mig, rc;

	if (why == NULL)
		why = &dummy;
	memset(cfg, 0, sizeof *cfg);
	cfg->sched.scheme = GRT_SCHEME_GSS;
	cfg->sched.k = 1;
	cfg->sched.alpha = GRT_ALPHA_DEFAULT;
	cfg->sched.swr = 1;
	cfg->deadline = 0;	/* unset: adaptive, from the measured times alone */
	cfg->deadline_factor = GRT_DEADLINE_FACTOR;
	cfg->events_chunks = 1;

	if ((s = getenv(KEY_ENV(SCHEME))) != NULL && *s != '\0') {
		if ((sch = grt_scheme_from_name(s)) < 0) {
			*why = KEY_ENV(SCHEME);
			return GRT_EINVAL;
		}
		cfg->sched.scheme = (enum grt_scheme)sch;
	}
	if ((rc = config_int(KEY_ENV(K), 1, INT64_MAX / 4, &k, why)) != GRT_OK)
		return rc;
	cfg->sched.k = k;
	if ((rc = config_double(KEY_ENV(ALPHA), 0, 100, &cfg->sched.alpha, why)) != GRT_OK)
		return rc;
	if ((s = getenv(KEY_ENV(SWR))) != NULL && strcmp(s, "auto") == 0)
		cfg->swr_auto = 1;
	else if ((rc = config_double(KEY_ENV(SWR), 0, 1, &swr, why)) != GRT_OK)
		return rc;
	cfg->sched.swr = swr;
	if ((rc = config_double(KEY_ENV(DEADLINE), 0.001, 1e9, &cfg->deadline, why)) != GRT_OK)
		return rc;
	if ((rc = config_int(KEY_ENV(EVENTS_CHUNKS), 0, 1, &chunks, why)) != GRT_OK)
		return rc;
	cfg->events_chunks = (int)chunks;
	if ((rc = config_int(KEY_ENV(MASTER_COMPUTES), 0, 1, &mc, why)) != GRT_OK)
		return rc;
	cfg->master_computes = (int)mc;
	if ((s = getenv(KEY_ENV(PREFETCH))) != NULL && *s != '\0' && strcmp(s, "auto") != 0) {
		if ((rc = config_int(KEY_ENV(PREFETCH), 0, 1, &pf, why)) != GRT_OK)
			return rc;
		cfg->prefetch = pf ? GRT_PREFETCH_ON : GRT_PREFETCH_OFF;
	}
	if ((rc = config_int(KEY_ENV(ROUNDS), 1, INT32_MAX, &rounds, why)) != GRT_OK)
		return rc;
	cfg->rounds = (int)rounds;
	/* task migration (doc/tasks.md); the environment, unlike a job file, takes rotate */
	if ((s = getenv(KEY_ENV(MIGRATION))) != NULL && *s != '\0') {
		if ((mig = grt_migration_parse(s, 1)) < 0) {
			*why = KEY_ENV(MIGRATION);
			return GRT_EINVAL;
		}
		cfg->migration = (enum grt_migration)mig;
	}
	/* DBL_MIN: a threshold given must be > 0; the 0 of an unset one is the policy's */
	if ((rc = config_double(KEY_ENV(THRESHOLD), DBL_MIN, 1e9, &cfg->threshold, why)) != GRT_OK)
		return rc;
	if ((rc = config_int(KEY_ENV(SPARE), 0, INT32_MAX, &spare, why)) != GRT_OK)
		return rc;
	cfg->spare = (int)spare;
	if ((rc = config_int(KEY_ENV(CHECKPOINT_EVERY), 0, INT64_MAX, &cfg->checkpoint_every,
	    why)) != GRT_OK)
		return rc;
	if ((rc = config_double(KEY_ENV(MOVE_GAP), 0, 1e9, &cfg->move_gap, why)) != GRT_OK)
		return rc;
	if ((rc = config_hierarchy(cfg, why)) != GRT_OK)
		return rc;
	if ((s = getenv("GRT_LOADS")) != NULL && *s != '\0')
		cfg->loads_path = s;
	if ((s = getenv("GRT_EVENTS")) != NULL && *s != '\0')
		cfg->events_path = s;
	if ((s = getenv("GRT_JOB")) != NULL && *s != '\0')
		cfg->job_id = s;
	if ((s = getenv("GRT_RANKMAP")) != NULL && *s != '\0')
		cfg->rankmap_path = s;
	if ((s = getenv("GRT_JOURNAL")) != NULL && *s != '\0')
		cfg->journal_path = s;
	if ((rc = config_double("GRT_TIME_LIMIT", 0, 1e12, &cfg->time_limit, why)) != GRT_OK)
		return rc;
	if ((s = getenv("GRT_RELAY")) != NULL && *s != '\0')
		cfg->relay = s;
	return config_double("GRT_T0", 0, 1e12, &cfg->t_origin, why);
}

int
grt_config_init(struct grt_config *cfg, const char *scheme, char *why, size_t whylen)
{
	const char *var = NULL;
	int s;

	if (grt_config_from_env(cfg, &var) != GRT_OK) {
		snprintf(why, whylen, "bad %s in the environment", var);
		return GRT_EINVAL;
	}
	if (scheme == NULL)
		return GRT_OK;
	if ((s = grt_scheme_from_name(scheme)) < 0) {
		snprintf(why, whylen, "unknown scheme '%s'", scheme);
		return GRT_EINVAL;
	}
	cfg->sched.scheme = (enum grt_scheme)s;
	return GRT_OK;
}

int
grt_rank_factor(const char *list, int rank)
{
	const char *p = list;
	int r, f, n;

	while (p != NULL && *p != '\0') {
		if (sscanf(p, "%d:%d%n", &r, &f, &n) != 2 || f < 1)
			return -1;
		if (r == rank)
			return f;
		p += n;
		if (*p == ',')
			p++;
		else if (*p != '\0')
			return -1;
	}
	return 1;
}
