#!/bin/sh
# bench-simulate-tasks.sh — does a simulation of libgrt's migratable tasks predict the
# testbed? (doc/simulate.md, "Validation"; seed 001 section 5.2; root.) EP as
# examples/ep/job-dynpvm.yaml runs it (4 tasks, 2 spares; BENCH_SIMTASK_STEPS steps,
# default 1000 as bench-migration.sh, no --check) on sites/dynpvm.yaml without load, then
# with its load under migration none, load-diff and load-abs. Each point is
# BENCH_SIMTASK_RUNS (default 3) pairs: the testbed built again and the job run on it (its
# nodes' load starts empty at `testbed up`, with the arrivals of seed 1), then the same job
# simulated on that testbed's derived site file (its CPU quotas in cpu_scale) with --seed 1,
# the same arrivals; the medians of each side. Rows: the simulated makespan against the
# testbed's, goal within 15%, and each policy's slowdown over the unloaded run (loaded /
# unloaded - 1), simulated and on the testbed; each pair's line goes to
# $BUILD/bench/simulate-tasks.md, with the workers' CPU share on each side (CPU time over
# compute time: on the testbed, what the node's quota and load left them) and this host's
# load average before it. The testbed's cgroup gets the weight of BENCH_SIMTASK_SHARES
# (default 10) tasks, so that other work on this host does not take the nodes' quotas.
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
SRC=$(pwd)
STEPS=${BENCH_SIMTASK_STEPS:-1000}
RUNS=${BENCH_SIMTASK_RUNS:-3}
EP=$SRC/$BUILD/examples/ep
mkdir -p "$BUILD/bench"
MD=$BUILD/bench/simulate-tasks.md

if [ "$(id -u)" -ne 0 ]; then
	echo "# bench-simulate-tasks: skipped (the testbed needs root)"
	exit 0
fi
if [ ! -x "$BUILD/examples/smpi/ep" ]; then
	echo "# bench-simulate-tasks: skipped ($BUILD/examples/smpi/ep is not built: no SimGrid)"
	exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/gs-bench.XXXXXX") || exit 1
export GRIDSUBMIT_HOME="$T/home"
export GRIDSUBMIT_CONFIG=
J=$GRIDSUBMIT_HOME/jobs
TESTBED=""
trap '[ -n "$TESTBED" ] && "$GS" testbed down "$TESTBED" > /dev/null 2>&1; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

# up FILE: the testbed of FILE, built again; its derived site file in $SITES
up() {
	[ -n "$TESTBED" ] && "$GS" testbed down "$TESTBED" > /dev/null 2>&1
	TESTBED=$1
	if ! "$GS" testbed up "$1" > "$T/up.out" 2>&1; then
		echo "bench-simulate-tasks: testbed up $1 failed:" >&2
		cat "$T/up.out" >&2
		exit 1
	fi
	SITES=$GRIDSUBMIT_HOME/testbed/$(basename "$1" .yaml)/sites.yaml
	# the testbed's cgroup weighs as BENCH_SIMTASK_SHARES tasks, not one (cgroup v1,
	# cpu.shares 1024 a task): against other work on this host its nodes get their quota
	tag=$(sed -n 's/.*on bridge gs\([0-9a-f]*\)br.*/\1/p' "$T/up.out")
	cg=/sys/fs/cgroup/cpu/gridsubmit-$tag
	[ -n "$tag" ] && [ -w "$cg/cpu.shares" ] &&
	    echo $((1024 * ${BENCH_SIMTASK_SHARES:-10})) > "$cg/cpu.shares"
}

# share ID: the workers' CPU time over their compute time in job ID's events (a step's
# share of one CPU of this host: the node's quota times what its load leaves the task)
share() {
	jq -rs '[.[] | select(.ev == "chunk")] | (map(.cpu) | add) / (map(.t_calc) | add)' \
	    "$J/$1/events.jsonl"
}

# median: of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 }
	    END { if (NR % 2) printf "%.6g", v[(NR + 1) / 2]; else if (NR) printf "%.6g", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# job POLICY: the EP job file with that migration policy, in $T/ep-POLICY.yaml
job() {
	sed -e "s|^program: .*|program: $EP|" \
	    -e "s|\"--steps\", \"[0-9]*\"|\"--steps\", \"$STEPS\"|" -e 's|, "--check"||' \
	    -e "s|migration: [a-z-]*|migration: $1|" \
	    "$SRC/examples/ep/job-dynpvm.yaml" > "$T/ep-$1.yaml"
}

# pair LABEL POLICY N: one run on the testbed up, then one simulation of its derived
# site file with seed 1; "testbed simulated migrations-testbed migrations-simulated" on
# $T/pairs, the pair's line in $MD
pair() {
	load=$(cut -d' ' -f1 /proc/loadavg)
	id=$(cat "$J/next-id" 2>/dev/null || echo 1)
	if ! "$GS" run "$T/ep-$2.yaml" --sites "$SITES" -q > "$T/run.out" 2>&1; then
		echo "bench-simulate-tasks: $1 on the testbed failed:" >&2
		cat "$T/run.out" >&2
		exit 1
	fi
	tb=$("$GS" status "$id" --json | jq -r .makespan)
	tbm=$(grep '"ev":"end"' "$J/$id/events.jsonl" | tail -n 1 | jq .migrations)
	tbs=$(share "$id")
	if ! "$GS" simulate "$T/ep-$2.yaml" --sites "$SITES" --seed 1 --json \
	    > "$T/sim.json" 2> "$T/sim.err"; then
		echo "bench-simulate-tasks: $1 simulated failed:" >&2
		cat "$T/sim.err" >&2
		exit 1
	fi
	sm=$(jq -r .makespan "$T/sim.json")
	smm=$(grep '"ev":"end"' "$J/$(jq -r .id "$T/sim.json")/events.jsonl" | tail -n 1 |
	    jq .migrations)
	sms=$(share "$(jq -r .id "$T/sim.json")")
	echo "$tb $sm $tbm $smm" >> "$T/pairs"
	printf '| %s | %s | %.2f | %.2f | %s | %s | %.3f | %.3f | %s |\n' "$1" "$3" "$tb" "$sm" \
	    "$tbm" "$smm" "$tbs" "$sms" "$load" >> "$MD"
}

# measure LABEL POLICY SITEFILE: RUNS pairs, each on a testbed built again from SITEFILE;
# "LABEL testbed simulated migrations-testbed migrations-simulated" (medians) into $T/rows
measure() {
	job "$2"
	: > "$T/pairs"
	n=1
	while [ "$n" -le "$RUNS" ]; do
		up "$3"
		pair "$1" "$2" "$n"
		n=$((n + 1))
	done
	echo "$1 $(cut -d' ' -f1 "$T/pairs" | median) $(cut -d' ' -f2 "$T/pairs" | median)" \
	    "$(cut -d' ' -f3 "$T/pairs" | median) $(cut -d' ' -f4 "$T/pairs" | median)" >> "$T/rows"
}

sed -e 's|, *emulate: *{[^}]*}||' "$SRC/sites/dynpvm.yaml" > "$T/dynpvm-noload.yaml"
{
	echo "# simulated tasks against the testbed — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
	echo
	echo "ep, $STEPS steps, 7 ranks, 2 spares, sites/dynpvm.yaml; $RUNS pairs per point, seed 1"
	echo
	echo "| run | pair | testbed (s) | simulated (s) | moves, testbed | moves, simulated | CPU share, testbed | CPU share, simulated | load average |"
	echo "|---|---|---|---|---|---|---|---|---|"
} > "$MD"
: > "$T/rows"
measure unloaded none "$T/dynpvm-noload.yaml"
for p in none load-diff load-abs; do
	measure "$p" "$p" "$SRC/sites/dynpvm.yaml"
done
"$GS" testbed down "$TESTBED" > /dev/null 2>&1
TESTBED=""

read -r _ utb usim _ _ < "$T/rows"
while read -r label tb sim tbm simm; do
	awk -v l="$label" -v t="$tb" -v s="$sim" -v tm="$tbm" -v sm="$simm" -v n="$RUNS" \
	    -v ut="$utb" -v us="$usim" 'BEGIN {
		printf "| simulate-tasks | ep %s: simulated makespan (s), median of %d pairs, %s moves | %.2f | %.2f (testbed, %s moves) | %.2f | 0.85-1.15 |\n",
		    l, n, sm, s, t, tm, s / t
		if (l != "unloaded")
			printf "| simulate-tasks | ep %s: slowdown over unloaded, simulated | %+.0f%% | %+.0f%% (testbed) | - | - |\n",
			    l, 100 * (s / us - 1), 100 * (t / ut - 1) }'
done < "$T/rows"
