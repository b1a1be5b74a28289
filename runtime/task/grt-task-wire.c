/*
 * grt-task-wire.c — the messages of a task run on the wire (grt-task-proto.h): building
 * them, reading them in place, and the sends still in flight. Every send is tk_isend's
 * (MPI_Isend under MPICH, its length first under SMPI) and tested later: a rank never
 * blocks on a peer that may have died. Sending, receiving and waiting differ between the
 * two builds (grt-task-comm-poll.c, grt-task-comm-block.c).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/task/grt-task.h"

struct tk_msg *
tk_msg_new(int from, int to, int64_t step, const void *data, size_t len)
{
	struct tk_msg *m = malloc(sizeof *m + len);

	if (m == NULL)
		return NULL;
	m->next = NULL;
	m->from = from;
	m->to = to;
	m->step = step;
	m->taken = 0;
	m->len = len;
	if (len > 0)
		memcpy(m->data, data, len);
	return m;
}

void
tk_msg_free_list(struct tk_msg *m)
{
	while (m != NULL) {
		struct tk_msg *next = m->next;

		free(m);
		m = next;
	}
}

int
tk_build(grt_buf *b, const struct tk_hdr *h, const void *state, size_t slen)
{
	struct tk_hdr hh = *h;
	int rc;

	hh.slen = (int64_t)slen;
	hh.nmsg = 0;
	b->len = 0;
	if ((rc = grt_buf_append(b, &hh, sizeof hh)) != GRT_OK)
		return rc;
	return slen > 0 ? grt_buf_append(b, state, slen) : GRT_OK;
}

int
tk_put_msg(grt_buf *b, int from, int to, int64_t step, const void *data, size_t len)
{
	struct tk_mhdr mh = { from, to, step, (int64_t)len };
	int rc;

	if ((rc = grt_buf_append(b, &mh, sizeof mh)) != GRT_OK)
		return rc;
	return len > 0 ? grt_buf_append(b, data, len) : GRT_OK;
}

int
tk_build_msg(grt_buf *b, int from, int to, int64_t step, const void *data, size_t len)
{
	struct tk_hdr h;
	int rc;

	if ((rc = tk_put_msg(b, from, to, step, data, len)) != GRT_OK)
		return rc;
	memcpy(&h, b->data, sizeof h);
	h.nmsg++;
	memcpy(b->data, &h, sizeof h);
	return GRT_OK;
}

int
tk_view(const void *buf, size_t n, struct tk_view *v)
{
	const unsigned char *p = buf;

	if (n < sizeof v->h)
		return GRT_EPROTO;
	memcpy(&v->h, p, sizeof v->h);
	if (v->h.slen < 0 || (uint64_t)v->h.slen > n - sizeof v->h || v->h.nmsg < 0)
		return GRT_EPROTO;
	v->state = p + sizeof v->h;
	v->msgs = v->state + v->h.slen;
	v->msgs_len = n - sizeof v->h - (size_t)v->h.slen;
	return GRT_OK;
}

struct tk_msg *
tk_view_msgs(const struct tk_view *v, int *rc)
{
	struct tk_msg *head = NULL, **tail = &head;
	const unsigned char *p = v->msgs, *end = v->msgs + v->msgs_len;
	int i;

	*rc = GRT_OK;
	for (i = 0; i < v->h.nmsg; i++) {
		struct tk_mhdr mh;

		if ((size_t)(end - p) < sizeof mh)
			goto bad;
		memcpy(&mh, p, sizeof mh);
		p += sizeof mh;
		if (mh.len < 0 || (uint64_t)mh.len > (size_t)(end - p))
			goto bad;
		if ((*tail = tk_msg_new(mh.from, mh.to, mh.step, p, (size_t)mh.len)) == NULL) {
			*rc = GRT_ENOMEM;
			tk_msg_free_list(head);
			return NULL;
		}
		tail = &(*tail)->next;
		p += mh.len;
	}
	return head;
bad:
	*rc = GRT_EPROTO;
	tk_msg_free_list(head);
	return NULL;
}

int
tk_post(struct tk_sends *s, int dest, grt_buf *buf, int then, int then_kind, int then_flags)
{
	struct tk_send *t = calloc(1, sizeof *t);

	if (t == NULL)
		return GRT_ENOMEM;
	t->buf = *buf;
	buf->data = NULL;
	buf->len = buf->cap = 0;
	t->then = then;
	t->then_kind = then_kind;
	t->then_flags = then_flags;
	if (t->buf.len > INT32_MAX) {
		grt_buf_free(&t->buf);
		free(t);
		return GRT_EINVAL;
	}
	if (tk_isend(t->buf.data, t->buf.len, dest, s->comm, &t->req) != GRT_OK) {
		/* the peer is gone: the master finds out from its silence */
		s->failed = 1;
		grt_buf_free(&t->buf);
		free(t);
		return GRT_OK;
	}
	t->next = s->head;
	s->head = t;
	return GRT_OK;
}

int
tk_send(struct tk_sends *s, int dest, const struct tk_hdr *h, const void *state, size_t slen)
{
	grt_buf b = { NULL, 0, 0 };
	int rc;

	if ((rc = tk_build(&b, h, state, slen)) == GRT_OK)
		rc = tk_post(s, dest, &b, -1, 0, 0);
	grt_buf_free(&b);
	return rc;
}

void
tk_sends_test(struct tk_sends *s)
{
	struct tk_send **pp = &s->head;

	while (*pp != NULL) {
		struct tk_send *t = *pp;
		int done = 0;

		if (MPI_Test(&t->req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
			s->failed = 1;
			done = 1;
			t->then = -1;
		}
		if (!done) {
			pp = &t->next;
			continue;
		}
		if (t->then >= 0) {
			struct tk_hdr h;

			memcpy(&h, t->buf.data, sizeof h);
			h.kind = t->then_kind;
			h.flags = t->then_flags;
			memcpy(t->buf.data, &h, sizeof h);
			if (tk_isend(t->buf.data, t->buf.len, t->then, s->comm,
			    &t->req) == GRT_OK) {
				t->then = -1;
				pp = &t->next;
				continue;
			}
			s->failed = 1;
		}
		*pp = t->next;
		grt_buf_free(&t->buf);
		free(t);
	}
}

int
tk_sends_pending(const struct tk_sends *s)
{
	return s->head != NULL;
}

void
tk_sends_free(struct tk_sends *s)
{
	while (s->head != NULL) {
		struct tk_send *t = s->head;

		s->head = t->next;
		grt_buf_free(&t->buf);
		free(t);
	}
}

/*
 * The thread's CPU time from the C library, also in the SMPI build, where smpicc makes
 * clock_gettime the simulated clock whatever the clock asked for (smpi_helpers.h): a
 * step's CPU time is then this host's seconds of computing, and its share of a CPU falls
 * when a speed trace slows its host, as on a loaded node. The parentheses keep the macro
 * out. Every rank of a simulation runs in one thread: a step's CPU time is read before
 * anything lets another rank run (wk_step, grt_task_recv).
 */
double
tk_cpu_now(void)
{
	struct timespec ts;

	if ((clock_gettime)(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
