/* remote-cancel.c — stopping what a job started on its nodes (remote-cancel.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/proc.h"
#include "common/xmalloc.h"
#include "gen/embedded-sh-launch.h"
#include "launch/remote-cancel.h"
#include "remote/remote.h"

/* The ssh of remote.c, but a connection of its own: a shared one may hang on a dead link. */
static char **
remote_cancel_own(char **v)
{
	static const char *const own[] = { "-o", "ControlMaster=no", "-o", "ControlPath=none" };
	char **w;
	size_t n, i, k;

	for (n = 0; v[n] != NULL; n++)
		;
	/* ssh takes the first value given for an option: ours go before remote.c's */
	w = xcalloc(n + 5, sizeof *w);
	w[0] = v[0];
	for (k = 0; k < 4; k++)
		w[1 + k] = xstrdup(own[k]);
	for (i = 1; i < n; i++)
		w[i + 4] = v[i];
	free(v);
	return w;
}

void
remote_cancel(const char *config, const struct remote_cancel_how *how,
    struct remote_cancel_node *nodes, size_t n)
{
	struct proc_task *t = xcalloc(n + 1, sizeof *t);
	char grace[32], *words[11];
	size_t i;

	snprintf(grace, sizeof grace, "%.0f", how->grace);
	for (i = 0; i < n; i++) {
		words[0] = "sh";
		words[1] = "-c";
		words[2] = (char *)sh_remote_cancel;
		words[3] = "sh";
		words[4] = (char *)nodes[i].dir;
		words[5] = (char *)nodes[i].host;
		words[6] = how->mark ? "mark" : "nomark";
		words[7] = how->tag != NULL ? (char *)how->tag : "";
		words[8] = grace;
		words[9] = how->remove ? "remove" : "keep";
		words[10] = NULL;
		t[i].argv = remote_ssh_argv(config, NULL, nodes[i].host, words);
		if (t[i].argv != NULL && how->own_connection)
			t[i].argv = remote_cancel_own(t[i].argv);
		nodes[i].sent = t[i].argv != NULL;
	}
	proc_run_all(t, n, clock_mono() + how->limit, NULL);
	for (i = 0; i < n; i++) {
		remote_argv_free(t[i].argv);
		t[i].argv = NULL;
		nodes[i].task = t[i];
	}
	free(t);
}

void
remote_cancel_free(struct remote_cancel_node *nodes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		proc_free(&nodes[i].task, 1);
}
