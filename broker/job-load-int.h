/*
 * job-load-int.h — what the job loader's files share (job-load.c, the job file's walk;
 * job-runtime.c, its runtime: parameters). Not an interface of the broker.
 */
#ifndef GS_JOB_LOAD_INT_H
#define GS_JOB_LOAD_INT_H

#include "broker/errsink.h"
#include "broker/job.h"
#include "broker/yaml-doc.h"

/*
 * runtime: {...} of a job file: every key and value checked (each mistake into sink, the
 * walk going on), each good one kept in job as the text its ranks receive as GRT_<KEY>.
 */
void job_runtime_load(struct gs_errsink *sink, struct gs_job *job, const struct ydoc_node *map);

#endif
