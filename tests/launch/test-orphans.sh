#!/bin/sh
# test-orphans.sh — no process of a job is left on any site, even when its supervisor dies
# (doc/architecture.md, "No orphan on any site").
# Without root: gridsubmit-rank stops its program when its parent dies and when its lease
# (a TCP connection to the supervisor) ends, and a lease it cannot set up never fails a rank.
# With root, on a 3-site testbed (4 node namespaces, sshd in each), with the supervisor of a
# running job killed by SIGKILL:
# - everything ends by itself (mpiexec dies with its supervisor and stops its proxies);
# - with the nodes' hydra proxies frozen (SIGSTOP), the ranks end by the lease alone;
# - with everything on the nodes frozen, `cancel` stops it over ssh: exit 0, nothing left in
#   any namespace or here, and status shows the check;
# - a node whose sshd is dead: cancel ends in bounded time, exit 1, names the node;
# - the nodes cut off from this host (links down): the ranks end by the lease timeout.
# serial: testbed-a (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

RANKEXEC=$SRC/$BUILD/gridsubmit-rank
[ -x "$RANKEXEC" ] || { fail "orphans: $RANKEXEC is not built"; exit 1; }

# running PATTERN: a live process matches
running() {
	[ -n "$(live "$1")" ]
}

# now: seconds since the epoch, with decimals; since T0: seconds from T0 to now
now() {
	date +%s.%N
}
since() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'
}

# within SECONDS WHAT COMMAND...: check that COMMAND succeeds within SECONDS of $t0 (poll),
# and say when
within() {
	w_s=$1 w_what=$2
	shift 2
	if poll "$w_s" "$@"; then
		pass "$w_what"
		echo "#   after $(since "$t0") s"
	else
		fail "$w_what"
		echo "#   not after $(since "$t0") s"
	fi
}

# --- gridsubmit-rank alone, here

# its parent (hydra's proxy, here a shell) killed with SIGKILL: the program ends too
( "$RANKEXEC" -- sleep 3001 & wait ) 2>/dev/null &
parent=$!
poll 5 running '^sleep 3001$'
check "a program runs under gridsubmit-rank" running '^sleep 3001$'
kill -9 "$parent"
t0=$(now)
within 3 "its parent killed: the program ends within 3 s" gone '^sleep 3001$'
live '^sleep 3001$' | xargs -r kill	# what a failure left

# a lease that cannot be set up is said, and the rank runs as without one
GRIDSUBMIT_LEASE=not-an-address PMI_RANK=3 "$RANKEXEC" -- sh -c 'exit 7' 2> "$T/nolease.err"
check_eq "a malformed lease: the program still runs (its status)" "$?" 7
check_match "a malformed lease: said on stderr" "$(cat "$T/nolease.err")" \
	'^gridsubmit-rank: rank 3 on .*: no lease: GRIDSUBMIT_LEASE=not-an-address is not'
GRIDSUBMIT_LEASE=127.0.0.1:1 "$RANKEXEC" -- sh -c 'sleep 0.5; exit 5' 2> "$T/refused.err"
check_eq "a lease nobody listens on: the program still runs" "$?" 5
check_match "a lease nobody listens on: said on stderr" "$(cat "$T/refused.err")" \
	'no lease: cannot reach the job.s supervisor at 127\.0\.0\.1:1'

# the lease's end, with a listener of our own (python3, when there is one)
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import socket, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(4)
print(s.getsockname()[1], flush=True)
c, _ = s.accept()
time.sleep(600)
' > "$T/port" 2>/dev/null &
	listener=$!
	at_exit "kill $listener"
	poll 5 test -s "$T/port"
	GRIDSUBMIT_LEASE=127.0.0.1:$(cat "$T/port") PMI_RANK=2 "$RANKEXEC" -- sleep 3002 \
		2> "$T/lease.err" &
	wpid=$!
	poll 5 running '^sleep 3002$'
	check "a rank with a lease runs while the lease holds" running '^sleep 3002$'
	kill "$listener"
	t0=$(now)
	within 2 "the lease's end stops the program within 2 s" gone '^sleep 3002$'
	live '^sleep 3002$' | xargs -r kill	# what a failure left
	wait "$wpid"
	check_eq "the wrapper exits as its program did (SIGTERM: 143)" "$?" 143
	check_match "and why is said" "$(cat "$T/lease.err")" \
		"rank 2 on .*: the job's supervisor at 127\\.0\\.0\\.1:[0-9]+ is gone \\(connection closed\\); stopping sleep"
else
	skip "lease end with a local listener" "python3 is not installed"
fi

# --- the testbed
need_testbed "orphans on a testbed" sshd tc prometheus-node-exporter jq || exit 0
MANDEL=$SRC/$BUILD/examples/mandelbrot
[ -x "$MANDEL" ] || { fail "orphans: $MANDEL is not built"; exit 1; }

SITES=$T/orph.yaml
cat > "$SITES" <<'EOF'
# three sites, four nodes: one rank on each, rank 0 here
sites:
  - name: fast
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: "orf[1-2]", cpu_mhz: 2000, cores: 1, mem_mb: 256}
  - name: eth
    link: {bandwidth_mbps: 10, latency_ms: 0.5}
    nodes:
      - {host: ore1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
  - name: wlan
    link: {bandwidth_mbps: 2, latency_ms: 3}
    nodes:
      - {host: orw1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
EOF
J=$GRIDSUBMIT_HOME/jobs
# whatever a failed check leaves running is cancelled before the testbed goes
testbed_up "$SITES" "testbed up with 3 sites" || exit 0
at_exit sweep
NODES="orf1 orf2 ore1 orw1"
NSS=""
for h in $NODES; do NSS="$NSS gs-$TAG-$h"; done

ARG=2471	# the sleep ranks' argument: how their processes are told apart
cat > "$T/sleep.yaml" <<EOF
name: orph-sleep
program: /bin/sleep
args: ["$ARG"]
ranks: 5
EOF
cat > "$T/sleep-lease.yaml" <<EOF
name: orph-lease
program: /bin/sleep
args: ["$ARG"]
ranks: 5
env: {GRIDSUBMIT_LEASE_TIMEOUT: "6"}
EOF
cat > "$T/mandel.yaml" <<EOF
name: orph-mandel
program: $MANDEL
args: ["--size", "1024", "--slow", "1:2000,2:2000,3:2000,4:2000", "--out", "m.pgm"]
ranks: 5
runtime: {scheme: gss}
EOF

# ns_procs [NS]: "NODE PID COMM" for each live process of a job's kind in the nodes'
# namespaces (or in NS): hydra's proxy, gridsubmit-rank, mandelbrot, and the sleep ranks
ns_procs() {
	for ns in ${1:-$NSS}; do
		for p in $(ip netns pids "$ns"); do
			alive "$p" || continue
			c=$(cat "/proc/$p/comm" 2>/dev/null) || continue
			case $c in
			hydra_pmi_proxy|gridsubmit-rank|mandelbrot) ;;
			sleep) tr '\0' ' ' < "/proc/$p/cmdline" | grep -q " $ARG " || continue ;;
			*) continue ;;
			esac
			echo "${ns##*-} $p $c"
		done
	done
}

# ns_count COMM: how many live processes named COMM ns_procs lists
ns_count() {
	ns_procs | awk -v c="$1" '$3 == c' | wc -l
}

# on_nodes COMM N: N live processes named COMM on the nodes (a function: poll re-runs it)
on_nodes() {
	[ "$(ns_count "$1")" -eq "$2" ]
}

# nodes_empty: no process of a job's kind on any node
nodes_empty() {
	[ -z "$(ns_procs)" ]
}

# ranks_gone: no rank (sleep) nor its gridsubmit-rank on any node
ranks_gone() {
	on_nodes sleep 0 && on_nodes gridsubmit-rank 0
}

# nothing_left ID: no process of the job in any namespace, nor here
nothing_left() {
	[ -z "$(ns_procs)" ] && gone "$J/$1/" && gone "^/bin/sleep $ARG\$"
}

# freeze COMM...: SIGSTOP the job's processes of those names on the nodes
freeze() {
	for c in "$@"; do
		ns_procs | awk -v c="$c" '$3 == c { print $2 }' | xargs -r kill -STOP
	done
}

# start JOBFILE COMM: submit, wait until COMM runs on the 4 nodes; id in $id
start() {
	id=$("$GS" submit --no-metrics "$1" --sites "$TB/sites.yaml" 2> "$T/submit.err")
	if ! poll 60 on_nodes "$2" 4; then
		echo "# job $id did not start on the 4 nodes:"
		sed -e 's/^/#   /' "$T/submit.err" "$J/$id/supervisor.log" "$J/$id/stderr" 2>/dev/null |
			tail -n 20
	fi
}

supervisor() {
	jq -r .supervisor_pid "$J/$1/state.json"
}

# --- 1. the supervisor of a running MPI job killed: everything ends by itself
start "$T/mandel.yaml" mandelbrot
check_eq "mandelbrot runs on the 4 nodes" "$(ns_count mandelbrot)" 4
check "the ranks carry the job's tag" sh -c "grep -qzx 'GRIDSUBMIT_JOB=$(cat "$J/$id/job-tag")' \
	/proc/$(ns_procs | awk '$3 == "mandelbrot" { print $2; exit }')/environ"
check_match "and its lease" "$(tr '\0' '\n' < "/proc/$(ns_procs |
	awk '$3 == "mandelbrot" { print $2; exit }')/environ")" "^GRIDSUBMIT_LEASE=$NETRE\\.0\\.1:[0-9]+\$"
kill -9 "$(supervisor "$id")"
t0=$(now)
within 10 "supervisor SIGKILLed: nothing of the job anywhere within 10 s" nothing_left "$id"
run_gs status "$id"
check_match "status: the supervisor died" "$out" '^  state: +failed \(supervisor died\)$'
check_match "status: the remote nodes not checked yet" "$out" \
	'^  remote: +not checked since the supervisor died: orf1 unchecked, orf2 unchecked, ore1 unchecked, orw1 unchecked$'
run_gs cancel "$id"
check_eq "cancel: exit 0" "$rc" 0
check_match "cancel: every node checked, clean" "$out" \
	"^job $id: remote nodes: orf1 clean, orf2 clean, ore1 clean, orw1 clean$"
check_eq "status --json: the check, clean" \
	"$("$GS" status --json "$id" | jq -c '[.remote_checked != null, [.remote_nodes[].state]]')" \
	'[true,["clean","clean","clean","clean"]]'

# --- 1b. cancel of a running job (its supervisor alive) verifies the nodes too
start "$T/sleep.yaml" sleep
run_gs cancel "$id"
check_eq "cancel of a running job: exit 0" "$rc" 0
check_match "cancel of a running job: cancelled, every node checked clean" "$out" \
	"^job $id cancelled
job $id: remote nodes: orf1 clean, orf2 clean, ore1 clean, orw1 clean$"
check "nothing of the job anywhere" nothing_left "$id"

# --- 2. the nodes' proxies frozen: the ranks end by their lease alone
start "$T/sleep.yaml" sleep
freeze hydra_pmi_proxy
kill -9 "$(supervisor "$id")"
t0=$(now)
within 5 "proxies frozen, supervisor SIGKILLed: the ranks end within 5 s (lease)" ranks_gone
check_eq "the frozen proxies are still there" "$(ns_count hydra_pmi_proxy)" 4
run_gs cancel "$id"
check_eq "cancel: exit 0" "$rc" 0
check_match "cancel stopped the proxies on the nodes" "$out" \
	"^job $id: remote nodes: orf1 clean \\(1 processes stopped\\), orf2 clean \\(1 processes stopped\\), ore1 clean \\(1 processes stopped\\), orw1 clean \\(1 processes stopped\\)$"
check "nothing of the job anywhere" nothing_left "$id"

# --- 3. everything on the nodes frozen: only cancel can stop it, over ssh
start "$T/sleep.yaml" sleep
freeze hydra_pmi_proxy gridsubmit-rank sleep
kill -9 "$(supervisor "$id")"
sleep 3
check_eq "frozen ranks outlive their supervisor (4 sleeps after 3 s)" "$(ns_count sleep)" 4
run_gs status "$id"
check_match "status: the supervisor died" "$out" '^  state: +failed \(supervisor died\)$'
check_match "status: the remote nodes not checked" "$out" '^  remote: +not checked since the supervisor died'
t0=$(now)
run_gs cancel "$id"
t1=$(since "$t0")
check_eq "cancel: exit 0" "$rc" 0
check_match "cancel: 3 processes stopped on every node" "$out" \
	"^job $id: remote nodes: orf1 clean \\(3 processes stopped\\), orf2 clean \\(3 processes stopped\\), ore1 clean \\(3 processes stopped\\), orw1 clean \\(3 processes stopped\\)$"
check_eq "cancel: nothing on stderr" "$err" ""
echo "# cancel took $t1 s; what it found on orf1:"
sed -n 's/^gs-found /#   /p' "$J/$id/.remote-check/orf1.out"
check "nothing of the job in any namespace, nor here" nothing_left "$id"
run_gs status "$id"
check_match "status: the check by cancel, clean" "$out" \
	'^  remote: +checked by cancel at [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}[+-][0-9]{2}:[0-9]{2}: orf1 clean, orf2 clean, ore1 clean, orw1 clean$'

# --- 4. a node whose sshd is dead at cancel time: bounded, named, exit 1
start "$T/sleep.yaml" sleep
freeze hydra_pmi_proxy gridsubmit-rank sleep
kill -9 "$(supervisor "$id")"
for p in $(ip netns pids "gs-$TAG-orw1"); do
	[ "$(cat "/proc/$p/comm" 2>/dev/null)" = sshd ] && kill -9 "$p"
done
t0=$(date +%s)
run_gs cancel "$id"
t1=$(date +%s)
check_eq "cancel with orw1 unreachable: exit 1" "$rc" 1
check "in bounded time ($((t1 - t0)) s < 40 s)" test $((t1 - t0)) -lt 40
check_match "cancel names orw1 and why" "$err" \
	"job $id: orw1: unreachable \\(ssh: connect to host $NETRE\\.3\\.1 port 22: Connection refused\\): its processes could not be checked"
check_match "the other nodes are clean" "$out" \
	"^job $id: remote nodes: orf1 clean \\(3 processes stopped\\), orf2 clean \\(3 processes stopped\\), ore1 clean \\(3 processes stopped\\), orw1 unreachable$"
check_eq "orw1's frozen processes are still there (cancel did not reach them)" \
	"$(ns_procs "gs-$TAG-orw1" | wc -l)" 3
check_eq "status --json: orw1 unreachable" \
	"$("$GS" status --json "$id" | jq -c '[.remote_nodes[] | [.host, .state]]')" \
	'[["orf1","clean"],["orf2","clean"],["ore1","clean"],["orw1","unreachable"]]'
run_gs status "$id"
check_match "status: orw1 may have processes left" "$out" \
	"note: processes of the job may be left on 1 remote nodes; 'gridsubmit cancel $id' checks them again"
run_gs cancel "$id"
check_eq "cancel again: orw1 is checked again (exit 1)" "$rc" 1
check_match "cancel again: said" "$err" "orw1: unreachable"
# a damaged record: status still answers, with valid JSON
cp "$J/$id/remote-check" "$T/remote-check.good"
head -c 3000 /dev/urandom > "$J/$id/remote-check"
run_gs status --json "$id"
check_eq "a binary remote-check: status --json exits 0 with valid JSON" \
	"$rc:$(printf '%s' "$out" | jq -c '[.remote_nodes[].host]')" '0:["orf1","orf2","ore1","orw1"]'
{ printf 'orw1 left 1 2 \001\377\033[31m'; head -c 5000 /dev/zero | tr '\0' x; echo; } \
	> "$J/$id/remote-check"
run_gs status --json "$id"
check_eq "control bytes and a long detail: printable, cut, valid JSON" \
	"$rc:$(printf '%s' "$out" | jq -r '.remote_nodes[3] | [.state, (.detail | length < 600),
	    (.detail | explode | all(. >= 32 and . < 127))] | @csv')" '0:"left",true,true'
cp "$T/remote-check.good" "$J/$id/remote-check"
ns_procs "gs-$TAG-orw1" | awk '{ print $2 }' | xargs -r kill -9

# --- 5. the nodes cut off from this host: the ranks end by the lease's timeout (6 s)
"$GS" testbed down "$SITES" > /dev/null 2>&1
run_gs testbed up "$SITES"
check_eq "testbed up again (every sshd back)" "$rc" 0
TAG=$(printf '%s\n' "$out" | sed -n 's/.*on bridge gs\([0-9a-f]*\)br.*/\1/p')
NSS=""
for h in $NODES; do NSS="$NSS gs-$TAG-$h"; done
start "$T/sleep-lease.yaml" sleep
for ns in $NSS; do
	ip -n "$ns" link set eth0 down
done
kill -9 "$(supervisor "$id")"
t0=$(now)
sleep 2
check_eq "cut off: the ranks still run 2 s after the SIGKILL" "$(ns_count sleep)" 4
within 18 "cut off: the ranks and their proxies end within 20 s (lease timeout 6 s)" nodes_empty
for ns in $NSS; do
	ip -n "$ns" link set eth0 up
done
run_gs cancel "$id"
check_eq "cancel once the links are back: exit 0" "$rc" 0
check "nothing of the job anywhere" nothing_left "$id"
