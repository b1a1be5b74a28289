#!/bin/sh
# test-top.sh — gridsubmit top as a person sees it: the real console in tmux (send-keys,
# capture-pane) over recorded and live event streams, plus --once and --json.
. tests/lib.sh

DATA=tests/data/events
ESC=$(printf '\033')
SOCK=gs-test-$$
tm() { tmux -L "$SOCK" "$@"; }
top_cleanup() { tmux -L "$SOCK" kill-server; }
at_exit top_cleanup

if ! command -v tmux >/dev/null 2>&1; then
	skip "top console" "tmux is not installed"
	exit 0
fi

# A session that outlives the others, so that the server never exits between tests.
tm new-session -d -s keep -x 80 -y 24 "sleep 600"

# screen: the pane's text now
screen() { tm capture-pane -p -t "${1:-top}" 2>/dev/null; }

# wait_for REGEX [SESSION]: poll the pane (up to 10 s) until a line matches
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		s=$(screen "${2:-top}")
		printf '%s\n' "$s" | grep -Eq -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# see NAME REGEX [SESSION]: a check that the screen shows REGEX
see() {
	if wait_for "$2" "$3"; then
		pass "$1"
	else
		fail "$1"
		echo "#   waited for: $2"
		screen "${3:-top}" | sed -e 's/^/#   | /'
	fi
}

# not_see NAME REGEX: the screen (as it is now) does not show REGEX
not_see() {
	s=$(screen "${3:-top}")
	if printf '%s\n' "$s" | grep -Eq -- "$2"; then
		fail "$1"
		echo "#   unexpected: $2"
		printf '%s\n' "$s" | sed -e 's/^/#   | /'
	else
		pass "$1"
	fi
}

# start SESSION COMMAND: run COMMAND in a new 100x30 session; "TOP-EXITED rc=N" after it
start() {
	tm new-session -d -s "$1" -x 100 -y 30 "$2; echo TOP-EXITED rc=\$?; sleep 60"
}

# The row of a node in the table (first match).
row() { screen "${2:-top}" | grep -E "^ +[0-9]+ $1 " | head -n 1; }

# ---- --once, --json and the command line
run_gs top --once --replay "$DATA/basic.jsonl"
check_eq "--once exits 0" "$rc" 0
check "--once prints the expected snapshot" sh -c "printf '%s\n' \"\$1\" | diff -u $DATA/basic.once.txt -" sh "$out"
check_eq "--once has no escape bytes" "$(printf '%s\n' "$out" | grep -c "$ESC")" 0
run_gs top --json --replay "$DATA/basic.jsonl"
check "--json parses, schema_version 1, numbers match the events" sh -c 'printf "%s\n" "$1" | jq -e ".schema_version == 1 and .units_done == 600 and .units_total == 600 and .failed == 1 and .dropped == 1 and .migrations == 1 and ([.ranks[] | select(.state == \"failed\") | .rank] == [5]) and ([.ranks[] | .units] == [0,170,150,110,120,50,0])"' sh "$out"
run_gs top --speed 3
check_eq "--speed without --replay is a usage error" "$rc" 2
run_gs top ../etc
check_eq "a job id must be a number" "$rc" 2
run_gs top --replay "$DATA/basic.jsonl" 7
check_eq "an id and --replay together are a usage error" "$rc" 2
run_gs top --once
check_eq "no jobs: exit 1" "$rc" 1
check_match "no jobs: says where it looked" "$err" "no jobs in .*/jobs"
run_gs top --replay "$T/missing.jsonl" --once
check_eq "a missing recording: exit 1" "$rc" 1
run_gs top --replay "$DATA/basic.jsonl" < /dev/null
check_eq "no terminal: exit 1" "$rc" 1
check_match "no terminal: says to use --once" "$err" "needs a terminal.*--once"
run_gs top --help
check_match "--help lists --replay" "$out" "--replay FILE"

# ---- replay: rows and numbers match the events
start top "$GS top --replay $DATA/basic.jsonl --speed 100 --interval 0.1"
see "replay reaches the end" "ended: ok"
see "header: units done/total" "600/600 100.0%"
see "header: failed and dropped" "Failed 1 +Dropped 1"
check_match "row a1: 170 units, done" "$(row a1)" "^ +1 a1 .* 170 +170 +1\.30 +0\.15 +1\.75 .*done"
check_match "row b2: failed, control bytes stripped" "$(row 'b2\[2J')" " 50 .*failed"
check_match "row b3: dropped" "$(row b3)" " 0 +0 .*dropped"
see "event pane shows the migration" "migrate +migrate task 17: rank 3 -> 1"
see "unknown kinds are counted" "Events 15 \(0 bad, 1 unknown\)"

# sort: F6 five times from RANK reaches UNITS; site A then reads a3, a2, a1
for k in 1 2 3 4 5; do tm send-keys -t top F6; done
see "F6 sorts by UNITS" "sort UNITS "
order=$(screen | grep -E '^ +[123] a[123] ' | awk '{print $2}' | tr '\n' ' ')
check_eq "sorted by units, ascending" "$order" "a3 a2 a1 "
tm send-keys -t top I
see "I inverts" "sort UNITS inv"
order=$(screen | grep -E '^ +[123] a[123] ' | awk '{print $2}' | tr '\n' ' ')
check_eq "sorted by units, descending" "$order" "a1 a2 a3 "
tm send-keys -t top '<' '<' '<' '<' '<'
see "< goes back to RANK" "sort RANK inv"
tm send-keys -t top I

# filter: only the failed rank remains; Esc clears
tm send-keys -t top '\' f a i l e d Enter
see "filter shows the failed rank" "^ +5 b2"
not_see "filter hides the others" "^ +1 a1 "
see "filter is shown on the key bar" "filter: failed"
tm send-keys -t top '\' Escape
see "Esc clears the filter" "^ +1 a1 "

# search + detail view
tm send-keys -t top / b 1 Enter Enter
see "search b1 then Enter: detail of rank 4" "^Rank 4 +b1 +site B"
see "detail: units and chunks" "Units +120 done in 2 chunks"
tm send-keys -t top Escape
see "Esc returns to the table" "F1Help"

# help
tm send-keys -t top F1
see "F1 shows the help" "F3 /  +search"
tm send-keys -t top x
see "any key leaves the help" "F1Help"

# fold a site: Home, down twice = site A
tm send-keys -t top Home Down Down f
see "f folds site A" "^\[\+\] A +3 ranks"
not_see "folded ranks are hidden" "^ +1 a1 "
tm send-keys -t top f
see "f unfolds it" "^ +1 a1 "

# resize: 80x24 still shows the table; too small says what it needs; back again
tm resize-window -t top -x 80 -y 24
see "80x24: the table is drawn" "^ +1 a1 .*done"
check "80x24: no line wider than 80" sh -c '[ "$(tmux -L "$1" capture-pane -p -t top | awk "{ if (length > m) m = length } END { print m + 0 }")" -le 80 ]' sh "$SOCK"
tm resize-window -t top -x 50 -y 10
see "too small: says the size it needs" "need 60x14"
tm resize-window -t top -x 100 -y 30
see "larger again: redrawn" "^ +1 a1 .*done"

# q: the process ends and the terminal is given back
pane_pid=$(tm list-panes -t top -F '#{pane_pid}')
tm send-keys -t top q
see "q quits with status 0" "TOP-EXITED rc=0"
check_eq "q: the alternate screen is off" "$(tm display-message -p -t top '#{alternate_on}')" 0
not_see "q: the console is gone from the screen" "F1Help"
check_eq "q: no gridsubmit left" "$(pgrep -P "$pane_pid" gridsubmit | wc -l)" 0
tm kill-session -t top

# ---- pause freezes, n steps, space resumes (a slow 40 s recording)
awk 'BEGIN {
	printf "{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"9\",\"scheme\":\"pss\",\"N\":4000,\"ranks\":[{\"rank\":0,\"node\":\"m\",\"site\":\"S\",\"role\":\"master\"},{\"rank\":1,\"node\":\"w1\",\"site\":\"S\"},{\"rank\":2,\"node\":\"w2\",\"site\":\"S\"}]}\n"
	for (i = 1; i <= 400; i++)
		printf "{\"v\":1,\"t\":%.2f,\"ev\":\"chunk\",\"rank\":%d,\"count\":10,\"t_calc\":0.08,\"t_comm\":0.01,\"t_exe\":0.09}\n", i * 0.1, 1 + i % 2
}' > "$T/slow.jsonl"
start slow "$GS top --replay $T/slow.jsonl --interval 0.1"
see "slow replay: units arrive" "Units .* [1-9][0-9]*/4000" slow
tm send-keys -t slow Space
see "space pauses" "PAUSED" slow
sleep 0.3
a=$(screen slow)
sleep 1
b=$(screen slow)
check_eq "paused: two captures a second apart are equal" "$b" "$a"
done_a=$(printf '%s\n' "$a" | sed -n 's/.* \([0-9]*\)\/4000.*/\1/p')
tm send-keys -t slow n
see "n steps one event: 10 more units" " $((done_a + 10))/4000" slow
tm send-keys -t slow Space
sleep 0.5
not_see "space resumes" "PAUSED" slow
tm send-keys -t slow q
see "q after a replay that did not end" "TOP-EXITED rc=0" slow
tm kill-session -t slow

# ---- a garbage line and a truncated last line are survived; the rest is waited for
{
	head -n 5 "$DATA/basic.jsonl"
	printf '{"v":1,"t":0.9,"ev":"chunk","rank":\001\377 garbage\n'
	sed -n '6,13p' "$DATA/basic.jsonl"
	sed -n '14p' "$DATA/basic.jsonl" | cut -c1-40 | tr -d '\n'
} > "$T/cut.jsonl"
start cut "$GS top --replay $T/cut.jsonl --speed 100 --interval 0.1"
see "garbage counted, not fatal" "Events 12 \(1 bad, 1 unknown\)" cut
see "events after the garbage line are shown" "^ +4 b1 .* 120 " cut
not_see "the truncated line is not taken yet" "^ +3 a3 .* 110 " cut
sed -n '14p' "$DATA/basic.jsonl" | cut -c41- >> "$T/cut.jsonl"
sed -n '15,16p' "$DATA/basic.jsonl" >> "$T/cut.jsonl"
see "the rest of the line arrives and is read" "^ +3 a3 .* 110 " cut
see "and the replay ends" "ended: ok" cut
tm kill-session -t cut

# ---- live: follow the latest job's events.jsonl as it grows
mkdir -p "$GRIDSUBMIT_HOME/jobs/3" "$GRIDSUBMIT_HOME/jobs/12"
ev="$GRIDSUBMIT_HOME/jobs/12/events.jsonl"
head -n 3 "$DATA/basic.jsonl" > "$ev"
start live "$GS top --interval 0.1"
see "live: the latest job (12) is followed" "^ +1 a1 .* 100 .*working" live
see "live: header says live" "live" live
sed -n '4,8p' "$DATA/basic.jsonl" >> "$ev"
see "live: appended chunks change the numbers" "^ +1 a1 .* 170 " live
see "live: appended drop shows" "^ +6 b3 .*dropped" live
sed -n '9,16p' "$DATA/basic.jsonl" >> "$ev"
see "live: the end event ends the job" "ended: ok" live
see "live: final numbers" "600/600" live
tm send-keys -t live q
see "live: q quits" "TOP-EXITED rc=0" live
tm kill-session -t live
start wait3 "$GS top 3 --interval 0.1"
see "live: a job without events yet is waited for" "waiting for events" wait3
tm send-keys -t wait3 q
see "live: q while waiting" "TOP-EXITED rc=0" wait3
tm kill-session -t wait3
run_gs top 99 --once
check_eq "an unknown job id: exit 1" "$rc" 1

# ---- signals restore the terminal; colours only when allowed
start sig "$GS top --replay $DATA/basic.jsonl --interval 0.1"
see "sig: console up" "F1Help" sig
pane_pid=$(tm list-panes -t sig -F '#{pane_pid}')
top_pid=$(pgrep -P "$pane_pid" gridsubmit)
[ -n "$top_pid" ] && kill -TERM "$top_pid"
see "SIGTERM: the process dies of it (143)" "TOP-EXITED rc=143" sig
check_eq "SIGTERM: the alternate screen is off" "$(tm display-message -p -t sig '#{alternate_on}')" 0
tm kill-session -t sig
colours() { tm capture-pane -e -p -t "$1" | grep -Ec "$ESC\[([0-9]+;)*3[0-7](;[0-9]+)*m"; }
start col "env -u NO_COLOR $GS top --replay $DATA/basic.jsonl --speed 100 --interval 0.1"
see "colour: console up" "ended: ok" col
check "colour on a terminal without NO_COLOR" test "$(colours col)" -gt 0
tm kill-session -t col
start nocol "env -u NO_COLOR $GS top --no-color --replay $DATA/basic.jsonl --speed 100 --interval 0.1"
see "--no-color: console up" "ended: ok" nocol
check_eq "--no-color: no colour codes" "$(colours nocol)" 0
tm kill-session -t nocol
start envnc "$GS top --replay $DATA/basic.jsonl --speed 100 --interval 0.1"
see "NO_COLOR: console up" "ended: ok" envnc
check_eq "NO_COLOR: no colour codes" "$(colours envnc)" 0
tm kill-session -t envnc

# ---- --exit-at-end returns by itself
start eae "$GS top --replay $DATA/basic.jsonl --speed 100 --exit-at-end"
see "--exit-at-end leaves when the job ends" "TOP-EXITED rc=0" eae

# ---- a relaunch (doc/restarts.md): the restart is logged and counted live, the second start
# replaces the rank table (mi2 gone, mi3 in), the resume counts the journal's units
start rel "$GS top --replay $DATA/relaunch.jsonl --speed 2 --interval 0.1"
see "relaunch: the restart in the event pane" "restart +restart 1 without mi2: rank 2's node" rel
see "relaunch: the restart counted in the header" "Restarts 1 " rel
see "relaunch: the new rank on its new node" "^ +2 mi3 " rel
not_see "relaunch: the failed node's row is gone" "^ +2 mi2 " rel
see "relaunch: the resume in the event pane" "resume +resume: 350 units from the journal" rel
see "relaunch: every unit counted once" "1000/1000 100.0%" rel
see "relaunch: ends ok" "ended: ok" rel
tm kill-session -t rel
