/*
 * testbed-up.c — build the emulated grid of a site file (doc/testbed.md): a bridge with
 * NET.0.1/16 (a free /16: testbed-net.c), per node a network namespace joined by a veth
 * pair, NET.S.N, its link shaped with tc (htb rate from bandwidth_mbps, netem delay from
 * latency_ms when the kernel has sch_netem, else a delay line: testbed-latency.c), a cgroup
 * CPU quota that emulates the node's relative speed (testbed-speed.c), and in the namespace
 * (with its own UTS hostname): sshd with generated keys, a node_exporter, a background load
 * generator.
 * A site behind Slurm gets its login host and Slurm daemons after that (testbed-slurm.c).
 * Every step is written to the manifest before it is taken.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <net/if.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "common/file.h"
#include "common/xmalloc.h"
#include "remote/remote.h"
#include "testbed/testbed.h"

static int tb_join_mounts(const struct tb_node *);

static const char *const tb_tools[][2] = {
	{ "ip", "iproute2" }, { "tc", "iproute2" }, { "sshd", "openssh-server" },
	{ "ssh-keygen", "openssh-client" }, { "ssh", "openssh-client" },
	{ "prometheus-node-exporter", "prometheus-node-exporter" }, { "unshare", "util-linux" },
	{ NULL, NULL }
};

/* The absolute path of a tool in $PATH (plus the sbin directories), or NULL. */
char *
tb_which(const char *tool)
{
	const char *path = getenv("PATH");
	char *dirs, *full;

	xasprintf(&dirs, "%s:/usr/sbin:/sbin:/usr/bin:/bin", path != NULL ? path : "");
	full = file_which(tool, dirs);
	free(dirs);
	return full;
}

static int
tb_check_tools(void)
{
	int i, bad = 0;
	char *p;

	for (i = 0; tb_tools[i][0] != NULL; i++) {
		if ((p = tb_which(tb_tools[i][0])) == NULL) {
			fprintf(stderr, "gridsubmit testbed: %s not found (Debian package %s; "
			    "scripts/install-deps installs it)\n", tb_tools[i][0], tb_tools[i][1]);
			bad = 1;
		}
		free(p);
	}
	return bad ? -1 : 0;
}

int
tb_mkdir(const char *path, mode_t mode)
{
	if (mkdir(path, mode) == -1 && errno != EEXIST) {
		fprintf(stderr, "gridsubmit testbed: cannot create %s: %s\n", path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static int
tb_write_value(const char *dir, const char *file, const char *value)
{
	char *path;
	int fd, rc = 0;

	xasprintf(&path, "%s/%s", dir, file);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1 ||
	    write(fd, value, strlen(value)) != (ssize_t)strlen(value))
		rc = -1;
	if (fd != -1)
		close(fd);
	free(path);
	return rc;
}

/*
 * The cgroup parent of the testbed: v2 when the unified hierarchy has the cpu controller,
 * else v1's cpu hierarchy (Debian 12 VMs often boot hybrid), else none (no CPU quotas).
 * -1 (said) only when the manifest cannot take it.
 */
static int
tb_cgroup_setup(struct testbed *tb)
{
	char buf[512] = "";
	FILE *f;

	tb->cg_version = 0;
	if ((f = fopen("/sys/fs/cgroup/cgroup.controllers", "r")) != NULL) {
		if (fgets(buf, sizeof buf, f) == NULL)
			buf[0] = '\0';
		fclose(f);
		if (strstr(buf, "cpu") != NULL &&
		    tb_write_value("/sys/fs/cgroup", "cgroup.subtree_control", "+cpu") == 0) {
			xasprintf(&tb->cg_root, "/sys/fs/cgroup/gridsubmit-%s", tb->tag);
			tb->cg_version = 2;
		}
	}
	if (tb->cg_version == 0 && access("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", W_OK) == 0) {
		xasprintf(&tb->cg_root, "/sys/fs/cgroup/cpu/gridsubmit-%s", tb->tag);
		tb->cg_version = 1;
	}
	if (tb->cg_version == 0) {
		tb_speed_unavailable(tb, "no usable cgroup cpu controller");
		return 0;
	}
	if (tb_manifest_add(tb, "cgroup %s", tb->cg_root) == -1)
		return -1;
	if (tb_mkdir(tb->cg_root, 0755) == -1 || (tb->cg_version == 2 &&
	    tb_write_value(tb->cg_root, "cgroup.subtree_control", "+cpu") == -1)) {
		char *why;

		xasprintf(&why, "%s: cannot set up the cpu controller", tb->cg_root);
		tb_speed_unavailable(tb, why);
		free(why);
		tb->cg_version = 0;
	}
	return 0;
}

/* The node's quota, as tb_speed_plan chose it (testbed-speed.c). */
static int
tb_cgroup_node(struct testbed *tb, struct tb_node *tn)
{
	char val[64];
	long quota;

	if (tb->cg_version == 0)
		return 0;
	quota = (long)(tb_node_cpus(tb, tn) * TB_CG_PERIOD + 0.5);
	if (quota < (long)(TB_CPU_MIN * TB_CG_PERIOD + 0.5))
		quota = (long)(TB_CPU_MIN * TB_CG_PERIOD + 0.5);
	xasprintf(&tn->cgroup, "%s/%s", tb->cg_root, tn->node->host);
	if (tb_manifest_add(tb, "cgroup %s", tn->cgroup) == -1 ||
	    tb_mkdir(tn->cgroup, 0755) == -1 ||
	    tb_manifest_add(tb, "cpu %s %.15g", tn->node->host,
	    (double)quota / TB_CG_PERIOD) == -1)
		return -1;
	if (tb->cg_version == 2) {
		snprintf(val, sizeof val, "%ld %d", quota, TB_CG_PERIOD);
		if (tb_write_value(tn->cgroup, "cpu.max", val) == -1)
			goto bad;
	} else {
		snprintf(val, sizeof val, "%d", TB_CG_PERIOD);
		if (tb_write_value(tn->cgroup, "cpu.cfs_period_us", val) == -1)
			goto bad;
		snprintf(val, sizeof val, "%ld", quota);
		if (tb_write_value(tn->cgroup, "cpu.cfs_quota_us", val) == -1)
			goto bad;
	}
	return 0;
bad:
	fprintf(stderr, "gridsubmit testbed: %s: cannot set the CPU quota: %s\n", tn->cgroup,
	    strerror(errno));
	return -1;
}

/*
 * Fork a process into the node: its network namespace, a new UTS namespace named after the
 * host, its cgroup, a session of its own, output to DIR/nodes/HOST/WHAT.log. argv NULL: the
 * child runs the load generator instead of a program. The pid goes to the manifest. On a
 * node of a Slurm site, SLURM_CONF is set; a private_fs node's slurmd joins the mount
 * namespace of its sshd, so that a step sees the node's files as a session does. -1 (said)
 * when there is no process, or it cannot be recorded (then it is killed).
 */
pid_t
tb_spawn(struct testbed *tb, struct tb_node *tn, const char *what, char *const argv[],
    const char *promfile)
{
	char *path, *log, pidbuf[32];
	pid_t pid;

	xasprintf(&path, "/run/netns/%s", tn->netns);
	xasprintf(&log, "%s/%s.log", tn->dir, what);
	fflush(NULL);
	if ((pid = fork()) == -1) {
		tb_syserr("%s: cannot start %s", tn->node->host, what);
		free(path);
		free(log);
		return -1;
	}
	if (pid == 0) {
		tb_child_enter(path);
		if (unshare(CLONE_NEWUTS) == -1 ||
		    sethostname(tn->node->host, strlen(tn->node->host)) == -1) {
			dprintf(2, "gridsubmit testbed: %s: cannot set the hostname: %s\n",
			    tn->node->host, strerror(errno));
			_exit(127);
		}
		if (tn->cgroup != NULL) {
			snprintf(pidbuf, sizeof pidbuf, "%ld", (long)getpid());
			if (tb_write_value(tn->cgroup, "cgroup.procs", pidbuf) == -1)
				dprintf(2, "gridsubmit testbed: %s: cannot join: %s\n",
				    tn->cgroup, strerror(errno));
		}
		tb_child_output(log);
		if (tn->slurm_conf != NULL && setenv("SLURM_CONF", tn->slurm_conf, 1) == -1)
			_exit(127);
		/* a node without this host's files: its sshd, and so its sessions (testbed-fs.c) */
		if (tn->node->emulate.private_fs && strcmp(what, "sshd") == 0 &&
		    tb_private_fs(tb, tn) == -1)
			_exit(127);
		if (tn->node->emulate.private_fs && strcmp(what, "slurmd") == 0 &&
		    tb_join_mounts(tn) == -1)
			_exit(127);
		if (argv == NULL) {
			prctl(PR_SET_NAME, "gs-load");
			tb_load_main(promfile, tn->node->host, tn->node->emulate.load,
			    tn->node->emulate.load_interval, tb_node_cpus(tb, tn));
		}
		execv(argv[0], argv);
		dprintf(2, "gridsubmit testbed: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free(path);
	free(log);
	if (tb_manifest_add(tb, "pid %ld %lld %s %s", (long)pid, tb_proc_start(pid), what,
	    tn->node->host) == -1) {
		tb_kill_unrecorded(pid);
		return -1;
	}
	return pid;
}

/* Shape one direction: htb at the site's bandwidth, netem delay below it when available. */
static int
tb_shape(struct testbed *tb, const char *netns, const char *dev, const struct gs_site *s)
{
	char rate[32], delay[32];
	const char *n = netns != NULL ? "-n" : NULL;

	snprintf(rate, sizeof rate, "%.0fkbit", s->bandwidth_mbps * 1000 < 8 ? 8 :
	    s->bandwidth_mbps * 1000);
	snprintf(delay, sizeof delay, "%.3fms", s->latency_ms);
	if (n != NULL) {
		if (tb_run("tc", n, netns, "qdisc", "add", "dev", dev, "root", "handle", "1:",
		    "htb", "default", "1", NULL) == -1 ||
		    tb_run("tc", n, netns, "class", "add", "dev", dev, "parent", "1:", "classid",
		    "1:1", "htb", "rate", rate, "ceil", rate, NULL) == -1)
			return -1;
		if (tb->have_netem && s->latency_ms > 0 && tb_run("tc", n, netns, "qdisc",
		    "add", "dev", dev, "parent", "1:1", "handle", "10:", "netem", "delay", delay,
		    "limit", "100000", NULL) == -1)
			return -1;
		return 0;
	}
	if (tb_run("tc", "qdisc", "add", "dev", dev, "root", "handle", "1:", "htb", "default",
	    "1", NULL) == -1 ||
	    tb_run("tc", "class", "add", "dev", dev, "parent", "1:", "classid", "1:1", "htb",
	    "rate", rate, "ceil", rate, NULL) == -1)
		return -1;
	if (tb->have_netem && s->latency_ms > 0 && tb_run("tc", "qdisc", "add", "dev", dev,
	    "parent", "1:1", "handle", "10:", "netem", "delay", delay, "limit", "100000",
	    NULL) == -1)
		return -1;
	return 0;
}

/* In the child of a private_fs node's slurmd: the mount namespace of the node's sshd. */
static int
tb_join_mounts(const struct tb_node *tn)
{
	char path[64];
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/ns/mnt", tn->sshd_pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 || setns(fd, CLONE_NEWNS) == -1) {
		dprintf(2, "gridsubmit testbed: %s: cannot join the mounts of its sshd (%s): %s\n",
		    tn->node->host, path, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

static int
tb_keygen(const char *path, const char *comment)
{
	struct stat sb;

	if (stat(path, &sb) == 0)
		return 0;
	return tb_run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path,
	    NULL);
}

/* "type base64" of a .pub file, or NULL. */
static char *
tb_pubkey(const char *path)
{
	char line[1024], type[64], key[512], *out;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	if (fgets(line, sizeof line, f) == NULL || sscanf(line, "%63s %511s", type, key) != 2) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	xasprintf(&out, "%s %s", type, key);
	return out;
}

static int
tb_sshd_config(struct testbed *tb, struct tb_node *tn)
{
	char *text;
	int rc;

	xasprintf(&text,
	    "# generated by gridsubmit testbed up: sshd of node %s (key-only)\n"
	    "ListenAddress %s:%d\n"
	    "HostKey %s/ssh_host_ed25519_key\n"
	    "PidFile none\n"
	    "AuthorizedKeysFile %s/authorized_keys\n"
	    "PubkeyAuthentication yes\n"
	    "PasswordAuthentication no\n"
	    "KbdInteractiveAuthentication no\n"
	    "PermitRootLogin prohibit-password\n"
	    "UsePAM no\n"
	    "StrictModes no\n"
	    "X11Forwarding no\n"
	    "AllowAgentForwarding no\n"
	    "AllowTcpForwarding no\n"
	    "PermitUserEnvironment no\n"
	    "MaxSessions 64\n"
	    "MaxStartups 64:30:128\n"
	    "LogLevel INFO\n"
	    "Subsystem sftp internal-sftp\n"
	    "%s%s%s",
	    tn->node->host, tn->addr, TB_SSH_PORT, tn->dir, tb->dir,
	    tn->slurm_conf != NULL ? "SetEnv SLURM_CONF=" : "",
	    tn->slurm_conf != NULL ? tn->slurm_conf : "", tn->slurm_conf != NULL ? "\n" : "");
	rc = file_write_atomic(tn->dir, "sshd_config", text, strlen(text), 0600);
	free(text);
	return rc;
}

/* A YAML double-quoted scalar. */
void
tb_yq(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* A host's known_hosts line and ssh_config block; 0, or -1 (said). */
static int
tb_host_client(const struct testbed *tb, const struct tb_node *tn, const char *user,
    FILE *khf, FILE *cf)
{
	char *path, *key;

	xasprintf(&path, "%s/ssh_host_ed25519_key.pub", tn->dir);
	if ((key = tb_pubkey(path)) == NULL) {
		fprintf(stderr, "gridsubmit testbed: cannot read %s\n", path);
		free(path);
		return -1;
	}
	free(path);
	fprintf(khf, "%s,%s %s\n", tn->node->host, tn->addr, key);
	free(key);
	fprintf(cf, "Host %s\n\tHostName %s\n\tPort %d\n\tUser %s\n"
	    "\tIdentityFile %s/id_ed25519\n\tIdentitiesOnly yes\n"
	    "\tUserKnownHostsFile %s/known_hosts\n\tStrictHostKeyChecking yes\n",
	    tn->node->host, tn->addr, TB_SSH_PORT, user, tb->dir, tb->dir);
	return 0;
}

/* The ssh: map of a node, or of a Slurm site (its login host), in the derived site file. */
static void
tb_ssh_yaml(const struct testbed *tb, FILE *sf, const char *user, const char *indent)
{
	char *p;

	fprintf(sf, "ssh: {user: %s, port: %d, host_key: strict, identity: ", user,
	    TB_SSH_PORT);
	xasprintf(&p, "%s/id_ed25519", tb->dir);
	tb_yq(sf, p);
	free(p);
	/* HostName and known_hosts: the host's block of the testbed's ssh_config */
	fprintf(sf, ",\n%sconfig: ", indent);
	xasprintf(&p, "%s/ssh_config", tb->dir);
	tb_yq(sf, p);
	free(p);
	fprintf(sf, "}");
}

/* DIR/NAME of the testbed with the len bytes of text in it; 0, or -1 (said). */
static int
tb_client_file(const struct testbed *tb, const char *name, const char *text, size_t len)
{
	if (file_write_atomic(tb->dir, name, text, len, 0600) == -1)
		return tb_syserr("%s/%s", tb->dir, name);
	return 0;
}

/* The known_hosts, ssh_config and derived site file of the testbed; 0, or -1 (said). */
static int
tb_write_client_files(struct testbed *tb, const char *origin)
{
	char *user, *kh = NULL, *cfg = NULL, *text = NULL;
	size_t khlen = 0, cfglen = 0, textlen = 0, i, s;
	FILE *khf, *cf, *sf;
	const char *u = getenv("USER");
	int rc;

	if ((khf = open_memstream(&kh, &khlen)) == NULL)
		return tb_syserr("the testbed's known_hosts");
	if ((cf = open_memstream(&cfg, &cfglen)) == NULL) {
		fclose(khf);
		free(kh);
		return tb_syserr("the testbed's ssh_config");
	}
	user = xstrdup(geteuid() == 0 ? "root" : u != NULL && remote_user_valid(u) ? u : "root");
	fprintf(cf, "# generated by gridsubmit testbed up: the hosts of testbed %s\n",
	    tb->name);
	for (i = 0; i < tb->n; i++)
		if (tb_host_client(tb, &tb->nodes[i], user, khf, cf) == -1)
			return -1;
	for (i = 0; i < tb->nslurm; i++)
		if (tb_host_client(tb, &tb->slurm[i].tn, user, khf, cf) == -1)
			return -1;
	fclose(khf);
	fclose(cf);
	rc = tb_client_file(tb, "known_hosts", kh, khlen);
	if (rc == 0)
		rc = tb_client_file(tb, "ssh_config", cfg, cfglen);
	free(kh);
	free(cfg);
	if (rc == -1) {
		free(user);
		return -1;
	}

	/* the derived site file: the same sites, nodes reached through the testbed */
	if ((sf = open_memstream(&text, &textlen)) == NULL) {
		free(user);
		return tb_syserr("%s/sites.yaml", tb->dir);
	}
	fprintf(sf, "# generated by gridsubmit testbed up from %s: the same sites and nodes,\n"
	    "# reached over ssh in the testbed's namespaces, monitored by their exporters\n",
	    origin);
	if (tb->speeds && tb->cg_version != 0) {
		char scale[32];

		tb_speed_fmt(scale, sizeof scale, tb->cpu_per_mhz);
		fprintf(sf, "# CPU speeds emulated at %s CPU/MHz: each node's cpu_scale here is\n"
		    "# its quota / (cores x cpu_mhz / %.15g), the quota applied (up of this file\n"
		    "# applies the same quotas on this host)\n", scale,
		    tb->shrink / tb->cpu_per_mhz);
	} else if (tb->cg_version != 0)
		fprintf(sf, "# CPU quotas: cpu_scale x cores (--no-speeds)\n");
	else
		fprintf(sf, "# no CPU quotas (no usable cgroup cpu controller)\n");
	if (tb->sites.master != NULL)
		fprintf(sf, "master: %s\n", tb->sites.master);
	fprintf(sf, "sites:\n");
	for (s = 0; s < tb->sites.nsites; s++) {
		const struct gs_site *site = &tb->sites.sites[s];

		fprintf(sf, "  - name: ");
		tb_yq(sf, site->name);
		fprintf(sf, "\n    link: {bandwidth_mbps: %.15g, latency_ms: %.15g}\n",
		    site->bandwidth_mbps, site->latency_ms);
		/* the login host, reached with the site's ssh: through the testbed's ssh_config */
		if (site->sched != NULL) {
			fprintf(sf, "    ");
			tb_ssh_yaml(tb, sf, user, "          ");
			fprintf(sf, "\n    scheduler: ");
			tb_slurm_yaml(sf, site->sched);
			fprintf(sf, "\n");
		}
		fprintf(sf, "    nodes:\n");
		for (i = 0; i < tb->n; i++) {
			const struct gs_node *n = tb->nodes[i].node;

			if ((size_t)n->site != s)
				continue;
			fprintf(sf, "      - {host: %s, cpu_mhz: %.15g, cores: %d, slots: %d, "
			    "mem_mb: %.15g", n->host, n->cpu_mhz, n->cores, n->slots, n->mem_mb);
			if (n->arch != NULL) {
				fprintf(sf, ", arch: ");
				tb_yq(sf, n->arch);
			}
			fprintf(sf, ",\n         monitor: \"http://%s:%d/metrics\",\n         ",
			    tb->nodes[i].addr, TB_EXPORTER_PORT);
			tb_ssh_yaml(tb, sf, user, "              ");
			fprintf(sf, ",\n         emulate: {cpu_scale: %.15g, load: %.15g, "
			    "load_interval: %.15g%s}}\n", tb_speed_cpu_scale(tb, n), n->emulate.load,
			    n->emulate.load_interval, n->emulate.private_fs ?
			    ", private_fs: true" : "");
		}
	}
	rc = 0;
	if (fclose(sf) == EOF ||
	    file_write_atomic(tb->dir, "sites.yaml", text, textlen, 0644) == -1)
		rc = tb_syserr("%s/sites.yaml", tb->dir);
	free(text);
	free(user);
	return rc;
}

int
tb_host_net(struct testbed *tb, struct tb_node *tn)
{
	const struct gs_site *site = &tb->sites.sites[tn->node->site];
	char *p, cidr[32];

	if (tb_mkdir(tn->dir, 0700) == -1)
		return -1;
	xasprintf(&p, "%s/ssh_host_ed25519_key", tn->dir);
	if (tb_keygen(p, tn->node->host) == -1)
		return -1;
	free(p);
	if (tb_manifest_add(tb, "netns %s", tn->netns) == -1 ||
	    tb_run("ip", "netns", "add", tn->netns, NULL) == -1 ||
	    tb_manifest_add(tb, "veth %s", tn->veth) == -1)
		return -1;
	snprintf(cidr, sizeof cidr, "%s/16", tn->addr);
	if (tb_run("ip", "link", "add", tn->veth, "type", "veth", "peer", "name", tn->peer,
	    NULL) == -1 ||
	    tb_run("ip", "link", "set", tn->peer, "netns", tn->netns, NULL) == -1 ||
	    tb_run("ip", "link", "set", tn->veth, "master", tb->bridge, NULL) == -1 ||
	    tb_run("ip", "link", "set", tn->veth, "up", NULL) == -1 ||
	    tb_run("ip", "-n", tn->netns, "link", "set", tn->peer, "name", "eth0", NULL) == -1 ||
	    tb_run("ip", "-n", tn->netns, "addr", "add", cidr, "dev", "eth0", NULL) == -1 ||
	    tb_run("ip", "-n", tn->netns, "link", "set", "eth0", "up", NULL) == -1 ||
	    tb_run("ip", "-n", tn->netns, "link", "set", "lo", "up", NULL) == -1)
		return -1;
	/* master -> node on the bridge's port, node -> master in the namespace */
	if (tb_shape(tb, NULL, tn->veth, site) == -1 ||
	    tb_shape(tb, tn->netns, "eth0", site) == -1)
		return -1;
	return tb_latency_node(tb, tn);
}

int
tb_host_sshd(struct testbed *tb, struct tb_node *tn)
{
	char *argv[6];

	if (tb_sshd_config(tb, tn) == -1)
		return tb_syserr("%s/sshd_config", tn->dir);
	if ((argv[0] = tb_which("sshd")) == NULL)
		return -1;
	argv[1] = "-D";
	argv[2] = "-e";
	argv[3] = "-f";
	xasprintf(&argv[4], "%s/sshd_config", tn->dir);
	argv[5] = NULL;
	tn->sshd_pid = (long)tb_spawn(tb, tn, "sshd", argv, NULL);
	free(argv[0]);
	free(argv[4]);
	return tn->sshd_pid == -1 ? -1 : 0;
}

static int
tb_node_up(struct testbed *tb, struct tb_node *tn)
{
	char *p, *prom, *textdir, listen[64], *textarg;
	char *argv[12];
	pid_t pid;

	if (tb_host_net(tb, tn) == -1)
		return -1;
	xasprintf(&textdir, "%s/textfile", tn->dir);
	if (tb_mkdir(textdir, 0755) == -1)
		return -1;
	xasprintf(&prom, "%s/load.prom", textdir);
	xasprintf(&p, "# emulated load of %s (gridsubmit testbed)\nnode_load1 %.6g\n",
	    tn->node->host, tn->node->emulate.load);
	if (file_write_atomic(textdir, "load.prom", p, strlen(p), 0644) == -1) {
		tb_syserr("%s", prom);
		free(p);
		return -1;
	}
	free(p);
	if (tb_cgroup_node(tb, tn) == -1 || tb_host_sshd(tb, tn) == -1)
		return -1;

	snprintf(listen, sizeof listen, "--web.listen-address=%s:%d", tn->addr,
	    TB_EXPORTER_PORT);
	xasprintf(&textarg, "--collector.textfile.directory=%s", textdir);
	if ((argv[0] = tb_which("prometheus-node-exporter")) == NULL)
		return -1;
	argv[1] = listen;
	argv[2] = "--collector.disable-defaults";
	argv[3] = "--collector.textfile";
	argv[4] = textarg;
	argv[5] = "--collector.cpu";
	argv[6] = "--log.level=warn";
	argv[7] = NULL;
	pid = tb_spawn(tb, tn, "exporter", argv, NULL);
	free(argv[0]);
	free(textarg);

	if (pid != -1 && tn->node->emulate.load > 0)
		pid = tb_spawn(tb, tn, "load", NULL, prom);
	free(prom);
	free(textdir);
	return pid == -1 ? -1 : 0;
}

static int tb_build(struct testbed *);

/* Build the testbed (testbed.h); the Slurm sites' plan is not needed after it. */
int
tb_up(struct testbed *tb)
{
	int rc;

	tb->net_lock = -1;
	rc = tb_build(tb);
	tb_net_release(tb);
	tb_slurm_free(tb);
	return rc;
}

/* tb_up without the freeing of the Slurm sites' plan. */
static int
tb_build(struct testbed *tb)
{
	char *path, *key;
	size_t i, s, k;
	int fd, rc;

	/* refusals first: nothing is built for a testbed that cannot be what the file says */
	if (tb_check_tools() == -1 || tb_latency_check(tb) == -1)
		return -1;
	if (tb_speed_plan(tb) == -1)
		return TB_UP_REFUSED;
	xasprintf(&path, "%s/manifest", tb->dir);
	if (access(path, F_OK) == 0) {
		fprintf(stderr, "gridsubmit testbed: %s is up (or was left half up): run "
		    "'gridsubmit testbed down' first\n", tb->name);
		free(path);
		return -1;
	}
	/* the addresses of the plan below are in the net */
	rc = -1;
	if (tb_net_take(tb) == -1 || (rc = tb_slurm_plan(tb)) != 0) {
		free(path);
		return rc == TB_UP_REFUSED ? rc : -1;
	}
	/* a Slurm site's: other users' batch jobs pass through to its spool (testbed-slurm.c) */
	if (tb_mkdir(tb->dir, tb->nslurm > 0 ? 0711 : 0700) == -1)
		return -1;
	xasprintf(&key, "%s/nodes", tb->dir);
	if (tb_mkdir(key, 0700) == -1)
		return -1;
	free(key);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600)) == -1 ||
	    (tb->manifest = fdopen(fd, "a")) == NULL) {
		tb_syserr("%s", path);
		if (fd != -1)
			close(fd);
		free(path);
		return -1;
	}
	free(path);
	if (tb_manifest_add(tb, "testbed %s %s", tb->name, tb->tag) == -1 ||
	    tb_manifest_add(tb, "net %s", tb->net) == -1)
		return -1;

	/* /run/sshd: sshd's privilege separation directory, missing where sshd never ran */
	if (mkdir("/run/sshd", 0755) == -1 && errno != EEXIST)
		return tb_syserr("cannot create /run/sshd");
	xasprintf(&key, "%s/id_ed25519", tb->dir);
	if (tb_keygen(key, "gridsubmit-testbed") == -1)
		return -1;
	free(key);
	xasprintf(&key, "%s/id_ed25519.pub", tb->dir);
	path = tb_pubkey(key);
	free(key);
	if (path == NULL)
		return -1;
	xasprintf(&key, "%s/authorized_keys", tb->dir);
	{
		char *line;

		xasprintf(&line, "no-agent-forwarding,no-port-forwarding,no-X11-forwarding "
		    "%s gridsubmit-testbed\n", path);
		rc = file_write_atomic(tb->dir, "authorized_keys", line, strlen(line), 0600) ==
		    -1 ? tb_syserr("%s", key) : 0;
		free(line);
	}
	free(key);
	free(path);
	if (rc == -1)
		return -1;

	/*
	 * the tag is a hash of the state directory: a testbed up here under another name may
	 * have it, and its bridge must not become ours (our cleanup would take it down)
	 */
	if (if_nametoindex(tb->bridge) != 0) {
		fprintf(stderr, "gridsubmit testbed: %s: the link %s exists already: another "
		    "testbed of this host has the tag %s (testbed status; a site file of another "
		    "name gives another tag)\n", tb->name, tb->bridge, tb->tag);
		return -1;
	}
	xasprintf(&key, "%s.0.1/16", tb->net);
	rc = tb_manifest_add(tb, "bridge %s", tb->bridge) == -1 ||
	    tb_run("ip", "link", "add", tb->bridge, "type", "bridge", NULL) == -1 ||
	    tb_run("ip", "addr", "add", key, "dev", tb->bridge, NULL) == -1 ||
	    tb_run("ip", "link", "set", tb->bridge, "up", NULL) == -1 ? -1 : 0;
	free(key);
	/* the net is this testbed's now: its address is on the bridge */
	tb_net_release(tb);
	if (rc == -1 || tb_limits_raise(tb) == -1)
		return -1;
	if (tb_cgroup_setup(tb) == -1 || tb_speed_report(tb) == -1)
		return -1;

	if (tb_slurm_dirs(tb) == -1)
		return -1;
	tb->nodes = xcalloc(tb->sites.nnodes ? tb->sites.nnodes : 1, sizeof *tb->nodes);
	for (s = 0; s < tb->sites.nsites; s++) {
		k = 0;
		for (i = 0; i < tb->sites.nnodes; i++) {
			const struct gs_node *n = &tb->sites.nodes[i];
			struct tb_node *tn = &tb->nodes[tb->n];

			if ((size_t)n->site != s)
				continue;
			if (s >= 254 || k >= 254) {
				fprintf(stderr, "gridsubmit testbed: at most 254 sites of 254 "
				    "nodes\n");
				return -1;
			}
			if (strlen(n->host) > 64) {
				fprintf(stderr, "gridsubmit testbed: %s: host name too long for "
				    "a hostname (64)\n", n->host);
				return -1;
			}
			tn->node = n;
			snprintf(tn->addr, sizeof tn->addr, "%s.%zu.%zu", tb->net, s + 1, k + 1);
			snprintf(tn->netns, sizeof tn->netns, "gs-%s-%s", tb->tag, n->host);
			snprintf(tn->veth, sizeof tn->veth, "gs%sv%zu", tb->tag, tb->n);
			snprintf(tn->peer, sizeof tn->peer, "gs%sp%zu", tb->tag, tb->n);
			xasprintf(&tn->dir, "%s/nodes/%s", tb->dir, n->host);
			if (tb_slurm_of(tb, n->site) != NULL) {
				tn->slurm_conf = tb_slurm_of(tb, n->site)->conf;
				tn->slurm_dir = tb_slurm_of(tb, n->site)->dir;
			}
			if (tb_manifest_add(tb, "node %s %s %s %zu", n->host, tn->addr,
			    tn->netns, s) == -1 || tb_node_up(tb, tn) == -1)
				return -1;
			tb->n++;
			k++;
		}
	}
	for (i = 0; i < tb->n; i++) {
		if (tb_wait_port(tb->nodes[i].addr, TB_SSH_PORT, 10) == -1) {
			fprintf(stderr, "gridsubmit testbed: %s: sshd does not answer on %s:%d "
			    "(see %s/sshd.log)\n", tb->nodes[i].node->host, tb->nodes[i].addr,
			    TB_SSH_PORT, tb->nodes[i].dir);
			return -1;
		}
		if (tb_wait_port(tb->nodes[i].addr, TB_EXPORTER_PORT, 10) == -1) {
			fprintf(stderr, "gridsubmit testbed: %s: node_exporter does not answer on "
			    "%s:%d (see %s/exporter.log)\n", tb->nodes[i].node->host,
			    tb->nodes[i].addr, TB_EXPORTER_PORT, tb->nodes[i].dir);
			return -1;
		}
	}
	if (tb_slurm_up(tb) == -1 || tb_write_client_files(tb, tb->sites.path) == -1)
		return -1;
	return tb_manifest_add(tb, "up");
}
