#!/bin/sh
# bench-simulate-tasks.sh — does a simulation of libgrt's migratable tasks predict the
# testbed? (doc/simulate.md, "Validation"; seed 001 section 5.2; root.) EP as
# examples/ep/job-dynpvm.yaml runs it (4 tasks, 2 spares; BENCH_SIMTASK_STEPS steps,
# default 1000 as bench-migration.sh, no --check) on sites/dynpvm.yaml without load, then
# with its load under migration none, load-diff and load-abs; each run once on the testbed
# (built again for every loaded run, so that each policy meets the same arrivals, as in
# bench-migration.sh) and simulated on that testbed's derived site file (its CPU quotas in
# cpu_scale) with seeds 1 to BENCH_SIMTASK_SEEDS (default 3), their median. Rows: the
# simulated makespan against the testbed's, goal within 15%, and each policy's slowdown
# over the unloaded run (loaded / unloaded - 1), simulated and on the testbed.
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh)
# and writes every run to $BUILD/bench/simulate-tasks.md.
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
SRC=$(pwd)
STEPS=${BENCH_SIMTASK_STEPS:-1000}
SEEDS=${BENCH_SIMTASK_SEEDS:-3}
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

# measure LABEL POLICY: one run on the testbed up, then SEEDS simulations of its derived
# site file; "LABEL testbed simulated migrations-testbed migrations-simulated" into $T/rows
measure() {
	job "$2"
	id=$(cat "$J/next-id" 2>/dev/null || echo 1)
	if ! "$GS" run "$T/ep-$2.yaml" --sites "$SITES" -q > "$T/run.out" 2>&1; then
		echo "bench-simulate-tasks: $1 on the testbed failed:" >&2
		cat "$T/run.out" >&2
		exit 1
	fi
	tb=$("$GS" status "$id" --json | jq -r .makespan)
	tbm=$(grep '"ev":"end"' "$J/$id/events.jsonl" | tail -n 1 | jq .migrations)
	echo "| $1 | testbed | $tb | $tbm |" >> "$MD"
	: > "$T/sims"
	s=1
	while [ "$s" -le "$SEEDS" ]; do
		if ! "$GS" simulate "$T/ep-$2.yaml" --sites "$SITES" --seed "$s" --json \
		    > "$T/sim.json" 2> "$T/sim.err"; then
			echo "bench-simulate-tasks: $1 simulated, seed $s, failed:" >&2
			cat "$T/sim.err" >&2
			exit 1
		fi
		sm=$(jq -r .makespan "$T/sim.json")
		smm=$(grep '"ev":"end"' "$J/$(jq -r .id "$T/sim.json")/events.jsonl" | tail -n 1 |
		    jq .migrations)
		echo "$sm $smm" >> "$T/sims"
		echo "| $1 | simulated, seed $s | $sm | $smm |" >> "$MD"
		s=$((s + 1))
	done
	echo "$1 $tb $(cut -d' ' -f1 "$T/sims" | median) $tbm $(cut -d' ' -f2 "$T/sims" | median)" \
	    >> "$T/rows"
}

sed -e 's|, *emulate: *{[^}]*}||' "$SRC/sites/dynpvm.yaml" > "$T/dynpvm-noload.yaml"
{
	echo "# simulated tasks against the testbed — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
	echo
	echo "ep, $STEPS steps, 7 ranks, 2 spares, sites/dynpvm.yaml; simulated seeds 1 to $SEEDS"
	echo
	echo "| run | where | makespan (s) | migrations |"
	echo "|---|---|---|---|"
} > "$MD"
: > "$T/rows"
up "$T/dynpvm-noload.yaml"
measure unloaded none
for p in none load-diff load-abs; do
	up "$SRC/sites/dynpvm.yaml"
	measure "$p" "$p"
done
"$GS" testbed down "$TESTBED" > /dev/null 2>&1
TESTBED=""

read -r _ utb usim _ _ < "$T/rows"
while read -r label tb sim tbm simm; do
	awk -v l="$label" -v t="$tb" -v s="$sim" -v tm="$tbm" -v sm="$simm" -v n="$SEEDS" \
	    -v ut="$utb" -v us="$usim" 'BEGIN {
		printf "| simulate-tasks | ep %s: simulated makespan (s), median of %d seeds, %s moves | %.2f | %.2f (testbed, %s moves) | %.2f | 0.85-1.15 |\n",
		    l, n, sm, s, t, tm, s / t
		if (l != "unloaded")
			printf "| simulate-tasks | ep %s: slowdown over unloaded, simulated | %+.0f%% | %+.0f%% (testbed) | - | - |\n",
			    l, 100 * (s / us - 1), 100 * (t / ut - 1) }'
done < "$T/rows"
