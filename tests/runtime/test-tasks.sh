#!/bin/sh
# test-tasks.sh — libgrt's migratable tasks under real mpiexec (tests/runtime/mpi/task-check.c):
# every task ends with the value a sequential run computes, having taken exactly the
# messages it should (all-to-all, ring, none); a move of every task after every step
# (GRT_MIGRATION=rotate) changes nothing, large states included; a worker killed while it
# holds tasks is survived, alone (restart from the task's last state) or with messages
# (every task back to the last checkpoint line), with no process left; a state that fails
# to unpack ends the run naming the task; the events of a task run.
. tests/lib.sh

case $BUILD in
/*) B=$BUILD ;;
*) B=$SRC/$BUILD ;;
esac
CHECK=$B/tests/runtime/mpi/task-check
RANKEXEC=$B/gridsubmit-rank
for f in "$CHECK" "$RANKEXEC"; do
	if [ ! -x "$f" ]; then
		fail "tasks: $f is built (run make tests)"
		exit 0
	fi
done
at_exit "own '$CHECK' | xargs -r kill -KILL"
unset GRT_MIGRATION GRT_SPARE GRT_CHECKPOINT_EVERY GRT_THRESHOLD GRT_MOVE_GAP GRT_LOADS \
	GRT_EVENTS GRT_DEADLINE GRT_RANKMAP

# tc N ARGS...: task-check on N ranks, launched as gridsubmit launches them (the rank
# wrapper, -disable-auto-cleanup); output in $out, status in $rc, events in $T/ev
tc() {
	n=$1
	shift
	rm -f "$T/ev" "$T/st"
	GRT_EVENTS=$T/ev timeout -k 5 60 "$MPIEXEC" -disable-auto-cleanup -n "$n" \
		"$RANKEXEC" --status "$T/st" -- "$CHECK" "$@" > "$T/.tc.out" 2>&1
	rc=$?
	out=$(cat "$T/.tc.out")
}

diag() {
	echo "#   exit status $rc"
	printf '%s\n' "$out" | tail -n 8 | sed -e 's/^/#   /'
}

# ok NAME: the run passed the check, and rank 0 exited 0 (a rank that died makes
# mpiexec's status its own: the wrapper's status file tells rank 0's)
ok() {
	if [ "$(cat "$T/st" 2>&1)" = "exit 0" ] &&
	    printf '%s\n' "$out" | grep -q '^task-check: ok:'; then
		pass "$1"
	else
		fail "$1"
		diag
	fi
}

field() {
	printf '%s\n' "$out" | sed -n "s/^task-check: ok: .* $1 \([0-9]*\).*/\1/p"
}

evcount() {
	grep -c "\"ev\":\"$1\"" "$T/ev" 2>/dev/null || echo 0
}

# --- without moves: the three message patterns, more tasks than workers, one worker
for pat in "" --ring --alone; do
	for n in 2 3 5; do
		tc "$n" --steps 25 $pat
		ok "$n ranks${pat:+ $pat}: the sequential result, every message taken once"
	done
done
tc 4 --tasks 9 --steps 20
ok "9 tasks on 3 workers (a worker runs its tasks fewest steps first)"
tc 4 --tasks 9 --steps 20 --ring
ok "9 tasks on 3 workers, ring"
check_eq "events: one chunk per step of every task" "$(evcount chunk)" 180
check_match "events: the start says a task run of 9 x 20" "$(grep '"ev":"start"' "$T/ev")" \
	'"scheme":"tasks","N":180,.*"tasks":9,"steps":20'
check_match "events: the tasks event places them round robin" \
	"$(grep '"ev":"tasks"' "$T/ev")" '"at":\[1,2,3,1,2,3,1,2,3\].*"reason":"start"'
check_match "events: a chunk names its task and step" "$(grep '"ev":"chunk"' "$T/ev" | head -n 1)" \
	'"task":[0-9]+,"step":0,"cpu":'
check_match "events: the end" "$(grep '"ev":"end"' "$T/ev")" '"status":"ok".*"migrations":0'

# --- spares: the last ranks hold nothing at the start
GRT_SPARE=2 tc 6 --steps 10
ok "2 spares of 5 workers: 3 tasks"
check_match "the spares are the last ranks" "$(grep '"ev":"tasks"' "$T/ev")" \
	'"at":\[1,2,3\],"spare":\[4,5\]'
GRT_SPARE=3 tc 4 --steps 5
check "as many spares as workers: refused" test "$rc" -ne 0
check_match "... saying why" "$out" 'needs a master and at least one worker that is not a spare'
tc 1 --steps 5
check "one rank: refused" test "$rc" -ne 0

# --- every task moves after every step
for pat in "" --ring --alone; do
	GRT_MIGRATION=rotate tc 5 --steps 40 --work-us 2000 $pat
	ok "rotate${pat:+ $pat}: moved after every step, the same result"
	m=$(field migrations)
	check "rotate${pat:+ $pat}: tasks did move ($m)" test "${m:-0}" -gt 20
	check_eq "rotate${pat:+ $pat}: one migrate event per move" "$(evcount migrate)" "$m"
done
check_match "a migrate event: task, ranks, bytes, seconds, reason" \
	"$(grep '"ev":"migrate"' "$T/ev" | head -n 1)" \
	'"task":[0-9]+,"from":[1-4],"to":[1-4],"bytes":[1-9][0-9]*,"seconds":[0-9.e-]+,"reason":"rotate: every step"'
GRT_MIGRATION=rotate tc 4 --tasks 7 --steps 30 --work-us 200
ok "rotate, 7 tasks on 3 workers"
GRT_MIGRATION=rotate tc 4 --steps 20 --state-kb 1024 --work-us 1000
ok "rotate with 1 MiB states: every state arrives intact"
GRT_MIGRATION=rotate GRT_CHECKPOINT_EVERY=2 tc 5 --steps 30 --work-us 300
ok "rotate with a checkpoint every 2 steps"

# --- a worker killed while it holds tasks
for i in 1 2; do
	GRT_CHECKPOINT_EVERY=5 tc 5 --steps 40 --alone --work-us 2000 --die-rank 2 --die-step 17
	ok "alone, rank 2 killed at step 17 ($i): the task starts again, the same result"
	check_eq "alone ($i): one failed rank" "$(field failed)" 1
	check_eq "alone ($i): its task restarted, alone" "$(field restarted)" 1
	check_match "alone ($i): the fail event names its task" "$(grep '"ev":"fail"' "$T/ev")" \
		'"rank":2,.*"tasks":\[1\]'
	check_match "alone ($i): a tasks event says where it went" \
		"$(grep '"ev":"tasks"' "$T/ev" | tail -n 1)" '"reason":"restart"'
	GRT_SPARE=1 GRT_CHECKPOINT_EVERY=5 tc 5 --steps 40 --work-us 2000 --die-rank 2 --die-step 17
	ok "all-to-all, rank 2 killed at step 17 ($i): every task back to step 15, the same result"
	check_eq "all-to-all ($i): every task restarted" "$(field restarted)" 3
	check_match "all-to-all ($i): the lost task went to the spare" \
		"$(grep '"ev":"tasks"' "$T/ev" | tail -n 1)" '"at":\[1,4,3\].*"reason":"rollback"'
	check_match "all-to-all ($i): steps redone are counted" "$(grep '"ev":"fail"' "$T/ev")" \
		'"requeued":[1-9]'
	GRT_MIGRATION=rotate GRT_CHECKPOINT_EVERY=3 tc 5 --steps 40 --work-us 2000 --die-rank 3 --die-step 20
	ok "rotate and rank 3 killed ($i): the same result"
done
tc 5 --steps 30 --work-us 2000 --die-rank 2 --die-step 10
ok "killed with no checkpoint: every task from its start"
check "no process left" gone "$CHECK"

# --- a state that fails to unpack
GRT_MIGRATION=rotate tc 5 --steps 40 --work-us 1000 --bad-unpack 2
check "an unpack failure fails the run" test "$rc" -ne 0
check_match "... naming the task" "$out" 'FAILED: task 2: its state failed to unpack \(step [0-9]+, on rank [0-9]\)'
check_match "... in the end event" "$(grep '"ev":"end"' "$T/ev")" '"status":"failed".*unpack'
check "no process left" gone "$CHECK"
