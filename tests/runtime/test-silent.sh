#!/bin/sh
# test-silent.sh — a worker gone silent without hydra's hint is found by the master's
# adaptive deadline with the default settings (no GRT_DEADLINE), and a worker that is only
# slower is not: (a) a worker SIGSTOPped mid-run (its process still there, so hydra says
# nothing) is declared failed, its chunk requeued, and the run ends with the right result
# well before the old fixed 60 s; (b) a worker slowed about 2.5 times mid-run (stopped 60 ms
# of every 100 ms) is never declared failed. Ranks run as gridsubmit runs them
# (gridsubmit-rank, -disable-auto-cleanup).
# serial: grt-check (test-grt.sh and test-journal.sh run, and reap, the same grt-check)
. tests/lib.sh

case $BUILD in
/*) B=$BUILD ;;
*) B=$SRC/$BUILD ;;
esac
CHECK=$B/tests/runtime/mpi/grt-check
RANKEXEC=$B/gridsubmit-rank
for f in "$CHECK" "$RANKEXEC"; do
	if [ ! -x "$f" ]; then
		fail "silent: $f is built (run make tests)"
		exit 0
	fi
done
ev=$T/ev.jsonl
. tests/runtime/lib-grt-run.sh
# none_left: none of them is left
none_left() {
	[ -z "$(own_pids)" ]
}
at_exit kill_own
unset GRT_SCHEME GRT_K GRT_ALPHA GRT_SWR GRT_DEADLINE GRT_EVENTS GRT_JOB GRT_RANKMAP \
	GRT_EVENTS_CHUNKS GRT_MASTER_COMPUTES GRT_PREFETCH GRT_ROUNDS GRT_JOURNAL
export GRT_K=10

# jqv FILE EXPR: jq over the slurped records of FILE, compact
jqv() {
	jq -c -s "$2" "$1" 2>&1
}

# chunks_of R N: rank R has N chunk events or more in $ev
chunks_of() {
	[ "$(jqv "$ev" "[.[] | select(.ev == \"chunk\" and .rank == $1)] | length")" -ge "$2" ]
}

# ref UNITS: the checksum of one round computed by one rank
ref() {
	timeout -k 5 30 "$MPIEXEC" -n 1 "$CHECK" --scheme static --units "$1" |
		sed -n 's/.*checksum \([0-9a-f]*\),.*/\1/p'
}

# launch ARGS...: 4 ranks of grt-check in the background as gridsubmit launches them,
# bounded by 40 s (the old default deadline, 60 s, cannot finish within it); $pid, $ev
launch() {
	rm -f "$T/st" "$ev"
	GRT_EVENTS=$ev timeout -k 5 40 "$MPIEXEC" -disable-auto-cleanup -n 4 \
		"$RANKEXEC" --status "$T/st" -- "$CHECK" "$@" > "$T/.grt.out" 2>&1 &
	pid=$!
}

# finish: rank 0's end (or 40 s), then whatever is left killed; the output in $out
finish() {
	poll 40 test -s "$T/st"
	out=$(cat "$T/.grt.out")
	sleep 1
	kill_own
	wait $pid 2> /dev/null
	poll 10 none_left
	check_eq "$1: no process left" "$(own_pids)" ""
}

# --- (a) a worker stopped after two chunks of about 0.2 s
R=$(ref 600)
launch --scheme css --units 600 --work-us 20000 --result 8
if poll 30 chunks_of 2 2 && p=$(rank_pid 2); then
	kill -STOP "$p"
	pass "stopped: rank 2 ($p) stopped after two chunks"
else
	fail "stopped: rank 2 did two chunks"
fi
finish "stopped"
check_match "stopped: the run ends with the right result and one failed rank" "$out" \
	"grt-check: ok: scheme css, ranks 4, N 600, rounds 1, merged 600, checksum $R, failed 1,"
check_eq "stopped: rank 0 ended well" "$(cat "$T/st" 2>&1)" "exit 0"
check_eq "stopped: the fail event names rank 2, with no hint from hydra" \
	"$(jqv "$ev" '[.[] | select(.ev == "fail") | [.rank, (.reason | test("^no result within [0-9.]+ s$"))]]')" \
	'[[2,true]]'
check_eq "stopped: said before the end; every unit merged once, none by rank 2 after it" \
	"$(jqv "$ev" '(map(.ev) | index("fail")) as $f | [($f < (map(.ev) | index("end"))),
	    ([.[] | select(.ev == "chunk") | range(.start; .start + .count)] | sort == [range(600)]),
	    ([.[$f:][] | select(.ev == "chunk" and .rank == 2)] | length), (.[$f].requeued > 0)]')" \
	'[true,true,0,true]'
check_eq "stopped: the end counts rank 2 failed" \
	"$(jqv "$ev" '[.[] | select(.ev == "end") | .failed]')" '[1]'

# --- (b) a worker made about 2.5 times slower after two chunks of 0.5 s of CPU time:
# its chunks then take longer than its own measured rate foretells (and the host's other
# load varies them more), and it must not be taken as failed
R=$(ref 180)
launch --scheme css --units 180 --work-cpu-us 50000
if poll 30 chunks_of 2 2 && p=$(rank_pid 2); then
	(while kill -STOP "$p" 2> /dev/null; do
		sleep 0.06
		kill -CONT "$p" 2> /dev/null
		sleep 0.04
	done) &
	duty=$!
	at_exit "kill $duty; kill -CONT $p"
	pass "slowed: rank 2 ($p) slowed after two chunks"
else
	fail "slowed: rank 2 did two chunks"
fi
poll 40 test -s "$T/st"
kill "$duty" 2> /dev/null
wait "$duty" 2> /dev/null
kill -CONT "$p" 2> /dev/null
finish "slowed"
check_match "slowed: the run ends with the right result and no failed rank" "$out" \
	"grt-check: ok: scheme css, ranks 4, N 180, rounds 1, merged 180, checksum $R, failed 0,"
check_eq "slowed: no fail event" "$(jqv "$ev" '[.[] | select(.ev == "fail")]')" '[]'
# slower: the median of its chunks after the two against the faster of those two (its
# first can carry the start's costs, and one chunk the host's other load)
check_eq "slowed: rank 2 kept computing while slowed, slower than before" \
	"$(jqv "$ev" '[.[] | select(.ev == "chunk" and .rank == 2) | .t_exe / .count] |
	    [(length > 3), ((.[2:] | sort | .[length / 2 | floor]) > 1.5 * (.[0:2] | min))]')" \
	'[true,true]'
