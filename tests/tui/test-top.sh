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
check "--json parses, schema_version 3, numbers match the events" sh -c 'printf "%s\n" "$1" | jq -e ".schema_version == 3 and .units_done == 600 and .units_total == 600 and .failed == 1 and .dropped == 1 and .migrations == 1 and ([.per_rank[] | select(.state == \"failed\") | .rank] == [5]) and ([.per_rank[] | .units] == [0,170,150,110,120,50,0])"' sh "$out"
run_gs top --speed 3
check_eq "--speed without --replay is a usage error" "$rc" 2
run_gs top ../etc
check_eq "a job id must be a number" "$rc" 2
run_gs top --replay "$DATA/basic.jsonl" 7
check_eq "an id and --replay together are a usage error" "$rc" 2
run_gs top --once
check_eq "no jobs: exit 2, as status without an id" "$rc" 2
check_match "no jobs: says where it looked" "$err" "no job yet in .*/jobs"
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
see "unknown kinds are counted" "Records 15 \(0 bad, 1 unknown\)"
see "the log counts its entries among the same records" "^LOG  6 entries of 15 records read, 1 migration"

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

# fold a site (htop's + and - of a tree): Home, down twice = site A
tm send-keys -t top Home Down Down +
see "+ folds site A" "^\[\+\] A +3 ranks"
not_see "folded ranks are hidden" "^ +1 a1 "
tm send-keys -t top =
see "= unfolds it" "^ +1 a1 "

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

# ---- Z pauses (htop's pause; Space is htop's tag and pauses nothing), n steps, z resumes
# (a slow 40 s recording)
awk 'BEGIN {
	printf "{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"9\",\"scheme\":\"pss\",\"N\":4000,\"ranks\":[{\"rank\":0,\"node\":\"m\",\"site\":\"S\",\"role\":\"master\"},{\"rank\":1,\"node\":\"w1\",\"site\":\"S\"},{\"rank\":2,\"node\":\"w2\",\"site\":\"S\"}]}\n"
	for (i = 1; i <= 400; i++)
		printf "{\"v\":1,\"t\":%.2f,\"ev\":\"chunk\",\"rank\":%d,\"count\":10,\"t_calc\":0.08,\"t_comm\":0.01,\"t_exe\":0.09}\n", i * 0.1, 1 + i % 2
}' > "$T/slow.jsonl"
start slow "$GS top --replay $T/slow.jsonl --interval 0.1"
see "slow replay: units arrive" "Units .* [1-9][0-9]*/4000" slow
tm send-keys -t slow Space
sleep 0.3
not_see "Space does not pause" "PAUSED" slow
tm send-keys -t slow Z
see "Z pauses" "PAUSED" slow
sleep 0.3
a=$(screen slow)
sleep 1
b=$(screen slow)
check_eq "paused: two captures a second apart are equal" "$b" "$a"
done_a=$(printf '%s\n' "$a" | sed -n 's/.* \([0-9]*\)\/4000.*/\1/p')
tm send-keys -t slow n
see "n steps one event: 10 more units" " $((done_a + 10))/4000" slow
tm send-keys -t slow z
sleep 0.5
not_see "z resumes" "PAUSED" slow
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
see "garbage counted, not fatal" "Records 12 \(1 bad, 1 unknown\)" cut
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
check_eq "an unknown job id: exit 2, as in every command that takes an id" "$rc" 2

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

# ---- issue 18: the timeline, F9, small terminals, the detail's events, bad replays, the
# first chunk, and the job's own time
# start_at SESSION W H COMMAND: as start, in a W x H terminal
start_at() {
	tm new-session -d -s "$1" -x "$2" -y "$3" "$4; echo TOP-EXITED rc=\$?; sleep 60"
}
# widest SESSION: the widest line of the pane, in columns (an ellipsis is one)
widest() {
	screen "$1" | sed -e 's/…/./g' | awk '{ if (length > m) m = length } END { print m + 0 }'
}
# tl_row NODE [SESSION]: the timeline row of a node (rank, node, track, busy %)
tl_row() { screen "${2:-top}" | grep -E "^ +[0-9]+ $1 +[^ ]" | head -n 1; }

# -- the timeline at 140x40: one row per rank, compute and communication, the marks
start_at tl 140 40 "$GS top --replay $DATA/basic.jsonl --speed 100 --interval 0.1"
see "timeline: the replay ends" "ended: ok" tl
tm send-keys -t tl Tab
see "Tab shows the timeline: a time axis over the rows" "^RANK NODE +\|0s +\|0\.5s .*BUSY$" tl
see "timeline: the key bar says Tab goes on to the event log" " TabEvents " tl
check_eq "timeline: one row per worker, each with its busy share" \
	"$(screen tl | grep -cE '^ +[1-6] [^ ]+ +[.#~=MDX ]+ +[0-9]+%$')" 6
check_match "timeline: the master has its row" "$(tl_row head tl)" "^ +0 head +master$"
check_match "timeline: a3 computes and communicates, and gave a task away" "$(tl_row a3 tl)" \
	"^ +3 a3 +[.~]*~+#+~+[.#~]*M[#~.]* +88%$"
check_match "timeline: a1 took the task, and worked least of the live ranks" \
	"$(tl_row a1 tl)" "^ +1 a1 +[.#~]+M\.+ +45%$"
check_match "timeline: b2's failure marked, nothing after it" "$(tl_row 'b2\[2J' tl)" \
	"^ +5 b2\[2J +[.#~]+X\.? +34%$"
check_match "timeline: b3 dropped at 1.5 s of 3.2, nothing after it" "$(tl_row b3 tl)" \
	"^ +6 b3 +\.{55,60}D +0%$"
see "timeline: the legend names every glyph" \
	"^# compute  ~ communication  \. idle  = running  M migration  D dropped  X failed" tl
check "timeline: no line wider than 140" test "$(widest tl)" -le 140
tm send-keys -t tl Tab
see "Tab again: the event log over the whole screen" "^LOG  6 entries of 15 records read" tl
see "event log: its oldest entry is on screen too" "^ +0\.00 start +start: job 7" tl
not_see "event log: no rank table" "^ +1 a1 .* 170 " tl
check_match "event log: its key bar has Tab to the ranks and no key of the rows" \
	"$(screen tl | tail -n 1)" "^F1Help TabRanks ZPause nStep d0\.1s F10Quit$"
tm send-keys -t tl Tab
see "Tab a third time: the table" "^ +1 a1 .* 170 +170 .*done" tl
tm kill-session -t tl
# colour doubles the glyphs: compute in green, communication in blue, only without NO_COLOR
start_at tlc 140 40 "env -u NO_COLOR $GS top --replay $DATA/basic.jsonl --speed 100 --interval 0.1"
see "timeline colour: console up" "ended: ok" tlc
tm send-keys -t tlc Tab
see "timeline colour: shown" "^ +3 a3 " tlc
check "timeline colour: compute cells green" sh -c 'tmux -L "$1" capture-pane -e -p -t tlc | grep -Eq "$(printf "\033")\[([0-9]+;)*32(;[0-9]+)*m#+"' sh "$SOCK"
check "timeline colour: communication cells blue" sh -c 'tmux -L "$1" capture-pane -e -p -t tlc | grep -Eq "$(printf "\033")\[([0-9]+;)*34(;[0-9]+)*m~+"' sh "$SOCK"
tm kill-session -t tlc
start_at tln 140 40 "$GS top --replay $DATA/basic.jsonl --speed 100 --interval 0.1"
see "timeline NO_COLOR: console up" "ended: ok" tln
tm send-keys -t tln Tab
see "timeline NO_COLOR: shown" "^ +3 a3 " tln
check_eq "timeline NO_COLOR: no colour codes" "$(colours tln)" 0
tm kill-session -t tln

# -- 60x15: "+N more" when rows are hidden, a key bar and a help that fit, no word cut
start_at small 60 15 "$GS top --replay $DATA/basic.jsonl --speed 100 --interval 0.1"
see "60x15: the replay ends" "ended: ok" small
see "60x15: hidden ranks are counted on the last row of the table" \
	"^ \+4 more ranks \(PgDn\)$" small
check_eq "60x15: the key bar holds whole keys only" "$(screen small | tail -n 1)" \
	"F1Help F3Search F4Filter F6Sort TabTimeline ZPause F10Quit"
check "60x15: no line wider than 60" test "$(widest small)" -le 60
see "60x15: a long event line ends at a word, marked" "sd 0\.30(…|\.\.\.)$" small
tm send-keys -t small End
see "60x15: at the end, the ranks above are counted" "^ \+[0-9]+ more ranks \(PgUp\)$" small
see "60x15: the last rank shown" "^ +6 b3 " small
tm send-keys -t small Tab
see "60x15 timeline: the last rank's row" "^ +6 b3 +\.+D +0%$" small
see "60x15 timeline: hidden ranks counted" "^ \+[0-9]+ more ranks" small
check_eq "60x15 timeline: the key bar" "$(screen small | tail -n 1)" \
	"F1Help F3Search F4Filter F6Sort TabEvents ZPause F10Quit"
check "60x15 timeline: no line wider than 60" test "$(widest small)" -le 60
tm send-keys -t small F1
see "60x15 help: the keys in two columns" "^F1 h \? +this help +S-Tab +previous screen$" small
see "60x15 help: F9 and k, htop's kill, cancel" "^F9 k +cancel job \(y/n\)" small
see "60x15 help: Tab" "^Tab +next screen" small
see "60x15 help: what does not fit is said on the last line" "^-- more \((↓|Down)/PgDn\) --$" small
not_see "60x15 help: the notes below are not shown yet" "^doc/console\.md has the formulas" small
not_see "60x15 help: no line cut" "…|\.\.\.$" small
check "60x15 help: no line wider than 60" test "$(widest small)" -le 60
tm send-keys -t small PgDn
see "60x15 help: PgDn scrolls to the last note" "^doc/console\.md has the formulas$" small
see "60x15 help: at the end, the way back on the last line" "^Press any key to return\.$" small
not_see "60x15 help: no more mark at the end" "^-- more" small
not_see "60x15 help, scrolled: no line cut" "…|\.\.\.$" small
tm send-keys -t small x
tm send-keys -t small F9
see "F9 in a replay: not available" "F9 cancel: not available in a replay" small
not_see "F9 in a replay: no question" "Cancel job" small
tm kill-session -t small

# -- issue 32: a name is never cut inside a part, counts read alike, ranks that share a node
# add up. names.jsonl: ranks 1 and 2 on one node with a long name, rank 3 alone on another
cat > "$T/names.jsonl" <<'JSONL'
{"v":1,"t":0,"ev":"start","job":"5","scheme":"pss","N":300000,"ranks":[{"rank":0,"node":"head","site":"S","role":"master"},{"rank":1,"node":"compute-node-17.cluster","site":"S","pr":0.3},{"rank":2,"node":"compute-node-17.cluster","site":"S","pr":0.3},{"rank":3,"node":"gpu-b2.cluster","site":"S","pr":0.4}]}
{"v":1,"t":1,"ev":"chunk","rank":1,"count":100000,"t_calc":0.8,"t_comm":0.2,"t_exe":1.0}
{"v":1,"t":1.5,"ev":"chunk","rank":2,"count":100000,"t_calc":1.2,"t_comm":0.3,"t_exe":1.5}
{"v":1,"t":2,"ev":"chunk","rank":3,"count":100000,"t_calc":1.5,"t_comm":0.5,"t_exe":2.0}
{"v":1,"t":2,"ev":"end","status":"ok","makespan":2.0}
JSONL
# name_ok CELL: a node name of names.jsonl, whole, or cut after a part (before '.', '-' or
# '_') and marked with an ellipsis
name_ok() {
	for n in head compute-node-17.cluster gpu-b2.cluster; do
		[ "$1" = "$n" ] && return 0
		case "$1" in
		*…)
			p=${1%…}
			case "$n" in "$p".* | "$p"-* | "$p"_*) return 0 ;; esac
			;;
		esac
	done
	return 1
}
# names_cut SESSION: the node cells of the rank rows that are neither whole nor cut at a part
names_cut() {
	screen "$1" | awk '/^ +[0-9]+ [^ ]/ { print $2 }' | while read -r cell; do
		name_ok "$cell" || echo "$cell"
	done
}
start_at names 80 24 "$GS top --replay $T/names.jsonl --speed 100 --interval 0.1"
see "names 80x24: the replay ends" "ended: ok" names
see "names 80x24: a node row sums the two ranks on it" \
	"^ +compute[^ ]*… +0\.60 +200k +2\.00 +0\.50 +166667 2 ranks$" names
check_match "names 80x24: UNITS and LAST in one form" "$(row 'compute[^ ]*…' names)" \
	"^ +1 compute[^ ]*… +0\.30 +100k +100k "
check_match "names 80x24: the shared node's ranks under its row" \
	"$(screen names | grep -A 2 '^ *compute[^ ]*… .*2 ranks$' | awk '{ print $1 }' | tr '\n' ' ')" \
	"^compute[^ ]*… 1 2 $"
check_eq "names 80x24: no name cut inside a part in the table" "$(names_cut names)" ""
tm send-keys -t names Tab
see "names 80x24: the timeline" "^RANK NODE +\|0s" names
see "names 80x24 timeline: a long name cut after a part, marked" "^ +1 compute-node-17… +[~#.]+ +50%$" names
see "names 80x24 timeline: the shared node's row" "^ +compute-node-17… +2 ranks on this node, busy together: +125%$" names
check_eq "names 80x24 timeline: no name cut inside a part" "$(names_cut names)" ""
tm resize-window -t names -x 60 -y 15
see "names 60x15 timeline: narrower, still at a part" "^ +1 compute… +[~#.]+ +50%$" names
check_eq "names 60x15 timeline: no name cut inside a part" "$(names_cut names)" ""
check "names 60x15: no line wider than 60" test "$(widest names)" -le 60
tm kill-session -t names
run_gs top --json --replay "$T/names.jsonl"
check "names --json: per_node sums the shared node (ranks 1 and 2, 200000 units)" sh -c \
	'printf "%s\n" "$1" | jq -e "[.per_node[] | select(.node == \"compute-node-17.cluster\")] | length == 1 and .[0].placed_ranks == [1,2] and .[0].units == 200000 and .[0].t_calc == 2 and .[0].rate == 100000"' sh "$out"
check "names --json: a node alone has its own entry" sh -c \
	'printf "%s\n" "$1" | jq -e "[.per_node[] | select(.node == \"gpu-b2.cluster\") | .placed_ranks] == [[3]]"' sh "$out"
run_gs top --once --replay "$T/names.jsonl"
check_match "names --once: the node row" "$out" \
	"
 +compute-node-17\.\.\. +S +0\.60 +200k +2\.00 +0\.50 +166667 2 ranks"
check_match "names --once: 1 site" "$out" "Workers 3 on 1 site "

# -- the detail view lists the rank's events, newest last
start_at det 140 40 "$GS top --replay $DATA/basic.jsonl --speed 100 --interval 0.1"
see "detail: replay ends" "ended: ok" det
tm send-keys -t det / a 1 Enter Enter
see "detail: rank 1's events" "^Events of this rank \(3\), newest last$" det
see "detail: its first chunk" "^ +0\.50 chunk +100 units, calc 0\.400 s, comm 0\.050 s, exe 0\.450 s, units 0-99, round 1$" det
check_eq "detail: chunks, then the migration: newest last" \
	"$(screen det | grep -E '^ +[0-9.]+ (chunk|migrate) ' | awk '{ print $1 }' | tr '\n' ' ')" \
	"0.50 1.60 2.00 "
see "detail: the task it took, and from whom" "^ +2\.00 migrate +task 17 from rank 3, 80\.0 KiB in 0\.090 s$" det
tm kill-session -t det
awk 'BEGIN {
	printf "{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"8\",\"N\":100000,\"ranks\":[{\"rank\":0,\"node\":\"m\",\"role\":\"master\"},{\"rank\":1,\"node\":\"w1\"}]}\n"
	for (i = 1; i <= 40; i++)
		printf "{\"v\":1,\"t\":%d,\"ev\":\"chunk\",\"rank\":1,\"start\":%d,\"count\":10,\"t_calc\":0.9,\"t_comm\":0.1,\"t_exe\":1}\n", i, 10 * (i - 1)
	printf "{\"v\":1,\"t\":40.5,\"ev\":\"fail\",\"rank\":1,\"requeued\":10,\"reason\":\"lost\"}\n"
}' > "$T/many.jsonl"
start_at many 60 15 "$GS top --replay $T/many.jsonl --speed 1000 --interval 0.1"
see "detail 60x15: replay read, 100000 units in the one count form" "400/100k " many
tm send-keys -t many / w 1 Enter Enter
see "detail 60x15: the newest event on the last line of the list" "^ +40\.50 fail +failed, 10 units requeued: lost$" many
see "detail 60x15: the earlier ones counted" "^Events of this rank \(41\), newest last; [0-9]+ earlier: PgUp" many
not_see "detail 60x15: the oldest is not shown yet" "^ +1\.00 chunk " many
tm send-keys -t many Home
see "detail 60x15: Home: the oldest" "^ +1\.00 chunk +10 units" many
see "detail 60x15: the later ones counted" "^[0-9]+ later: PgDn End$" many
tm send-keys -t many End
see "detail 60x15: End: the newest again" "^ +40\.50 fail " many
check "detail 60x15: no line wider than 60" test "$(widest many)" -le 60
tm kill-session -t many

# -- a replay without one valid event: said, naming the file, exit 3 (bad input)
printf 'not json\n{"v":1,"t":0,"ev":"checkpoint"}\n' > "$T/noevent.jsonl"
run_gs top --replay "$T/noevent.jsonl"
check_eq "no valid event: exit 3" "$rc" 3
check_eq "no valid event: says so, naming the file" "$err" \
	"gridsubmit: $T/noevent.jsonl: no valid event to replay: 2 lines, 1 not an event record, 1 of a kind this version does not know"
: > "$T/empty.jsonl"
run_gs top --once --replay "$T/empty.jsonl"
check_eq "an empty recording, --once: exit 3" "$rc" 3
check_eq "an empty recording: says so" "$err" \
	"gridsubmit: $T/empty.jsonl: no valid event to replay: the file is empty"
start_at noev 140 15 "$GS top --replay $T/noevent.jsonl"
see "no valid event, on a terminal: exit 3" "TOP-EXITED rc=3" noev
see "no valid event, on a terminal: the message" "noevent\.jsonl: no valid event to replay" noev
tm kill-session -t noev

# -- a rank busy with its first large chunk is working, its IDLE not growing
mkdir -p "$GRIDSUBMIT_HOME/jobs/20"
awk 'BEGIN {
	printf "{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"20\",\"N\":10000,\"ranks\":[{\"rank\":0,\"node\":\"m\",\"role\":\"master\"},{\"rank\":1,\"node\":\"w1\"},{\"rank\":2,\"node\":\"w2\"},{\"rank\":3,\"node\":\"w3\"}]}\n"
	printf "{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":3,\"count\":5,\"t_calc\":0.09,\"t_comm\":0.01,\"t_exe\":0.1}\n"
	for (i = 1; i <= 10; i++)
		printf "{\"v\":1,\"t\":%d,\"ev\":\"chunk\",\"rank\":1,\"count\":10,\"t_calc\":0.9,\"t_comm\":0.1,\"t_exe\":1}\n", i
}' > "$GRIDSUBMIT_HOME/jobs/20/events.jsonl"
start_at first 100 30 "$GS top 20 --interval 0.2"
see "first chunk: the live job is read" "105/10000" first
check_match "first chunk: no result yet, 10 s in: working, no idle time" "$(row w2 first)" \
	" 0 +0\.00 +0\.00 +0\.00 +- working"
check_match "first chunk: a rank silent since 1 s: waiting" "$(row w3 first)" " waiting"
tm send-keys -t first Tab
see "first chunk: the timeline shows it running from the start" "^ +2 w2 +=+ +0%$" first
tm send-keys -t first q
tm kill-session -t first

# -- F9 on live jobs: the question, n keeps the job, y cancels it as gridsubmit cancel does
SYN="$SRC/$BUILD/examples/synthetic"
J="$GRIDSUBMIT_HOME/jobs"
if [ ! -x "$SYN" ] || ! command -v "$MPIEXEC" >/dev/null 2>&1 || ! command -v jq >/dev/null 2>&1; then
	skip "top F9" "needs $SYN, $MPIEXEC and jq"
	exit 0
fi
at_exit sweep
# long.yaml: a job that computes for minutes unless cancelled, its master and two workers
# on the console's rows whatever this host's cores (oversubscribed); bad.yaml fails at once
cat > "$T/long.yaml" <<YAML
name: top-long
program: "$SYN"
args: ["--units", "3000000", "--mean-us", "10", "--seed", "18"]
ranks: 3
oversubscribe: true
YAML
cat > "$T/bad.yaml" <<YAML
name: top-bad
program: "$SYN"
args: ["--no-such-option"]
ranks: 2
YAML
# computing ID: the job runs and its master has written its start record
computing() {
	[ "$(jq -r .state "$J/$1/state.json" 2>/dev/null)" = running ] &&
		grep -q '"ev":"start"' "$J/$1/events.jsonl" 2>/dev/null
}
# job_gone ID: no process of the job on this host
job_gone() {
	gone "$J/$1/" && gone "^$SYN --units 3000000 --mean-us 10 --seed 18"
}

id=$("$GS" submit --no-metrics "$T/long.yaml")
poll 30 computing "$id" || echo "# job $id did not start computing"
start_at f9 140 40 "$GS top $id --interval 0.2"
see "F9 live: the job is followed" "live$" f9
see "F9 live: the key bar offers F9" " F9Cancel F10Quit$" f9
tm send-keys -t f9 F9
see "F9: asks first" "^Cancel job $id\? y/n +y stops every process of it" f9
tm send-keys -t f9 n
see "F9 then n: not cancelled" "job $id not cancelled$" f9
check_eq "F9 then n: the job still runs" "$(jq -r .state "$J/$id/state.json")" running
check "F9 then n: its processes still run" test -n "$(live "$J/$id/")"
tm send-keys -t f9 Tab k
see "k (htop's kill), from the timeline: the same question" "^Cancel job $id\? y/n" f9
tm send-keys -t f9 y
see "k then y: what gridsubmit cancel said" "job $id cancelled" f9
see "F9 then y: the console shows the job's end" "ended: cancelled" f9
check_eq "F9 then y: the job is recorded cancelled" "$(jq -r .state "$J/$id/state.json")" \
	cancelled
see "F9 then y: the event pane says who cancelled" "cancel +cancelled from the console \\(F9" f9
check_match "F9 then y: the reason says the console cancelled it" \
	"$(jq -r .reason "$J/$id/state.json")" "^cancelled from the console \\(F9; pid [0-9]+, user [^)]+\\)$"
run_gs wait "$id" --timeout 30
check_eq "F9 then y: wait says cancelled (6)" "$rc" 6
check "F9 then y: no process of the job is left" poll 15 job_gone "$id"
a=$(screen f9 | sed -n 's/^.*\(Elapsed [^ ]*\).*$/\1/p')
sleep 1
check_eq "F9 then y: the clock stopped at the job's end" \
	"$(screen f9 | sed -n 's/^.*\(Elapsed [^ ]*\).*$/\1/p')" "$a"
tm send-keys -t f9 q
see "F9: q leaves" "TOP-EXITED rc=0" f9
tm kill-session -t f9

# run --top at 60x15: F9 + y cancels the run it belongs to
rid=$(cat "$J/next-id")
start_at runf9 60 15 "$GS run --no-metrics --top $T/long.yaml"
see "run --top 60x15: the console is up" "F10Quit$" runf9
poll 30 computing "$rid" || echo "# job $rid did not start computing"
see "run --top 60x15: the job's ranks" "^ +2 localhost " runf9
check_eq "run --top 60x15: the key bar has F9" "$(screen runf9 | tail -n 1)" \
	"F1Help F3Search F6Sort TabTimeline ZPause F9Cancel F10Quit"
tm send-keys -t runf9 F9
see "run --top: F9 asks, in 60 columns" "^Cancel job $rid\? y/n +y stops every" runf9
check "run --top: the question fits 60 columns" test "$(widest runf9)" -le 60
tm send-keys -t runf9 y
see "run --top: F9 + y ends the run, cancelled (6)" "TOP-EXITED rc=6" runf9
check_eq "run --top: the job is recorded cancelled" "$(jq -r .state "$J/$rid/state.json")" \
	cancelled
check_match "run --top: the reason says the console cancelled it" \
	"$(jq -r .reason "$J/$rid/state.json")" "^cancelled from the console \\(F9; pid [0-9]+, user [^)]+\\)$"
check "run --top: no process of the job is left" poll 15 job_gone "$rid"
tm kill-session -t runf9

# run --top of a job that fails with no end event: the console shows the end and the job's
# time, which stays still however long the console is left open
start_at runbad 100 30 "$GS run --no-metrics --restarts 0 --top $T/bad.yaml"
see "run --top, failed job: the end from its record" "ended: failed" runbad
a=$(screen runbad | sed -n 's/^\(Elapsed [^ ]*\).*$/\1/p')
sleep 1.5
check_eq "run --top, failed job: the clock does not run on" \
	"$(screen runbad | sed -n 's/^\(Elapsed [^ ]*\).*$/\1/p')" "$a"
check_match "run --top, failed job: a job time, not seconds of console" "$a" "^Elapsed 0:0[0-4]\."
tm send-keys -t runbad q
see "run --top, failed job: exit 1 after q" "TOP-EXITED rc=1" runbad
tm kill-session -t runbad
