/*
 * jobfield.h — the fields of a job as list and status show them, squeue/sacct-class: the
 * one place that says what ELAPSED, NODES, EXIT or a time is, for the text and for --json
 * (gridsubmit-json(5)). Derived from state.json, the job directory's rankmap and the clock.
 */
#ifndef GS_JOBFIELD_H
#define GS_JOBFIELD_H

#include <stddef.h>

#include <jansson.h>

struct job_state;

enum job_field {
	JF_ID, JF_NAME, JF_STATE, JF_REASON, JF_RANKS, JF_NODES, JF_SCHEME, JF_SUBMITTED,
	JF_STARTED, JF_ENDED, JF_ELAPSED, JF_MAKESPAN, JF_EXIT, JF_DIR, JF_RESTARTS, JF_COUNT
};

/* What a field needs beyond state.json, read once per job (jobfield_info). */
struct jobfield_info {
	double now;		/* the wall clock the elapsed time of a running job runs to */
	int nodes;		/* distinct nodes of DIR/rankmap, -1 before the placement */
};

/* The field's name as --format takes it and --json writes it ("elapsed"). */
const char *jobfield_name(enum job_field f);

/* 1 when the field is a number, aligned right (not the id: sacct aligns it left). */
int jobfield_numeric(enum job_field f);

/* Fill ji for st: now, and its nodes from DIR/rankmap. */
void jobfield_info(const struct job_state *st, struct jobfield_info *ji);

/* The field as text, cleaned for the terminal; "-" when it has no value. */
void jobfield_text(const struct job_state *st, const struct jobfield_info *ji,
    enum job_field f, char *buf, size_t len);

/* The field as a JSON value: numbers as numbers, times as ISO 8601 UTC, null for none. */
json_t *jobfield_json(const struct job_state *st, const struct jobfield_info *ji,
    enum job_field f);

/* Seconds of the job so far (running: to ji->now), or -1 when it never started. */
double jobfield_elapsed(const struct job_state *st, const struct jobfield_info *ji);

/* A local time as ISO 8601 with its zone's offset, "2026-11-27T15:02:11+00:00"; "-" for 0. */
void jobfield_time(double t, char *buf, size_t len);

/* A duration as squeue's TIME: "M:SS", "H:MM:SS", "D-HH:MM:SS". */
void jobfield_duration(double secs, char *buf, size_t len);

#endif
