#!/bin/sh
# test-testbed-slurm.sh — a site behind Slurm on `gridsubmit testbed` (root; doc/testbed.md,
# "A Slurm site"): up of sites/hpc.yaml builds its login host (sshd, munged, slurmctld) and
# a slurmd on each node; sinfo there sees both nodes idle, srun runs on both under their
# own hostnames, a step runs in its node's namespace and cgroup, another user's batch job
# holds a node until scancel; status shows the daemons (and a dead one); down leaves no
# process, namespace or file, also after a kill -9 halfway through up; the system's Slurm
# and munge files are never touched; a Slurm site with `nodes: auto` is refused; a
# private_fs node's steps see its own files, as its ssh sessions do.
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "testbed slurm" sshd ssh-keygen tc prometheus-node-exporter munged slurmctld \
	slurmd sinfo srun sbatch squeue scancel || exit 0

SITES=$T/hpc.yaml
cp sites/hpc.yaml "$SITES"
# another user's batch script runs from its node's spool, under the testbed's directory:
# every directory above it must let that user through (the testbed's own are 0711)
chmod 0711 "$T"
mkdir -m 0711 "$GRIDSUBMIT_HOME" "$GRIDSUBMIT_HOME/testbed"

# the system's Slurm and munge, as they are before: compared after down
sysfiles() {
	ls -laR --time-style=full-iso /etc/slurm /etc/munge /run/munge /var/spool/slurmd \
		/var/spool/slurmctld /var/lib/munge 2>&1
}
sysfiles > "$T/sys.before"

t0=$(date +%s.%N)
testbed_up "$SITES" "up of sites/hpc.yaml exits 0" || exit 0
t1=$(date +%s.%N)
echo "# up took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"
check_match "up says the Slurm cluster is up" "$err" \
	"site hpc: Slurm cluster gs${TAG}s2 up in .*slurmctld on hpc-login \($NETRE\.2\.3\)"
# on HOST CMD: CMD on a host of the testbed $TB, over ssh, as gridsubmit reaches it
on() {
	# shellcheck disable=SC2029 # CMD is expanded there, as written
	ssh -F "$TB/ssh_config" -o BatchMode=yes -o ConnectTimeout=5 "$1" "$2" 2>"$T/ssh.err"
}
# login CMD: CMD on the login host
login() {
	on hpc-login "$1"
}

# --- the login host: its own hostname, address, SLURM_CONF; not a node of the derived file
check_eq "ssh to hpc-login lands in its own hostname" "$(login hostname)" "hpc-login"
check_match "hpc-login has the address after the site's nodes" \
	"$(login 'ip -4 -o addr show dev eth0')" " $NETRE\\.2\\.3/16 "
# shellcheck disable=SC2016 # expanded on hpc-login
check_eq "sessions on hpc-login have SLURM_CONF" "$(login 'echo $SLURM_CONF')" \
	"$TB/slurm/hpc-login/slurm.conf"
check "the derived site file keeps the scheduler as written" grep -q \
	'scheduler: {type: slurm, login: "hpc-login", partition: "batch", time: "00:10:00"}' \
	"$TB/sites.yaml"
check "the derived site file has no node hpc-login" sh -c "! grep -q 'host: hpc-login' '$TB/sites.yaml'"
run_gs sites check "$TB/sites.yaml"
check_match "the derived site file loads, with its 4 nodes" "$rc:$out" '^0:.* 2 sites, 4 nodes'

# --- Slurm sees both nodes idle and runs steps on them
check_eq "sinfo on hpc-login shows hpc1 and hpc2 idle" \
	"$(login "sinfo -h -N -o '%N %t'" | sort)" "hpc1 idle
hpc2 idle"
check_eq "srun -N2 runs on hpc1 and hpc2 (their hostnames)" \
	"$(login 'srun -N2 -l hostname' | sort)" "0: hpc1
1: hpc2"
step=$(login "srun -N1 -w hpc2 sh -c 'ip -4 -o addr show dev eth0; cat /proc/self/cgroup'")
check_match "a step on hpc2 runs in hpc2's network namespace" "$step" " $NETRE\\.2\\.2/16 "
if grep -q '^cgroup .*/hpc2$' "$TB/manifest"; then
	check_match "a step on hpc2 runs in hpc2's cgroup (its CPU quota)" "$step" \
		"gridsubmit-$TAG/hpc2\$"
else
	skip "a step runs in its node's cgroup" "no usable cgroup cpu controller here"
fi

# --- another user's job holds a node until scancel
id=$(login "sbatch --parsable --uid=nobody -N1 -w hpc1 -J other -o /dev/null --chdir=/ \
	--wrap 'sleep 300'")
check_match "sbatch --uid=nobody as root submits a job" "$id" '^[0-9]+$'
running() {
	[ "$(login "squeue -h -j $id -o '%u %T %N'")" = "nobody RUNNING hpc1" ]
}
check "nobody's job runs on hpc1" poll 15 running
check_eq "sinfo shows hpc1 allocated, hpc2 idle" \
	"$(login "sinfo -h -N -o '%N %t'" | sort)" "hpc1 alloc
hpc2 idle"
# its_sleep: the live pids of nobody's sleep in hpc1's namespace
its_sleep() {
	for p in $(ip netns pids "gs-$TAG-hpc1"); do
		alive "$p" && [ "$(ps -o user= -p "$p")" = nobody ] &&
			[ "$(cat "/proc/$p/comm" 2>/dev/null)" = sleep ] && echo "$p"
	done
}
has_sleep() {
	[ -n "$(its_sleep)" ]
}
check "nobody's sleep runs in hpc1's namespace" poll 10 has_sleep
STEPD=$(for p in $(ip netns pids "gs-$TAG-hpc1"); do
	[ "$(cat "/proc/$p/comm" 2>/dev/null)" = slurmstepd ] && echo "$p"
done)
check_match "its slurmstepd runs in hpc1's namespace" "$STEPD" '^[0-9]'

# --- status: the login host and the daemons
run_gs testbed status "$SITES"
check_eq "status exits 0 with every daemon running" "$rc" 0
check_match "status shows the Slurm daemons running" "$out" \
	"slurm site hpc: login host hpc-login $NETRE\\.2\\.3, sshd up, munged running, slurmctld running; slurmd: hpc1 running, hpc2 running"
run_gs testbed status "$SITES" --json
check_eq "status --json has the daemons" \
	"$(printf '%s\n' "$out" | jq -c '.slurm[0] | [.login, .sshd, .munged, .slurmctld, .slurmd]')" \
	'["hpc-login",true,true,true,{"hpc1":true,"hpc2":true}]'

login "scancel $id"
empty() {
	[ -z "$(login 'squeue -h')" ]
}
check "scancel empties squeue" poll 15 empty
gone_sleep() {
	[ -z "$(its_sleep)" ]
}
check "nobody's sleep is gone after scancel" poll 10 gone_sleep

# a dead slurmd is one status names
kill "$(awk '$1 == "pid" && $4 == "slurmd" && $5 == "hpc2" {print $2}' "$TB/manifest")"
dead() {
	"$GS" testbed status "$SITES" 2>&1 | grep -q 'hpc2 not running'
}
check "status names a slurmd that died" poll 10 dead
run_gs testbed status "$SITES"
check_eq "status exits 1 when a daemon is not running" "$rc" 1

# --- down: nothing of the testbed is left
# nothing_left: no namespace, process, state directory of the testbed
nothing_left() {
	left=""
	ip netns list | grep -q "gs-$TAG-" && left="$left namespaces"
	[ -n "$(live "$TB/")" ] && left="$left processes:$(live "$TB/" | tr '\n' ' ')"
	for p in $1; do
		alive "$p" && left="$left pid $p"
	done
	[ -e "$TB" ] && left="$left $TB"
	printf '%s' "$left"
}
PIDS="$STEPD $(awk '$1 == "pid" {print $2}' "$TB/manifest" | tr '\n' ' ')"
run_gs testbed down "$SITES"
check_eq "down exits 0" "$rc" 0
[ "$rc" -eq 0 ] || printf '%s\n' "$out" "$err" | sed -e 's/^/#   /'
check_eq "down leaves no munged, slurm daemon, slurmstepd, namespace or file" \
	"$(nothing_left "$PIDS")" ""

# --- kill -9 while up starts the Slurm daemons, then down
crash_up "$SITES" slurmctld
check "a crashed up had started slurmctld" grep -q '^pid .* slurmctld ' "$TB/manifest"
PIDS=$(awk '$1 == "pid" {print $2}' "$TB/manifest" 2>/dev/null | tr '\n' ' ')
run_gs testbed down "$SITES"
check_eq "down after a crashed up exits 0" "$rc" 0
check_eq "down after a crashed up leaves nothing" "$(nothing_left "$PIDS")" ""

sysfiles > "$T/sys.after"
check "the system's /etc/slurm, /etc/munge, /run/munge, spools are untouched" \
	cmp -s "$T/sys.before" "$T/sys.after"

# --- refused before anything is built: a Slurm site whose nodes Slurm would name
cat > "$T/auto.yaml" <<'EOF'
defaults: {cpu_mhz: 2000}
sites:
  - name: hpc
    link: {bandwidth_mbps: 1000, latency_ms: 0}
    scheduler: {type: slurm, login: hpc-login}
    nodes: auto
EOF
run_gs testbed up "$T/auto.yaml"
check_match "up of a 'nodes: auto' site exits 3, saying why" "$rc:$err" \
	"^3:.*auto\.yaml:5:.*site hpc has 'nodes: auto'"
check "a refused up builds nothing" test ! -e "$GRIDSUBMIT_HOME/testbed/auto"

# --- private_fs nodes: a step sees the node's own files, as its ssh sessions do
cat > "$T/pfs.yaml" <<'EOF'
defaults: {ssh: {port: 22}, cpu_mhz: 2000, cores: 1, mem_mb: 256}
sites:
  - name: pfs
    link: {bandwidth_mbps: 1000, latency_ms: 0}
    scheduler: {type: slurm, login: pfs-login}
    nodes: [{host: "pfs[1-2]", emulate: {private_fs: true}}]
EOF
testbed_up "$T/pfs.yaml" "up of a Slurm site of private_fs nodes exits 0" || exit 0
on pfs1 'echo mine > ~/pfs-file'
got=$(on pfs-login "srun -N2 -l cat /root/pfs-file 2>&1" | sort)
check_match "a step on pfs1 reads what an ssh session on pfs1 wrote" "$got" '^0: mine$'
check_match "a step on pfs2 does not: its files are its own" "$got" '^1: .*No such file'
