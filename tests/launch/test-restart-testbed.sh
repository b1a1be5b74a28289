#!/bin/sh
# test-restart-testbed.sh — relaunch without a failed node (doc/restarts.md) on a testbed of
# 3 nodes (root): a synthetic job of 3 ranks (rank 0 here, workers on the two best nodes)
# whose node rtb2 crashes mid-run (every process in its namespace killed: hydra's proxy,
# the rank, sshd), 3 times, then once silently (its link dead too). mpiexec ends; the
# cleanup cannot reach rtb2; the job is placed again on rtb1 and the spare rtb3 and ends
# done with --check passing; the restart names rtb2 in state.json, events.jsonl and on
# stderr; nothing of the job is left anywhere.
# Then with no spare (a 2-node job file whose min_ranks cannot be met): the job fails
# with the reason, its journal kept.
# serial: testbed-a (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "restart on a testbed" sshd jq || exit 0
SYN=$SRC/$BUILD/examples/synthetic
[ -x "$SYN" ] || { fail "restart testbed: $SYN is not built"; exit 1; }
J=$GRIDSUBMIT_HOME/jobs

SITES=$T/rtb.yaml
cat > "$SITES" <<'EOF'
# one site of 3 nodes: rtb1 and rtb2 rank first, rtb3 is the spare
sites:
  - name: lab
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: rtb1, cpu_mhz: 3000, cores: 1, mem_mb: 256}
      - {host: rtb2, cpu_mhz: 2500, cores: 1, mem_mb: 256}
      - {host: rtb3, cpu_mhz: 1000, cores: 1, mem_mb: 256}
EOF
testbed_up "$SITES" "testbed up with 3 nodes" || exit 0
at_exit sweep

chunks() {
	[ "$(awk '/"ev":"start"/ { c = 0 } /"ev":"chunk"/ { c++ } END { print c + 0 }' \
	    "$J/$1/events.jsonl" 2>/dev/null)" -ge "$2" ]
}

# crash NODE [silent]: the node's processes killed at once, its sshd included; its kernel
# still answers (a closed port, a reset connection) unless silent, when its delay line
# (the testbed's link) dies too and nothing of it answers any more
crash() {
	for p in $(ip netns pids "gs-$TAG-$1"); do
		[ "$2" != silent ] && [ "$(cat "/proc/$p/comm" 2>/dev/null)" = gridsubmit-dela ] &&
		    continue
		kill -9 "$p"
	done
}

# nothing_left ID: no process of the job on any node, nor here
nothing_left() {
	[ -z "$(ns_job rtb1 synthetic)$(ns_job rtb2 synthetic)$(ns_job rtb3 synthetic)" ] &&
	    ! pgrep -f "$J/$1/" > /dev/null && ! pgrep -f "^$SYN --units 80000 " > /dev/null
}

cat > "$T/job.yaml" <<EOF
name: rtb
program: $SYN
args: ["--units", "80000", "--mean-us", "40", "--seed", "5", "--check"]
ranks: 3
runtime: {scheme: css, k: 2000}
EOF

for k in 1 2 3 4; do
	# the 4th crash is silent: its lease is silent for lease_timeout (10 s). The master's
	# deadline floored at 30 s then: rank 2's chunk waits for the lease, which decides
	# (the adaptive deadline would requeue it first and the job could end before)
	how=
	[ "$k" -eq 4 ] && how=silent &&
	    sed -i 's/^runtime: {scheme: css, k: 2000}$/runtime: {scheme: css, k: 2000, deadline: 30}/' \
		"$T/job.yaml"
	id=$(cat "$J/next-id" 2>/dev/null || echo 1)
	"$GS" run --no-metrics --sites "$TB/sites.yaml" "$T/job.yaml" > "$T/run$k.out" \
	    2> "$T/run$k.err" &
	pid=$!
	at_exit "kill -9 $pid"
	poll 60 chunks "$id" 4 || echo "# job $id: no chunks in time"
	check "crash ($k): a rank runs on rtb2" test -n "$(ns_job rtb2 synthetic)"
	crash rtb2 $how
	t0=$(date +%s.%N)
	poll 120 grep -q '"ev":"restart"' "$J/$id/events.jsonl"
	echo "# crash ($k${how:+, $how}): restart recorded $(awk -v a="$t0" -v b="$(date +%s.%N)" \
	    'BEGIN { printf "%.1f", b - a }') s after the crash"
	wait $pid
	check_eq "crash ($k): run exits 0" "$?" 0
	[ -s "$T/run$k.err" ] && sed -e 's/^/#   /' "$T/run$k.err"
	check_match "crash ($k): the check passed" "$(cat "$T/run$k.out")" \
		"result matches the sequential computation"
	check_match "crash ($k): the restart on stderr, without rtb2" "$(cat "$T/run$k.err")" \
		"^gridsubmit: job $id: restart 1 of 3 without rtb2: rank 2's node "
	check_eq "crash ($k): state.json: rtb2 excluded" \
		"$(jq -c '[.state, .restarts, .restart_log[0].excluded]' "$J/$id/state.json")" \
		'["done",1,["rtb2"]]'
	check_eq "crash ($k): the restart event names rtb2" \
		"$(grep '"ev":"restart"' "$J/$id/events.jsonl" | jq -c '[.n, .excluded]')" '[1,["rtb2"]]'
	check_eq "crash ($k): the relaunch ran on rtb1 and the spare rtb3" \
		"$(grep '"ev":"start"' "$J/$id/events.jsonl" | tail -n 1 |
		    jq -c '[.ranks[1:][].node] | sort')" '["rtb1","rtb3"]'
	check "crash ($k): nothing of the job left" poll 30 nothing_left "$id"
	# the node comes back for the next round
	"$GS" testbed down "$SITES" > /dev/null 2>&1
	run_gs testbed up "$SITES"
	TAG=$(printf '%s\n' "$out" | sed -n 's/.*on bridge gs\([0-9a-f]*\)br.*/\1/p')
	[ "$rc" -eq 0 ] || { fail "testbed up again"; exit 0; }
done

# no spare: 3 ranks, at least 3, on 2 nodes + here; the crash leaves no placement
cat > "$T/nospare.yaml" <<EOF
name: rtb-nospare
program: $SYN
args: ["--units", "80000", "--mean-us", "40", "--seed", "6", "--check"]
ranks: 3
sites: [lab]
requirements: 'cpu_mhz >= 2000'
runtime: {scheme: css, k: 2000}
EOF
id=$(cat "$J/next-id" 2>/dev/null || echo 1)
"$GS" run --no-metrics --sites "$TB/sites.yaml" "$T/nospare.yaml" > "$T/ns.out" 2> "$T/ns.err" &
pid=$!
at_exit "kill -9 $pid"
poll 60 chunks "$id" 4
crash rtb2
wait $pid
check_eq "no spare: run exits 1" "$?" 1
check_match "no spare: the reason says why no relaunch" "$(jq -r .reason "$J/$id/state.json")" \
	"; cannot relaunch: no placement without the failed nodes: the job asks for 3 ranks \(the master included\) but [0-9]+ of [0-9]+ nodes pass the requirements, with 1 slot, and rank 0 on the master $(hostname) \([^)]*\); add --oversubscribe or oversubscribe: true to run more ranks than cores$"
check "no spare: the journal is kept" test -s "$J/$id/journal"
check "no spare: nothing of the job left" poll 30 nothing_left "$id"
