#!/bin/sh
# test-simulate-tasks.sh — libgrt's migratable tasks (runtime/task/, doc/tasks.md) under
# gridsubmit simulate (doc/simulate.md, "Waiting in the SMPI build", "Background load"),
# with EP (examples/ep) as a user runs it, by the real smpirun:
# - a task run completes, its result checked by the program;
# - its ranks block: an idle spare on the single core of its worker's node takes none of
#   it (with probes priced at 100 us, the makespan stays within 10% of the run without the
#   spare; the polling build's spare took most of the core, 2.2 times the makespan);
# - every rank pays its first contact: --first-contact-ms 500 adds about a second (the
#   master's first send, then the worker's first receive);
# - background load (emulate.load): the run is longer on the same seed; the same seed
#   gives the same speed trace and makespan, another seed another trace and makespan;
# - 512 KiB states moved after every step: the run ends with its result checked, its moves
#   at the link's rate at most, their median at 80% of it at least (seed 001, fig. 4).
# Skipped when the SMPI builds are missing (SimGrid not installed).
. tests/lib.sh

need_smpi "simulate-tasks" ep || exit 0
command -v jq >/dev/null 2>&1 || { skip "simulate-tasks" "jq is not installed"; exit 0; }
EP="$SRC/$BUILD/examples/ep"
J="$GRIDSUBMIT_HOME/jobs"

at_exit sweep

# within A B F: |A - B| <= F * B
within() {
	awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= f * b) }'
}

# ms: the simulated makespan of the --json document run_gs just printed
ms() {
	printf '%s\n' "$out" | jq -r .makespan
}

# jdir: the job directory of the --json document run_gs just printed
jdir() {
	printf '%s\n' "$out" | jq -r '"\(.id)"' | sed "s|^|$J/|"
}

# sim NAME ARGS...: simulate ARGS --json; NAME's exit 0 checked; the makespan in $m
sim() {
	sim_name=$1
	shift
	run_gs simulate "$@" --json
	check_eq "$sim_name: exit 0" "$rc" 0
	[ "$rc" = 0 ] || printf '%s\n' "$err" | sed -e 's/^/#   /' | tail -n 5
	m=$(ms)
}

# one node of one core at this host's speed; its twin with background load (a job of half
# a core-second at the start, then one every second on average: the load changes within a
# run)
cat > "$T/one.yaml" <<'YAML'
sites:
  - name: s
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: n1, cpu_mhz: 1000, cores: 1}
YAML
sed -e 's/cores: 1}/cores: 1, emulate: {load: 1, load_interval: 1}}/' "$T/one.yaml" > "$T/one-load.yaml"

# --- 1. EP, one task on one worker, no spare: 40 steps of about 9 ms of this host's CPU
cat > "$T/ep.yaml" <<YAML
name: ep-sim
program: "$EP"
args: ["--steps", "40", "--pairs", "250000", "--check"]
ranks: 2
runtime: {migration: none}
YAML
sim "tasks" "$T/ep.yaml" --sites "$T/one.yaml"
alone=$m
D=$(jdir)
check_match "tasks: EP's result checked" "$(cat "$D/stdout" 2>/dev/null)" 'match'
check_match "tasks: the end event's status ok, one task's 40 steps on rank 1" \
	"$(tail -n 1 "$D/events.jsonl" | jq -c '[.status, (.ranks[] | select(.rank == 1) | .units)]')" \
	'^\["ok",40\]$'

# --- 2. an idle spare on the same core: a rank that waits blocks. Probes at 100 us: a
# spare that probed and slept in turn (the MPICH build's back-off) computed most of the time
sed -e 's/^ranks: 2$/ranks: 3\noversubscribe: true/' \
	-e 's/{migration: none}/{migration: none, spare: 1}/' "$T/ep.yaml" > "$T/ep-spare.yaml"
dear="--cfg smpi/iprobe:1e-4 --cfg smpi/test:1e-4"
# shellcheck disable=SC2086
sim "spare: alone, probes at 100 us" "$T/ep.yaml" --sites "$T/one.yaml" $dear
nospare=$m
# shellcheck disable=SC2086
sim "spare" "$T/ep-spare.yaml" --sites "$T/one.yaml" $dear
D=$(jdir)
check_eq "spare: the worker and the spare share n1" \
	"$(grep -c ' n1 ' "$D/rankmap" 2>/dev/null)" 2
check "spare: an idle spare on the worker's core costs it nothing ($nospare s without, $m s with)" \
	within "$m" "$nospare" 0.10

# --- 3. the first contact: once per rank, before its first message in or out
sim "first contact 0" "$T/ep.yaml" --sites "$T/one.yaml" --first-contact-ms 0
fc0=$m
sim "first contact 500" "$T/ep.yaml" --sites "$T/one.yaml" --first-contact-ms 500
fc500=$m
check "first contact: 500 ms adds about a second ($fc0 s, then $fc500 s)" \
	within "$(awk -v a="$fc500" -v b="$fc0" 'BEGIN { print a - b }')" 1.0 0.1

# --- 4. background load, seeded. The trace is the seed's alone; the makespan also moves
# with the CPU time SMPI measures here (up to 10% between two runs of seed 1 on a loaded
# 2-core host). Seeds 1 and 6 are far apart on this node (0.67 s and 0.37 s with the
# arrivals of common/loadgen.c for n1; 0.74 to 0.82 s and 1.18 s with the generator before).
sim "load: seed 1" "$T/ep.yaml" --sites "$T/one-load.yaml" --seed 1
load1=$m
tr1=$(cat "$(jdir)/load/n1.trace" 2>/dev/null)
sim "load: seed 1 again" "$T/ep.yaml" --sites "$T/one-load.yaml" --seed 1
load1b=$m
tr1b=$(cat "$(jdir)/load/n1.trace" 2>/dev/null)
sim "load: seed 6" "$T/ep.yaml" --sites "$T/one-load.yaml" --seed 6
load6=$m
tr6=$(cat "$(jdir)/load/n1.trace" 2>/dev/null)
check "load: longer than the idle node's ($alone s) by a fifth at least ($load1 s)" \
	awk -v a="$load1" -v b="$alone" 'BEGIN { exit !(a > 1.2 * b) }'
check "load: a trace was written" test -n "$tr1"
check_eq "load: the same seed writes the same trace" "$tr1b" "$tr1"
check "load: the same seed, the same makespan within 15% ($load1 s, $load1b s)" \
	within "$load1b" "$load1" 0.15
check "load: another seed writes another trace" test "$tr6" != "$tr1"
check "load: another seed, makespans a quarter apart at least ($load1 s, $load6 s)" \
	awk -v a="$load6" -v b="$load1" 'BEGIN { exit !(a > 1.25 * b || b > 1.25 * a) }'

# --- 5. moves of large states: a 512 KiB state after every step (GRT_MIGRATION=rotate, as
# the runtime's own tests move tasks) over 100 Mbit/s links. With one tag for every
# message's bytes, a state's receive took the sender's next 8-byte length and the run hung;
# with a moved state's first send in the wait's MPI_Waitany, SMPI aborted the run at its end
cat > "$T/three.yaml" <<'YAML'
sites:
  - name: s
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: "n[1-3]", cpu_mhz: 1000, cores: 1}
YAML
cat > "$T/ep-move.yaml" <<YAML
name: ep-move
program: "$EP"
args: ["--steps", "20", "--pairs", "50000", "--state-kb", "512", "--check"]
ranks: 4
runtime: {spare: 1}
env: {GRT_MIGRATION: rotate}
YAML
sim "moves" "$T/ep-move.yaml" --sites "$T/three.yaml"
D=$(jdir)
check_match "moves: EP's result checked after the moves" "$(cat "$D/stdout" 2>/dev/null)" \
	'[1-9][0-9]* migrations.*result matches'
check "moves: 512 KiB moves at the link's 12.5 MB/s at most, their median at 80% at least" \
	sh -c "grep '\"ev\":\"migrate\"' '$D/events.jsonl' | jq -e -s \
	'[.[] | .bytes / .seconds / 12.5e6] | sort | length > 0 and .[length / 2 | floor] >= 0.8 and
	    all(.[]; . <= 1)'"
