#!/bin/sh
# test-pingpong.sh — the ping-pong of seed 001's fig. 3 (examples/pingpong) with a real
# mpiexec on 3 ranks, in both modes (plain MPI between ranks 1 and 2; two tasks of the task
# runtime addressed by id), tiny counts: exit 0, a round trip of more than 0 us, every
# message received as it was sent (its round, its length, every byte: "messages intact"),
# from one byte past the header to past MPICH's eager limit; the tasks moved after every
# step (GRT_MIGRATION=rotate), so that every message is routed to a task that changed its
# node, still intact; bad arguments and too few ranks exit 2 with the usage; the SMPI build
# under gridsubmit simulate (what the experiment's simulated half runs), both modes. No
# time is asserted beyond its being there: the times go to the experiment
# (examples/experiments/seed001-fig3.yaml).
. tests/lib.sh

PP=$BUILD/examples/pingpong
[ -x "$PP" ] || { fail "pingpong: $PP is not built (run make)"; exit 0; }
RUN="timeout -k 5 60 $MPIEXEC"

# pp NAME MODE BYTES VAR=VALUE... -- MPIEXEC-ARGS: a run of 20 round trips after 2; its
# line, exit 0, intact, the round trip above 0
pp() {
	name=$1 mode=$2 bytes=$3
	shift 3
	env "$@" "$PP" --mode "$mode" --bytes "$bytes" --count 20 --warmup 2 \
	    > "$T/out" 2> "$T/err"
	st=$?
	o=$(cat "$T/out")
	check_eq "$name: exit 0" "$st" 0
	[ "$st" -eq 0 ] || sed -e 's/^/#   err: /' "$T/err" | tail -n 5
	check_match "$name: the line, every message intact" "$o" \
	    "^pingpong: mode $mode, $bytes bytes, 20 round trips after 2 warm-up, round trip [0-9.]+ us, messages intact$"
	us=$(printf '%s\n' "$o" | sed -n 's/.*round trip \([0-9.]*\) us.*/\1/p')
	check "$name: a round trip takes more than 0 us ($us)" \
	    awk -v u="${us:-0}" 'BEGIN { exit !(u > 0) }'
}

for mode in rank task; do
	for bytes in 9 4096 100000; do
		pp "$mode mode, $bytes bytes" "$mode" "$bytes" $RUN -n 3
	done
done
pp "task mode, 4 ranks (one idle)" task 1000 $RUN -n 4
pp "rank mode, 4 ranks (one idle)" rank 1000 $RUN -n 4
# every task moves after each of its steps: every message goes to a task that moved
pp "task mode, tasks moved every step" task 5000 GRT_MIGRATION=rotate $RUN -n 3

for bad in "--mode rnak" "--mode" "--bytes 7" "--count 0" "--warmup -1" "--bogus 1"; do
	# shellcheck disable=SC2086
	$RUN -n 3 "$PP" $bad > "$T/out" 2> "$T/err"
	check_eq "pingpong $bad: exit status 2" "$?" 2
	check_match "pingpong $bad: says its usage" "$(cat "$T/err")" "^usage: pingpong "
done
$RUN -n 2 "$PP" > "$T/out" 2> "$T/err"
check_eq "pingpong on 2 ranks: exit status 2" "$?" 2
check_match "pingpong on 2 ranks: says 3 are needed" "$(cat "$T/err")" \
    "^pingpong: 2 ranks: at least 3 are needed"

# the SMPI build as the experiment's simulated runs use it: a job of 3 ranks on two nodes
need_smpi "pingpong simulated" pingpong || exit 0
cat > "$T/sites.yaml" <<'YAML'
sites:
  - name: cluster
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: "ws[1-3]", cpu_mhz: 200, cores: 1}
YAML
for mode in rank task; do
	cat > "$T/job.yaml" <<YAML
name: pingpong
program: $SRC/$BUILD/examples/pingpong
args: ["--mode", "$mode", "--bytes", "4096", "--count", "20"]
ranks: 3
sites: [cluster]
YAML
	run_gs simulate "$T/job.yaml" --sites "$T/sites.yaml" -q
	check_eq "simulated, $mode mode: exit 0" "$rc" 0
	check_match "simulated, $mode mode: every message intact" "$out" \
	    "^pingpong: mode $mode, 4096 bytes, 20 round trips after 10 warm-up, round trip [0-9.]+ us, messages intact$"
	us=$(printf '%s\n' "$out" | sed -n 's/.*round trip \([0-9.]*\) us.*/\1/p')
	# 2 x 4096 bytes over 100 Mbit/s are 655 us: a round trip cannot take less
	check "simulated, $mode mode: a round trip takes at least the link's 655 us ($us)" \
	    awk -v u="${us:-0}" 'BEGIN { exit !(u >= 655) }'
done
