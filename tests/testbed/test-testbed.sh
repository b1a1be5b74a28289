#!/bin/sh
# test-testbed.sh — `gridsubmit testbed up|status|down` for real (root): namespaces on a
# bridge, sshd with its own hostname and strict host keys, tc shaping, cgroup CPU quotas,
# a load generator and node_exporters; `down` leaves nothing behind, also after a kill -9
# halfway through `up`; hostile host names never run anything.
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "testbed" sshd ssh-keygen tc prometheus-node-exporter || exit 0

SITES=$T/tb1.yaml
cat > "$SITES" <<'EOF'
# two sites: a fast one and a slow wireless one with a loaded, CPU-capped node
sites:
  - name: lan
    link: {bandwidth_mbps: 100, latency_ms: 0.2}
    nodes:
      - {host: tbn1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
  - name: wlan
    link: {bandwidth_mbps: 2, latency_ms: 3}
    nodes:
      - {host: tbw1, cpu_mhz: 1000, cores: 1, mem_mb: 256,
         emulate: {cpu_scale: 0.5, load: 2, load_interval: 1}}
EOF
at_exit "$GS testbed down $SITES"

# --- up
run_gs testbed up "$SITES"
check_eq "testbed up exits 0" "$rc" 0
[ "$rc" -eq 0 ] || printf '%s\n' "$err" | sed -e 's/^/#   /'
TB=$GRIDSUBMIT_HOME/testbed/tb1
testbed_names
check_match "up names its bridge" "$TAG" '^[0-9a-f]{4}$'
check_eq "its tag is made from its state directory" "$TAG" "$(tb_tag "$SITES")"
check_match "up names its network, a /16 of 10.213-10.244" "$NET" '^10\.(21[3-9]|2[23][0-9]|24[0-4])$'
check_match "up lists the nodes with their addresses" "$out" "tbw1 +$NETRE\\.2\\.1"

# --- status: every node's sshd and exporter answer
run_gs testbed status "$SITES"
check_eq "status exits 0 when all nodes are up" "$rc" 0
check_match "status shows both nodes up" "$(printf '%s\n' "$out" | grep -c ' up  *up ')" '^2$'
check_match "status says how the 3 ms link's latency is emulated" "$out" \
	'tbw1 .* 3 ms, (netem|delay line)$'

# --- namespaces, their hostnames (UTS), strict host keys through the written ssh_config
check_match "a namespace per node" "$(ip netns list)" "gs-$TAG-tbn1"
SSHC="-F $TB/ssh_config -o BatchMode=yes -o ConnectTimeout=5"
# shellcheck disable=SC2086
h=$(ssh $SSHC tbw1 hostname 2>"$T/ssh.err")
check_eq "ssh to a node (StrictHostKeyChecking=yes, known_hosts written) lands in its own hostname" "$h" "tbw1"
check "ssh_config is strict and key-only" grep -q 'StrictHostKeyChecking yes' "$TB/ssh_config"
# a wrong host key is refused (nothing runs)
sed -e 's/AAAA/AAAB/' "$TB/known_hosts" > "$T/bad_known_hosts"
# shellcheck disable=SC2086
ssh $SSHC -o UserKnownHostsFile="$T/bad_known_hosts" -o ControlPath=none tbw1 \
	"touch $T/changed-key-ran" >/dev/null 2>&1
check "a changed host key is refused and runs nothing" test ! -e "$T/changed-key-ran"
# the node's address on its own interface
# shellcheck disable=SC2086
a=$(ip -n "gs-$TAG-tbw1" -o -4 addr show dev eth0 | awk '{print $4}')
check_eq "node address in its namespace" "$a" "$NET.2.1/16"

# --- shaping: htb at the site's rate, both directions
q=$(tc class show dev "gs${TAG}v1")
check_match "master->node link shaped to 2 Mbit/s" "$q" 'rate 2Mbit'
q=$(ip netns exec "gs-$TAG-tbw1" tc class show dev eth0)
check_match "node->master link shaped to 2 Mbit/s" "$q" 'rate 2Mbit'
# measured: 250 kB over the 2 Mbit/s link takes about 1 s, over 100 Mbit/s a few ms
# gt A B: A > B for decimal numbers
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }
t0=$(date +%s.%N)
# shellcheck disable=SC2086
head -c 250000 /dev/zero | ssh $SSHC tbw1 'cat > /dev/null'
t1=$(date +%s.%N)
# shellcheck disable=SC2086
head -c 250000 /dev/zero | ssh $SSHC tbn1 'cat > /dev/null'
t2=$(date +%s.%N)
slow=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
fast=$(awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }')
check "250 kB take > 0.8 s over 2 Mbit/s (took $slow s; 100 Mbit/s: $fast s)" \
	sh -c "awk -v s=$slow -v f=$fast 'BEGIN { exit !(s > 0.8 && s > 2 * f) }'"

# --- CPU quota: relative speeds (doc/testbed.md, "Relative speeds"): tbw1, 1000 MHz at
# cpu_scale 0.5, has a quarter of tbn1's 2000 MHz; tbn1, at the file's top clock, gets its
# whole core unless this host cannot give 2000 + 500 MHz worth with 0.5 CPU kept
# (v2 cpu.max or v1 cfs quota; microseconds per 100 ms)
want=$(awk -v n="$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)" 'BEGIN {
	k = (n - 0.5) / 2500; if (k > 1 / 2000) k = 1 / 2000; printf "%d", k * 500 * 100000 + 1e-6 }')
if [ -r "/sys/fs/cgroup/gridsubmit-$TAG/tbw1/cpu.max" ]; then
	check_eq "cpu.max of the quarter-speed node" \
		"$(cat "/sys/fs/cgroup/gridsubmit-$TAG/tbw1/cpu.max")" "$want 100000"
elif [ -r "/sys/fs/cgroup/cpu/gridsubmit-$TAG/tbw1/cpu.cfs_quota_us" ]; then
	check_eq "cfs quota of the quarter-speed node" \
		"$(cat "/sys/fs/cgroup/cpu/gridsubmit-$TAG/tbw1/cpu.cfs_quota_us")" "$want"
else
	skip "cpu quota" "no cgroup cpu controller here"
fi
# the node's sessions run inside its cgroup
# shellcheck disable=SC2086
check_match "ssh sessions run in the node's cgroup" "$(ssh $SSHC tbw1 cat /proc/self/cgroup)" \
	"gridsubmit-$TAG/tbw1"

# --- emulated load reported by the node's exporter (and its load generator runs)
l=$(curl -s --max-time 3 http://$NET.2.1:9100/metrics | awk '$1 == "node_load1" {print $2}')
check "the loaded node's exporter reports node_load1 > 0.5 (got $l)" gt "${l:-0}" 0.5
l=$(curl -s --max-time 3 http://$NET.1.1:9100/metrics | awk '$1 == "node_load1" {print $2}')
check_eq "the idle node's exporter reports node_load1 0" "$l" "0"
check "a load generator runs in the loaded node" sh -c \
	"ip netns pids gs-$TAG-tbw1 | xargs -r ps -o comm= -p | grep -q gs-load"
# the load stays what the site file says: a processor-sharing queue on the node's quota
# averages load 2; work sized for a whole CPU per unit of load piled up (20 jobs in a minute)
sum=0 n=0
while [ $n -lt 20 ]; do
	j=$(awk '$1 == "gridsubmit_testbed_load_jobs" { print $2 }' \
		"$TB/nodes/tbw1/textfile/load.prom")
	sum=$((sum + ${j:-0}))
	n=$((n + 1))
	sleep 1
done
mean=$(awk -v s="$sum" -v n="$n" 'BEGIN { printf "%.2f", s / n }')
check "the loaded node runs about 2 jobs, not a growing pile (mean $mean over 20 s)" \
	awk -v m="$mean" 'BEGIN { exit !(m > 0.3 && m < 6) }'
check "the derived site file loads" "$GS" sites check "$TB/sites.yaml"
# the node's arrivals are the simulation's for the same host and seed (common/loadgen.h):
# the first five its generator logged against the first five that the speed trace of
# `gridsubmit simulate --seed 1` on the derived site file adds (each lowers the one rank's
# share; none is dropped on a node that starts empty)
if [ -x "$SRC/$BUILD/examples/smpi/hello" ]; then
	cat > "$T/hello.yaml" <<EOF
program: $SRC/$BUILD/examples/hello
ranks: 2
sites: [wlan]
EOF
	tbarr=$(awk '$1 == "arrival" { print $4 }' "$TB/nodes/tbw1/load.log" | head -n 5)
	run_gs simulate "$T/hello.yaml" --sites "$TB/sites.yaml" --seed 1 --json
	sid=$(printf '%s\n' "$out" | jq -r .id)
	simarr=$(awk '$1 != "LOOPAFTER" && NR > 1 && $2 < v { printf "%.3f\n", $1 } { v = $2 }' \
	    "$GRIDSUBMIT_HOME/jobs/$sid/load/tbw1.trace" | head -n 5)
	check_match "the testbed's generator logged five arrivals on tbw1" "$(echo $tbarr)" \
	    '^[0-9.]+( [0-9.]+){4}$'
	check_eq "they are the first five of the simulation's trace for tbw1, seed 1" \
	    "$(echo $tbarr)" "$(echo $simarr)"
else
	skip "the testbed's arrivals are the simulation's" "no SMPI build of examples/hello"
fi
cat > "$T/j.yaml" <<EOF
program: /bin/true
ranks: 2
EOF
run_gs rank "$T/j.yaml" --sites "$TB/sites.yaml"
check_match "the broker reads the testbed exporters live" "$out" 'tbw1 .*live'

# --- a second up is refused while it is up
run_gs testbed up "$SITES"
check_match "up twice is refused" "$rc:$err" '^1:.*(is up|in use)'

# --- down: nothing left
PIDS=$(for ns in "gs-$TAG-tbn1" "gs-$TAG-tbw1"; do ip netns pids "$ns"; done | tr '\n' ' ')
# without netem, each node's latency is a delay line in its namespace (one of PIDS)
DPIDS=$(awk '$1 == "pid" && $4 == "delay" {print $2}' "$TB/manifest" | tr '\n' ' ')
if ! grep -q '^latency tbw1 netem ' "$TB/manifest"; then
	check "the delay lines run in the nodes' namespaces ($DPIDS)" sh -c \
		"[ -n '$DPIDS' ] && for p in $DPIDS; do echo ' $PIDS ' | grep -q \" \$p \" || exit 1; done"
fi
run_gs testbed down "$SITES"
check_eq "down exits 0" "$rc" 0
check "no namespace left" sh -c "! ip netns list | grep -q gs-$TAG-"
check "no link left" sh -c "! ip -o link show | grep -q 'gs$TAG'"
check "no cgroup left" sh -c "! ls -d /sys/fs/cgroup/gridsubmit-$TAG /sys/fs/cgroup/cpu/gridsubmit-$TAG 2>/dev/null | grep -q ."
left=""
for p in $PIDS; do alive "$p" && left="$left $p"; done
check_eq "no process of the testbed left (sshd, exporters, load, delay lines)" "$left" ""
check "state directory removed" test ! -e "$TB"
run_gs testbed status "$SITES"
check_match "status after down says not up" "$rc:$out" '^1:.*not up'

# --- kill -9 halfway through up, then down cleans up
crash_up "$SITES"
check "a crashed up left its manifest" test -s "$TB/manifest"
PIDS=$(awk '$1 == "pid" {print $2}' "$TB/manifest" 2>/dev/null | tr '\n' ' ')
run_gs testbed down "$SITES"
check_eq "down after a crashed up exits 0" "$rc" 0
[ "$rc" -eq 0 ] || printf '%s\n' "$out" "$err" | sed -e 's/^/#   /'
check "no namespace left after a crashed up" sh -c "! ip netns list | grep -q gs-$TAG-"
check "no link left after a crashed up" sh -c "! ip -o link show | grep -q 'gs$TAG'"
check "no cgroup left after a crashed up" sh -c "! ls -d /sys/fs/cgroup/gridsubmit-$TAG /sys/fs/cgroup/cpu/gridsubmit-$TAG 2>/dev/null | grep -q ."
left=""
for p in $PIDS; do alive "$p" && left="$left $p"; done
check_eq "no process left after a crashed up" "$left" ""

# --- a link with our tag's bridge name (another testbed whose tag collides with ours): up
# refuses, and its cleanup leaves that link alone
ip link add "gs${TAG}br" type bridge
at_exit "ip link del gs${TAG}br"
run_gs testbed up "$SITES"
check_match "up with the tag of another testbed's bridge is refused, saying so" "$rc:$err" \
	"^1:.*the link gs${TAG}br exists already: another testbed of this host has the tag $TAG"
check "the other bridge is left" ip link show "gs${TAG}br"
check "and nothing of ours stays up" sh -c "! ip netns list | grep -q gs-$TAG- && test ! -e '$TB'"
ip link del "gs${TAG}br"

# --- hostile host names: rejected before anything runs
for h in 'x;touch PWNED' '$(touch PWNED)' '-oProxyCommand=touch PWNED' 'a`touch PWNED`'; do
	printf 'sites:\n  - name: s\n    link: {bandwidth_mbps: 1, latency_ms: 1}\n    nodes:\n      - {host: "%s", cpu_mhz: 1, cores: 1}\n' \
		"$h" > "$T/hostile.yaml"
	(cd "$T" && "$OLDPWD/$GS" testbed up hostile.yaml) > "$T/h.out" 2>&1
	hrc=$?
	check "hostile host '$h' is refused (exit $hrc) and runs nothing" \
		sh -c "[ $hrc -ne 0 ] && [ ! -e '$T/PWNED' ] && [ ! -e PWNED ]"
done
check "no namespace from the hostile files" sh -c "! ip netns list | grep -q PWNED"

# --- not root: a clear error
if command -v setpriv >/dev/null 2>&1; then
	o=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$GS" testbed up "$SITES" 2>&1)
	check_match "up as a user says it needs root" "$o" 'needs root'
fi
