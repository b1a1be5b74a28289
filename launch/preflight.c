/*
 * preflight.c — the checks before a multi-site launch (preflight.h), one ssh per node, all
 * at once, bounded by the connect timeout: a node that does not answer is reported, never
 * waited for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/file.h"
#include "common/log.h"
#include "common/proc.h"
#include "common/secret.h"
#include "common/xmalloc.h"
#include "gen/embedded-sh-launch.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/preflight.h"
#include "launch/stage.h"
#include "remote/remote.h"

#define PREFLIGHT_DEADLINE	25.0	/* ssh's ConnectTimeout (10) + the checks */
#define PREFLIGHT_ROUNDS	3

enum { PF_UNCHECKED, PF_OK, PF_FAILED };

struct pf_node {
	int state;
	char reason[600];
	int has_program;	/* the program at its path here, same sha256 */
	int has_rankexec;	/* gridsubmit-rank likewise */
	int shared;		/* the job directory is the same there (shared file system) */
	char rdir[520];		/* else: its own job directory, as it reported it */
};

/* sha256 of local files via sha256sum (hex, 64 chars each), or -1. */
static int
preflight_local_hashes(char *const files[], size_t n, char hashes[][65])
{
	char **argv = xcalloc(n + 2, sizeof *argv), *line, *save = NULL;
	struct proc_task pt;
	size_t i;
	int rc = 0;

	argv[0] = "sha256sum";
	for (i = 0; i < n; i++)
		argv[i + 1] = files[i];
	if (proc_run(argv, 60, &pt) != 0)
		rc = -1;
	for (i = 0, line = strtok_r(pt.out, "\n", &save); rc == 0 && i < n;
	    i++, line = strtok_r(NULL, "\n", &save)) {
		if (line == NULL || strlen(line) < 64) {
			rc = -1;
			break;
		}
		memcpy(hashes[i], line, 64);
		hashes[i][64] = '\0';
	}
	proc_free(&pt, 1);
	free(argv);
	return rc;
}

static void
preflight_parse(const char *out, const char *err, int status, const char *host,
    const struct preflight_setup *s, struct pf_node *r)
{
	char line[600];
	const char *p = out;
	int hidx = 0, ended = 0, dir_ok = 0, proxy_ok = 0, master = 0;
	char seen[64] = "", nodir[520] = "";

	r->state = PF_FAILED;
	if (status == PROC_DEADLINE) {
		snprintf(r->reason, sizeof r->reason, "no answer within %.0f s",
		    PREFLIGHT_DEADLINE);
		return;
	}
	if (status == 255) {
		proc_last_line(err, line, sizeof line);
		snprintf(r->reason, sizeof r->reason, "ssh failed: %.500s", line);
		return;
	}
	while (p != NULL && *p != '\0') {
		size_t len = strcspn(p, "\n");

		snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len :
		    sizeof line - 1), p);
		if (strcmp(line, "S yes") == 0)
			r->shared = 1;
		else if (strcmp(line, "D ok") == 0)
			dir_ok = 1;
		else if (strncmp(line, "D no ", 5) == 0)
			snprintf(nodir, sizeof nodir, "%.515s", line + 5);
		else if (strncmp(line, "R ", 2) == 0)
			snprintf(r->rdir, sizeof r->rdir, "%.515s", line + 2);
		else if (strcmp(line, "P ok") == 0)
			proxy_ok = 1;
		else if (strncmp(line, "H ", 2) == 0) {
			if (hidx == 0)
				r->has_program = strcmp(line + 2, s->hashes[0]) == 0;
			else if (hidx == 1)
				r->has_rankexec = strcmp(line + 2, s->hashes[1]) == 0;
			hidx++;
		} else if (strcmp(line, "M ok") == 0)
			master = 1;
		else if (strncmp(line, "M no ", 5) == 0 || strncmp(line, "M unknown ", 10) == 0 ||
		    strncmp(line, "M refused ", 10) == 0) {
			snprintf(seen, sizeof seen, "%s", strchr(line + 2, ' ') + 1);
			master = strncmp(line, "M unknown", 9) == 0 ? 2 :
			    strncmp(line, "M refused", 9) == 0 ? 3 : 0;
		} else if (strcmp(line, "END") == 0)
			ended = 1;
		p += len;
		if (*p == '\n')
			p++;
	}
	if (!ended) {
		proc_last_line(err, line, sizeof line);
		snprintf(r->reason, sizeof r->reason, "the checks did not run (status %d): "
		    "%.500s", status, line);
	} else if (!proxy_ok)
		snprintf(r->reason, sizeof r->reason, "%s is missing (install the same MPICH "
		    "as here)", s->proxy);
	else if (!dir_ok && *nodir != '\0')
		snprintf(r->reason, sizeof r->reason, "cannot create its job directory %s",
		    nodir);
	else if (!dir_ok)
		snprintf(r->reason, sizeof r->reason, "cannot create the job directory there");
	else if (master == 0)
		snprintf(r->reason, sizeof r->reason, "cannot reach this host's address "
		    "(connected from %s)", *seen ? seen : "?");
	else if (master == 3)
		snprintf(r->reason, sizeof r->reason, "reached a port at this host's address "
		    "that did not take its secret (connected from %s)", *seen ? seen : "?");
	else {
		if (master == 2)
			log_warnx("preflight: %s: cannot check that it reaches this host (no "
			    "bash there)", host);
		r->state = PF_OK;
	}
}

void
preflight_words(const struct preflight_setup *s, const struct job_state *st, const char *addr,
    int key_stdin, char *words[16])
{
	words[0] = "sh";
	words[1] = "-c";
	words[2] = (char *)sh_preflight_checks;
	words[3] = "sh";
	words[4] = st->dir;
	words[5] = (char *)addr;
	words[6] = (char *)s->port;
	words[7] = s->proxy;
	words[8] = (char *)s->token;
	words[9] = s->name;
	words[10] = (char *)s->hashes[0];
	words[11] = (char *)s->hashes[1];
	/* where the node reads the secret: its stdin, or the file; never an argument */
	words[12] = key_stdin ? "-" : s->keyfile;
	words[13] = (char *)s->program;
	words[14] = s->rankexec;
	words[15] = NULL;
}

int
preflight_answer_ready(const struct preflight_setup *s, const char *host, const char *out,
    char *why, size_t whylen)
{
	struct pf_node r;

	memset(&r, 0, sizeof r);
	preflight_parse(out, "", 0, host, s, &r);
	if (r.state != PF_OK)
		snprintf(why, whylen, "%s", r.reason);
	else if (!r.shared)
		snprintf(why, whylen, "does not share this host's job directory");
	else if (!r.has_program)
		snprintf(why, whylen, "has no copy of %s as here", s->program);
	else if (!r.has_rankexec)
		snprintf(why, whylen, "has no copy of %s as here", s->rankexec);
	else
		return 1;
	return 0;
}

/*
 * Check the unchecked remote nodes of p, all at once: the node's checks (preflight_words)
 * over ssh, the connect-back's secret on its stdin, what they print parsed by
 * preflight_parse(). The connect-back starts listening toward the first node's address.
 */
static void
preflight_check(struct gs_sites *sites, const struct gs_placement *p, const struct job_state *st,
    struct preflight_setup *s, struct pf_node *res)
{
	size_t *nodes = xcalloc(sites->nnodes + 1, sizeof *nodes), n = 0, i;
	struct proc_task *t = xcalloc(sites->nnodes + 1, sizeof *t);
	char ifname[64], addr[64] = "", why[512];
	int r;

	for (r = 0; r < p->nranks; r++) {
		size_t node = p->ranks[r].node;
		char *words[16];

		if (node == BROKER_NODE_NONE || res[node].state != PF_UNCHECKED ||
		    remote_host_is_local(sites->nodes[node].host))
			continue;
		res[node].state = PF_FAILED;	/* until its answer says otherwise */
		/* hydra gives every proxy one address to connect back to: the -iface one */
		if (*addr == '\0' && launch_route(s->config, sites->nodes[node].host, ifname,
		    sizeof ifname, addr, sizeof addr, why, sizeof why) == -1) {
			snprintf(res[node].reason, sizeof res[node].reason, "%s", why);
			continue;
		}
		/* the connect-back listens there, from the first node on, until the end */
		if (preflight_accept_start(s, addr, why, sizeof why) == -1) {
			snprintf(res[node].reason, sizeof res[node].reason, "%s", why);
			continue;
		}
		preflight_words(s, st, addr, 1, words);
		if ((t[n].argv = remote_ssh_argv(s->config, NULL, sites->nodes[node].host,
		    words)) == NULL) {
			snprintf(res[node].reason, sizeof res[node].reason, "invalid host name");
			continue;
		}
		t[n].in = s->key;
		nodes[n++] = node;
	}
	proc_run_wide(t, n, LAUNCH_FANOUT, PREFLIGHT_DEADLINE,
	    clock_mono() + PREFLIGHT_DEADLINE * LAUNCH_FANOUT_ROUNDS(n), NULL);
	for (i = 0; i < n; i++)
		preflight_parse(t[i].out, t[i].err, t[i].status, sites->nodes[nodes[i]].host, s,
		    &res[nodes[i]]);
	proc_free(t, n);
	free(t);
	free(nodes);
}

/*
 * Record the job directory every checked node of p made (also a node that failed another
 * check: the cleanup must find it), then stage to the nodes that passed and do not share
 * our job directory (stage.c). A node whose directory is unusable or whose copy fails is
 * failed with the reason. DIR/remote-dirs is written before any copy.
 */
static void
preflight_stage(struct gs_sites *sites, const struct gs_placement *p, const struct gs_job *job,
    const struct job_state *st, const char *name, struct stage_dir *sd, struct pf_node *res,
    struct preflight *pf)
{
	struct stage_dir **to_stage = xcalloc(sites->nnodes + 1, sizeof *to_stage);
	size_t n = 0, k, added = 0;
	int r;

	for (r = 0; r < p->nranks; r++) {
		size_t node = p->ranks[r].node;
		struct pf_node *pn;

		if (node == BROKER_NODE_NONE || sd[node].host != NULL ||
		    res[node].rdir[0] == '\0')
			continue;
		pn = &res[node];
		if (!stage_dir_valid(pn->rdir, name)) {
			if (pn->state == PF_OK) {
				pn->state = PF_FAILED;
				snprintf(pn->reason, sizeof pn->reason, "its job directory "
				    "'%.400s' is not usable (absolute, plain characters, ending "
				    "in /.gridsubmit/jobs/%s)", pn->rdir, name);
			}
			pn->rdir[0] = '\0';
			continue;
		}
		sd[node].host = xstrdup(sites->nodes[node].host);
		sd[node].dir = xstrdup(pn->rdir);
		sd[node].program = !pn->has_program;
		sd[node].rankexec = !pn->has_rankexec;
		added++;
		if (pn->state == PF_OK && !pn->shared)
			to_stage[n++] = &sd[node];
	}
	if (added > 0 && stage_dirs_write(st, sd, sites->nnodes) == -1) {
		/* unrecorded, a directory would outlive the job: use none of them */
		for (k = 0; k < sites->nnodes; k++) {
			if (sd[k].host == NULL || res[k].state != PF_OK)
				continue;
			res[k].state = PF_FAILED;
			snprintf(res[k].reason, sizeof res[k].reason, "its job directory cannot "
			    "be recorded in %s/remote-dirs: %s", st->dir, strerror(errno));
		}
		n = 0;
	}
	if (n > 0)
		stage_copy_in(job, st, to_stage, n);
	for (k = 0; k < n; k++) {
		size_t node = (size_t)(to_stage[k] - sd);

		if (!to_stage[k]->failed) {
			pf->nodes_staged++;
			continue;
		}
		res[node].state = PF_FAILED;
		snprintf(res[node].reason, sizeof res[node].reason, "%s", to_stage[k]->why);
	}
	free(to_stage);
}

int
preflight_setup_make(const struct gs_sites *sites, const struct gs_job *job,
    const struct job_state *st, struct preflight_setup *s, char *why, size_t whylen)
{
	char *files[2];

	memset(s, 0, sizeof *s);
	s->fd = -1;
	xasprintf(&s->config, "%s/ssh_config", st->dir);
	if (sites_write_ssh_config(sites, s->config, why, whylen) == -1)
		return -1;
	s->program = job->program;
	if ((s->rankexec = launch_rank_wrapper()) == NULL) {
		snprintf(why, whylen, "%s", LAUNCH_NO_WRAPPER);
		return -1;
	}
	s->proxy = launch_proxy_path();
	files[0] = job->program;
	files[1] = s->rankexec;
	if (preflight_local_hashes(files, 2, s->hashes) == -1) {
		snprintf(why, whylen, "cannot hash %s and %s here", job->program, s->rankexec);
		return -1;
	}
	/*
	 * a token in the job directory: a node that reads it back shares our file system;
	 * and the connect-back's secret, which a session's checks read from DIR/.connect-key
	 */
	if (secret_new(s->token) == -1 || secret_new(s->key) == -1) {
		snprintf(why, whylen, "random bytes for the preflight: %s", strerror(errno));
		return -1;
	}
	if (file_write_atomic(st->dir, ".shared", s->token, strlen(s->token), 0644) != 0) {
		snprintf(why, whylen, "%s/.shared: %s", st->dir, strerror(errno));
		return -1;
	}
	if (file_write_atomic(st->dir, PREFLIGHT_KEY_FILE, s->key, SECRET_HEX, 0600) != 0) {
		snprintf(why, whylen, "%s/%s: %s", st->dir, PREFLIGHT_KEY_FILE, strerror(errno));
		return -1;
	}
	xasprintf(&s->keyfile, "%s/%s", st->dir, PREFLIGHT_KEY_FILE);
	s->key[SECRET_HEX] = '\n';
	s->key[SECRET_HEX + 1] = '\0';
	s->name = stage_dir_name(st, s->token);
	return 0;
}

void
preflight_setup_free(struct preflight_setup *s)
{
	preflight_accept_stop(s);
	if (s->fd != -1)
		close(s->fd);
	if (s->keyfile != NULL)
		unlink(s->keyfile);
	free(s->keyfile);
	free(s->config);
	free(s->rankexec);
	free(s->proxy);
	free(s->name);
	memset(s, 0, sizeof *s);
	s->fd = -1;
}

int
preflight_run(struct gs_sites *sites, const struct gs_job *job, struct gs_ranking *ranking,
    struct gs_placement *p, const struct job_state *st, struct preflight *pf, char *why,
    size_t whylen)
{
	struct preflight_setup s;
	struct pf_node *res;
	struct stage_dir *sd;
	char msg[4096];
	struct gs_error err;
	int round, r, rc = -1;
	size_t len, i;

	memset(pf, 0, sizeof *pf);
	if (!broker_placement_remote(sites, p))
		return 0;
	if (preflight_setup_make(sites, job, st, &s, why, whylen) == -1) {
		preflight_setup_free(&s);
		return -1;
	}
	pf->all_shared = 1;
	res = xcalloc(sites->nnodes + 1, sizeof *res);
	sd = xcalloc(sites->nnodes + 1, sizeof *sd);
	for (round = 0; ; round++) {
		int nfail = 0, nchecked = 0;
		struct gs_placement again;

		preflight_check(sites, p, st, &s, res);
		preflight_stage(sites, p, job, st, s.name, sd, res, pf);
		if (launch_cancel_requested()) {
			snprintf(why, whylen, "cancelled during preflight");
			break;
		}
		len = 0;
		msg[0] = '\0';
		for (r = 0; r < p->nranks; r++) {
			size_t node = p->ranks[r].node;

			if (node == BROKER_NODE_NONE || res[node].state == PF_UNCHECKED)
				continue;
			if (r > 0 && p->ranks[r - 1].node == node)
				continue;
			nchecked++;
			if (res[node].state == PF_OK) {
				if (!res[node].shared)
					pf->all_shared = 0;
				continue;
			}
			nfail++;
			len += (size_t)snprintf(msg + len, len < sizeof msg ? sizeof msg - len : 0,
			    "%s  %s: %s", len ? "\n" : "", sites->nodes[node].host,
			    res[node].reason);
			if (len >= sizeof msg)
				len = sizeof msg - 1;
		}
		pf->nodes_checked += nchecked;
		if (nfail == 0) {
			rc = 0;
			break;
		}
		pf->nodes_failed += nfail;
		fprintf(stderr, "gridsubmit: preflight: %d of %d node%s failed:\n%s\n", nfail,
		    nchecked, nchecked == 1 ? "" : "s", msg);
		/* without the failed nodes: their slots are gone, the broker places again */
		for (r = 0; r < p->nranks; r++)
			if (p->ranks[r].node != BROKER_NODE_NONE &&
			    res[p->ranks[r].node].state == PF_FAILED)
				sites->nodes[p->ranks[r].node].slots = 0;
		if (round + 1 >= PREFLIGHT_ROUNDS) {
			snprintf(why, whylen, "preflight failed in %d rounds of replacing nodes:\n%s",
			    PREFLIGHT_ROUNDS, msg);
			break;
		}
		if (broker_place_job(sites, ranking, job, &again, &err) != 0) {
			snprintf(why, whylen, "preflight failed and the job cannot do without "
			    "these nodes (%s):\n%s", err.msg, msg);
			break;
		}
		broker_placement_free(p);
		*p = again;
		pf->replaced = 1;
		fprintf(stderr, "gridsubmit: preflight: placed again without the failed "
		    "node%s: %d ranks\n", nfail == 1 ? "" : "s", p->nranks);
	}
	for (i = 0; i < sites->nnodes; i++) {
		free(sd[i].host);
		free(sd[i].dir);
	}
	free(sd);
	free(res);
	preflight_setup_free(&s);
	return rc;
}
