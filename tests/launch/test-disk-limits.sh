#!/bin/sh
# test-disk-limits.sh — a job whose processes run out of file descriptors or memory
# (doc/restarts.md, "Out of descriptors or memory"), with real mpiexec jobs of
# examples/synthetic on this host; each run under `timeout` as a hang guard only:
# - run under a hard limit of 10 descriptors: refused before anything starts (exit 5, the
#   descriptors the ranks need and the limit named, no job directory): the launch's
#   descriptor budget (launch/fd-budget.h) sees it coming;
# - the supervisor's limit lowered mid-run to its lowest free descriptor (prlimit on its
#   pid alone: what it holds stays open, every descriptor below the limit is taken, nothing
#   new opens, as when a process has used all it may): it ends (exit 1) saying it ran out
#   of file descriptors with the limit, `status` says the job failed with that reason (the
#   supervisor's reserve, submit/jobrun-fatal.c, given back for state.json), nothing of the
#   job is left;
# - the supervisor's address space capped at its size mid-run (prlimit on its pid alone):
#   it ends (exit 1) saying it is out of memory, `status` says the job failed with that
#   reason, nothing of the job is left.
# Each case runs REPEAT times (default 1; make soak's word `disk`).
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "disk-limits" "jq is not installed"; exit 0; }
command -v prlimit >/dev/null 2>&1 || { skip "disk-limits" "prlimit is not installed (util-linux)"; exit 0; }
SYN="$SRC/$BUILD/examples/synthetic"
[ -x "$SYN" ] || { fail "disk-limits: $SYN is not built"; exit 1; }
J="$GRIDSUBMIT_HOME/jobs"
at_exit sweep

# job FILE SEED: a synthetic job of 3 ranks that runs for some seconds, named by its seed
job() {
	{
		echo "name: res-$2"
		echo "program: \"$SYN\""
		echo "args: [\"--units\", \"60000\", \"--mean-us\", \"40\", \"--seed\", \"$2\", \"--check\", \"--slow\", \"1:3,2:3\"]"
		echo "ranks: 3"
		echo "runtime: {scheme: css, k: 2000}"
		echo "oversubscribe: true"
	} > "$1"
}

# nothing_left ID SEED: no process of the job here
nothing_left() {
	gone "^$SYN --units 60000 --mean-us 40 --seed $2 " && gone "$J/$1/"
}

# first_free PID: the lowest descriptor number PID does not hold, the smallest of five
# looks 0.1 s apart (a descriptor open for a moment is not counted as held)
first_free() {
	ff_min=
	for ff_i in 1 2 3 4 5; do
		ff_n=0
		while [ -e "/proc/$1/fd/$ff_n" ]; do
			ff_n=$((ff_n + 1))
		done
		[ -z "$ff_min" ] || [ "$ff_n" -lt "$ff_min" ] && ff_min=$ff_n
		sleep 0.1
	done
	echo "$ff_min"
}

chunks() {
	[ "$(grep -c '"ev":"chunk"' "$J/$1/events.jsonl" 2>/dev/null)" -ge "$2" ]
}

for k in $(seq "${REPEAT:-1}"); do
	# --- a hard limit below what the ranks need: refused before a job is made
	seed=$((600 + k))
	job "$T/fd$k.yaml" "$seed"
	id=$(next_id)
	timeout 120 prlimit --nofile=10 "$GS" run --no-metrics "$T/fd$k.yaml" \
	    > "$T/fd$k.out" 2> "$T/fd$k.err"
	check_eq "10 descriptors ($k): run exits 5" "$?" 5
	check_match "10 descriptors ($k): the reason on stderr" "$(cat "$T/fd$k.err")" \
		"^gridsubmit: 3 ranks need about [0-9]+ file descriptors; the hard limit is 10: raise it"
	check "10 descriptors ($k): no job made" test ! -e "$J/$id"
	check "10 descriptors ($k): nothing left" poll 10 nothing_left "$id" "$seed"

	# --- the supervisor itself out of descriptors mid-run
	seed=$((700 + k))
	job "$T/sup$k.yaml" "$seed"
	id=$(next_id)
	"$GS" run --no-metrics "$T/sup$k.yaml" > "$T/sup$k.out" 2> "$T/sup$k.err" &
	pid=$!
	at_exit "kill -9 $pid"
	poll 60 chunks "$id" 3 || echo "# job $id: no chunk records in time"
	# every number below the limit taken: the descriptors it holds stay open, no new one opens
	lim=$(first_free "$pid")
	prlimit --pid "$pid" --nofile="$lim:$lim"
	(sleep 120; kill -9 "$pid") 2>/dev/null &
	guard=$!
	wait "$pid"
	check_eq "supervisor out of descriptors ($k): run exits 1" "$?" 1
	kill "$guard" 2>/dev/null
	check_match "supervisor out of descriptors ($k): the reason on stderr" \
		"$(cat "$T/sup$k.err")" \
		"^gridsubmit: the supervisor ran out of file descriptors \\(the limit here: $lim, ulimit -n\\)"
	check "supervisor out of descriptors ($k): nothing left" poll 10 nothing_left "$id" "$seed"
	run_gs status "$id"
	check_match "supervisor out of descriptors ($k): status: failed, with the reason" "$out" \
		"state: +failed \\(the supervisor ran out of file descriptors \\(the limit here: $lim, ulimit -n\\)"

	# --- the supervisor out of memory mid-run
	seed=$((800 + k))
	job "$T/mem$k.yaml" "$seed"
	id=$(next_id)
	"$GS" run --no-metrics "$T/mem$k.yaml" > "$T/mem$k.out" 2> "$T/mem$k.err" &
	pid=$!
	at_exit "kill -9 $pid"
	poll 60 chunks "$id" 3 || echo "# job $id: no chunk records in time"
	prlimit --pid "$pid" --as="$(($(awk '/^VmSize/ { print $2 }' "/proc/$pid/status") * 1024))"
	# the hang guard: a supervisor still there after 120 s is killed, and the case fails
	(sleep 120; kill -9 "$pid") 2>/dev/null &
	guard=$!
	wait "$pid"
	check_eq "out of memory ($k): run exits 1" "$?" 1
	kill "$guard" 2>/dev/null
	check_match "out of memory ($k): said on stderr" "$(cat "$T/mem$k.err")" \
		"^gridsubmit: out of memory allocating [0-9]+ bytes"
	check "out of memory ($k): nothing left" poll 10 nothing_left "$id" "$seed"
	run_gs status "$id"
	check_match "out of memory ($k): status: failed, with the reason" "$out" \
		"state: +failed \\(the supervisor stopped: out of memory allocating [0-9]+ bytes\\)"
done
