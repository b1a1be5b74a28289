#!/bin/sh
# test-top-tasks.sh — gridsubmit top on a run of migratable tasks, as a person sees it: a
# crafted events.jsonl (tasks-spec: start, tasks, chunks of tasks, two migrations with
# their reasons, end) followed live in the real console under tmux, plus --once and --json.
. tests/lib.sh

SOCK=gs-tasks-$$
tm() { tmux -L "$SOCK" "$@"; }
tasks_cleanup() { tmux -L "$SOCK" kill-server 2>/dev/null; }
at_exit tasks_cleanup

if ! command -v tmux >/dev/null 2>&1; then
	skip "top on a task run" "tmux is not installed"
	exit 0
fi

tm new-session -d -s keep -x 80 -y 24 "sleep 600"

screen() { tm capture-pane -p -t top 2>/dev/null; }

# wait_for REGEX: poll the pane (up to 10 s) until a line matches
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# see NAME REGEX: a check that the screen shows REGEX
see() {
	if wait_for "$2"; then
		pass "$1"
	else
		fail "$1"
		echo "#   waited for: $2"
		screen | sed -e 's/^/#   | /'
	fi
}

# The row of a node in the rank table.
row() { screen | grep -E "^ +[0-9]+ $1 " | head -n 1; }

# The recording: ranks 1-3 hold tasks 0-5 two by two, rank 4 is the spare; task 2 moves
# from rank 2 to the spare, task 5 from rank 3 to rank 1.
cat > "$T/part1" <<'EOF'
{"v":1,"t":0,"ev":"start","job":"5","scheme":"tasks","N":30,"rounds":1,"tasks":6,"steps":5,"migration":"load-diff","ranks":[{"rank":0,"node":"m0","site":"lab","role":"master"},{"rank":1,"node":"n1","site":"lab"},{"rank":2,"node":"n2","site":"lab"},{"rank":3,"node":"n3","site":"lab"},{"rank":4,"node":"n4","site":"lab"}]}
{"v":1,"t":0.01,"ev":"tasks","at":[1,1,2,2,3,3],"spare":[4],"reason":"start"}
{"v":1,"t":0.5,"ev":"chunk","rank":1,"round":1,"start":0,"count":1,"t_calc":0.4,"t_comm":0.01,"task":0,"step":0,"cpu":0.4}
{"v":1,"t":0.55,"ev":"chunk","rank":3,"round":1,"start":20,"count":1,"t_calc":0.5,"t_comm":0.01,"task":4,"step":0,"cpu":0.2}
{"v":1,"t":0.6,"ev":"chunk","rank":2,"round":1,"start":10,"count":1,"t_calc":0.5,"t_comm":0.01,"task":2,"step":0,"cpu":0.2}
{"v":1,"t":0.9,"ev":"chunk","rank":1,"round":1,"start":5,"count":1,"t_calc":0.4,"t_comm":0.01,"task":1,"step":0,"cpu":0.4}
{"v":1,"t":1.1,"ev":"chunk","rank":3,"round":1,"start":25,"count":1,"t_calc":0.5,"t_comm":0.01,"task":5,"step":0,"cpu":0.2}
{"v":1,"t":1.2,"ev":"chunk","rank":2,"round":1,"start":15,"count":1,"t_calc":0.5,"t_comm":0.01,"task":3,"step":0,"cpu":0.2}
EOF
cat > "$T/part2" <<'EOF'
{"v":1,"t":2.0,"ev":"migrate","task":2,"from":2,"to":4,"bytes":81920,"seconds":0.09,"reason":"load-diff: rank 2 (n2) load 2.10, rose 1.40; rank 4 (n4) load 0.05, spare"}
{"v":1,"t":2.4,"ev":"migrate","task":5,"from":3,"to":1,"bytes":40960,"seconds":0.05,"reason":"load-abs: rank 3 (n3) load 1.90 over 1.50 for 10 s"}
{"v":1,"t":2.8,"ev":"chunk","rank":4,"round":1,"start":11,"count":1,"t_calc":0.3,"t_comm":0.01,"task":2,"step":1,"cpu":0.3}
{"v":1,"t":3.0,"ev":"chunk","rank":1,"round":1,"start":26,"count":1,"t_calc":0.4,"t_comm":0.01,"task":5,"step":1,"cpu":0.4}
EOF
printf '%s\n' '{"v":1,"t":5.0,"ev":"end","status":"ok","makespan":5.0,"migrations":2,"restarted":0}' \
	> "$T/part3"
cat "$T/part1" "$T/part2" "$T/part3" > "$T/tasks.jsonl"

# ---- --once and --json of the whole recording
run_gs top --once --replay "$T/tasks.jsonl"
check_eq "--once of a task run exits 0" "$rc" 0
check_match "--once: the task columns" "$out" "STATE +TASKS +MIG I/O"
check_match "--once: rank 1 holds 0,1,5, one in" "$out" "^ +1 n1 .*done +0,1,5 +1/0( |$)"
check_match "--once: rank 4, the spare, holds task 2" "$out" "^ +4 n4 .*done +2 +1/0( |$)"
run_gs top --json --replay "$T/tasks.jsonl"
check "--json: tasks and migrations per rank" sh -c 'printf "%s\n" "$1" | jq -e "[.per_rank[] | {r: .rank, t: .tasks, i: .migrations_in, o: .migrations_out}] == [{r:0,t:[],i:0,o:0},{r:1,t:[0,1,5],i:1,o:0},{r:2,t:[3],i:0,o:1},{r:3,t:[4],i:0,o:1},{r:4,t:[2],i:1,o:0}]"' sh "$out"
run_gs top --once --replay tests/data/events/basic.jsonl
check "--once of a loop job: no task columns" sh -c '! printf "%s\n" "$1" | grep -q "TASKS"' sh "$out"
run_gs top --json --replay tests/data/events/basic.jsonl
check "--json of a loop job: no task fields" sh -c 'printf "%s\n" "$1" | jq -e "[.per_rank[] | has(\"tasks\") or has(\"migrations_in\")] | any | not"' sh "$out"

# ---- live: the placement, then the moves as they come
mkdir -p "$GRIDSUBMIT_HOME/jobs/5"
ev="$GRIDSUBMIT_HOME/jobs/5/events.jsonl"
cp "$T/part1" "$ev"
tm new-session -d -s top -x 100 -y 30 "$GS top 5 --interval 0.1; echo TOP-EXITED rc=\$?; sleep 60"
see "live: the task columns are shown" "STATE +TASKS +MIG I/O"
see "before the moves: rank 1 holds 0,1" "^ +1 n1 .* 0,1 +0/0( |$)"
check_match "before the moves: rank 2 holds 2,3" "$(row n2)" " 2,3 +0/0( |$)"
check_match "before the moves: rank 3 holds 4,5" "$(row n3)" " 4,5 +0/0( |$)"
check_match "before the moves: rank 4 is the spare" "$(row n4)" " spare +0/0( |$)"
check_match "the master holds no task" "$(row m0)" "master +- +-( |$)"
see "the placement is logged with its reason" "tasks +6 tasks on 3 ranks, spare 4 \(start\)"

cat "$T/part2" >> "$ev"
see "after the moves: rank 1 holds 0,1,5, one in" "^ +1 n1 .* 0,1,5 +1/0( |$)"
check_match "after the moves: rank 2 holds 3, one out" "$(row n2)" " 3 +0/1( |$)"
check_match "after the moves: rank 3 holds 4, one out" "$(row n3)" " 4 +0/1( |$)"
check_match "after the moves: rank 4 holds 2, one in" "$(row n4)" " 2 +1/0( |$)"
see "header: two migrations" "Migrations 2 "
see "log: the first move with the start of its reason" \
	"migrate +migrate task 2: rank 2 -> 4, 80\.0 KiB in 0\.090 s \(load-diff: rank 2 \(n2\)"
see "log: the second move" "migrate +migrate task 5: rank 3 -> 1, 40\.0 KiB"

# wide enough for the whole reasons
tm resize-window -t top -x 200 -y 30
see "log, 200 columns: the first reason whole" \
	"\(load-diff: rank 2 \(n2\) load 2\.10, rose 1\.40; rank 4 \(n4\) load 0\.05, spare\)"
see "log, 200 columns: the second reason whole" \
	"\(load-abs: rank 3 \(n3\) load 1\.90 over 1\.50 for 10 s\)"

# the detail of the spare that took task 2
tm send-keys -t top / n 4 Enter Enter
see "detail of rank 4" "^Rank 4 +n4 +site lab"
see "detail: the task it holds and its migrations" "^Tasks +2 +migrations 1 in, 0 out"
see "detail: the move with its reason" \
	"migrate +task 2 from rank 2, 80\.0 KiB in 0\.090 s \(load-diff: rank 2 \(n2\) load 2\.10"
see "detail: a step of its task" "chunk +task 2 step 1, calc 0\.300 s"
tm send-keys -t top Escape

# 80x24: the task columns stay, nothing wider than the terminal
tm resize-window -t top -x 80 -y 24
see "80x24: rank 1's tasks and counts" "^ +1 n1 .* 0,1,5 +1/0( |$)"
# characters, not bytes: a line cut ends in an ellipsis
check "80x24: no line wider than 80" sh -c '[ "$(tmux -L "$1" capture-pane -p -t top | LC_ALL=C.UTF-8 wc -L)" -le 80 ]' sh "$SOCK"

cat "$T/part3" >> "$ev"
see "the end of the run" "ended: ok"
see "the end line counts the migrations" "end: status ok, makespan 5\.00 s, 2 migrations, 0 tasks"
check_match "after the end rank 4 still shows task 2" "$(row n4)" "done +2 +1/0( |$)"
tm send-keys -t top q
see "q quits" "TOP-EXITED rc=0"
tm kill-session -t top
