/*
 * grt-task-mail.c — messages between tasks on a worker (doc/tasks.md, "Messages"):
 * grt_task_send and grt_task_recv, and where a message goes. A message is addressed to a
 * virtual task id; the sender's worker looks the task up in its location table and sends it
 * there. A worker that gets a message for a task it no longer holds forwards it to where its
 * own table says the task is (it learnt that when the task left, or later from the master);
 * one for a task on its way here waits in the limbo until the task arrives. A task that
 * moves takes its waiting messages along. A message is never copied on the way, only
 * moved, so it reaches its task once; and receivers ask for it by sender and step, so
 * their order of arrival does not matter.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/task/grt-task.h"


void
mail_drop_old(struct tk_task *t, int64_t before)
{
	struct tk_msg **pp = &t->inbox;

	while (*pp != NULL) {
		struct tk_msg *m = *pp;

		if (m->step < before) {
			*pp = m->next;
			free(m);
		} else {
			pp = &m->next;
		}
	}
}

/* Send m to rank dest as a TK_MSG, and free it. */
static int
mail_send(struct tk_worker *wk, struct tk_msg *m, int dest)
{
	struct tk_hdr h;
	int rc;

	memset(&h, 0, sizeof h);
	h.kind = TK_MSG;
	h.task = m->to;
	h.arg = m->from;
	h.gen = wk->gen;
	h.step = m->step;
	rc = tk_send(&wk->sends, dest, &h, m->data, m->len);
	free(m);
	return rc;
}

int
mail_route(struct tk_worker *wk, struct tk_msg *m)
{
	struct tk_task *t = wk->held[m->to];

	if (t != NULL) {
		/* a message for a step this task has passed: it was not asked for */
		if (m->step + 1 < t->done) {
			free(m);
			return GRT_OK;
		}
		m->next = t->inbox;
		t->inbox = m;
		return GRT_OK;
	}
	if (wk->loc[m->to] == wk->rank) {
		m->next = wk->limbo;
		wk->limbo = m;
		return GRT_OK;
	}
	return mail_send(wk, m, wk->loc[m->to]);
}

struct tk_msg *
mail_limbo_take(struct tk_worker *wk, int task)
{
	struct tk_msg **pp = &wk->limbo, *out = NULL;

	while (*pp != NULL) {
		struct tk_msg *m = *pp;

		if (m->to == task) {
			*pp = m->next;
			m->next = out;
			out = m;
		} else {
			pp = &m->next;
		}
	}
	return out;
}

int
mail_limbo_forward(struct tk_worker *wk, int task)
{
	struct tk_msg *m = mail_limbo_take(wk, task);
	int rc = GRT_OK;

	while (m != NULL) {
		struct tk_msg *next = m->next;

		m->next = NULL;
		if (rc == GRT_OK)
			rc = mail_route(wk, m);
		else
			free(m);
		m = next;
	}
	return rc;
}

int
grt_task_io_task(const struct grt_task_io *io)
{
	return io->t->id;
}

int
grt_task_send(struct grt_task_io *io, int to, const void *data, size_t len)
{
	struct tk_worker *wk;
	struct tk_msg *m, *copy;

	if (io == NULL || io->wk == NULL || io->wk->io != io)
		return GRT_EINVAL;
	wk = io->wk;
	if (to < 0 || to >= wk->ntasks || to == io->t->id || (len > 0 && data == NULL))
		return GRT_EINVAL;
	for (m = io->sent; m != NULL; m = m->next)
		if (m->to == to)
			return GRT_EINVAL;
	/* the copy is kept for the duplicate check and a checkpoint after this step */
	if ((copy = tk_msg_new(io->t->id, to, io->step, data, len)) == NULL)
		return GRT_ENOMEM;
	copy->next = io->sent;
	io->sent = copy;
	io->nsent++;
	/* sent in the last step: no step of any task receives it */
	if (io->step + 1 >= wk->app->steps)
		return GRT_OK;
	if ((m = tk_msg_new(io->t->id, to, io->step, data, len)) == NULL)
		return GRT_ENOMEM;
	return mail_route(wk, m);
}

/* The message from task from, sent in step, in t's inbox; or NULL. */
static struct tk_msg *
mail_find(struct tk_task *t, int from, int64_t step)
{
	struct tk_msg *m;

	for (m = t->inbox; m != NULL; m = m->next)
		if (m->from == from && m->step == step)
			return m;
	return NULL;
}

int
grt_task_recv(struct grt_task_io *io, int from, const void **data, size_t *len)
{
	struct grt_backoff bo;
	struct tk_worker *wk;
	struct tk_msg *m;
	double t0, c0, nested0, nested_cpu0;
	int rc;

	if (io == NULL || io->wk == NULL || io->wk->io != io || data == NULL || len == NULL)
		return GRT_EINVAL;
	wk = io->wk;
	if (from < 0 || from >= wk->ntasks || from == io->t->id || io->step < 1)
		return GRT_EINVAL;
	t0 = MPI_Wtime();
	c0 = tk_cpu_now();
	nested0 = io->nested_wall;
	nested_cpu0 = io->nested_cpu;
	grt_backoff_reset(&bo);
	while ((m = mail_find(io->t, from, io->step - 1)) == NULL) {
		struct tk_task *behind;

		if ((rc = wk_progress(wk)) != GRT_OK)
			return rc;
		if (wk->stop || io->t->dead)
			return GRT_EMASTER;
		/* a task of this worker that is behind may be the one to send it */
		if ((behind = wk_pick(wk, io->step)) != NULL) {
			if ((rc = wk_step(wk, behind)) != GRT_OK)
				return rc;
			grt_backoff_reset(&bo);
			continue;
		}
		if ((rc = wk_wait(wk, &bo)) != GRT_OK)
			return rc;
	}
	/*
	 * the CPU time first (wk_step): what the thread did meanwhile was not this step's
	 * computing, and under SMPI it was other ranks'
	 */
	io->wait_cpu += tk_cpu_now() - c0 - (io->nested_cpu - nested_cpu0);
	io->wait += MPI_Wtime() - t0 - (io->nested_wall - nested0);
	if (m->taken)
		return GRT_EINVAL;
	m->taken = 1;
	*data = m->data;
	*len = m->len;
	return GRT_OK;
}
