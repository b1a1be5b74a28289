/*
 * sysctl.h — a kernel parameter of /proc/sys read and written as a whole number: what
 * `simulate` checks (vm.max_map_count) and what `testbed up` raises and `down` restores
 * (the neighbour tables and the other limits of doc/testbed.md, "Kernel limits").
 */
#ifndef GS_SYSCTL_H
#define GS_SYSCTL_H

/*
 * name as sysctl(8) spells it ("net.ipv4.neigh.default.gc_thresh3"): its value into *v.
 * 0, or -1 with errno (ENOENT: this kernel has no such parameter; EINVAL: not a number).
 */
int sysctl_read(const char *name, long *v);

/* Set name to v (root only). 0, or -1 with errno. */
int sysctl_write(const char *name, long v);

#endif
