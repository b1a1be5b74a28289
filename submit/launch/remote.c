/*
 * remote.c — running local tools from argument vectors, and the ssh command line of
 * RELIABILITY.md ("SSH"): batch mode, strict host keys with a managed known_hosts, connect
 * timeout, keepalives, no forwarding, only the given identity, connection sharing in a
 * 0700 directory, "--" before the host and every remote word quoted for POSIX sh.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "jobstore.h"
#include "log.h"
#include "remote.h"
#include "xmalloc.h"

#define OUT_CAP	(1024 * 1024)
#define ERR_CAP	(64 * 1024)

const char *const remote_ssh_options[] = {
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

static int
remote_decode(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Read what is there of fd into buf (up to cap); 0 at EOF, 1 when more may come. */
static int
remote_drain(int fd, char **buf, size_t *len, size_t cap)
{
	char tmp[8192];
	ssize_t n;

	if ((n = read(fd, tmp, sizeof tmp)) <= 0)
		return n < 0 && (errno == EINTR || errno == EAGAIN) ? 1 : 0;
	if (*len < cap) {
		size_t take = (size_t)n < cap - *len ? (size_t)n : cap - *len;

		*buf = xreallocarray(*buf, *len + take + 1, 1);
		memcpy(*buf + *len, tmp, take);
		*len += take;
		(*buf)[*len] = '\0';
	}
	return 1;
}

static void
remote_child_exec(char *const argv[], int outfd, int errfd)
{
	int nul;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if ((nul = open("/dev/null", O_RDWR)) == -1)
		_exit(127);
	dup2(nul, STDIN_FILENO);
	dup2(outfd >= 0 ? outfd : nul, STDOUT_FILENO);
	dup2(errfd >= 0 ? errfd : nul, STDERR_FILENO);
	execvp(argv[0], argv);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int
remote_run(char *const argv[], double timeout, struct remote_out *ro)
{
	int op[2], ep[2], st, open_fds = 2, killed = 0;
	size_t olen = 0, elen = 0;
	double deadline = timeout > 0 ? clock_mono() + timeout : 0;
	struct pollfd pfd[2];
	pid_t pid;

	memset(ro, 0, sizeof *ro);
	ro->out = xstrdup("");
	ro->err = xstrdup("");
	if (pipe2(op, O_CLOEXEC) == -1 || pipe2(ep, O_CLOEXEC) == -1)
		fatal("pipe");
	fflush(NULL);
	if ((pid = fork()) == -1)
		fatal("fork");
	if (pid == 0)
		remote_child_exec(argv, op[1], ep[1]);
	close(op[1]);
	close(ep[1]);
	pfd[0].fd = op[0];
	pfd[1].fd = ep[0];
	pfd[0].events = pfd[1].events = POLLIN;
	while (open_fds > 0) {
		int wait_ms = 200;

		if (deadline > 0 && clock_mono() > deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			killed = 1;
			break;
		}
		if (poll(pfd, 2, wait_ms) <= 0)
			continue;
		if (pfd[0].fd >= 0 && (pfd[0].revents & (POLLIN | POLLHUP)) &&
		    !remote_drain(pfd[0].fd, &ro->out, &olen, OUT_CAP)) {
			close(pfd[0].fd);
			pfd[0].fd = -1;
			open_fds--;
		}
		if (pfd[1].fd >= 0 && (pfd[1].revents & (POLLIN | POLLHUP)) &&
		    !remote_drain(pfd[1].fd, &ro->err, &elen, ERR_CAP)) {
			close(pfd[1].fd);
			pfd[1].fd = -1;
			open_fds--;
		}
	}
	if (pfd[0].fd >= 0)
		close(pfd[0].fd);
	if (pfd[1].fd >= 0)
		close(pfd[1].fd);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	ro->status = killed ? -1 : remote_decode(st);
	return ro->status;
}

void
remote_out_free(struct remote_out *ro)
{
	free(ro->out);
	free(ro->err);
	memset(ro, 0, sizeof *ro);
}

pid_t
remote_spawn(char *const argv[], const char *outpath, const char *errpath)
{
	int ofd = -1, efd = -1;
	pid_t pid;

	if (outpath != NULL && (ofd = open(outpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1)
		fatal("%s", outpath);
	if (errpath != NULL && (efd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1)
		fatal("%s", errpath);
	fflush(NULL);
	if ((pid = fork()) == -1)
		fatal("fork");
	if (pid == 0)
		remote_child_exec(argv, ofd, efd);
	setpgid(pid, pid);
	if (ofd >= 0)
		close(ofd);
	if (efd >= 0)
		close(efd);
	return pid;
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

void
remote_wait_all(const pid_t *pids, int *status, double *ended, size_t n, double deadline,
    int (*stop)(void))
{
	size_t i, left = 0;
	int st, *done = xcalloc(n + 1, sizeof *done);
	sigset_t old;
	pid_t r;

	remote_child_block(&old);

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			left++;
		else
			done[i] = 1;
	while (left > 0) {
		for (i = 0; i < n; i++) {
			if (done[i])
				continue;
			while ((r = waitpid(pids[i], &st, WNOHANG)) == -1 && errno == EINTR)
				;
			if (r == pids[i]) {
				status[i] = remote_decode(st);
				if (ended != NULL)
					ended[i] = clock_mono();
				done[i] = 1;
				left--;
			}
		}
		if (left == 0)
			break;
		if ((stop != NULL && stop()) || clock_mono() > deadline) {
			int why = clock_mono() > deadline ? -1 : -2;

			for (i = 0; i < n; i++) {
				if (done[i])
					continue;
				kill(-pids[i], SIGKILL);
				kill(pids[i], SIGKILL);
				while (waitpid(pids[i], &st, 0) == -1 && errno == EINTR)
					;
				status[i] = why;
				if (ended != NULL)
					ended[i] = clock_mono();
			}
			break;
		}
		remote_child_nap(20000000L);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(done);
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
	struct stat sb;

	if (dir != NULL)
		return dir;
	xasprintf(&dir, "%s/ssh", jobstore_root());
	if (mkdir(dir, 0700) == -1 && errno != EEXIST)
		fatal("cannot create %s", dir);
	if (lstat(dir, &sb) == -1 || !S_ISDIR(sb.st_mode))
		fatalx("%s: not a directory", dir);
	/* others must not reach our shared connections */
	if ((sb.st_mode & 077) != 0 && chmod(dir, 0700) == -1)
		fatal("chmod %s", dir);
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

int
remote_write_ssh_config(const struct gs_sites *sites, const char *path, char *why,
    size_t whylen)
{
	const char *home = getenv("HOME");
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
	fprintf(f, "# generated by gridsubmit: the site file's ssh settings, then the "
	    "testbeds',\n# then ~/.ssh/config; first value wins (ssh_config(5))\n");
	for (i = 0; i < sites->nnodes; i++) {
		const struct gs_node *n = &sites->nodes[i];

		if (!host_name_valid(n->host)) {
			snprintf(why, whylen, "invalid host name in the site file");
			goto bad;
		}
		fprintf(f, "Host %s\n", n->host);
		fprintf(f, "\tStrictHostKeyChecking %s\n", n->ssh.host_key != NULL &&
		    strcmp(n->ssh.host_key, "accept-new") == 0 ? "accept-new" : "yes");
		if (n->ssh.port > 0)
			fprintf(f, "\tPort %d\n", n->ssh.port);
		if (n->ssh.user != NULL) {
			if (!remote_user_valid(n->ssh.user)) {
				snprintf(why, whylen, "%s: invalid ssh user name", n->host);
				goto bad;
			}
			fprintf(f, "\tUser %s\n", n->ssh.user);
		}
		if (n->ssh.identity != NULL) {
			if (!remote_config_word_ok(n->ssh.identity)) {
				snprintf(why, whylen, "%s: ssh identity path with spaces, quotes, "
				    "'#' or '%%' is not supported", n->host);
				goto bad;
			}
			fprintf(f, "\tIdentityFile %s\n", n->ssh.identity);
		}
	}
	fprintf(f, "Host *\n");
	if (remote_config_word_ok(jobstore_root()))
		fprintf(f, "Include %s/testbed/*/ssh_config\n", jobstore_root());
	if (home != NULL && *home == '/') {
		xasprintf(&user_config, "%s/.ssh/config", home);
		if (stat(user_config, &sb) == 0 && remote_config_word_ok(user_config))
			fprintf(f, "Include %s\n", user_config);
		free(user_config);
	}
	fprintf(f, "Host *\n\tStrictHostKeyChecking yes\n");
	if (remote_config_word_ok(jobstore_root()))
		fprintf(f, "\tUserKnownHostsFile %s/known_hosts\n", jobstore_root());
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

static char **
remote_ssh_head(const char *config, const char *user, const char *host, size_t extra,
    size_t *n)
{
	char **v, *cp;
	size_t i, nopt;

	if (!host_name_valid(host) || (user != NULL && !remote_user_valid(user)))
		return NULL;
	for (nopt = 0; remote_ssh_options[nopt] != NULL; nopt++)
		;
	v = xcalloc(nopt + extra + 12, sizeof *v);
	*n = 0;
	v[(*n)++] = xstrdup("ssh");
	v[(*n)++] = xstrdup("-F");
	v[(*n)++] = xstrdup(config);
	for (i = 0; i < nopt; i++)
		v[(*n)++] = xstrdup(remote_ssh_options[i]);
	xasprintf(&cp, "ControlPath=%s/%%C", remote_control_dir());
	v[(*n)++] = xstrdup("-o");
	v[(*n)++] = cp;
	if (user != NULL) {
		v[(*n)++] = xstrdup("-l");
		v[(*n)++] = xstrdup(user);
	}
	v[(*n)++] = xstrdup("--");
	v[(*n)++] = xstrdup(host);
	return v;
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
	if (cmd != NULL)
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
	v[n++] = xstrdup(cmd);
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
