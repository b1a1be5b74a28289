/*
 * testbed-fs.c — a testbed node that does not share this host's files (emulate.private_fs,
 * doc/testbed.md). Called in the node's sshd just before exec, so that every session and
 * everything started over ssh (hydra's proxy, the ranks) inherits it: the process gets a
 * mount namespace of its own, with private propagation, in which this host's system
 * directories stay as they are (the software "installed on every site": /usr, /etc, /opt,
 * /var, ...) while every other top-level directory (/home, /root, /tmp, /srv, /mnt, /work,
 * ...), /var/tmp, the job store and the directory of the gridsubmit binary are covered by
 * empty tmpfs. Only what the node's sshd reads comes back, bind-mounted at its own path:
 * the node's state directory and the testbed's authorized_keys, and on a node of a Slurm
 * site its Slurm's directory (slurm.conf, the munge socket, slurmd's spool), which the
 * node's slurmd, in the same mount namespace (testbed-up.c), and its sessions read.
 *
 * Nothing is mounted in this host's namespace: the mounts die with the namespace, that is
 * with the node's last process, so `down` has nothing to unmount.
 */
#include <sys/mount.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "common/home.h"
#include "common/xmalloc.h"
#include "testbed/testbed.h"

/* Top-level directories that hold what every site has installed: left visible. */
static const char *const tb_fs_system[] = {
	"bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "opt", "proc", "run",
	"sbin", "sys", "usr", "var", NULL
};

static int
tb_fs_is_system(const char *name)
{
	size_t i;

	for (i = 0; tb_fs_system[i] != NULL; i++)
		if (strcmp(tb_fs_system[i], name) == 0)
			return 1;
	return 0;
}

/* Cover the directory path (if it is one here) with an empty tmpfs of the same mode. */
static int
tb_fs_hide(const char *host, const char *path)
{
	struct stat sb;
	char opts[32];

	if (lstat(path, &sb) == -1 || !S_ISDIR(sb.st_mode))
		return 0;
	snprintf(opts, sizeof opts, "mode=%04o", (unsigned)(sb.st_mode & 07777));
	if (mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, opts) == -1) {
		dprintf(2, "gridsubmit testbed: %s: private_fs: cannot cover %s: %s\n", host,
		    path, strerror(errno));
		return -1;
	}
	return 0;
}

/* mkdir -p of the parents of path (on the tmpfs that now covers them). */
static int
tb_fs_parents(const char *path)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
		return -1;
	for (p = buf + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(buf, 0755) == -1 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

/*
 * Bring path back into view: fd was opened on it (O_PATH) before anything was covered;
 * the mount point (directory or empty file) is made on the tmpfs, then bound to it.
 */
static int
tb_fs_restore(const char *host, const char *path, int fd, int isdir)
{
	struct stat sb;
	char src[64];
	int nfd;

	if (stat(path, &sb) == 0)
		return 0;	/* never covered */
	if (tb_fs_parents(path) == -1)
		goto bad;
	if (isdir) {
		if (mkdir(path, 0700) == -1 && errno != EEXIST)
			goto bad;
	} else {
		if ((nfd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)) == -1)
			goto bad;
		close(nfd);
	}
	snprintf(src, sizeof src, "/proc/self/fd/%d", fd);
	if (mount(src, path, NULL, MS_BIND, NULL) == -1)
		goto bad;
	return 0;
bad:
	dprintf(2, "gridsubmit testbed: %s: private_fs: cannot bring back %s: %s\n", host, path,
	    strerror(errno));
	return -1;
}

int
tb_private_fs(const struct testbed *tb, const struct tb_node *tn)
{
	const char *host = tn->node->host, *store;
	char *keys, *path, self[PATH_MAX], *slash, why[1024];
	int kfd, dfd, sfd = -1, rc = 0;
	struct dirent *de;
	ssize_t n;
	DIR *root;

	if (unshare(CLONE_NEWNS) == -1 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1) {
		dprintf(2, "gridsubmit testbed: %s: private_fs: no mount namespace: %s\n", host,
		    strerror(errno));
		return -1;
	}
	/* opened in the new namespace: a bind mount's source must be one of its mounts */
	xasprintf(&keys, "%s/authorized_keys", tb->dir);
	if ((kfd = open(keys, O_PATH | O_CLOEXEC)) == -1 ||
	    (dfd = open(tn->dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1) {
		dprintf(2, "gridsubmit testbed: %s: private_fs: %s: %s\n", host,
		    kfd == -1 ? keys : tn->dir, strerror(errno));
		return -1;
	}
	if (tn->slurm_dir != NULL &&
	    (sfd = open(tn->slurm_dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1) {
		dprintf(2, "gridsubmit testbed: %s: private_fs: %s: %s\n", host, tn->slurm_dir,
		    strerror(errno));
		return -1;
	}
	if ((root = opendir("/")) == NULL)
		return -1;
	while (rc == 0 && (de = readdir(root)) != NULL) {
		if (de->d_name[0] == '.' || tb_fs_is_system(de->d_name))
			continue;
		xasprintf(&path, "/%s", de->d_name);
		rc = tb_fs_hide(host, path);
		free(path);
	}
	closedir(root);
	if (rc == 0)
		rc = tb_fs_hide(host, "/var/tmp");
	/* the job store and the build tree, wherever they are (unless installed in /usr) */
	if (rc == 0 && (store = home_root(why, sizeof why)) == NULL) {
		dprintf(2, "gridsubmit testbed: %s: private_fs: %s\n", host, why);
		rc = -1;
	}
	if (rc == 0) {
		xasprintf(&path, "%s/jobs", store);
		rc = tb_fs_hide(host, path);
		free(path);
	}
	if (rc == 0 && (n = readlink("/proc/self/exe", self, sizeof self - 1)) > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/')) != NULL)
			*slash = '\0';
		if (strncmp(self, "/usr/", 5) != 0)
			rc = tb_fs_hide(host, self);
	}
	if (rc == 0)
		rc = tb_fs_restore(host, tn->dir, dfd, 1);
	if (rc == 0)
		rc = tb_fs_restore(host, keys, kfd, 0);
	if (rc == 0 && sfd != -1)
		rc = tb_fs_restore(host, tn->slurm_dir, sfd, 1);
	if (sfd != -1)
		close(sfd);
	close(kfd);
	close(dfd);
	free(keys);
	return rc;
}
