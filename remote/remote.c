/*
 * remote.c — running local tools from argument vectors, and the ssh command line of
 * doc/reliability.md ("SSH"): batch mode, strict host keys with a managed known_hosts, connect
 * timeout, keepalives, no forwarding, only the given identity, connection sharing in a
 * 0700 directory, "--" before the host and every remote word quoted for POSIX sh.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/home.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "remote/fanout.h"
#include "remote/remote.h"

static const char *const remote_ssh_options[] = {
	"-o", "BatchMode=yes",
	"-o", "ConnectTimeout=10",
	"-o", "ServerAliveInterval=15",
	"-o", "ServerAliveCountMax=3",
	"-o", "ForwardAgent=no",
	"-o", "ForwardX11=no",
	"-o", "ClearAllForwardings=yes",
	"-o", "IdentitiesOnly=yes",
	"-o", "ControlMaster=auto",
	"-o", "ControlPersist=60",
	NULL
};

int
remote_run(char *const argv[], double timeout, struct remote_out *ro)
{
	struct fanout_task t;

	memset(&t, 0, sizeof t);
	t.argv = (char **)argv;
	fanout_run(&t, 1, timeout > 0 ? clock_mono() + timeout : 0, NULL);
	ro->status = t.status;
	ro->out = t.out;
	ro->err = t.err;
	return ro->status;
}

void
remote_out_free(struct remote_out *ro)
{
	free(ro->out);
	free(ro->err);
	memset(ro, 0, sizeof *ro);
}

void
remote_child_block(sigset_t *old)
{
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, old);
}

void
remote_child_nap(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	/* blocked SIGCHLD stays pending (even at SIG_DFL): a child's end wakes us at once */
	sigtimedwait(&chld, NULL, &ts);
}

char *
remote_quote(const char *word)
{
	size_t n = 3, i;
	const char *p;
	char *q;

	for (p = word; *p != '\0'; p++)
		n += *p == '\'' ? 4 : 1;
	q = xmalloc(n);
	i = 0;
	q[i++] = '\'';
	for (p = word; *p != '\0'; p++) {
		if (*p == '\'') {
			memcpy(q + i, "'\\''", 4);
			i += 4;
		} else
			q[i++] = *p;
	}
	q[i++] = '\'';
	q[i] = '\0';
	return q;
}

int
remote_host_valid(const char *name)
{
	size_t len = strlen(name), label = 0, i;

	if (len == 0 || len > 253 || name[0] == '-')
		return 0;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (c == '.') {
			if (label == 0)
				return 0;	/* empty label: "a..b", ".a", "a." */
			label = 0;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-'))
			return 0;
		if (++label > 63)
			return 0;
	}
	return label > 0;
}

int
remote_host_is_local(const char *host)
{
	char me[HOST_NAME_MAX + 1];

	if (host == NULL)
		return 1;
	if (strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 ||
	    strcmp(host, "::1") == 0)
		return 1;
	return gethostname(me, sizeof me) == 0 && strcasecmp(me, host) == 0;
}

int
remote_user_valid(const char *u)
{
	if (u == NULL || *u == '\0' || *u == '-' || strlen(u) > 64)
		return 0;
	for (; *u != '\0'; u++)
		if (!isalnum((unsigned char)*u) && *u != '_' && *u != '-' && *u != '.')
			return 0;
	return 1;
}

const char *
remote_control_dir(void)
{
	static char *dir;
	char why[1024];
	const char *state;
	struct stat sb;

	if (dir != NULL)
		return dir;
	if ((state = home_root(why, sizeof why)) == NULL)
		return NULL;
	xasprintf(&dir, "%s/ssh", state);
	/* others must not reach our shared connections */
	if ((mkdir(dir, 0700) == -1 && errno != EEXIST) || lstat(dir, &sb) == -1 ||
	    !S_ISDIR(sb.st_mode) || ((sb.st_mode & 077) != 0 && chmod(dir, 0700) == -1)) {
		free(dir);
		dir = NULL;
	}
	return dir;
}

/* A value for ssh_config: no white space, quotes or control bytes (we write no quoting). */
static int
remote_config_word_ok(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if ((unsigned char)*s <= ' ' || *s == '"' || *s == '\'' || *s == 0x7f ||
		    *s == '#' || *s == '%')
			return 0;
	return 1;
}

/* "\tKEY PATH" of host's block, when path is set; -1 with why when ssh cannot take it. */
static int
remote_config_path(FILE *f, const char *host, const char *key, const char *what,
    const char *path, char *why, size_t whylen)
{
	if (path == NULL)
		return 0;
	if (!remote_config_word_ok(path)) {
		snprintf(why, whylen, "%s: ssh %s path with spaces, quotes, '#' or '%%' is not "
		    "supported", host, what);
		return -1;
	}
	fprintf(f, "\t%s %s\n", key, path);
	return 0;
}

int
remote_write_ssh_config(const struct remote_host *hosts, size_t n, const char *path,
    char *why, size_t whylen)
{
	const char *home = getenv("HOME"), *state;
	char *tmp, *user_config = NULL;
	struct stat sb;
	size_t i;
	FILE *f;

	xasprintf(&tmp, "%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL) {
		snprintf(why, whylen, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	fprintf(f, "# generated by gridsubmit: the site file's ssh settings and ssh configs,\n"
	    "# then ~/.ssh/config; first value wins (ssh_config(5))\n");
	for (i = 0; i < n; i++) {
		const struct remote_ssh *ssh = hosts[i].ssh;
		const char *host = hosts[i].host;

		if (!remote_host_valid(host)) {
			snprintf(why, whylen, "invalid host name in the site file");
			goto bad;
		}
		fprintf(f, "Host %s\n", host);
		fprintf(f, "\tStrictHostKeyChecking %s\n", ssh->host_key != NULL &&
		    strcmp(ssh->host_key, "accept-new") == 0 ? "accept-new" : "yes");
		if (ssh->port > 0)
			fprintf(f, "\tPort %d\n", ssh->port);
		if (ssh->user != NULL) {
			if (!remote_user_valid(ssh->user)) {
				snprintf(why, whylen, "%s: invalid ssh user name", host);
				goto bad;
			}
			fprintf(f, "\tUser %s\n", ssh->user);
		}
		if (remote_config_path(f, host, "IdentityFile", "identity", ssh->identity,
		    why, whylen) == -1)
			goto bad;
		/* ssh skips a missing Include without a word: say it here instead */
		if (ssh->config != NULL && remote_config_word_ok(ssh->config) &&
		    access(ssh->config, R_OK) == -1) {
			snprintf(why, whylen, "%s: ssh config %s: %s", host, ssh->config,
			    strerror(errno));
			goto bad;
		}
		if (remote_config_path(f, host, "Include", "config", ssh->config, why,
		    whylen) == -1)
			goto bad;
	}
	fprintf(f, "Host *\n");
	if (home != NULL && *home == '/') {
		xasprintf(&user_config, "%s/.ssh/config", home);
		if (stat(user_config, &sb) == 0 && remote_config_word_ok(user_config))
			fprintf(f, "Include %s\n", user_config);
		free(user_config);
	}
	fprintf(f, "Host *\n\tStrictHostKeyChecking yes\n");
	if ((state = home_root(why, whylen)) == NULL)
		goto bad;
	if (remote_config_word_ok(state))
		fprintf(f, "\tUserKnownHostsFile %s/known_hosts\n", state);
	if (fclose(f) == EOF || rename(tmp, path) == -1) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
bad:
	fclose(f);
	unlink(tmp);
	free(tmp);
	return -1;
}

char **
remote_tool_argv(const char *tool, const char *config, size_t extra, size_t *n)
{
	const char *dir;
	char **v;
	size_t i, nopt;

	for (nopt = 0; remote_ssh_options[nopt] != NULL; nopt++)
		;
	v = xcalloc(nopt + extra + 6, sizeof *v);
	*n = 0;
	v[(*n)++] = xstrdup(tool);
	v[(*n)++] = xstrdup("-F");
	v[(*n)++] = xstrdup(config);
	for (i = 0; i < nopt; i++)
		v[(*n)++] = xstrdup(remote_ssh_options[i]);
	v[(*n)++] = xstrdup("-o");
	if ((dir = remote_control_dir()) != NULL)
		xasprintf(&v[(*n)++], "ControlPath=%s/%%C", dir);
	else
		v[(*n)++] = xstrdup("ControlPath=none");
	return v;
}

static char **
remote_ssh_head(const char *config, const char *user, const char *host, size_t extra,
    size_t *n)
{
	char **v;

	if (!remote_host_valid(host) || (user != NULL && !remote_user_valid(user)))
		return NULL;
	v = remote_tool_argv("ssh", config, extra + 6, n);
	/* a node of a Slurm allocation: its login host's user is the config's */
	if (user != NULL && remote_route_job(host) == NULL) {
		v[(*n)++] = xstrdup("-l");
		v[(*n)++] = xstrdup(user);
	}
	v[(*n)++] = xstrdup("--");
	v[(*n)++] = xstrdup(remote_route_target(host));
	return v;
}

/* The command for the ssh of remote_ssh_head: cmd itself, or srun's for a routed host. */
static char *
remote_ssh_command(const char *host, char *cmd)
{
	char *line;

	if ((line = remote_route_wrap(host, cmd)) == NULL)
		return cmd;
	free(cmd);
	return line;
}

char **
remote_ssh_argv(const char *config, const char *user, const char *host, char *const words[])
{
	char **v, *cmd = NULL, *q, *nc;
	size_t n, i;

	if ((v = remote_ssh_head(config, user, host, 1, &n)) == NULL)
		return NULL;
	for (i = 0; words != NULL && words[i] != NULL; i++) {
		q = remote_quote(words[i]);
		xasprintf(&nc, "%s%s%s", cmd != NULL ? cmd : "", cmd != NULL ? " " : "", q);
		free(q);
		free(cmd);
		cmd = nc;
	}
	if ((cmd = remote_ssh_command(host, cmd)) != NULL)
		v[n++] = cmd;
	v[n] = NULL;
	return v;
}

char **
remote_ssh_argv_raw(const char *config, const char *user, const char *host, const char *cmd)
{
	char **v;
	size_t n;

	if ((v = remote_ssh_head(config, user, host, 1, &n)) == NULL)
		return NULL;
	v[n++] = remote_ssh_command(host, xstrdup(cmd));
	v[n] = NULL;
	return v;
}

void
remote_argv_free(char **argv)
{
	char **a;

	for (a = argv; a != NULL && *a != NULL; a++)
		free(*a);
	free(argv);
}
