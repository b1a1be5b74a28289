#!/bin/sh
# test-top-groups.sh — gridsubmit top on a hierarchy run (doc/console.md, "Groups"): a
# recording made here by the real program under real mpiexec (libgrt's sub-masters, one
# per site of a rank map, as tests/runtime/test-hierarchy.sh runs them) replayed in the
# real console under tmux. Under its site, each group's workers come under its
# sub-master's row, which says "sub-master, 2 ranks" and carries the group's sums (units
# and PR computed from the recording with jq); two workers on one node keep their node row
# inside the group; the group folds and unfolds with - and Enter; the timeline has the
# same rows, and so has --once; a worker's detail names its sub-master; --json's per_rank
# has each rank's group as the start record gives it; a flat recording has no group.
# serial: grt-check (test-grt.sh, test-journal.sh and test-hierarchy.sh run, and reap, grt-check)
. tests/lib.sh

case $BUILD in
/*) B=$BUILD ;;
*) B=$SRC/$BUILD ;;
esac
CHECK=$B/tests/runtime/mpi/grt-check
command -v jq >/dev/null 2>&1 || { skip "top groups" "jq is not installed"; exit 0; }
command -v tmux >/dev/null 2>&1 || { skip "top groups" "tmux is not installed"; exit 0; }
if [ ! -x "$CHECK" ]; then
	fail "top groups: $CHECK is built (run make tests)"
	exit 0
fi
at_exit "pkill -KILL -f '$CHECK'"

# --- the recording: sites s1 and s2 get a sub-master each (ranks 1 and 4), s3's lone rank
# is a plain worker; ranks 2 and 3 share node a2
cat > "$T/rankmap" <<EOF2
0 m0 s0 1 1 1000
1 a1 s1 1 1 1000
2 a2 s1 1 1 1000
3 a2 s1 1 2 1000
4 b1 s2 1 1 1000
5 b2 s2 1 1 1000
6 b3 s2 1 1 1000
7 c1 s3 1 1 1000
EOF2
ev=$T/ev.jsonl
GRT_K=5 GRT_RANKMAP=$T/rankmap GRT_HIERARCHY=site GRT_EVENTS=$ev \
    timeout -k 5 60 "$MPIEXEC" -n 8 "$CHECK" --scheme gss --units 3000 --payload 40 \
    < /dev/null > "$T/run.out" 2>&1
check_match "the hierarchy run is right" "$(cat "$T/run.out")" \
	'^grt-check: ok: scheme gss, ranks 8, N 3000, rounds 1, merged 3000,'
check_eq "the recording names the groups of sites s1 and s2" \
	"$(jq -c 'select(.ev == "start") | .ranks | map([.role, .group])' "$ev")" \
	'[["master",null],["sub-master",1],["worker",1],["worker",1],["sub-master",4],["worker",4],["worker",4],["worker",7]]'

# units G: the units of group G's workers, from the end record; prs G: their PR summed,
# from the start record, as the PR column prints it
units() {
	jq -r --argjson g "$1" 'select(.ev == "end") | [.ranks[] |
	    select(.group == $g and .units > 0) | .units] | add' "$ev"
}
prs() {
	printf '%.2f' "$(jq -r --argjson g "$1" 'select(.ev == "start") | [.ranks[] |
	    select(.group == $g and .role == "worker") | .pr] | add' "$ev")"
}
u1=$(units 1)
u4=$(units 4)
p1=$(prs 1)
p4=$(prs 4)

SOCK=gs-test-$$
tm() { tmux -L "$SOCK" "$@"; }
at_exit "tmux -L $SOCK kill-server"
tm new-session -d -s keep -x 80 -y 24 "sleep 600"
screen() { tm capture-pane -p -t top 2>/dev/null; }
# see NAME REGEX: the screen shows a line matching REGEX (polled up to 10 s)
see() {
	if poll 10 sh -c 'tmux -L "$1" capture-pane -p -t top | grep -Eq -- "$2"' sh "$SOCK" "$2"
	then
		pass "$1"
	else
		fail "$1"
		echo "#   waited for: $2"
		screen | sed -e 's/^/#   | /'
	fi
}
# not_see NAME REGEX: the screen as it is now has no line matching REGEX
not_see() {
	if screen | grep -Eq -- "$2"; then
		fail "$1"
		echo "#   unexpected: $2"
		screen | sed -e 's/^/#   | /'
	else
		pass "$1"
	fi
}
# rows FROM TO: the first words of the table's lines from the one matching FROM to TO's
rows() {
	screen | sed -n "/$1/,/$2/p" | awk '{ printf "%s%s %s", (NR > 1 ? "|" : ""), $1, $2 } END { print "" }'
}

tm new-session -d -s top -x 120 -y 30 "'$SRC/$GS' top --replay '$ev'; sleep 60"
see "the table: sub-master 1's row with its group's units, PR and size" \
	"^-  1 a1 +s1 +$p1 +$u1 .* sub-master, 2 ranks"
see "the table: sub-master 4's row likewise" "^-  4 b1 +s2 +$p4 +$u4 .* sub-master, 2 ranks"
check_eq "the table: site s1 holds the group row, the node a2 row and its two workers" \
	"$(rows '^\[-\] s1' '^\[-\] s2')" '[-] s1|- 1|a2 s1|2 a2|3 a2|[-] s2'
check_eq "the table: the plain worker of s3 has no group row" \
	"$(screen | sed -n '/^\[-\] s3/{n;p;}' | awk '{ print $1, $2 }')" '7 c1'
not_see "no sub-master shows as a rank row of its own" '^ +[14] [ab]1 '

# the selection starts on s0: s0, rank 0, s1, then the group of sub-master 1
tm send-keys -t top Down Down Down -
see "- on the group row folds it (+)" '^\+  1 a1 '
not_see "folded: its workers are not shown" '^ +[23] a2 '
see "folded: the other group stays open" '^ +5 b2 '
tm send-keys -t top Enter
see "Enter on the folded group's row opens it again" '^ +2 a2 '

tm send-keys -t top Tab
see "the timeline: the group's row, its size and its busy share" \
	'^ +1 a1 +\[-\] sub-master of 2 ranks, busy together: +[0-9]+%$'
see "the timeline: its workers under it" '^ +3 a2 +[.~#=]+ +[0-9]+%$'
tm send-keys -t top Tab Tab
# the group row of 1 is selected; Down: the node row a2, then rank 2
tm send-keys -t top Down Down Enter
see "the detail of a worker names its group and sub-master" \
	'^Group +group of sub-master 1 \(node a1, 2 ranks\)$'
tm send-keys -t top Escape

run_gs top --replay "$ev" --once
check_match "--once: sub-master 1's row with its group's units, PR and size" "$out" \
	"^-  1 a1 +s1 +$p1 +$u1 .* sub-master, 2 ranks"
check_eq "--once: site s1's rows as the table has them" \
	"$(printf '%s\n' "$out" | sed -n '/^\[-\] s1/,/^\[-\] s2/p' |
	    awk '{ printf "%s%s %s", (NR > 1 ? "|" : ""), $1, $2 } END { print "" }')" \
	'[-] s1|- 1|a2 s1|2 a2|3 a2|[-] s2'

run_gs top --replay "$ev" --json
check_eq "--json: every rank has its group, as the start record gives it" \
	"$(printf '%s\n' "$out" | jq -c '[.per_rank[] | [.rank, .role, .group]]')" \
	"$(jq -c 'select(.ev == "start") | [.ranks[] | [.rank, .role, .group]]' "$ev")"
check_eq "--json: a sub-master's state is sub-master" \
	"$(printf '%s\n' "$out" | jq -c '[.per_rank[] | select(.role == "sub-master") | .state]')" \
	'["sub-master","sub-master"]'
check_eq "--json: the workers are the ranks that compute, not the sub-masters" \
	"$(printf '%s\n' "$out" | jq .workers)" 5
run_gs top --replay tests/data/events/basic.jsonl --json
check_eq "--json of a flat recording: no group" \
	"$(printf '%s\n' "$out" | jq '[.per_rank[] | has("group")] | any')" false
