# A program that never starts libgrt (a plain MPI program, or any program) is judged as
# mpiexec judges it (jobrun_verdict, submit/jobrun.c; jobrun-ranks.c): done when every rank
# exits 0, failed with the first failing rank, its node and its status otherwise; its
# other ranks stopped; a relaunch starts it from scratch, and says so; cancel stops it
# (issue 31). Every rank's end is in state.json's rank_ends (gridsubmit-rank --ends).
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "plain programs" "jq is not installed"; exit 0; }
PI=$SRC/$BUILD/examples/pi
[ -x "$PI" ] || { fail "plain programs: $PI is not built (run make)"; exit 0; }
# plain NAME RANKS RESTARTS PROGRAM ARGS...: a job file $T/NAME.yaml
plain() {
	pn=$1 pr=$2 pt=$3 pp=$4
	shift 4
	{
		echo "name: $pn"
		echo "program: $pp"
		yaml_args "$@"
		echo "ranks: $pr"
		# a worker's status among several, whatever this host's cores
		echo "oversubscribe: true"
		echo "restarts: $pt"
	} > "$T/$pn.yaml"
}
J=$GRIDSUBMIT_HOME/jobs
# ends ID: each rank's end in state.json, "RANK NODE EXIT SIGNAL" lines sorted by rank
ends() {
	jq -r '.rank_ends | sort_by(.rank) | .[] | "\(.rank) \(.node) \(.exit) \(.signal)"' \
	    "$J/$1/state.json"
}
# pi_rank RANK: the pid of rank RANK's pi process of this test (not its wrapper's)
pi_rank() {
	for pr_p in $(live_here "$PI --repeat"); do
		[ "$(cat "/proc/$pr_p/comm" 2>/dev/null)" = pi ] &&
			tr '\0' '\n' < "/proc/$pr_p/environ" 2>/dev/null | grep -qx "PMI_RANK=$1" &&
			echo "$pr_p"
	done
}

plain hello 2 0 /bin/sh -c 'echo hello from $PMI_RANK'
run_gs run "$T/hello.yaml" --no-metrics
check_eq "every rank exits 0: run exits 0" "$rc" 0
check_eq "each rank's output" "$(printf '%s\n' "$out" | sort | tr '\n' ' ')" \
	"hello from 0 hello from 1 "
check_eq "the job is done" "$(jq -r .state "$J/1/state.json")" done
check_eq "state.json has each rank's end" "$(ends 1 | tr '\n' ' ')" \
	"0 localhost 0 null 1 localhost 0 null "
check_match "run's last line says the ranks, without libgrt" "$err" \
	"job 1 done in .* s \\(2 ranks, without libgrt\\)"
check_eq "state.json says the program never started libgrt" \
	"$(jq -r .libgrt "$J/1/state.json")" false
check_eq "list: no scheme and no makespan for it" \
	"$("$GS" list --format id,scheme,makespan --state done | awk '$1 == 1 { print $1, $2, $3 }')" \
	"1 - -"
check_eq "list --json: scheme and makespan null" \
	"$("$GS" list --json | jq -c '[.jobs[] | select(.id == 1) | .scheme, .makespan]')" \
	"[null,null]"

# a real MPI program whose rank 2 exits 3 before the reduction the others wait in: the
# others are stopped at once (under -disable-auto-cleanup they would wait forever)
plain worker 3 3 "$PI" --n 1000000 --fail 2:3
run_gs run "$T/worker.yaml" --no-metrics
check_eq "rank 2 exits 3: run exits 1" "$rc" 1
check_eq "the job failed" "$(jq -r .state "$J/2/state.json")" failed
check_match "the reason names rank 2, its node and its status" \
	"$(jq -r .reason "$J/2/state.json")" \
	"^rank 2 on node localhost exited with status 3; no restart: the program failed by itself"
check_match "run's last line says it" "$err" \
	"job 2 failed in .*: rank 2 on node localhost exited with status 3"
check_eq "rank 2's end is recorded with its status" "$(ends 2 | grep '^2 ')" \
	"2 localhost 3 null"
check_eq "every rank's end is recorded" "$(ends 2 | wc -l)" 3
check_eq "nothing of the job is left" "$(live_here "$PI")" ""
check_match "status shows the reason" "$("$GS" status 2)" "first failure: rank 2 on node localhost exited with status 3"

plain master 2 0 /bin/sh -c 'exit $(( PMI_RANK == 0 ? 3 : 0 ))'
run_gs run "$T/master.yaml" --no-metrics
check_eq "rank 0 exits 3: run exits 1" "$rc" 1
check_match "the reason names rank 0 and its status" "$(jq -r .reason "$J/3/state.json")" \
	"^rank 0 on node localhost exited with status 3"

# a rank of a real MPI program killed by SIGKILL from outside
plain killed 3 0 "$PI" --repeat 100000
"$GS" run "$T/killed.yaml" --no-metrics > "$T/killed.out" 2>&1 &
pid=$!
at_exit "kill -9 $pid"
poll 30 test -n "$(pi_rank 1)"
victim=$(pi_rank 1)
check "rank 1's process is found" test -n "$victim"
kill -9 $victim
wait $pid
check_eq "a rank killed by SIGKILL: run exits 1" "$?" 1
check_match "the reason names rank 1, its node and signal 9" \
	"$(jq -r .reason "$J/4/state.json")" \
	"^rank 1 on node localhost died of signal 9; no restart allowed \\(restarts: 0\\)"
check_eq "rank 1's end is recorded with its signal" "$(ends 4 | grep '^1 ')" \
	"1 localhost null 9"
check_eq "nothing of the killed job is left" "$(live_here "$PI")" ""

# cancel: SIGINT to run stops every rank of the plain program
plain long 3 0 "$PI" --repeat 100000
"$GS" run "$T/long.yaml" --no-metrics > "$T/long.out" 2>&1 &
pid=$!
at_exit "kill -9 $pid"
poll 30 test -n "$(pi_rank 2)"
check "the long job's ranks are running" test -n "$(pi_rank 2)"
kill -INT $pid
wait $pid
check_eq "a plain job interrupted by SIGINT: run exits 130" "$?" 130
check_eq "the job is cancelled" "$(jq -r .state "$J/5/state.json")" cancelled
check_eq "no rank is left behind" "$(live_here "$PI")" ""

# restarts: 1 and a program whose rank 1 is killed on its first launch only (a marker
# file): relaunched from scratch, said so, and done
plain again 3 1 /bin/sh -c \
	"[ \$PMI_RANK = 1 ] && [ ! -e $T/marker ] && touch $T/marker && kill -9 \$\$; echo run \$PMI_RANK"
run_gs run "$T/again.yaml" --no-metrics
check_eq "killed on the first launch, done on the second: run exits 0" "$rc" 0
check_eq "the job is done" "$(jq -r .state "$J/6/state.json")" done
check_eq "after one restart" "$(jq -r .restarts "$J/6/state.json")" 1
check_match "the restart line says it starts from scratch" "$err" \
	"restart 1 of 1 on the same nodes: rank 1 on node localhost died of signal 9; no journal: the program starts again from scratch"
check_match "so does the restart event" \
	"$(grep '"ev":"restart"' "$J/6/events.jsonl")" \
	"no journal: the program starts again from scratch"
check_match "and state.json's restart log" "$(jq -r '.restart_log[0].reason' "$J/6/state.json")" \
	"^rank 1 on node localhost died of signal 9; no journal"
check_eq "the second launch's ends are the job's" "$(ends 6 | tr '\n' ' ')" \
	"0 localhost 0 null 1 localhost 0 null 2 localhost 0 null "
check "the first launch's ends are kept beside" grep -q '^1 .* signal 9 ' "$J/6/rank-ends.1"

# while it runs: rank 1 ends at once, the others after a while; status and the progress
# line show the ranks' ends as they come, without libgrt's events
plain slow 3 0 /bin/sh -c '[ $PMI_RANK = 1 ] || sleep 3'
"$GS" run "$T/slow.yaml" --no-metrics > "$T/slow.out" 2>&1 &
pid=$!
at_exit "kill -9 $pid"
poll 20 test -s "$J/7/rank-ends"
st=$("$GS" status 7)
check_match "status of a running plain job: its ranks' ends so far" "$st" "rank ends:  1 of 3"
check_match "status: rank 1's end beside its placement" "$st" \
	"     1  localhost  .*  exit 0"
check_match "status: rank 0 not ended yet" "$st" "     0  localhost  .*  -"
check_match "status --json: rank_ends so far" \
	"$("$GS" status 7 --json | jq -c '[.rank_ends[] | [.rank, .exit]]')" '^\[\[1,0\]\]$'
wait $pid
check_eq "then done" "$(jq -r .state "$J/7/state.json")" done
check_match "status of the done job: no scheme, no makespan" "$("$GS" status 7)" \
	"scheme:     - \\(no libgrt\\)"
if command -v script > /dev/null 2>&1; then
	TERM=xterm script -qefc "'$GS' run '$T/slow.yaml' --no-metrics" /dev/null \
	    < /dev/null > "$T/tty" 2>&1
	check_match "on a terminal, the progress line says the ranks ended so far" \
		"$(tr '\r' '\n' < "$T/tty")" \
		"^job 8: running, no libgrt events, 1 of 3 ranks ended, [0-9.]+ s elapsed"
else
	skip "progress line of a plain job" "script (util-linux) is not installed"
fi
