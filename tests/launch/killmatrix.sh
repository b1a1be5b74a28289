# killmatrix.sh — the kill matrix of issue 15 (doc/restarts.md) on a testbed of 4 nodes
# (root), for what tests/launch/test-restart.sh (this host only) and test-restart-testbed.sh (a
# node crashing: every process in its namespace killed) do not cover. Sourced by its three
# parts, test-killmatrix-a.sh, -b.sh and -c.sh, which make check runs in its two testbed
# chains, each on a testbed of its own: KM_CASES, set by the part, names its cases. Jobs of
# 3 ranks: rank 0 here, one worker on each of the two best nodes (km1, km2), km3 and km4
# spare.
# examples/synthetic (one round, --check) for every case; matmul --form a (12 rounds, C
# checked) where iteration matters: the master killed, a proxy killed, the supervisor
# killed then resumed. Each case REPEAT times (default 3; `make soak`: 20); the kill comes
# once the launch has journaled results (4 chunk events; matmul: 3 rounds). Every case
# prints "killmatrix: CASE restart_after=SECONDS" (from the kill to the relaunch's start
# event; "none" without a relaunch), which `make soak` sums up per case.
#   prog    the worker program on rank 1's node SIGKILLed: its wrapper survives, the
#           master requeues its chunk: done, no restart, a fail event for rank 1
#   wrap    rank 1's gridsubmit-rank SIGKILLed: relaunched without its node
#   proxy   rank 1's node's hydra_pmi_proxy SIGKILLed: relaunched without its node, which
#           the wrapper's "proxy-lost" on the lease names, every time
#   link    rank 1's node cut off (its eth0 down), the default lease_timeout, the master's
#           deadline floored at 30 s so that the lease decides: its lease silent for
#           10 s, the launch is stopped and relaunched without it; the link comes back
#           after the job
#   freeze  everything in rank 1's node's namespace SIGSTOPped: as link; thawed after
#   forge   a process on rank 1's node (not a rank) connects to the lease: one
#           connection silent, one with garbage, one with a wrong secret then
#           "proxy-lost", one with "proxy-lost" first, held past a lease_timeout of 5 s
#           while the job runs (checked): the job is done, no restart, no node left out
#   master  rank 0's program SIGKILLed: relaunched on the same nodes
#   sup     the supervisor of a submitted job SIGKILLed, then `gridsubmit resume`
#   two     rank 1's node crashes (every process in its namespace SIGKILLed, sshd too),
#           then, in the relaunch, the new rank 1's: two restarts, both nodes left out, the
#           spares take over; the testbed is rebuilt after
#   over    the same with restarts: 1: failed, every reason in status, the journal kept;
#           then `resume` (both nodes still down) finishes it on the spares
# CASES (e.g. "proxy:syn master:mm") picks cases: each part runs those of its own.
# Every case ends with: the final state and exit status, the example's check line in the
# job's stdout, the restart count and excluded nodes in state.json, no process of the job
# on any node nor here, and every node up again (testbed status, no stopped process).
# shellcheck shell=sh
. tests/lib.sh
. tests/launch/lib-kill.sh

need_testbed "kill matrix" sshd jq || exit 0
REPEAT=${REPEAT:-3}
SYN=$SRC/$BUILD/examples/synthetic
MM=$SRC/$BUILD/examples/matmul
for p in "$SYN" "$MM"; do
	[ -x "$p" ] || { fail "kill matrix: $p is not built"; exit 1; }
done
J=$GRIDSUBMIT_HOME/jobs
NODES="km1 km2 km3 km4"

SITES=$T/killm.yaml
cat > "$SITES" <<'EOF'
# one site of 4 one-core nodes: km1 and km2 rank first, km3 and km4 are the spares
sites:
  - name: lab
    link: {bandwidth_mbps: 100, latency_ms: 0}
    nodes:
      - {host: km1, cpu_mhz: 3000, cores: 1, mem_mb: 256}
      - {host: km2, cpu_mhz: 2800, cores: 1, mem_mb: 256}
      - {host: km3, cpu_mhz: 2600, cores: 1, mem_mb: 256}
      - {host: km4, cpu_mhz: 2400, cores: 1, mem_mb: 256}
EOF
# whatever a failed case leaves frozen or cut off is given back before the sweep
restore_all() {
	for n in $NODES; do
		ip -n "$(kl_ns "$n")" link set eth0 up
		kl_procs "$n" | xargs -r kill -CONT
	done
}
testbed_up "$SITES" "testbed up with 4 nodes" || exit 0
at_exit sweep
at_exit restore_all
TBSITES=$GRIDSUBMIT_HOME/testbed/killm/sites.yaml

# synthetic: UNITS (default 50,000) units of 60 us (3 s of work; 1.5 s on 2 workers),
# chunks of 2,000; the default deadlines (doc/runtime.md, "Failures"): a silent worker is
# taken as failed in seconds
UNITS=50000
# KM_RUNTIME: more of the job file's runtime: map (", key: value"), for one case
KM_RUNTIME=
syn_job() {
	cat > "$T/syn-$1.yaml" <<EOF
name: km-syn-$1
program: $SYN
args: ["--units", "$UNITS", "--mean-us", "60", "--seed", "$1", "--check"]
ranks: 3
runtime: {scheme: css, k: 2000$KM_RUNTIME}
$2
EOF
	JOB=$T/syn-$1.yaml
	PAT="^$SYN --units $UNITS --mean-us 60 --seed $1 "
	COMM=synthetic
	CHECKLINE="result matches the sequential computation"
}
# matmul form a: order 768, 12 rounds of 64 columns of B (about 3 s); --n tells its runs apart
mm_job() {
	n=$((760 + $1 % 8))
	cat > "$T/mm-$1.yaml" <<EOF
name: km-mm-$1
program: $MM
args: ["--form", "a", "--n", "$n", "--bcols", "64"]
ranks: 3
runtime: {scheme: gss$KM_RUNTIME}
EOF
	JOB=$T/mm-$1.yaml
	PAT="^$MM --form a --n $n "
	COMM=matmul
	CHECKLINE="C matches the sequential product"
}

# start run|submit: the job $JOB, in the background (run) or detached (submit); sets id,
# pid (run), t_case
start() {
	id=$(next_id)
	t_case=$(kl_now)
	pid=
	if [ "$1" = submit ]; then
		"$GS" submit --no-metrics --sites "$TBSITES" "$JOB" > "$T/$id.sub" 2> "$T/$id.err"
	else
		timeout -k 5 240 "$GS" run --no-metrics --sites "$TBSITES" "$JOB" \
		    > "$T/$id.out" 2> "$T/$id.err" &
		pid=$!
		at_exit "kill -9 $pid"
	fi
}

# journaled: the last launch has results (synthetic: 4 chunks; matmul: 3 rounds), in time
journaled() {
	if [ "$COMM" = matmul ]; then
		kl_poll 60 kl_since_start "$id" round 3
	else
		kl_poll 60 kl_since_start "$id" chunk 4
	fi || echo "# job $id: no results journaled within 60 s"
}

# relaunched N: the job's launch N+1 has started and has results
relaunched() {
	# shellcheck disable=SC2016 # sh -c's own arguments
	kl_poll 60 sh -c '[ "$(grep -c "\"ev\":\"start\"" "$1")" -ge "$2" ]' sh \
	    "$J/$id/events.jsonl" $(($1 + 1)) || echo "# job $id: no relaunch $1 within 60 s"
	kl_poll 60 kl_since_start "$id" chunk 2
}

# restart_watch: the kill is now; once the job's next launch starts (one more start event),
# its time goes to $T/$id.relaunch (a watcher in the background, stopped by restart_after)
restart_watch() {
	t_kill=$(kl_now)
	rw_n=$(grep -c '"ev":"start"' "$J/$id/events.jsonl")
	rm -f "$T/$id.relaunch"
	# shellcheck disable=SC2016 # sh -c's own arguments
	(kl_poll 240 sh -c '[ "$(grep -c "\"ev\":\"start\"" "$1")" -gt "$2" ]' sh \
	    "$J/$id/events.jsonl" "$rw_n" && kl_now > "$T/$id.relaunch") &
	rw_pid=$!
	at_exit "kill $rw_pid"
}

# restart_after CASE: "killmatrix: CASE restart_after=SECONDS" (none: no relaunch)
restart_after() {
	kill "$rw_pid" 2>/dev/null
	wait "$rw_pid" 2>/dev/null
	ra=none
	[ -s "$T/$id.relaunch" ] &&
		ra=$(awk -v a="$t_kill" -v b="$(cat "$T/$id.relaunch")" 'BEGIN { printf "%.1f", b - a }')
	echo "killmatrix: $1 restart_after=$ra"
}

# lease_named NAME TEXT: the first restart's reason names rank 1's node with TEXT
lease_named() {
	check_match "$1: the lease named the node" \
	    "$(jq -r '.restart_log[0].reason' "$J/$id/state.json")" "$2"
}

# hit NAME WHAT "PIDS": SIGKILL PIDS; fail NAME when there is none
hit() {
	if [ -z "$3" ]; then
		fail "$1: no $2 found to kill"
		return 1
	fi
	# shellcheck disable=SC2086 # a list of pids
	kill -KILL $3
}

# nothing_left: no process of the job $id on any node, nor here
nothing_left() {
	for n in $NODES; do
		[ -z "$(kl_job_procs "$n")" ] || return 1
	done
	[ -z "$(kl_local "$J/$id/")$(kl_ours "$PAT")" ]
}

# whole: every node up, none stopped, its link up
whole() {
	"$GS" testbed status "$SITES" || return 1
	for n in $NODES; do
		[ -z "$(kl_stopped "$n")" ] || return 1
		ip -n "$(kl_ns "$n")" -o link show eth0 | grep -q 'state UP' || return 1
	done
}

# verify NAME RC STATE RESTARTS EXCLUDED [rebuild]: what every case ends with; EXCLUDED is
# the JSON list of each restart's excluded nodes ([] without restart), or alternatives
# separated by '|'; rebuild: crashed
# nodes are brought back (after the look for leftovers, which `testbed down` would hide)
verify() {
	v_name=$1
	bad=0
	want_rc=1
	[ "$3" = "done" ] && want_rc=0
	check_eq "$v_name: exit status" "$2" "$want_rc"
	[ "$2" = "$want_rc" ] || bad=1
	got=$(jq -c '[.state, .restarts, [.restart_log[].excluded]]' "$J/$id/state.json")
	v_ok=0
	for v_alt in $(printf '%s' "$5" | tr '|' ' '); do
		[ "$got" = "[\"$3\",$4,$v_alt]" ] && v_ok=1
	done
	if [ "$v_ok" -eq 1 ]; then
		pass "$v_name: state, restarts, nodes left out"
	else
		fail "$v_name: state, restarts, nodes left out"
		echo "#   got $got, want [\"$3\",$4,$5]"
		bad=1
	fi
	if [ "$3" = "done" ]; then
		if grep -q "$CHECKLINE" "$J/$id/stdout"; then
			pass "$v_name: the check passed"
		else
			fail "$v_name: the check passed"
			bad=1
		fi
	fi
	if kl_poll 20 nothing_left; then
		pass "$v_name: nothing of the job left on any node, nor here"
	else
		fail "$v_name: nothing of the job left on any node, nor here"
		for n in $NODES; do
			for p in $(kl_job_procs "$n"); do
				echo "#   $n: $p $(tr '\0' ' ' < "/proc/$p/cmdline" | cut -c1-150)"
			done
		done
		for p in $(kl_local "$J/$id/") $(kl_ours "$PAT"); do
			echo "#   here: $p $(tr '\0' ' ' < "/proc/$p/cmdline" | cut -c1-150)"
		done
		bad=1
	fi
	[ "${6:-}" = rebuild ] && rebuild
	if kl_poll 10 whole; then
		pass "$v_name: every node up again"
	else
		fail "$v_name: every node up again"
		"$GS" testbed status "$SITES" 2>&1 | sed -e 's/^/#   /'
		bad=1
	fi
	echo "# $v_name: $(kl_since "$t_case") s, job $id"
	[ "$bad" -eq 0 ] && return 0
	echo "#   state.json: $(jq -c '{state, reason, restarts, restart_log}' "$J/$id/state.json")"
	sed -e 's/^/#   stderr: /' "$T/$id.err" "$J/$id"/stderr* 2>/dev/null | head -n 30
	grep -v '"ev":"chunk"' "$J/$id/events.jsonl" | cut -c1-200 | sed -e 's/^/#   event: /'
	return 1
}

# resumed NAME MIN_UNITS [MIN_ROUNDS]: the last launch replayed the journal: its resume
# event counts at least MIN_UNITS units (and MIN_ROUNDS rounds) done
resumed() {
	r=$(grep '"ev":"resume"' "$J/$id/events.jsonl" | tail -n 1 |
	    jq -r --argjson u "$2" --argjson r "${3:-0}" '.units >= $u and .rounds_done >= $r')
	check_eq "$1: the relaunch resumed from the journal" "$r" true
}

# failed_rank NAME RANK: the master declared RANK failed (and requeued its units)
failed_rank() {
	check_eq "$1: a fail event for rank $2" \
	    "$(grep '"ev":"fail"' "$J/$id/events.jsonl" | jq -c "select(.rank == $2) | .requeued > 0" |
	    sort -u)" true
}

# --- the cases; each takes its repetition K and the example (syn or mm)

case_prog() {
	cn="worker program SIGKILL ($2, $1)"
	"${2}_job" "$((1000 + $1))"
	start run
	journaled
	node=$(kl_node "$id" 1)
	restart_watch
	hit "$cn" "$COMM on $node" "$(kl_procs "$node" "$COMM")"
	wait "$pid"
	verify "$cn" "$?" "done" 0 '[]'
	restart_after "$KM_CASE"
	failed_rank "$cn" 1
}

case_wrap() {
	cn="worker wrapper SIGKILL ($2, $1)"
	"${2}_job" "$((1100 + $1))"
	start run
	journaled
	node=$(kl_node "$id" 1)
	restart_watch
	hit "$cn" "gridsubmit-rank on $node" "$(kl_procs "$node" gridsubmit-rank)"
	wait "$pid"
	w_rc=$?
	restart_after "$KM_CASE"
	# both are right: the master survives the rank's death (its deadline, a requeue), or
	# mpiexec ends and the job is relaunched without the node (doc/restarts.md, "Tested")
	if [ "$(jq .restarts "$J/$id/state.json")" = 0 ]; then
		verify "$cn" "$w_rc" "done" 0 '[]'
		failed_rank "$cn" 1
	else
		verify "$cn" "$w_rc" "done" 1 "[[\"$node\"]]"
		resumed "$cn" 1
	fi
}

case_proxy() {
	cn="hydra_pmi_proxy SIGKILL ($2, $1)"
	"${2}_job" "$((1200 + $1))"
	start run
	journaled
	node=$(kl_node "$id" 1)
	restart_watch
	hit "$cn" "hydra_pmi_proxy on $node" "$(kl_procs "$node" hydra_pmi_proxy)"
	wait "$pid"
	# the node is well, but its wrapper says its proxy died: left out, every time
	verify "$cn" "$?" "done" 1 "[[\"$node\"]]"
	restart_after "$KM_CASE"
	lease_named "$cn" "lost its hydra proxy"
	if [ "$COMM" = matmul ]; then resumed "$cn" 1 2; else resumed "$cn" 1; fi
}

case_link() {
	cn="link cut ($2, $1)"
	# the master's deadline floored at 30 s: rank 1's chunk waits for the lease
	# (lease_timeout 10 s), which decides, as it does whenever the silent node's work
	# is all that is left
	KM_RUNTIME=", deadline: 30"
	"${2}_job" "$((1300 + $1))"
	KM_RUNTIME=
	start run
	journaled
	node=$(kl_node "$id" 1)
	restart_watch
	ip -n "$(kl_ns "$node")" link set eth0 down
	wait "$pid"
	rc=$?
	ip -n "$(kl_ns "$node")" link set eth0 up
	verify "$cn" "$rc" "done" 1 "[[\"$node\"]]"
	restart_after "$KM_CASE"
	lease_named "$cn" "silent on its ranks' lease"
}

case_freeze() {
	cn="node frozen ($2, $1)"
	# the master's deadline floored at 30 s: rank 1's chunk waits for the lease
	# (lease_timeout 10 s), which decides, as it does whenever the silent node's work
	# is all that is left
	KM_RUNTIME=", deadline: 30"
	"${2}_job" "$((1400 + $1))"
	KM_RUNTIME=
	start run
	journaled
	node=$(kl_node "$id" 1)
	restart_watch
	kl_procs "$node" | xargs -r kill -STOP
	wait "$pid"
	rc=$?
	kl_procs "$node" | xargs -r kill -CONT
	verify "$cn" "$rc" "done" 1 "[[\"$node\"]]"
	restart_after "$KM_CASE"
	lease_named "$cn" "silent on its ranks' lease"
}

# the lease's address, from mpiexec's argv here (-genv GRIDSUBMIT_LEASE ADDR:PORT)
lease_addr() {
	for la_p in $(kl_local "$J/$id/ssh-launcher"); do
		tr '\0' '\n' < "/proc/$la_p/cmdline" 2>/dev/null |
		    awk 'l { print; exit } $0 == "GRIDSUBMIT_LEASE" { l = 1 }'
	done | grep -m 1 ':'
}

case_forge() {
	cn="forged lease connections ($2, $1)"
	# lease_timeout 5 s: the forged connections are held past it while the job runs
	# (500,000 units of 60 us on 2 workers: 15 s of computing on an idle host), which the
	# test checks before it trusts the end
	UNITS=500000
	"${2}_job" "$((1900 + $1))" "lease_timeout: 5"
	UNITS=50000
	start run
	journaled
	node=$(kl_node "$id" 1)
	addr=$(lease_addr)
	[ -n "$addr" ] || fail "$cn: the lease's address in mpiexec's argv"
	restart_watch
	ip netns exec "$(kl_ns "$node")" python3 -c '
import socket, sys, time
host, port = sys.argv[1].rsplit(":", 1)
held = []
for first in (b"", b"GET / HTTP/1.0\r\n\r\n", b"lease " + b"0" * 32 + b"\nproxy-lost\n",
    b"proxy-lost\n"):
	s = socket.create_connection((host, int(port)))
	if first:
		s.sendall(first)
	held.append(s)
time.sleep(30)
' "$addr" &
	forger=$!
	at_exit "kill $forger"
	# past the lease's 5 s: a stranger taken for a peer would have been declared silent
	# by then (one waiting for its secret is never a peer, whatever it sends or not)
	sleep 8
	check "$cn: the job outlived the forgery by the lease's timeout" kill -0 "$pid"
	wait "$pid"
	rc=$?
	kill "$forger" 2>/dev/null
	verify "$cn" "$rc" "done" 0 '[]'
	restart_after "$KM_CASE"
}

case_master() {
	cn="master SIGKILL ($2, $1)"
	"${2}_job" "$((1500 + $1))"
	start run
	journaled
	restart_watch
	hit "$cn" "rank 0's $COMM" "$(kl_master "$PAT")"
	wait "$pid"
	verify "$cn" "$?" "done" 1 '[[]]'
	restart_after "$KM_CASE"
	check_eq "$cn: the reason" "$(jq -r '.restart_log[0].reason' "$J/$id/state.json")" \
	    "rank 0 died of signal 9"
	if [ "$COMM" = matmul ]; then resumed "$cn" 1 2; else resumed "$cn" 1; fi
}

case_sup() {
	cn="supervisor SIGKILL, resume ($2, $1)"
	"${2}_job" "$((1600 + $1))"
	start submit
	journaled
	restart_watch
	hit "$cn" "supervisor" "$(jq -r .supervisor_pid "$J/$id/state.json")"
	kl_poll 20 nothing_left || echo "# $cn: the job's processes still run 20 s after"
	run_gs resume "$id"
	printf '%s\n' "$err" > "$T/$id.err"
	restart_after "$KM_CASE"
	check_match "$cn: resume says so" "$err" "^gridsubmit: job $id \\([^)]*\\): resumed \\(restart 1\\), "
	verify "$cn" "$rc" "done" 1 '[[]]'
	check_match "$cn: the check line from resume" "$out" "$CHECKLINE"
	if [ "$COMM" = matmul ]; then resumed "$cn" 1 2; else resumed "$cn" 1; fi
}

# crash NODE: every process in the node's namespace SIGKILLed (its sshd too: out of reach,
# strong evidence, doc/restarts.md)
crash() {
	hit "$cn" "process on $1" "$(kl_procs "$1")"
}

# rebuild: the testbed down and up again, which brings crashed nodes back
rebuild() {
	"$GS" testbed down "$SITES" > /dev/null 2>&1
	run_gs testbed up "$SITES"
	[ "$rc" -eq 0 ] || { fail "$cn: testbed up again"; printf '%s\n' "$err" | sed -e 's/^/#   /'; }
	TAG=$(printf '%s\n' "$out" | sed -n 's/.*on bridge gs\([0-9a-f]*\)br.*/\1/p')
}

case_two() {
	cn="two failures ($2, $1)"
	"${2}_job" "$((1700 + $1))"
	start run
	journaled
	n1=$(kl_node "$id" 1)
	restart_watch
	crash "$n1"
	relaunched 1
	restart_after "$KM_CASE"
	n2=$(kl_node "$id" 1)
	crash "$n2"
	wait "$pid"
	rc_job=$?
	check_eq "$cn: the last launch on the other two nodes" \
	    "$(grep '"ev":"start"' "$J/$id/events.jsonl" | tail -n 1 |
	    jq -c '[.ranks[1:][].node] | sort')" \
	    "$(echo "$NODES" | tr ' ' '\n' | grep -vx -e "$n1" -e "$n2" | jq -Rsc 'split("\n")[:-1]')"
	verify "$cn" "$rc_job" "done" 2 "[[\"$n1\"],[\"$n2\"]]" rebuild
	resumed "$cn" 1
}

case_over() {
	cn="more failures than restarts ($2, $1)"
	"${2}_job" "$((1800 + $1))" "restarts: 1"
	start run
	journaled
	n1=$(kl_node "$id" 1)
	restart_watch
	crash "$n1"
	relaunched 1
	restart_after "$KM_CASE"
	n2=$(kl_node "$id" 1)
	crash "$n2"
	wait "$pid"
	rc=$?
	reason=$(jq -r .reason "$J/$id/state.json")
	first=$(jq -r '.restart_log[0].reason' "$J/$id/state.json")
	suffix="; no restart left (1 of 1 used); restarts: 1) $first"
	case $reason in
	?*"$suffix") pass "$cn: the reason lists the last failure and the restart's" ;;
	*)
		fail "$cn: the reason lists the last failure and the restart's"
		printf '#   got:  %s\n#   want: ...%s\n' "$reason" "$suffix"
		;;
	esac
	run_gs status "$id"
	check_match "$cn: status shows the reason" "$out" "^  state: +failed \\(.*no restart left"
	check_match "$cn: status lists the restart" "$out" "^    1\\. [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}[+-][0-9]{2}:[0-9]{2}  .*\\(without $n1\\)$"
	check "$cn: the journal is kept" test -s "$J/$id/journal"
	# the crashed nodes still down: resume's preflight replaces them with the spares
	t_resume=$(kl_now)
	run_gs resume "$id"
	printf '%s\n' "$err" > "$T/$id.resume.err"
	rc2=$rc
	check_eq "$cn: then resumed: on the spares" \
	    "$(grep '"ev":"start"' "$J/$id/events.jsonl" | tail -n 1 |
	    jq -c '[.ranks[1:][].node] | sort')" \
	    "$(echo "$NODES" | tr ' ' '\n' | grep -vx -e "$n1" -e "$n2" | jq -Rsc 'split("\n")[:-1]')"
	verify "$cn" "$rc2" "done" 2 "[[\"$n1\"],[]]" rebuild
	echo "# $cn: resume took $(awk -v a="$t_resume" -v b="$(date -r "$J/$id/state.json" +%s.%N)" \
	    'BEGIN { printf "%.1f", b - a }') s"
	resumed "$cn: then resumed" 1
}

t_all=$(kl_now)
k=1
while [ "$k" -le "$REPEAT" ]; do
	for c in $KM_CASES; do
		KM_CASE=$c
		case " ${CASES:-$KM_CASES} " in *" $c "*) "case_${c%%:*}" "$k" "${c#*:}" ;; esac
	done
	k=$((k + 1))
done
echo "# kill matrix ($KM_CASES): $REPEAT repetitions in $(kl_since "$t_all") s"
