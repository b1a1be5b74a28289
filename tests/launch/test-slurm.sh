#!/bin/sh
# test-slurm.sh — one MPI job across an ssh site and a Slurm site (root, a real Slurm of
# `gridsubmit testbed up sites/hpc.yaml`): the result is right and the Slurm nodes' ranks
# ran as srun steps of the job's allocation, which is released at the end; the job is
# pending with Slurm's reason while another user holds the partition, then runs; cancel
# while pending and while running releases the allocation (squeue empty) and leaves no
# process, also after the supervisor was killed with -9; a proxy srun cannot start stops
# mpiexec; an allocation that Slurm ends mid-run (a node set down) shows with Slurm's
# reason at once, and the job still ends well; a job past its --time is stopped, its
# allocation released, nothing left, and resume ends it well; a job that Slurm ends at
# the site's time limit is recorded timeout, not relaunched.
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "slurm" sshd prometheus-node-exporter jq slurmctld slurmd srun munged || exit 0
MANDEL=$SRC/$BUILD/examples/mandelbrot
if [ ! -x "$MANDEL" ]; then
	skip "slurm" "$MANDEL is not built"
	exit 0
fi
at_exit sweep
# another user's batch job runs from its node's spool, under the testbed's directory:
# every directory above it must let that user through (doc/testbed.md, "A Slurm site")
chmod 0711 "$T"
mkdir -m 0711 "$GRIDSUBMIT_HOME" "$GRIDSUBMIT_HOME/testbed"
cp sites/hpc.yaml "$T/hpc.yaml"
testbed_up "$T/hpc.yaml" "testbed up with an ssh site and a Slurm site" || exit 0
SITES=$TB/sites.yaml

# on_login CMD...: a command on the Slurm site's login host
on_login() {
	ssh -F "$TB/ssh_config" -o BatchMode=yes hpc-login "$@"
}
# ours: the Slurm jobs of gridsubmit in the queue (any state but ended)
ours() {
	on_login squeue -h -o '%j' | grep -c '^gridsubmit-'
}
# job FILE RANKS SITES ARGS...: a mandelbrot job file (SITES: a YAML list, or "")
job() {
	f=$1 r=$2 s=$3
	shift 3
	{
		echo "name: sl"
		echo "program: $MANDEL"
		yaml_args "$@"
		echo "ranks: $r"
		[ -z "$s" ] || echo "sites: $s"
		echo "runtime: {scheme: gss}"
		echo "restarts: ${RESTARTS:-0}"
	} > "$f"
}
last_job() {
	ls -d "$GRIDSUBMIT_HOME"/jobs/[0-9]* | sort -t/ -k1 -V | tail -n 1
}
# wait_for WHAT CMD...: up to 60 s until CMD succeeds
wait_for() {
	wf_i=0
	shift
	while [ $wf_i -lt 600 ]; do
		"$@" 2>/dev/null && return 0
		sleep 0.1
		wf_i=$((wf_i + 1))
	done
	return 1
}
# job_procs: the job's ranks and proxies left in the Slurm nodes' namespaces
job_procs() {
	for ns in "gs-$TAG-hpc1" "gs-$TAG-hpc2"; do ip netns pids "$ns"; done |
		xargs -r ps -o comm= -p | grep -E 'mandelbrot|hydra|gridsubmit-r' | tr '\n' ' '
}
# occupy: another user's job holds every node of the partition (its id in OTHER)
occupy() {
	OTHER=$(on_login sbatch --parsable --uid=nobody --chdir=/ --nodes=2 --exclusive \
		-J other --output=/dev/null --wrap "'sleep 600'")
}

# --- 1. one job across the ssh site and the Slurm site
job "$T/both.yaml" 5 "" --size 256 --iter 100 --check
run_gs run "$T/both.yaml" --sites "$SITES"
check_eq "a job across lab and hpc exits 0" "$rc" 0
[ "$rc" -eq 0 ] || printf '%s\n' "$out" "$err" | tail -n 20 | sed -e 's/^/#   /'
check_match "its result matches the sequential computation" "$out" 'image matches'
J=$(last_job)
sites=$(jq -r 'select(.ev == "start") | [.ranks[].site] | sort | unique | join(",")' "$J/events.jsonl")
check_eq "ranks on both sites and the master here" "$sites" "-,hpc,lab"
SID=$(jq -r '.allocations[0].id' "$J/state.json")
check_match "state.json records the Slurm job" "$SID" '^[0-9]+$'
check_eq "its nodes are the placed hpc nodes" \
	"$(jq -r '.allocations[0].hosts | sort | join(",")' "$J/state.json")" "hpc1,hpc2"
check_eq "it was released by gridsubmit" "$(jq -r '.allocations[0].released' "$J/state.json")" gridsubmit
check_eq "no allocation of gridsubmit is left in Slurm's queue" "$(ours)" 0
# the ranks ran as steps of that allocation: slurmd started them
check "hpc1's slurmd launched steps of job $SID" \
	grep -q "StepId=$SID\." "$TB/nodes/hpc1/slurmd.log"
check_eq "no rank or proxy is left on the Slurm nodes" "$(job_procs)" ""
run_gs status "$(basename "$J")"
check_match "status shows the allocation" "$out" "slurm: +job $SID on site hpc \\(hpc[12],hpc[12]\\): [A-Z]+.*; released"
# a proxy that srun cannot start (the allocation is gone) would leave mpiexec waiting for
# it forever: the launcher stops mpiexec, its parent. The job's own launcher, run again
# now that its allocation is released, under a shell standing for mpiexec:
sh -c "sh '$J/ssh-launcher' -x hpc1 '\"/bin/true\"' 2>'$T/late.err'; exec sleep 60" &
lpid=$!
wait_for "stopped" sh -c "! kill -0 $lpid"
check "a proxy srun cannot start stops mpiexec" sh -c "! kill -0 $lpid"
kill "$lpid" 2>/dev/null
check_match "saying why" "$(cat "$T/late.err")" \
	"srun on hpc-login could not start a step of Slurm job $SID on hpc1; stopping mpiexec"

# --- 2. pending while another user holds the partition, then running
occupy
check_match "another user's job holds the partition" "$OTHER" '^[0-9]+$'
wait_for "it runs" sh -c "[ \"\$(ssh -F '$TB/ssh_config' hpc-login squeue -h -j $OTHER -o %T)\" = RUNNING ]"
job "$T/onhpc.yaml" 3 "[hpc]" --size 128 --iter 100 --check
"$GS" run "$T/onhpc.yaml" --sites "$SITES" > "$T/pend.out" 2> "$T/pend.err" &
gpid=$!
wait_for "pending" grep -q 'pending: waiting for Slurm job' "$T/pend.err"
J=$(last_job)
run_gs status "$(basename "$J")"
check_match "status: pending with Slurm's reason" "$out" \
	'state: +pending \(waiting for Slurm job [0-9]+ on site hpc: (Resources|Priority|Nodes?[A-Za-z_]*|ReqNodeNotAvail[^)]*)\)'
check_match "run says it waits for Slurm" "$(cat "$T/pend.err")" \
	"gridsubmit: job $(basename "$J") pending: waiting for Slurm job [0-9]+ on site hpc"
on_login scancel "$OTHER"
wait $gpid
grc=$?
check_eq "once the partition is free the job runs and exits 0" "$grc" 0
check_match "its result is right" "$(cat "$T/pend.out")" 'image matches'
check_eq "no allocation left after it" "$(ours)" 0

# --- 3. cancel while pending releases the request
occupy
wait_for "it runs" sh -c "[ \"\$(ssh -F '$TB/ssh_config' hpc-login squeue -h -j $OTHER -o %T)\" = RUNNING ]"
check_eq "another user's job holds the partition again" "$(on_login squeue -h -j "$OTHER" -o %T)" RUNNING
run_gs submit "$T/onhpc.yaml" --sites "$SITES"
check_eq "submit while the partition is busy exits 0" "$rc" 0
J=$(last_job)
wait_for "pending" grep -q '"state": "pending"' "$J/state.json"
check_eq "the job's request waits in Slurm's queue" "$(ours)" 1
run_gs cancel "$(basename "$J")"
check_eq "cancel while pending exits 0" "$rc" 0
check_eq "cancel while pending leaves nothing of ours in Slurm's queue" "$(ours)" 0
check_match "the job is cancelled" "$(jq -r .state "$J/state.json")" '^cancelled$'
on_login scancel "$OTHER"

# --- 4. cancel while running releases the allocation, no process left
job "$T/long.yaml" 5 "" --size 512 --slow 1:400,2:400,3:400,4:400
run_gs submit "$T/long.yaml" --sites "$SITES"
J=$(last_job)
wait_for "running" grep -q '"ev":"chunk"' "$J/events.jsonl"
check "the long job runs (a chunk event)" grep -q '"ev":"chunk"' "$J/events.jsonl"
check_match "its ranks run on the Slurm nodes" "$(job_procs)" 'mandelbrot'
run_gs cancel "$(basename "$J")"
check_eq "cancel while running exits 0" "$rc" 0
check_eq "cancel leaves no allocation in Slurm's queue" "$(ours)" 0
check_eq "cancel leaves no rank or proxy on the Slurm nodes" "$(job_procs)" ""
check_eq "nor any process of the job here" "$(pgrep -f -- "$J/" | tr '\n' ' ')" ""

# --- 5. a supervisor killed with -9: cancel releases the allocation from state.json
run_gs submit "$T/long.yaml" --sites "$SITES"
J=$(last_job)
wait_for "running" grep -q '"ev":"chunk"' "$J/events.jsonl"
sup=$(jq -r .supervisor_pid "$J/state.json")
kill -9 "$sup"
# dead, not dying: the cancel is of a job whose supervisor is gone
poll 10 eval "! alive $sup"
run_gs cancel "$(basename "$J")"
check_match "cancel after the supervisor died says it released the allocation" "$out" \
	"Slurm job [0-9]+ on site hpc released"
# when it did not: how the job had ended, for the next reader of a failed run
printf '%s\n' "$out" | grep -Eq "Slurm job [0-9]+ on site hpc released" || {
	printf '%s\n' "$out" "$err" | sed -e 's/^/#   cancel: /'
	jq -r '"#   the job: \(.state): \(.reason)"' "$J/state.json"
	jq -r '"#   allocations: \(.allocations)"' "$J/state.json"
	tail -n 15 "$J/supervisor.log" | sed -e 's/^/#   /'; }
check_eq "and nothing of ours is left in Slurm's queue" "$(ours)" 0
check_eq "nor on the Slurm nodes" "$(job_procs)" ""

# --- 6. Slurm ends an allocation mid-run (a node fails): the end and Slurm's reason are in
# status while the job runs; the job still ends with the right result, on the workers left
# or relaunched without the failed node; nothing of it is left
RESTARTS=1 job "$T/nf.yaml" 4 "" --size 256 --check --slow 1:100,2:100,3:100
run_gs submit "$T/nf.yaml" --sites "$SITES"
J=$(last_job)
wait_for "running" grep -q '"ev":"chunk"' "$J/events.jsonl"
check_eq "the job's allocation holds hpc1 (the placement of 4 ranks on idle nodes)" \
	"$(jq -r '.allocations[0].hosts | join(",")' "$J/state.json")" hpc1
on_login scontrol update nodename=hpc1 state=down reason=gs-test-failure
wait_for "seen" grep -q 'Slurm ended job' "$J/supervisor.log"
run_gs status "$(basename "$J")"
check_match "the job still runs" "$out" "state: +running"
check_match "status shows Slurm's end and reason meanwhile" "$out" \
	"slurm: +job [0-9]+ on site hpc \\(hpc1\\): NODE_FAIL, NodeDown; ended by Slurm"
check_match "the supervisor says so" "$(cat "$J/supervisor.log")" \
	"Slurm ended job [0-9]+ on site hpc: NODE_FAIL, NodeDown; its nodes are lost"
run_gs wait "$(basename "$J")"
check_eq "the job still ends well" "$(jq -r .state "$J/state.json")" "done"
check_match "with the right result" "$(cat "$J/stdout")" 'image matches'
check_eq "a relaunch, if the failure took mpiexec down, left hpc1 out" \
	"$(jq -r '[.restart_log[]?.excluded | index("hpc1") != null] | all' "$J/state.json")" true
check_eq "nothing of ours is left in Slurm's queue" "$(ours)" 0
check_eq "nor on the Slurm nodes" "$(job_procs)" ""

# --- 7. the time limit (doc/restarts.md, "The time limit"): a job across both sites past
# --time is stopped as cancel stops it, the allocation released, nothing left; resume
# continues it from its journal to the right result
job "$T/limit.yaml" 5 "" --size 256 --check --slow 1:100,2:100,3:100,4:100
run_gs run "$T/limit.yaml" --sites "$SITES" --time 0:05
J=$(last_job)
check_eq "past --time 0:05 across lab and hpc: exit 8, timeout" \
	"$rc:$(jq -r .state "$J/state.json")" "8:timeout"
[ "$rc" -eq 8 ] || printf '%s\n' "$err" | tail -n 20 | sed -e 's/^/#   /'
check_match "with the reason" "$(jq -r .reason "$J/state.json")" \
	"^time limit 0:05 reached after 5\\.[0-9] s of running$"
check_eq "its allocation was released by gridsubmit" \
	"$(jq -r '.allocations[0].released' "$J/state.json")" gridsubmit
echo "# stopped, cleaned up and released $(jq -r '.ended, .started' "$J/state.json" |
	xargs -n1 date +%s.%N -d | awk 'NR == 1 { e = $1 } NR == 2 { printf "%.2f", e - $1 - 5 }') s after the limit"
check_eq "no allocation of ours is left in Slurm's queue" "$(ours)" 0
check_eq "no rank or proxy is left on the Slurm nodes" "$(job_procs)" ""
check_eq "nor any process of the job here" "$(pgrep -f -- "$J/" | tr '\n' ' ')" ""
check "its journal is kept" test -s "$J/journal"
run_gs resume "$(basename "$J")" --time 10:00
check_eq "resume --time 10:00: done" "$rc:$(jq -r .state "$J/state.json")" "0:done"
check_match "with the right result" "$out" 'image matches'
check_eq "and no allocation left after it" "$(ours)" 0

# --- 8. Slurm's own time limit first (the site's time, 1 minute; the job has none): the
# job is recorded timeout with Slurm's word, not relaunched, nothing left
sed -E 's/(time: *"?)00:10:00/\100:01:00/' "$SITES" > "$TB/sites-short.yaml"
check "a site file whose Slurm site's time is 1 minute" grep -q '00:01:00' "$TB/sites-short.yaml"
RESTARTS=2 job "$T/hpconly.yaml" 3 "[hpc]" --size 512 --slow 1:400,2:400
run_gs run "$T/hpconly.yaml" --sites "$TB/sites-short.yaml"
J=$(last_job)
check_eq "Slurm ends the allocation at its time limit: exit 8, timeout" \
	"$rc:$(jq -r .state "$J/state.json")" "8:timeout"
[ "$rc" -eq 8 ] || printf '%s\n' "$err" | tail -n 20 | sed -e 's/^/#   /'
check_match "the reason names Slurm's limit" "$(jq -r .reason "$J/state.json")" \
	"^time limit of the site reached after [0-9.]+ s of running: Slurm ended job [0-9]+ on site hpc at its own time limit$"
check_eq "no relaunch" "$(jq -r .restarts "$J/state.json")" 0
check_eq "Slurm's state of the allocation" "$(jq -r '.allocations[0].state' "$J/state.json")" TIMEOUT
check_eq "nothing of ours is left in Slurm's queue" "$(ours)" 0
check_eq "nor on the Slurm nodes" "$(job_procs)" ""
