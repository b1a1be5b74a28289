/*
 * model-tasks.c — which rank holds which migratable task: the task table (task -> rank),
 * for the O(1) test of a chunk on the hot path, and each rank's tasks in ascending order,
 * for its cell. A move costs O(tasks of the two ranks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "tui/model.h"

/* Take task out of rank r's set (it is there, or nothing happens). */
static void
model_task_remove(struct mrank *r, int task)
{
	int i;

	for (i = 0; i < r->ntasks; i++)
		if (r->tasks[i] == task) {
			memmove(r->tasks + i, r->tasks + i + 1, (r->ntasks - i - 1) * sizeof *r->tasks);
			r->ntasks--;
			return;
		}
}

/* Insert task in rank r's set, keeping it ascending. */
static void
model_task_insert(struct mrank *r, int task)
{
	int i;

	if (r->ntasks == r->taskcap) {
		r->taskcap = r->taskcap ? 2 * r->taskcap : 4;
		r->tasks = xreallocarray(r->tasks, r->taskcap, sizeof *r->tasks);
	}
	for (i = r->ntasks; i > 0 && r->tasks[i - 1] > task; i--)
		r->tasks[i] = r->tasks[i - 1];
	r->tasks[i] = task;
	r->ntasks++;
}

void
model_task_put(struct model *m, int task, struct mrank *r)
{
	int i, from;

	if (task < 0)
		return;
	if (task >= m->nat) {
		if (task >= m->atcap) {
			m->atcap = m->atcap ? m->atcap : 16;
			while (m->atcap <= task)
				m->atcap *= 2;
			m->task_at = xreallocarray(m->task_at, m->atcap, sizeof *m->task_at);
		}
		for (i = m->nat; i <= task; i++)
			m->task_at[i] = -1;
		m->nat = task + 1;
	}
	from = m->task_at[task];
	if (from == r->rank)
		return;
	if (from >= 0 && from < m->nranks)
		model_task_remove(&m->ranks[from], task);
	model_task_insert(r, task);
	m->task_at[task] = r->rank;
}

void
model_tasks_reset(struct model *m)
{
	int i;

	for (i = 0; i < m->nranks; i++)
		m->ranks[i].ntasks = 0;
	m->nat = 0;
}

void
model_tasks_free(struct model *m)
{
	int i;

	for (i = 0; i < m->nranks; i++) {
		free(m->ranks[i].tasks);
		m->ranks[i].tasks = NULL;
		m->ranks[i].ntasks = m->ranks[i].taskcap = 0;
	}
	free(m->task_at);
	m->task_at = NULL;
	m->nat = m->atcap = 0;
}

char *
model_tasks_text(const struct model *m, const struct mrank *r, char *dst, size_t sz,
    int width)
{
	enum rank_state s;
	size_t o = 0;
	int i, n;

	if (sz == 0)
		return dst;
	dst[0] = '\0';
	if (r->ntasks == 0) {
		s = model_rank_state(m, r);
		snprintf(dst, sz, "%s", m->nat > 0 && !r->master && s != RS_FAILED &&
		    s != RS_DROPPED ? "spare" : "-");
		return dst;
	}
	/* the list while it fits; only its length is looked at beyond that */
	for (i = 0; i < r->ntasks && (int)o <= width && o < sz; i++) {
		n = snprintf(dst + o, sz - o, "%s%d", i ? "," : "", r->tasks[i]);
		if (n < 0)
			break;
		o += (size_t)n;
	}
	if (i == r->ntasks && (int)o <= width && o < sz)
		return dst;
	snprintf(dst, sz, "%d task%s", r->ntasks, r->ntasks == 1 ? "" : "s");
	if ((int)strlen(dst) > width)
		snprintf(dst, sz, "%d", r->ntasks);
	return dst;
}
