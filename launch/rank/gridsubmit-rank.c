/*
 * gridsubmit-rank — what hydra starts for each rank: it runs the program as its child and
 * turns a death by signal into a plain exit.
 *
 * Why (doc/reliability.md, "A dead worker under MPICH 4.0.2", measured with MPICH 4.0.2):
 * under -disable-auto-cleanup a rank that
 * exits is survived by the others, but a rank killed by a signal takes the whole job down.
 * Seen from hydra, this wrapper always exits: the job goes on and libgrt's master requeues
 * the dead rank's units. It also forwards hydra's signals to the program (SIGUSR1, the
 * "a rank exited" hint, included), makes the program die with it (PR_SET_PDEATHSIG) so no
 * rank is ever left behind, and for rank 0 records how the program ended in --status FILE.
 * A death by a signal is said on stderr unless the wrapper passed that signal on itself:
 * a job stopping its ranks (a cancel, the time limit) is no news, one rank per line.
 *
 * Every rank's end reaches the supervisor (doc/restarts.md, "Every rank's end"): one line
 * (common/rank-end.h) appended to --ends FILE, the job directory's DIR/rank-ends, by the
 * ranks that run in it; a rank on a node with a job directory of its own has no --ends and
 * sends the line on its lease before it closes it, and the supervisor appends it there.
 *
 * A rank must not outlive its job either (doc/architecture.md, "No orphan on any site"):
 * - the wrapper stops the program (SIGTERM, SIGKILL after KILL_GRACE) when its own parent,
 *   hydra's proxy, dies: PR_SET_PDEATHSIG on the wrapper itself;
 * - with GRIDSUBMIT_LEASE=ADDR:PORT in the environment (multi-site jobs), it holds a TCP
 *   connection to the job's supervisor, which listens there (launch/lease-proto.h). It
 *   sends the launch's secret first (GRIDSUBMIT_LEASE_SECRET, taken out of the
 *   environment before the program starts: the program never sees it), then a beat every
 *   second; the supervisor beats back with its timeout. The lease ends when the connection
 *   closes (the supervisor died: seen at once), when the supervisor's beats stop for that
 *   timeout, or when its host stops answering TCP keepalives for GRIDSUBMIT_LEASE_TIMEOUT
 *   seconds (default 60: before the first beat). Either way the job is gone: the wrapper
 *   stops the program and sends SIGTERM to its parent hydra proxy, so nothing of the job
 *   stays on the node. A lease that cannot be set up is reported on stderr and the rank
 *   runs without it: the lease never fails a job;
 * - when hydra's proxy dies under it (PR_SET_PDEATHSIG, then getppid() no longer the
 *   proxy: hydra's own SIGTERM of a cleanup leaves the parent alive), it says
 *   "proxy-lost" on the lease before it stops the program, so the supervisor names this
 *   node, whatever hydra's launcher reports. The kernel's signal comes at the proxy's
 *   exit, however it died; polling getppid() would lag and wake the wrapper for nothing.
 *
 * With --gate FIFO, rank 0 waits before it starts the program until the supervisor writes
 * one byte there: 'g' starts it, anything else or the end of the FIFO (the supervisor
 * died) ends the wrapper with GATE_CLOSED and no status file. gridsubmit starts mpiexec
 * while its preflight still runs (doc/architecture.md, "Speculative launch"): no rank gets
 * past MPI_Init before rank 0 enters it, so nothing of the job runs until the preflight
 * has passed.
 *
 * The program runs with libgridsubmit-finalize.so from beside the wrapper in its LD_PRELOAD
 * (rank-preload.h): a plain MPI program's MPI_Finalize then ends without MPICH's hang over
 * tcp (runtime/finalize/grt-finalize.c); libgrt programs and programs that are not MPI
 * programs never call it.
 *
 * usage: gridsubmit-rank [--status FILE] [--ends FILE] [--gate FIFO] -- PROGRAM [ARGS...]
 * Exit status: the program's, 128+N when it died of signal N, 127 when it cannot be run,
 * GATE_CLOSED when the gate said no.
 * Deliberately free of libraries: it is copied to every node as it is.
 */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/file.h"
#include "common/rank-end.h"
#include "common/secret.h"
#include "launch/lease-proto.h"
#include "launch/rank/rank-preload.h"

#define KILL_GRACE	5	/* seconds between forwarding SIGTERM and SIGKILL */
#define LEASE_TIMEOUT	60	/* seconds of silence from the supervisor's host */
#define LEASE_CONNECT	10	/* seconds to set the lease up */
#define GATE_CLOSED	125	/* exit status when the launch was called off at the gate */

static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t stopping;
/*
 * The stop signals this wrapper passed to its program (a bit per signal, SIGKILL's for
 * the grace's end): a death by one of them is the job's own stop (a cancel, the time
 * limit, a failure's cleanup), recorded but not said; any other is said on stderr.
 */
static volatile sig_atomic_t sent_mask;
/* The lease once it sent the secret (-1 before), and the proxy we were started by. */
static volatile sig_atomic_t lease_said_fd = -1;
static volatile sig_atomic_t proxy_pid;
static volatile sig_atomic_t proxy_said;

static void
note_sent(int sig)
{
	if (sig > 0 && sig < 31)
		sent_mask |= 1 << sig;
}

/*
 * The proxy died (its death signal came and our parent changed): "proxy-lost" on the
 * lease, before the program is stopped. Async-signal-safe: getppid and send only.
 */
static void
proxy_check(void)
{
	static const char msg[] = LEASE_PROXY_LOST "\n";

	if (proxy_said || proxy_pid <= 0 || getppid() == (pid_t)proxy_pid || lease_said_fd < 0)
		return;
	proxy_said = 1;
	(void)send(lease_said_fd, msg, sizeof msg - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
}

static void
on_signal(int sig)
{
	proxy_check();
	if (child_pid > 0) {
		kill(child_pid, sig);
		note_sent(sig);
	}
	if (sig != SIGUSR1 && !stopping) {
		stopping = 1;
		alarm(KILL_GRACE);
	}
}

static void
on_alarm(int sig)
{
	(void)sig;
	if (child_pid > 0) {
		kill(child_pid, SIGKILL);
		note_sent(SIGKILL);
	}
}

/* SIGCHLD only has to interrupt ppoll. */
static void
on_child(int sig)
{
	(void)sig;
}

/*
 * The program's end into the --status file, whole: through the one atomic writer, whose
 * temporary file is new (O_EXCL, O_NOFOLLOW), so a link planted beside it in a shared job
 * directory is never followed.
 */
static void
write_status(const char *path, const char *text)
{
	const char *slash;
	char dir[4096];

	if (path == NULL)
		return;
	if ((slash = strrchr(path, '/')) == NULL)
		file_write_atomic(".", path, text, strlen(text), 0644);
	else if (snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path) <
	    (int)sizeof dir)
		file_write_atomic(slash == path ? "/" : dir, slash + 1, text, strlen(text),
		    0644);
}

/* "rank R on HOST" for messages. */
static const char *
who(void)
{
	static char buf[320];
	const char *rank = getenv("PMI_RANK");
	char host[256] = "?";

	if (buf[0] == '\0') {
		gethostname(host, sizeof host - 1);
		host[sizeof host - 1] = '\0';
		snprintf(buf, sizeof buf, "rank %s on %s", rank != NULL ? rank : "?", host);
	}
	return buf;
}

/*
 * Start connecting to the lease GRIDSUBMIT_LEASE=A.B.C.D:PORT (non-blocking: the program
 * starts at once). Returns the socket, or -1 when there is no lease or it cannot be set up.
 */
static int
lease_connect(const char *spec, struct sockaddr_in *sa)
{
	const char *env = getenv("GRIDSUBMIT_LEASE_TIMEOUT");
	char addr[64], *colon, *end;
	long port, t = LEASE_TIMEOUT;
	int fd, on = 1, idle, intvl, cnt = 3;
	unsigned int user_ms;

	if (spec == NULL || *spec == '\0')
		return -1;
	if (env != NULL && *env != '\0') {
		t = strtol(env, &end, 10);
		if (*end != '\0' || t < 3 || t > 86400) {
			fprintf(stderr, "gridsubmit-rank: %s: GRIDSUBMIT_LEASE_TIMEOUT=%.20s is "
			    "not 3..86400 seconds; using %d\n", who(), env, LEASE_TIMEOUT);
			t = LEASE_TIMEOUT;
		}
	}
	memset(sa, 0, sizeof *sa);
	sa->sin_family = AF_INET;
	if (strlen(spec) >= sizeof addr || (colon = strrchr(strcpy(addr, spec), ':')) == NULL)
		goto bad;
	*colon = '\0';
	port = strtol(colon + 1, &end, 10);
	if (*end != '\0' || port < 1 || port > 65535 ||
	    inet_pton(AF_INET, addr, &sa->sin_addr) != 1)
		goto bad;
	sa->sin_port = htons((unsigned short)port);
	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)) == -1) {
		fprintf(stderr, "gridsubmit-rank: %s: no lease: socket: %s\n", who(),
		    strerror(errno));
		return -1;
	}
	/* silence for t seconds ends the lease: keepalive probes from t/2 on, 3 of them */
	idle = (int)(t / 2);
	intvl = (int)(t - idle) / cnt > 0 ? (int)(t - idle) / cnt : 1;
	user_ms = (unsigned int)t * 1000U;
	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt) == -1)
		fprintf(stderr, "gridsubmit-rank: %s: lease keepalive: %s\n", who(),
		    strerror(errno));
	/* also bounds a probe or a write that is never acknowledged (Linux >= 2.6.37) */
	setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_ms, sizeof user_ms);
	if (connect(fd, (struct sockaddr *)sa, sizeof *sa) == -1 && errno != EINPROGRESS) {
		fprintf(stderr, "gridsubmit-rank: %s: no lease: cannot reach the job's supervisor "
		    "at %s: %s\n", who(), spec, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
bad:
	fprintf(stderr, "gridsubmit-rank: %s: no lease: GRIDSUBMIT_LEASE=%.64s is not "
	    "A.B.C.D:PORT\n", who(), spec);
	return -1;
}

/* Whether pid runs hydra's proxy (the parent we may stop along with the program). */
static int
is_proxy(pid_t pid)
{
	char path[64], comm[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/comm", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	n = read(fd, comm, sizeof comm - 1);
	close(fd);
	if (n <= 0)
		return 0;
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	return strcmp(comm, "hydra_pmi_proxy") == 0;
}

/*
 * The job is gone: stop the program (SIGTERM, SIGKILL after KILL_GRACE through the alarm)
 * and hydra's proxy that started us, which would otherwise wait for its job's mpiexec
 * until TCP gives up (about 15 minutes with unacknowledged data, never without).
 */
static void
lease_lost(const char *spec, const char *why, const char *program)
{
	pid_t parent = getppid();

	fprintf(stderr, "gridsubmit-rank: %s: the job's supervisor at %s is gone (%s); "
	    "stopping %s\n", who(), spec, why, program);
	if (child_pid > 0) {
		kill(child_pid, SIGTERM);
		note_sent(SIGTERM);
	}
	if (!stopping) {
		stopping = 1;
		alarm(KILL_GRACE);
	}
	if (parent > 1 && is_proxy(parent))
		kill(parent, SIGTERM);
}

static const int forwarded[] = { SIGUSR1, SIGTERM, SIGINT, SIGHUP, SIGQUIT };

/*
 * Rank 0's gate: 1 when the supervisor opened it ('g'), 0 when it called the launch off,
 * died, or a signal arrived meanwhile (hydra's proxy stopping the job). The signals are
 * blocked but inside ppoll: one that comes between the check and the wait is not lost.
 */
static int
gate_wait(const char *path)
{
	sigset_t block, outside;
	char c;
	ssize_t n;
	size_t i;
	int fd, opened = 0;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		fprintf(stderr, "gridsubmit-rank: %s: gate %s: %s\n", who(), path, strerror(errno));
		return 0;
	}
	sigemptyset(&block);
	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		sigaddset(&block, forwarded[i]);
	sigprocmask(SIG_BLOCK, &block, &outside);
	while (!stopping) {
		struct pollfd pfd = { fd, POLLIN, 0 };

		if (ppoll(&pfd, 1, NULL, &outside) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		n = read(fd, &c, 1);
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		opened = n == 1 && c == 'g';
		break;
	}
	sigprocmask(SIG_SETMASK, &outside, NULL);
	close(fd);
	return opened && !stopping;
}

/* The lease as the wrapper holds it: connecting (until a deadline), held, or none. */
struct lease {
	const char *spec;	/* ADDR:PORT, for messages */
	int fd;			/* -1: none */
	int connecting;
	double until;		/* the connect's deadline (clock_mono) */
	char secret[SECRET_HEX + 1];	/* the launch's ("": none, the supervisor closes) */
	double beat;		/* our next beat (clock_mono) */
	double heard;		/* the supervisor's last beat (clock_mono) */
	double timeout;		/* its silence that ends the lease, from its beats; 0: none yet */
	char line[64];		/* what the supervisor sent, as it arrives */
	size_t len;
};

/* The lease ended (why): the program stopped (lease_lost), the connection closed. */
static void
lease_end(struct lease *l, const char *why, const char *program)
{
	lease_said_fd = -1;
	lease_lost(l->spec, why, program);
	close(l->fd);
	l->fd = -1;
}

/*
 * The secret, first on the connection (a short line into an empty socket buffer: sent
 * whole), then the beats; the proxy's death may be said from then on.
 */
static void
lease_hello(struct lease *l)
{
	char line[sizeof LEASE_HELLO + SECRET_HEX + 1];
	int n;

	n = snprintf(line, sizeof line, "%s%s\n", LEASE_HELLO, l->secret);
	if (send(l->fd, line, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) != n)
		fprintf(stderr, "gridsubmit-rank: %s: the lease's secret was not sent: %s\n",
		    who(), strerror(errno));
	explicit_bzero(line, sizeof line);
	l->beat = clock_mono() + LEASE_BEAT_EVERY;
	lease_said_fd = l->fd;
	proxy_check();
}

/* The connect finished (fd writable): held, or given up with a message. */
static void
lease_connected(struct lease *l)
{
	socklen_t elen;
	int err = 0;

	elen = sizeof err;
	if (getsockopt(l->fd, SOL_SOCKET, SO_ERROR, &err, &elen) == -1)
		err = errno;
	if (err == EINPROGRESS || err == EALREADY)
		return;
	l->connecting = 0;
	if (err != 0) {
		fprintf(stderr, "gridsubmit-rank: %s: no lease: cannot reach the job's "
		    "supervisor at %s: %s\n", who(), l->spec, strerror(err));
		close(l->fd);
		l->fd = -1;
		return;
	}
	lease_hello(l);
}

/*
 * The supervisor's lines on the held lease: its beats ("beat T": heard now, T its
 * timeout); anything else is skipped. 0, or -1 when the connection ended (why set).
 */
static int
lease_take(struct lease *l, const char **why)
{
	char buf[256];
	ssize_t n, i;
	long t;

	for (;;) {
		n = recv(l->fd, buf, sizeof buf, MSG_DONTWAIT);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		/* a reset is a close too: the supervisor went with our beats unread */
		if (n <= 0) {
			*why = n == 0 || errno == ECONNRESET ? "connection closed" : strerror(errno);
			return -1;
		}
		for (i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (l->len < sizeof l->line - 1)
					l->line[l->len++] = buf[i];
				continue;
			}
			l->line[l->len] = '\0';
			l->len = 0;
			if (strncmp(l->line, LEASE_BEAT " ", sizeof LEASE_BEAT) == 0 &&
			    (t = strtol(l->line + sizeof LEASE_BEAT, NULL, 10)) >= 1 && t <= 86400) {
				l->heard = clock_mono();
				l->timeout = (double)t;
			}
		}
	}
}

/* The lease's clock: our beat when due; 1 when the supervisor has been silent too long. */
static int
lease_tick(struct lease *l)
{
	static const char beat[] = LEASE_BEAT "\n";
	double now = clock_mono();

	if (now >= l->beat) {
		/* a full buffer drops the beat: the supervisor's silence judges, not ours */
		(void)send(l->fd, beat, sizeof beat - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
		l->beat = now + LEASE_BEAT_EVERY;
	}
	return l->timeout > 0 && now - l->heard >= l->timeout;
}

/*
 * Wait for the program (pid) to end, holding the lease meanwhile: a lease that ends stops
 * the program (lease_lost). SIGCHLD wakes the wait (it is unblocked only inside ppoll, by
 * the mask waiting). Returns the program's wait status, or -1 when waitpid fails.
 */
static int
wait_program(pid_t pid, struct lease *l, const sigset_t *waiting, const char *program)
{
	const char *why;
	char silent[64];
	int st, n;

	for (;;) {
		struct pollfd pfd = { l->fd, (short)(l->connecting ? POLLOUT : POLLIN | POLLRDHUP),
		    0 };
		struct timespec ts, *tp = NULL;
		double left;
		pid_t r;

		if ((r = waitpid(pid, &st, WNOHANG)) == pid)
			return st;
		if (r == -1 && errno != EINTR)
			return -1;
		proxy_check();
		if (l->fd != -1 && l->connecting && l->until - clock_mono() <= 0) {
			fprintf(stderr, "gridsubmit-rank: %s: no lease: the job's supervisor at %s "
			    "did not answer within %d s\n", who(), l->spec, LEASE_CONNECT);
			close(l->fd);
			l->fd = -1;
			l->connecting = 0;
		}
		if (l->fd != -1 && !l->connecting && lease_tick(l)) {
			snprintf(silent, sizeof silent, "silent for %.0f s", l->timeout);
			lease_end(l, silent, program);
			continue;
		}
		if (l->fd != -1) {
			left = (l->connecting ? l->until : l->beat) - clock_mono();
			if (left < 0)
				left = 0;
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			tp = &ts;
		}
		n = ppoll(&pfd, l->fd != -1 ? 1 : 0, tp, waiting);
		if (n <= 0 || l->fd == -1)
			continue;
		if (l->connecting) {
			lease_connected(l);
			continue;
		}
		if (lease_take(l, &why) == -1)
			lease_end(l, why, program);
	}
}

/*
 * The program's end: said when it died of a signal this wrapper did not pass on
 * (sent_mask), written for rank 0; the exit code.
 */
static int
report_end(int st, const char *status, const char *program)
{
	char text[64];

	if (WIFSIGNALED(st)) {
		if (WTERMSIG(st) >= 31 || !(sent_mask & (1 << WTERMSIG(st))))
			fprintf(stderr, "gridsubmit-rank: %s: %s died of signal %d (%s)\n",
			    who(), program, WTERMSIG(st), strsignal(WTERMSIG(st)));
		snprintf(text, sizeof text, "signal %d\n", WTERMSIG(st));
		write_status(status, text);
		return 128 + WTERMSIG(st);
	}
	snprintf(text, sizeof text, "exit %d\n", WEXITSTATUS(st));
	write_status(status, text);
	return WEXITSTATUS(st);
}

/*
 * --ends FILE, opened when the rank starts, not when it ends: a launch called off (the
 * speculative one, doc/restarts.md) may leave a wrapper that ends after the relaunch began,
 * and gridsubmit removes the file before each mpiexec (launch_ends_reset), so that such a
 * wrapper's line goes to the file it was started with, which nobody reads any more, not
 * into the relaunch's. -1 (said on stderr) when it cannot be opened.
 */
static int
open_ends(const char *ends)
{
	int fd;

	if (ends == NULL)
		return -1;
	if ((fd = open(ends, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
	    0644)) == -1)
		fprintf(stderr, "gridsubmit-rank: %s: %s: %s\n", who(), ends, strerror(errno));
	return fd;
}

/*
 * The program's end (wait status st) to the supervisor: appended to the ends file (one
 * write of a short line under O_APPEND: the ranks' lines never mix), or without one sent
 * on the lease, whose connect is given the rest of its time first. A rank with neither
 * says nothing: the supervisor then judges by mpiexec's status.
 */
static void
send_end(const char *ends, int ends_fd, struct lease *l, int st)
{
	const char *rank = getenv("PMI_RANK");
	char host[256], line[RANK_END_LINE_MAX];
	int n;

	if (gethostname(host, sizeof host) == -1)
		strcpy(host, "?");
	host[sizeof host - 1] = '\0';
	if (rank == NULL || (n = rank_end_format(line, sizeof line, atoi(rank), host, st,
	    clock_wall())) == -1)
		return;
	if (ends != NULL) {
		if (ends_fd != -1 && write(ends_fd, line, (size_t)n) != n)
			fprintf(stderr, "gridsubmit-rank: %s: %s: %s\n", who(), ends,
			    strerror(errno));
		return;
	}
	while (l->fd != -1 && l->connecting && clock_mono() < l->until) {
		struct pollfd pfd = { l->fd, POLLOUT, 0 };

		if (poll(&pfd, 1, (int)((l->until - clock_mono()) * 1000) + 1) > 0)
			lease_connected(l);
	}
	if (l->fd != -1 && !l->connecting && send(l->fd, line, (size_t)n, MSG_NOSIGNAL) != n)
		fprintf(stderr, "gridsubmit-rank: %s: the end was not sent on the lease: %s\n",
		    who(), strerror(errno));
}

/*
 * Signals: the forwarded ones and the alarm to our handlers, SIGCHLD blocked except inside
 * ppoll (no exit of the program is missed between checks). *orig: the mask to give the
 * program; *waiting: the one to wait with.
 */
static void
catch_signals(sigset_t *orig, sigset_t *waiting)
{
	struct sigaction sa;
	sigset_t chld;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		sigaction(forwarded[i], &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = 0;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, orig);
	*waiting = *orig;
	sigdelset(waiting, SIGCHLD);
}

/*
 * The program, with default signals, our original mask and the finalize interposer
 * preloaded; -1 when fork fails.
 */
static pid_t
start_program(char **argv, const sigset_t *orig)
{
	struct sigaction sa;
	size_t i;
	pid_t pid;

	if ((pid = fork()) != 0)
		return pid;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		sigaction(forwarded[i], &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	sigprocmask(SIG_SETMASK, orig, NULL);
	/* no rank outlives its wrapper, whatever kills the wrapper */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(127);
	rank_preload_finalize();
	execvp(argv[0], argv);
	fprintf(stderr, "gridsubmit-rank: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int
main(int argc, char **argv)
{
	struct sockaddr_in lsa;
	sigset_t orig, waiting;
	const char *status = NULL, *ends = NULL, *gate = NULL, *rank = getenv("PMI_RANK");
	struct lease lease = { .spec = getenv("GRIDSUBMIT_LEASE"), .fd = -1 };
	const char *secret = getenv(LEASE_SECRET_ENV);
	pid_t pid, parent = getppid();
	int argi = 1, st, ends_fd;

	for (;;) {
		if (argi + 1 < argc && strcmp(argv[argi], "--status") == 0)
			status = argv[argi + 1];
		else if (argi + 1 < argc && strcmp(argv[argi], "--ends") == 0)
			ends = argv[argi + 1];
		else if (argi + 1 < argc && strcmp(argv[argi], "--gate") == 0)
			gate = argv[argi + 1];
		else
			break;
		argi += 2;
	}
	if (argi < argc && strcmp(argv[argi], "--") == 0)
		argi++;
	if (argi >= argc) {
		fprintf(stderr, "usage: gridsubmit-rank [--status FILE] [--ends FILE] [--gate FIFO] "
		    "-- PROGRAM [ARGS...]\n");
		return 2;
	}
	if (rank == NULL || strcmp(rank, "0") != 0)
		status = gate = NULL;
	/* the lease's secret is ours alone: out of the environment the program inherits */
	if (secret != NULL && strlen(secret) == SECRET_HEX)
		memcpy(lease.secret, secret, SECRET_HEX + 1);
	unsetenv(LEASE_SECRET_ENV);
	proxy_pid = parent;
	catch_signals(&orig, &waiting);
	/* hydra's proxy gone (killed, or the cleanup of a job): the rank goes too */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		return 127;
	ends_fd = open_ends(ends);
	if (gate != NULL && !gate_wait(gate))
		return GATE_CLOSED;
	lease.fd = lease_connect(lease.spec, &lsa);
	lease.connecting = lease.fd != -1;
	lease.until = clock_mono() + LEASE_CONNECT;
	if ((pid = start_program(argv + argi, &orig)) == -1) {
		perror("gridsubmit-rank: fork");
		return 127;
	}
	child_pid = pid;
	if ((st = wait_program(pid, &lease, &waiting, argv[argi])) == -1)
		return 127;
	send_end(ends, ends_fd, &lease, st);
	if (ends_fd != -1)
		close(ends_fd);
	if (lease.fd != -1)
		close(lease.fd);
	return report_end(st, status, argv[argi]);
}
