#!/bin/sh
# test-top-plain.sh — the console on a program without libgrt, which writes no events
# (tui/model-plain.c): live in tmux, its ranks with their nodes from the rankmap and each
# rank's end as it comes, then the job's end from its record; --once and --json of the
# same job (issue 31).
. tests/lib.sh

if ! command -v tmux >/dev/null 2>&1; then
	skip "top, plain program" "tmux is not installed"
	exit 0
fi
command -v jq >/dev/null 2>&1 || { skip "top, plain program" "jq is not installed"; exit 0; }
SOCK=gs-test-$$
tm() { tmux -L "$SOCK" "$@"; }
at_exit "tmux -L $SOCK kill-server"
tm new-session -d -s keep -x 80 -y 24 "sleep 600"
screen() { tm capture-pane -p -t top 2>/dev/null; }
# see NAME REGEX: the console shows REGEX within 10 s
see() {
	if poll 10 sh -c 'tmux -L "$1" capture-pane -p -t top | grep -Eq -- "$2"' sh "$SOCK" "$2"; then
		pass "$1"
	else
		fail "$1"
		echo "#   waited for: $2"
		screen | sed -e 's/^/#   | /'
	fi
}

# rank 2 exits 0 at once; rank 1 exits 4 after 3 s (then the others are stopped)
cat > "$T/plain.yaml" <<'EOF'
name: plain
program: /bin/sh
args: ["-c", "case $PMI_RANK in 2) exit 0 ;; 1) sleep 3; exit 4 ;; *) sleep 30 ;; esac"]
ranks: 3
oversubscribe: true
restarts: 0
EOF
"$GS" run "$T/plain.yaml" --no-metrics > "$T/run.out" 2>&1 &
pid=$!
at_exit "kill -9 $pid"
poll 20 test -s "$GRIDSUBMIT_HOME/jobs/1/rankmap"
tm new-session -d -s top -x 100 -y 30 \
    "'$SRC/$GS' top 1 --interval 0.2; echo TOP-EXITED rc=\$?; sleep 60"
see "live: the console says the job has no libgrt events" "no libgrt events"
see "live: the header says what it is" "Program without libgrt +Ranks 3 on 1 site "
see "live: its ranks with their nodes from the rankmap" "^ +1 localhost "
see "live: rank 2's end as it comes, done" "^ +2 localhost .* done"
see "live: its end in the event log" "rank 2 on localhost: exit 0"
see "live: rank 1's failure, exit 4" "rank 1 on localhost: exit 4"
see "live: the job's end from its record" "ended: failed"
see "live: the ranks ended, in the header" "Ended .* 3/3 ranks, 2 failed"
wait $pid
check_eq "the job failed with rank 1's status" "$(jq -r .reason "$GRIDSUBMIT_HOME/jobs/1/state.json")" \
	"rank 1 on node localhost exited with status 4; no restart: the program failed by itself"

run_gs top 1 --once
check_eq "--once of a job without events exits 0" "$rc" 0
check_match "--once: its ranks, ends and state" "$out" \
	"^Without libgrt: 3 ranks on 1 site, 3 ended, 2 failed  ended: failed"
check_match "--once: rank 1 failed" "$out" "^ +1 localhost .* failed"
run_gs top 1 --json
check_eq "--json: each rank's state" "$(printf '%s\n' "$out" | jq -c '[.per_rank[] | .state]')" \
	'["failed","failed","done"]'
