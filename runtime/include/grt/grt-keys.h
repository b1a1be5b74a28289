/*
 * grt-keys.h — the runtime parameters of a job: the keys of "runtime:" in a job file
 * (gridsubmit-sites(5)), which gridsubmit gives every rank as GRT_<KEY> (the key in
 * capitals) and grt_config_from_env() reads. Header only, without MPI: the broker checks
 * job files against the same list without linking libgrt.
 *
 * GRT_RUNTIME_KEYS(X) calls X(ID, "key") once per parameter, in the order of the usage
 * messages; the variable's name is "GRT_" #ID.
 */
#ifndef GRT_KEYS_H
#define GRT_KEYS_H

#define GRT_RUNTIME_KEYS(X)			\
	X(SCHEME, "scheme")			\
	X(K, "k")				\
	X(ALPHA, "alpha")			\
	X(SWR, "swr")				\
	X(DEADLINE, "deadline")			\
	X(ROUNDS, "rounds")			\
	X(EVENTS_CHUNKS, "events_chunks")	\
	X(MASTER_COMPUTES, "master_computes")	\
	X(PREFETCH, "prefetch")			\
	X(MIGRATION, "migration")		\
	X(THRESHOLD, "threshold")		\
	X(SPARE, "spare")			\
	X(CHECKPOINT_EVERY, "checkpoint_every")	\
	X(MOVE_GAP, "move_gap")			\
	X(HIERARCHY, "hierarchy")

/*
 * The task-migration policies a job file and --migration may name, in the order of enum
 * grt_migration (grt.h), any case. GRT_MIGRATION also takes "rotate", a policy for the
 * tests only (grt_migration_parse): it is not one of these.
 */
#define GRT_MIGRATION_NAMES	"none", "load-diff", "load-abs"

#define GRT_KEY_ID(id, key)	GRT_KEY_##id,
enum grt_key {
	GRT_RUNTIME_KEYS(GRT_KEY_ID)
	GRT_KEY_COUNT
};
#undef GRT_KEY_ID

#endif
