#!/bin/sh
# test-plain-testbed.sh — a program without libgrt across 3 emulated sites (root): every
# rank's end reaches the supervisor, from a node that shares the job directory (its line
# in DIR/rank-ends) and from nodes with directories of their own (private_fs: the line
# sent on the lease); a remote rank that exits 3, and one killed by SIGKILL, are named
# with their node and status, the others stopped and nothing left on any node; a plain MPI
# program that calls MPI_Finalize itself (pi) ends in every run of 8, its result right,
# with the finalize library in every rank, staged to the nodes that do not share our files
# (issue 31).
# serial: testbed-a (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "plain testbed" sshd tc prometheus-node-exporter jq || exit 0
PI=$SRC/$BUILD/examples/pi
[ -x "$PI" ] || { fail "plain testbed: $PI is not built (run make)"; exit 0; }

SITES=$T/pl3.yaml
cat > "$SITES" <<'EOF'
# three sites; the two slower ones do not share this host's files
sites:
  - name: fast
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: plf1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
  - name: eth
    link: {bandwidth_mbps: 10, latency_ms: 0.5}
    nodes:
      - {host: ple1, cpu_mhz: 2000, cores: 1, mem_mb: 256, emulate: {private_fs: true}}
  - name: wlan
    link: {bandwidth_mbps: 2, latency_ms: 3}
    nodes:
      - {host: plw1, cpu_mhz: 2000, cores: 1, mem_mb: 256, emulate: {private_fs: true}}
EOF
testbed_up "$SITES" "testbed up with 3 sites, two of them private_fs" || exit 0
J=$GRIDSUBMIT_HOME/jobs

# job NAME PROGRAM ARGS...: a job file $T/NAME.yaml of 4 ranks, no restart
job() {
	jn=$1 jp=$2
	shift 2
	{
		echo "name: $jn"
		echo "program: $jp"
		yaml_args "$@"
		echo "ranks: 4"
		echo "restarts: 0"
	} > "$T/$jn.yaml"
}
# ends ID: "RANK NODE EXIT SIGNAL" of state.json's rank_ends, by rank
ends() {
	jq -r '.rank_ends | sort_by(.rank) | .[] | "\(.rank) \(.node) \(.exit) \(.signal)"' \
	    "$J/$1/state.json"
}
# rank_on ID NODE: the rank job ID placed on NODE (its rankmap)
rank_on() {
	awk -v n="$2" '$2 == n { print $1 }' "$J/$1/rankmap"
}
# nothing_left NAME: no process of a job in any node's namespace, nor of pi here
nothing_left() {
	nl_left=""
	for nl_n in plf1 ple1 plw1; do
		nl_left="$nl_left$(ns_job "$nl_n" pi)"
	done
	check_eq "$1: nothing of the job is left on any node" "$nl_left" ""
	check_eq "$1: nor here" "$(live_here "$PI")" ""
}

# --- 1. every rank exits 0: done, and every rank's end known, the private_fs nodes' too;
# a program that is not an MPI program runs with the finalize library preloaded
job hello /bin/sh -c 'echo rank $PMI_RANK on $(hostname) preload ${LD_PRELOAD##*/}'
run_gs run "$T/hello.yaml" --sites "$TB/sites.yaml" --no-metrics
check_eq "a plain program across 3 sites: run exits 0" "$rc" 0
[ "$rc" -eq 0 ] || printf '%s\n' "$err" | tail -n 20 | sed -e 's/^/#   /'
check_eq "the job is done" "$(jq -r .state "$J/1/state.json")" done
check_eq "its ranks ran on the three nodes" \
    "$(printf '%s\n' "$out" | sed -n 's/^rank [1-3] on \([a-z0-9]*\) .*/\1/p' | sort | tr '\n' ' ')" \
    "ple1 plf1 plw1 "
check_eq "each of the 4 ranks ran with libgridsubmit-finalize.so preloaded" \
    "$(printf '%s\n' "$out" | grep -c ' preload libgridsubmit-finalize\.so$')" 4
check_eq "every rank's end is recorded, each exit 0" \
    "$(jq -r '[.rank_ends[] | select(.exit == 0)] | length' "$J/1/state.json")" 4
for n in plf1 ple1 plw1; do
	r=$(rank_on 1 $n)
	check_eq "rank $r's end names its node $n" "$(ends 1 | awk -v r="$r" '$1 == r { print $2 }')" $n
done
for n in ple1 plw1; do
	check "$n does not see our job directory: its rank's end came on the lease" \
	    test "$(ssh -F "$TB/ssh_config" -o BatchMode=yes -o ConnectTimeout=5 \
	    -o ControlPath=none $n "test -d $J/1 && echo shared || echo own")" = own
done

# --- 2. the rank on ple1 (a private_fs node: its end comes on the lease) exits 3
R=$(rank_on 1 ple1)
job fail "$PI" --n 2000000 --fail "$R:3"
run_gs run "$T/fail.yaml" --sites "$TB/sites.yaml" --no-metrics
check_eq "a remote rank exits 3: run exits 1" "$rc" 1
check_eq "the job failed" "$(jq -r .state "$J/2/state.json")" failed
check_match "the reason names rank $R, node ple1 and status 3" \
    "$(jq -r .reason "$J/2/state.json")" \
    "^rank $R on node ple1 exited with status 3; no restart: the program failed by itself"
check_eq "rank $R's end is recorded with its status" "$(ends 2 | grep "^$R ")" \
    "$R ple1 3 null"
check_match "run's last line says it" "$err" "job 2 failed .*rank $R on node ple1 exited with status 3"
nothing_left "a remote rank failed"

# --- 3. the rank on plw1 killed by SIGKILL while it computes
R=$(rank_on 1 plw1)
job killed "$PI" --repeat 100000
"$GS" run "$T/killed.yaml" --sites "$TB/sites.yaml" --no-metrics > "$T/killed.out" 2>&1 &
pid=$!
at_exit "kill -9 $pid"
victim=""
i=0
while [ -z "$victim" ] && [ $i -lt 600 ]; do
	for p in $(ip netns pids "gs-$TAG-plw1"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = pi ] && victim=$p
	done
	sleep 0.05
	i=$((i + 1))
done
check "rank $R's pi on plw1 is found" test -n "$victim"
kill -9 $victim
wait $pid
check_eq "a remote rank killed by SIGKILL: run exits 1" "$?" 1
check_match "the reason names rank $R, node plw1 and signal 9" \
    "$(jq -r .reason "$J/3/state.json")" "^rank $R on node plw1 died of signal 9"
check_eq "rank $R's end is recorded with its signal" "$(ends 3 | grep "^$R ")" \
    "$R plw1 null 9"
nothing_left "a remote rank killed"

# --- 4. pi calls MPI_Finalize itself, over tcp between the sites, where MPICH's own hung
# in 4 of 5 runs (doc/reliability.md): 8 runs, each done with the right value and nothing
# left (a hang would end at --time as a timeout, exit 8)
job pi "$PI" --n 10000000
done_runs=0 right=0 clean=0
for i in 1 2 3 4 5 6 7 8; do
	id=$(next_id)
	run_gs run "$T/pi.yaml" --sites "$TB/sites.yaml" --no-metrics --time 1:00
	[ "$rc" -eq 0 ] && [ "$(jq -r .state "$J/$id/state.json")" = done ] &&
		done_runs=$((done_runs + 1))
	printf '%s\n' "$out" | grep -q 'matches M_PI$' && right=$((right + 1))
	[ "$rc" -eq 0 ] || printf '%s\n' "run $i: exit $rc" "$err" | tail -n 5 | sed -e 's/^/#   /'
	left=""
	for n in plf1 ple1 plw1; do
		left="$left$(ns_job "$n" pi)"
	done
	[ -z "$left$(live_here "$PI")" ] && clean=$((clean + 1))
done
check_eq "pi across 3 sites: 8 of 8 runs exit 0, each job done" "$done_runs" 8
check_eq "pi across 3 sites: 8 of 8 runs print the right value" "$right" 8
check_eq "pi across 3 sites: after each of the 8 runs nothing is left on any node, nor here" \
    "$clean" 8
