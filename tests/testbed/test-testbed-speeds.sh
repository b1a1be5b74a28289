#!/bin/sh
# test-testbed-speeds.sh — `testbed up` emulates the site file's relative CPU speeds (root;
# doc/testbed.md, "Relative speeds"): the quotas of 3000 MHz and 1000 MHz nodes are 3:1
# and leave this host 0.5 CPU, up says the scale, status and the derived site file give the
# quotas (and up of the derived file applies the same ones); --no-speeds and
# GRIDSUBMIT_TESTBED_SPEEDS=off give whole cores as before; a file whose slowest node would
# get less than 0.01 CPU is refused with exit 3, naming it and simulate, and builds nothing.
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "testbed speeds" sshd ssh-keygen tc prometheus-node-exporter || exit 0

# the CPUs up plans for: its affinity, as nproc counts it (without OpenMP's variables)
NCPU=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)

# 0 ms links: no delay line to start, up takes about a second. Two fast nodes: on a host
# of up to 4 CPUs their capacity is more than it can give, so the scale is the budget's,
# not the fast nodes' whole core, and the derived file's cpu_scale is shrunk
cat > "$T/speeds.yaml" <<'EOF'
sites:
  - name: fast
    link: {bandwidth_mbps: 100, latency_ms: 0}
    nodes:
      - {host: "spf[1-2]", cpu_mhz: 3000, cores: 1, mem_mb: 256}
  - name: slow
    link: {bandwidth_mbps: 100, latency_ms: 0}
    nodes:
      - {host: sps1, cpu_mhz: 1000, cores: 1, mem_mb: 256}
EOF

# quota HOST: the node's cgroup quota in CPUs (v2 cpu.max, or v1 cfs quota / period), or
# nothing when it has no cgroup
quota() {
	q_d=/sys/fs/cgroup/gridsubmit-$TAG/$1
	if [ -r "$q_d/cpu.max" ]; then
		awk '{ printf "%.5f\n", $1 / $2 }' "$q_d/cpu.max"
		return
	fi
	q_d=/sys/fs/cgroup/cpu/gridsubmit-$TAG/$1
	if [ -r "$q_d/cpu.cfs_quota_us" ]; then
		printf '%s %s\n' "$(cat "$q_d/cpu.cfs_quota_us")" "$(cat "$q_d/cpu.cfs_period_us")" |
			awk '{ printf "%.5f\n", $1 / $2 }'
	fi
}

# near A B REL: |A - B| <= REL * B
near() {
	awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= r * b) }'
}

# lacks TEXT REGEX: no line of TEXT matches
lacks() {
	! printf '%s\n' "$1" | grep -Eq -- "$2"
}

# --- the default: relative speeds
testbed_up "$T/speeds.yaml" "testbed up of a 3000 MHz and a 1000 MHz node" || exit 0
check_match "up says the scale it chose, the quotas and what is kept" "$err" \
	"CPU speeds emulated at scale [0-9.]+ CPU/MHz: spf1 [0-9.]+ CPU, spf2 [0-9.]+ CPU, sps1 [0-9.]+ CPU \(sum [0-9.]+ of $NCPU CPUs, [0-9.]+ kept for the master and the delay line\)"
check_eq "in one line" "$(printf '%s\n' "$err" | grep -c 'CPU speeds emulated')" 1
qf=$(quota spf1)
qf2=$(quota spf2)
qs=$(quota sps1)
if [ -z "$qf" ] || [ -z "$qs" ]; then
	skip "quotas of relative speeds" "no cgroup cpu controller here"
	check_match "without a cpu controller up says speeds are not emulated, naming simulate" \
		"$err" "CPU speeds are not emulated.*simulate"
else
	check "the quotas are 3:1 within 1% ($qf, $qs CPU)" near "$qf" "$(awk -v s="$qs" \
		'BEGIN { print 3 * s }')" 0.01
	check_eq "the fast nodes' quotas are the same" "$qf2" "$qf"
	check "their sum leaves this host's $NCPU CPUs 0.5 (2 x $qf + $qs)" awk -v a="$qf" \
		-v b="$qs" -v n="$NCPU" 'BEGIN { exit !(2 * a + b <= n - 0.5 + 1e-6) }'
	check "the fastest node gets at most its one core ($qf)" awk -v a="$qf" \
		'BEGIN { exit !(a <= 1) }'
	check_match "up prints each node's quota" "$out" \
		"sps1 .*, cpu quota $(awk -v q="$qs" 'BEGIN { printf "%.3g", q }')$"
	run_gs testbed status "$T/speeds.yaml"
	check_match "status gives the scale" "$out" "^testbed speeds: .*CPU speeds emulated at [0-9.]+ CPU/MHz$"
	check_match "and each node's quota" "$out" \
		"^sps1 .* up +up +[0-9.]+ +$(awk -v q="$qs" 'BEGIN { printf "%.3g", q }') +-$"
	run_gs testbed status "$T/speeds.yaml" --json
	check "status --json gives cpu_quota" near \
		"$(printf '%s\n' "$out" | jq '.nodes[] | select(.host == "sps1") | .cpu_quota')" \
		"$qs" 0.000001
	# the derived file's cpu_scale describes the quota: quota = cpu_scale × cores ×
	# cpu_mhz / the file's top cpu_mhz
	ds=$(awk '/host: sps1,/ { f = 1 } f && /cpu_scale:/ {
		sub(/.*cpu_scale: /, ""); sub(/,.*/, ""); print; exit }' "$TB/sites.yaml")
	check "the derived file's cpu_scale of sps1 ($ds) describes its quota ($qs)" \
		near "$(awk -v s="$ds" 'BEGIN { print s * 1000 / 3000 }')" "$qs" 0.001
	# the quota bites: a busy loop on the slow node is throttled
	ssh -F "$TB/ssh_config" -o BatchMode=yes -o ConnectTimeout=5 sps1 \
		"timeout 1 sh -c 'while :; do :; done'" >/dev/null 2>&1
	for st in "/sys/fs/cgroup/gridsubmit-$TAG/sps1/cpu.stat" \
	    "/sys/fs/cgroup/cpu/gridsubmit-$TAG/sps1/cpu.stat"; do
		[ -r "$st" ] || continue
		thr=$(awk '$1 == "nr_throttled" { print $2 }' "$st")
		check "a busy loop on the slow node is throttled (nr_throttled ${thr:-none})" \
			test "${thr:-0}" -gt 0
	done
	cp "$TB/sites.yaml" "$T/derived.yaml"
fi
run_gs testbed down "$T/speeds.yaml"
check_eq "down exits 0" "$rc" 0

# --- up of the derived file applies the same quotas (it fits this host already)
if [ -f "$T/derived.yaml" ]; then
	if testbed_up "$T/derived.yaml" "testbed up of the derived site file"; then
		check_eq "with the same quotas" "$(quota spf1) $(quota spf2) $(quota sps1)" \
			"$qf $qf2 $qs"
		"$GS" testbed down "$T/derived.yaml" >/dev/null 2>&1
	fi
fi

# --- the opt-outs: whole cores, as before relative speeds
for how in option env; do
	if [ "$how" = option ]; then
		at_exit "$GS testbed down $T/speeds.yaml"
		run_gs testbed up "$T/speeds.yaml" --no-speeds
	else
		export GRIDSUBMIT_TESTBED_SPEEDS=off
		run_gs testbed up "$T/speeds.yaml"
		unset GRIDSUBMIT_TESTBED_SPEEDS
	fi
	check_eq "up with speeds off ($how) exits 0" "$rc" 0
	[ "$rc" -eq 0 ] || printf '%s\n' "$err" | sed -e 's/^/#   /'
	TAG=$(printf '%s\n' "$out" | sed -n 's/.*on bridge gs\([0-9a-f]*\)br.*/\1/p')
	check "and says no scale ($how)" lacks "$err" "CPU speeds"
	if [ -n "$qf" ]; then
		check_eq "every node gets its whole core ($how)" "$(quota spf1) $(quota sps1)" \
			"1.00000 1.00000"
	fi
	run_gs testbed down "$T/speeds.yaml"
	check_eq "down exits 0 ($how)" "$rc" 0
done
export GRIDSUBMIT_TESTBED_SPEEDS=fast
run_gs testbed up "$T/speeds.yaml"
unset GRIDSUBMIT_TESTBED_SPEEDS
check_match "a bad GRIDSUBMIT_TESTBED_SPEEDS is a usage error" "$rc:$err" \
	"^2:.*GRIDSUBMIT_TESTBED_SPEEDS=fast: on or off"

# --- a node below 0.01 CPU: refused, nothing built
# (the slow node first: its message names the fast one's quota, computed after it)
cat > "$T/uneven.yaml" <<'EOF'
sites:
  - name: crawl
    link: {bandwidth_mbps: 100, latency_ms: 0}
    nodes:
      - {host: unc1, cpu_mhz: 10, cores: 1}
  - name: fast
    link: {bandwidth_mbps: 100, latency_ms: 0}
    nodes:
      - {host: unf1, cpu_mhz: 3000, cores: 1}
EOF
at_exit "$GS testbed down $T/uneven.yaml"
run_gs testbed up "$T/uneven.yaml"
check_eq "up of a node below 0.01 CPU exits 3" "$rc" 3
check_match "naming the node, where it is and its quota" "$err" \
	"uneven\.yaml:5:[0-9]+: node 'unc1' would get 0\.00[0-9]+ CPU, below cgroup's smallest quota"
check_match "and the ratio to the fastest node, with its quota" "$err" \
	"is 1/300 of unf1's, which gets (0\.[1-9][0-9]*|1) CPU"
check_match "and simulate" "$err" "gridsubmit simulate"
check "and not the fast node" lacks "$err" "node .unf1"
check "nothing built: no state directory" test ! -e "$GRIDSUBMIT_HOME/testbed/uneven"
check "no namespace" lacks "$(ip netns list)" "-(unf1|unc1)( |$)"
check "no bridge" lacks "$(ip -o link show)" " gs$(tb_tag "$T/uneven.yaml")br[:@]"
run_gs testbed status "$T/uneven.yaml"
check_match "status: not up" "$rc:$out" '^1:.*not up'
run_gs testbed down "$T/uneven.yaml"
check_match "down: nothing to remove" "$rc:$out" '^0:.*not up'
