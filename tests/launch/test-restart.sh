#!/bin/sh
# test-restart.sh — relaunch after a failure and `gridsubmit resume` (doc/restarts.md), with
# real mpiexec jobs of examples/synthetic (--check: every result compared with a
# sequential computation) on this host:
# - the job file keys restarts: and keep_journal: and --restarts: errors with file:line:col;
# - rank 0's program killed with SIGKILL mid-run (3 times): the job is relaunched on the
#   same host and ends done, the check passes, the restart is in state.json, events.jsonl,
#   status, list and the console's snapshot; the journal is removed;
# - restarts: 0: the job fails at once, the journal kept; restarts: 1 and two kills: it
#   fails with both reasons listed;
# - the detached supervisor killed with SIGKILL, then `gridsubmit resume` (3 times): done,
#   the check passes, the resume recorded as a restart; a cancelled job resumes too;
# - resume refused: a done job, a job with a live supervisor, no such job;
# - run --top: the console shows the restart live (tmux), the relaunch goes on meanwhile;
# - after every case no process of the job is left.
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "restart" "jq is not installed"; exit 0; }
command -v pgrep >/dev/null 2>&1 || { skip "restart" "pgrep is not installed (procps)"; exit 0; }
SYN="$SRC/$BUILD/examples/synthetic"
[ -x "$SYN" ] || { fail "restart: $SYN is not built"; exit 1; }
J="$GRIDSUBMIT_HOME/jobs"

at_exit sweep

# job FILE SEED [KEY: VALUE...]: a synthetic job of 3 ranks whose args name it (--seed)
job() {
	f=$1 seed=$2
	shift 2
	{
		echo "name: restart-$seed"
		echo "program: \"$SYN\""
		# the workers repeat each unit 3 times (same results): a kill lands mid-run
		echo "args: [\"--units\", \"60000\", \"--mean-us\", \"40\", \"--seed\", \"$seed\", \"--check\", \"--slow\", \"1:3,2:3\"]"
		echo "ranks: 3"
		echo "runtime: {scheme: css, k: 2000}"
		for kv; do echo "$kv"; done
		# two workers whatever this host's cores: the kills below pick one of them (last,
		# so that the lines of KEY: VALUE the errors name keep their numbers)
		echo "oversubscribe: true"
	} > "$f"
}

# chunks ID N: the job's events hold at least N chunk records after its last start
chunks() {
	[ "$(awk '/"ev":"(start|restart)"/ { c = 0 } /"ev":"chunk"/ { c++ } END { print c + 0 }' \
	    "$J/$1/events.jsonl" 2>/dev/null)" -ge "$2" ]
}

# rank0 SEED: the pid of rank 0's program of the job with --seed SEED
rank0() {
	for p in $(live "^$SYN --units 60000 --mean-us 40 --seed $1 "); do
		tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qx PMI_RANK=0 && echo "$p"
	done
}

# kill_master ID SEED: once the job has results, SIGKILL its rank 0's program
kill_master() {
	poll 30 chunks "$1" 3 || echo "# job $1: no chunk records in time"
	m=$(rank0 "$2")
	[ -n "$m" ] || echo "# job $1: no rank 0 found"
	[ -n "$m" ] && kill -KILL "$m"
}

# nothing_left ID SEED: no process of the job here
nothing_left() {
	gone "^$SYN --units 60000 --mean-us 40 --seed $2 " && gone "$J/$1/"
}

# --- the job file keys and the option
job "$T/neg.yaml" 1 "restarts: -1"
run_gs run --no-metrics "$T/neg.yaml"
check_eq "restarts: -1: exit 3" "$rc" 3
check_eq "restarts: -1: located" "$err" "$T/neg.yaml:6:11: 'restarts' must be a whole number from 0 to 1000 (relaunches after a failure), not '-1'"
job "$T/word.yaml" 1 "restarts: many"
run_gs submit --no-metrics "$T/word.yaml"
check_eq "restarts: many: exit 3, no id" "$rc:$out" "3:"
check_match "restarts: many: located" "$err" "word.yaml:6:11: 'restarts' must be a whole number"
job "$T/keep.yaml" 1 "keep_journal: 1"
run_gs run --no-metrics "$T/keep.yaml"
check_eq "keep_journal: 1: exit 3" "$rc" 3
check_eq "keep_journal: 1: located" "$err" "$T/keep.yaml:6:15: 'keep_journal' must be true or false, not '1'"
job "$T/typo.yaml" 1 "restart: 2"
run_gs run --no-metrics "$T/typo.yaml"
check_match "restart: a typo, with the closest key" "$rc $err" \
	"^3 .*typo.yaml:6:1: unknown key 'restart' \\(did you mean 'restarts'\\?\\)"
check_eq "bad job files made no job" "$(next_id)" 1
for bad in -1 1001 x ""; do
	run_gs run --no-metrics --restarts "$bad" "$T/neg.yaml"
	check_eq "--restarts '$bad': usage error (exit 2)" "$rc" 2
	check_match "--restarts '$bad': says so" "$err" "--restarts: '$bad' is not a whole number from 0 to 1000"
done
run_gs help run
check_match "help run: --restarts" "$out" "--restarts N +relaunches after a failure"
run_gs help resume
check_match "help resume: the usage" "$out" "^usage: gridsubmit resume ID \\[--restarts N\\] \\[--time T\\] \\[--top\\]"
check_match "help resume: exit 7" "$out" "7 refused"

# --- a job that ends well keeps no journal, unless keep_journal: true
job "$T/quick.yaml" 11
run_gs run --no-metrics "$T/quick.yaml"
q=$(($(next_id) - 1))
check_eq "a job without failure: done" "$rc:$(jq -r .state "$J/$q/state.json")" "0:done"
check "done: its journal is removed" test ! -e "$J/$q/journal"
check_eq "done: no restart" "$(jq -c '[.restarts, .restart_log, .t0 != null]' "$J/$q/state.json")" \
	'[0,[],true]'
job "$T/kept.yaml" 12 "keep_journal: true"
run_gs run --no-metrics "$T/kept.yaml"
q=$(($(next_id) - 1))
check_eq "keep_journal: true: done" "$rc" 0
check "keep_journal: true: the journal stays" test -s "$J/$q/journal"

# --- rank 0 killed mid-run: relaunched on this host, done, the check passes (3 times)
for k in 1 2 3; do
	seed=$((100 + k))
	job "$T/m$k.yaml" "$seed"
	id=$(next_id)
	"$GS" run --no-metrics "$T/m$k.yaml" > "$T/m$k.out" 2> "$T/m$k.err" &
	pid=$!
	at_exit "kill -9 $pid"
	kill_master "$id" "$seed"
	wait $pid
	check_eq "master killed ($k): run exits 0" "$?" 0
	check_eq "master killed ($k): done" "$(jq -r .state "$J/$id/state.json")" "done"
	check_match "master killed ($k): the check passed" "$(cat "$T/m$k.out")" \
		"result matches the sequential computation"
	check_match "master killed ($k): the restart said on stderr" "$(cat "$T/m$k.err")" \
		"^gridsubmit: job $id: restart 1 of 3 on the same nodes: rank 0 died of signal 9$"
	check_eq "master killed ($k): state.json: one restart, why, nothing excluded" \
		"$(jq -c '[.restarts, (.restart_log | length), .restart_log[0].reason,
		    .restart_log[0].excluded, (.restart_log[0].time | test("^20[0-9-]+T[0-9:.]+Z$"))]' \
		    "$J/$id/state.json")" \
		'[1,1,"rank 0 died of signal 9",[],true]'
	check_eq "master killed ($k): events.jsonl: the restart, then a new start" \
		"$(grep -E '"ev":"(start|restart)"' "$J/$id/events.jsonl" |
		    jq -c '[.ev, .n, .reason, .excluded]' | tr '\n' ' ')" \
		'["start",null,null,null] ["restart",1,"rank 0 died of signal 9",[]] ["start",null,null,null] '
	# shellcheck disable=SC2016 # jq's variables
	check "master killed ($k): t keeps growing across the restart" \
		jq -se '[.[].t] as $t | [range(1; $t | length) | $t[.] >= $t[. - 1] - 0.5] | all' \
		"$J/$id/events.jsonl"
	check "master killed ($k): the first launch's output kept as stderr.1" \
		grep -q "rank 0 on .*died of signal 9" "$J/$id/stderr.1"
	check "master killed ($k): the journal is removed" test ! -e "$J/$id/journal"
	check "master killed ($k): no process of the job left" nothing_left "$id" "$seed"
done
run_gs status "$id"
check_match "status: the restart count" "$out" '^  restarts:   1 \(at most 3 by one supervisor\)$'
check_match "status: the restart log" "$out" \
	'^    1\. [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}[+-][0-9]{2}:[0-9]{2}  rank 0 died of signal 9$'
check_match "status: progress complete" "$out" '^  progress:   60000/60000 units \(100%\)$'
check_eq "status --json: restarts and the log" \
	"$("$GS" status --json "$id" | jq -c '[.restarts, .restarts_max, .restart_log[0].reason]')" \
	'[1,3,"rank 0 died of signal 9"]'
run_gs list --format id,name,state,ranks,scheme,restarts
check_match "list: the restarts column" "$out" "^$id +restart-103 +done +3 +css +1$"
check_eq "list --json: restarts" "$("$GS" list --json | jq ".jobs[] | select(.id == $id) | .restarts")" 1
run_gs top --once "$id"
check_match "top --once: the restart counted" "$out" "Restarts 1 "

# --- restarts: 0: the job fails at once, its journal kept
job "$T/r0.yaml" 201 "restarts: 0"
id=$(next_id)
"$GS" run --no-metrics "$T/r0.yaml" > "$T/r0.out" 2> "$T/r0.err" &
pid=$!
at_exit "kill -9 $pid"
kill_master "$id" 201
wait $pid
check_eq "restarts: 0: run exits 1" "$?" 1
check_eq "restarts: 0: failed, no restart" \
	"$(jq -c '[.state, .reason, .restarts]' "$J/$id/state.json")" \
	'["failed","rank 0 died of signal 9; no restart allowed (restarts: 0)",0]'
check "restarts: 0: the journal is kept" test -s "$J/$id/journal"
check "restarts: 0: no restart event" sh -c "! grep -q '\"ev\":\"restart\"' '$J/$id/events.jsonl'"
check "restarts: 0: no process of the job left" nothing_left "$id" 201

# --- --restarts 1 (over the job file's 3) and two kills: every reason listed
job "$T/r1.yaml" 202
id=$(next_id)
"$GS" run --no-metrics --restarts 1 "$T/r1.yaml" > "$T/r1.out" 2> "$T/r1.err" &
pid=$!
at_exit "kill -9 $pid"
kill_master "$id" 202
poll 30 grep -q '"ev":"restart"' "$J/$id/events.jsonl"
kill_master "$id" 202
wait $pid
check_eq "two kills, --restarts 1: run exits 1" "$?" 1
check_eq "two kills, --restarts 1: failed with both reasons" \
	"$(jq -c '[.state, .reason, .restarts]' "$J/$id/state.json")" \
	'["failed","rank 0 died of signal 9; no restart left (1 of 1 used); restarts: 1) rank 0 died of signal 9",1]'
check "two kills: the journal is kept" test -s "$J/$id/journal"
check "two kills: no process of the job left" nothing_left "$id" 202

# --- the supervisor killed with SIGKILL, then resume (3 times)
for k in 1 2 3; do
	seed=$((300 + k))
	job "$T/s$k.yaml" "$seed"
	id=$("$GS" submit --no-metrics "$T/s$k.yaml")
	sup=$(jq .supervisor_pid "$J/$id/state.json")
	poll 30 chunks "$id" 3
	kill -KILL "$sup"
	poll 10 nothing_left "$id" "$seed"
	check "supervisor killed ($k): the job's processes end" nothing_left "$id" "$seed"
	run_gs resume "$id"
	check_eq "supervisor killed ($k): resume exits 0" "$rc" 0
	check_match "supervisor killed ($k): resume says so, in one line" "$err" \
		"^gridsubmit: job $id \\(restart-$seed\\): resumed \\(restart 1\\), 3 ranks, scheme css$"
	check_eq "supervisor killed ($k): no second line for the resume" \
		"$(printf '%s\n' "$err" | grep -c "resumed")" 1
	check_match "supervisor killed ($k): the check passed" "$out" \
		"result matches the sequential computation"
	check_eq "supervisor killed ($k): done, the resume recorded as a restart" \
		"$(jq -c '[.state, .restarts, .restart_log[0].reason, .supervisor_pid != '"$sup"']' \
		    "$J/$id/state.json")" '["done",1,"resumed by gridsubmit resume",true]'
	check_eq "supervisor killed ($k): a restart event" \
		"$(grep '"ev":"restart"' "$J/$id/events.jsonl" | jq -c '[.n, .reason]')" \
		'[1,"resumed by gridsubmit resume"]'
	check "supervisor killed ($k): no process of the job left" nothing_left "$id" "$seed"
done

# --- refusals
run_gs resume "$id"
check_eq "resume of a done job: exit 7" "$rc" 7
check_eq "resume of a done job: why" "$err" \
	"gridsubmit: job $id is done: nothing to resume (its results are in $J/$id)"
check_eq "refused: the job is unchanged" "$(jq -c '[.state, .restarts]' "$J/$id/state.json")" \
	'["done",1]'
job "$T/live.yaml" 401
id=$("$GS" submit --no-metrics "$T/live.yaml")
poll 30 chunks "$id" 1
run_gs resume "$id"
check_eq "resume with a live supervisor: exit 7" "$rc" 7
check_match "resume with a live supervisor: why" "$err" \
	"^gridsubmit: job $id is still running under its supervisor \\(pid [0-9]+\\): wait for it, or cancel it first$"
run_gs cancel "$id"
check_eq "cancel it" "$rc" 0
check "cancelled: no process of the job left" nothing_left "$id" 401
run_gs resume "$id"
check_eq "a cancelled job resumes: exit 0" "$rc" 0
check_match "a cancelled job resumes: the check passed" "$out" \
	"result matches the sequential computation"
check_eq "a cancelled job resumes: done" "$(jq -r .state "$J/$id/state.json")" "done"
check "resumed: no process of the job left" nothing_left "$id" 401
run_gs resume 9999
check_eq "resume of no such job: exit 2" "$rc:$err" "2:gridsubmit: job 9999: no such job (see gridsubmit list)"
run_gs resume ../1
check_eq "resume of a path: exit 2" "$rc" 2
run_gs resume
check_match "resume without an id: usage" "$rc $err" "^2 gridsubmit resume: missing job id"
run_gs resume 1 2
check_eq "resume of two ids: usage" "$rc" 2

# --- state.json's restart fields, damaged: a clear error naming the field, exit 3
cp "$J/$id/state.json" "$T/state.good"
for bad in '.restart_log = "x"' '.restart_log = [{"time": 3}]' \
    '.restart_log[0].excluded = [1]' '.restart_log[0].time = "yesterday"' '.restarts = -1' \
    '.restarts = "one"' '.t0 = 5' '.metrics = "no"' '.ranks_option = 0' '.sites_file = []'; do
	jq "$bad" "$T/state.good" > "$J/$id/state.json"
	run_gs status "$id"
	field=$(printf '%s' "$bad" | sed -e 's/^\.\([a-z_0-9]*\).*/\1/')
	check_match "state.json with $bad: exit 3, names \"$field\"" "$rc $err" \
		"^3 gridsubmit: $J/$id/state.json: corrupt job state: \"$field\" has the wrong type$"
done
cp "$T/state.good" "$J/$id/state.json"
jq 'del(.t0, .restarts, .restarts_max, .restart_log, .sites_file, .ranks_option, .metrics)' \
    "$T/state.good" > "$J/$id/state.json"
run_gs status --json "$id"
check_eq "a state.json of before restarts: read, no restart" \
	"$rc:$(printf '%s' "$out" | jq -c '[.restarts, .restart_log]')" '0:[0,[]]'
cp "$T/state.good" "$J/$id/state.json"

# --- run --top: the console shows the restart live while the supervisor relaunches
if command -v tmux >/dev/null 2>&1; then
	SOCK=gs-restart-$$
	at_exit "tmux -L $SOCK kill-server"
	# pane TEXT: wait (10 s) until the console's pane shows the extended regex TEXT
	pane() {
		poll 10 sh -c "tmux -L $SOCK capture-pane -p -t top | grep -Eq -- \"\$1\"" sh "$1"
	}
	job "$T/top.yaml" 501
	id=$(next_id)
	tmux -L "$SOCK" new-session -d -s top -x 120 -y 35 \
	    "$GS run --no-metrics --top $T/top.yaml; echo RUN-EXITED rc=\$?; sleep 60"
	kill_master "$id" 501
	check "run --top: the restart in the console's event pane" \
		pane "restart +restart 1: rank 0 died of signal 9"
	check "run --top: the restart counted in its header" pane "Restarts 1 "
	check "run --top: the relaunched job ends" pane "ended: ok"
	tmux -L "$SOCK" send-keys -t top q
	check "run --top: exits 0 once the console is left" pane "RUN-EXITED rc=0"
	check "run --top: the restart said after the console" \
		pane "^gridsubmit: job $id: restart 1 of 3 on the same nodes: rank 0 died of signal 9$"
	check "run --top: no process of the job left" nothing_left "$id" 501
else
	skip "run --top relaunch" "tmux is not installed"
fi

check_eq "no process of any job remains" "$(live "$J/")" ""
