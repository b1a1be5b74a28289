#!/bin/sh
# test-lifecycle.sh — the detached job lifecycle with real mpiexec jobs of the mandelbrot
# example: submit (the id alone on stdout), wait (exit codes), status and --json, list,
# logs and --follow, cancel leaving no process behind, a supervisor killed with SIGKILL,
# ids that are never reused, corrupt state files, unknown ids and usage errors.
. tests/lib.sh

command -v jq >/dev/null 2>&1 ||
	{ skip "lifecycle" "jq is not installed (scripts/install-deps)"; exit 0; }
command -v pgrep >/dev/null 2>&1 || { skip "lifecycle" "pgrep is not installed (procps)"; exit 0; }
MANDEL="$SRC/$BUILD/examples/mandelbrot"
[ -x "$MANDEL" ] || { fail "lifecycle: $MANDEL is not built"; exit 1; }
J="$GRIDSUBMIT_HOME/jobs"

# whatever a failed check leaves running is cancelled (cancel of an ended job only sweeps)
at_exit sweep

mandel_job life "$T/quick.yaml" 256
mandel_job life "$T/long.yaml" 3000 --iter 5000
cat > "$T/bad-arg.yaml" <<EOF
name: bad-arg
program: "$MANDEL"
args: ["--no-such-option"]
ranks: 2
EOF

# ranks_up ID: the job's 3 rank wrappers run and rank 0 has begun handing out chunks
ranks_up() {
	[ "$(live "gridsubmit-rank --status $J/$1/master.status" | wc -l)" -ge 3 ] &&
		[ "$("$GS" status --json "$1" | jq -r '.progress != null')" = true ]
}

# submit_long: submit the long job and wait until its ranks compute; id in $id
submit_long() {
	id=$("$GS" submit --no-metrics "$T/long.yaml")
	poll 20 ranks_up "$id" || { echo "# job $id did not start"; cat "$J/$id/supervisor.log"; }
}

# --- submit, wait, status, list, logs
run_gs submit --no-metrics "$T/quick.yaml"
check_eq "submit: exit 0" "$rc" 0
check_match "submit: the job id alone on stdout" "$out" '^[0-9]+$'
check_eq "submit: nothing on stderr" "$err" ""
q=$out
check "submit: state.json names a live or ended supervisor" \
	jq -e '.supervisor_pid > 0 and .supervisor_start > 0' "$J/$q/state.json"
run_gs wait "$q" --timeout 60
check_eq "wait: a job that succeeds exits 0" "$rc" 0
check_eq "wait: says how the job ended" "$out" "job $q done"
run_gs status "$q"
check_eq "status: exit 0" "$rc" 0
check_match "status: done" "$out" '^  state: +done$'
check_match "status: all units" "$out" '^  progress: +256/256 units \(100%\)$'
check_match "status: placement of rank 2" "$out" '^ +2 +localhost +local +'
check_match "status: no failed rank" "$out" 'no rank; 0 units requeued'
doc=$("$GS" status --json "$q")
check_eq "status --json: schema, id, state, ranks, scheme" \
	"$(printf '%s' "$doc" | jq -c '[.schema_version, .id, .state, .ranks, .scheme, .reason]')" \
	"[3,$q,\"done\",3,\"gss\",null]"
check_eq "status --json: progress N/N" "$(printf '%s' "$doc" | jq -c '.progress')" \
	'{"units_done":256,"units_total":256,"rounds":1}'
check_eq "status --json: rankmap rank -> node, site" \
	"$(printf '%s' "$doc" | jq -c '[.rankmap[] | [.rank, .node, .site]]')" \
	'[[0,"localhost","local"],[1,"localhost","local"],[2,"localhost","local"]]'
check_eq "status --json: failed ranks, requeued, times" \
	"$(printf '%s' "$doc" | jq -c '[.failed_ranks, .requeued, (.makespan > 0),
	    (.ended >= .started and .started >= .submitted)]')" '[[],0,true,true]'
run_gs status
check_match "status without id: the latest job" "$out" "^job $q \\(life-256\\)$"
run_gs list
check_eq "list: exit 0" "$rc" 0
check_match "list: the job's line" "$out" \
	"^$q +life-256 +done +[0-9]+:[0-9]{2} +1 +0 +-$"
run_gs logs "$q"
check_match "logs: the program's line" "$out" \
	'^mandelbrot: 256x256, scheme gss, 3 ranks, .*image matches'
check "the job's result is there" test -s "$J/$q/m.pgm"

# a job whose program fails: wait exits 1, logs --stderr shows why
bad=$("$GS" submit --no-metrics "$T/bad-arg.yaml")
run_gs wait "$bad" --timeout 60
check_eq "wait: a failed job exits 1" "$rc" 1
check_match "wait: the reason" "$out" "^job $bad failed \\(rank [0-2] on node localhost exited with status 2"
run_gs logs --stderr "$bad"
check_match "logs --stderr: the program's error" "$out" "bad argument '--no-such-option'"

# logs --follow from the submit on: everything, and it stops at the end by itself
f=$("$GS" submit --no-metrics "$T/quick.yaml")
timeout 60 "$GS" logs --follow "$f" > "$T/follow.out" 2>&1
check_eq "logs --follow: ends with the job" "$?" 0
check_eq "logs --follow: the job has ended" "$(jq -r .state "$J/$f/state.json")" done
check_match "logs --follow: the program's line" "$(cat "$T/follow.out")" '^mandelbrot: 256x256'

# --- cancel a running job: cancelled, wait says 6, nothing left
submit_long
L=$id
run_gs wait "$L" --timeout 0.5
check_eq "wait --timeout: a running job gives 124" "$rc" 124
check_match "wait --timeout: says so" "$err" "job $L: still running after 0.5 s"
run_gs status "$L"
check_match "status: running" "$out" '^  state: +running$'
check_match "status: progress counts up to N" "$out" '^  progress: +[0-9]+/3000 units'
timeout 60 "$GS" logs --follow "$L" > "$T/follow-long.out" 2>&1 &
follower=$!
at_exit "kill $follower"
run_gs cancel "$L"
check_eq "cancel: exit 0" "$rc" 0
check_eq "cancel: says so" "$out" "job $L cancelled"
check_eq "cancel: state cancelled" "$(jq -r .state "$J/$L/state.json")" cancelled
run_gs wait "$L"
check_eq "wait: a cancelled job exits 6" "$rc" 6
check_eq "cancel: no process with the job directory" "$(live "$J/$L/")" ""
check_eq "cancel: no mandelbrot process" "$(live_here "$MANDEL")" ""
check_eq "cancel: no mpiexec of the job" "$(live "mpiexec.*$J/$L/hostfile")" ""
check "logs --follow: stops when the job is cancelled" poll 10 sh -c "! kill -0 $follower"
run_gs cancel "$L"
check_eq "cancel again: exit 0" "$rc" 0
check_eq "cancel again: already ended" "$out" \
	"job $L had already ended (cancelled); nothing to cancel"

# --- the supervisor killed with SIGKILL: its job goes down with it, status tells
submit_long
K=$id
kill -9 "$(jq .supervisor_pid "$J/$K/state.json")"
poll 5 sh -c "! ps -o stat= -p $(jq .supervisor_pid "$J/$K/state.json") | grep -qv Z"
check "the job's processes stop by themselves (mpiexec dies with its supervisor)" \
	poll 15 gone "$J/$K/"
run_gs status "$K"
check_match "status: the supervisor died" "$out" '^  state: +failed \(supervisor died\)$'
check_eq "status: recorded in state.json" "$(jq -c '[.state, .reason]' "$J/$K/state.json")" \
	'["failed","supervisor died"]'
check_eq "status --json: the same, and nothing left" \
	"$("$GS" status --json "$K" |
	    jq -c '[.state, .reason, .supervisor_alive, .leftover_processes]')" \
	'["failed","supervisor died",false,0]'
run_gs wait "$K" --timeout 10
check_eq "wait: a job whose supervisor died exits 1 at once" "$rc" 1
run_gs list
check_match "list: the dead supervisor" "$out" "^$K +life-3000 +failed\\(supervisor\\) "
run_gs cancel "$K"
check_eq "cancel after the supervisor died: exit 0" "$rc" 0
check_eq "cancel after the supervisor died: nothing left to stop" "$out" \
	"job $K had already ended (failed); nothing to cancel"
check_eq "cancel after the supervisor died: no process with the job directory" "$(live "$J/$K/")" ""
check_eq "cancel after the supervisor died: no mandelbrot process" "$(live_here "$MANDEL")" ""

# the same, cancelled before anyone noticed: cancel records it as cancelled
submit_long
K2=$id
kill -9 "$(jq .supervisor_pid "$J/$K2/state.json")"
poll 5 sh -c "! ps -o stat= -p $(jq .supervisor_pid "$J/$K2/state.json") | grep -qv Z"
run_gs cancel "$K2"
check_eq "cancel with a dead supervisor: exit 0" "$rc" 0
check_match "cancel with a dead supervisor: recorded, naming the cancel" \
	"$(jq -c '[.state, .reason]' "$J/$K2/state.json")" \
	'^\["cancelled","cancelled by gridsubmit cancel \(pid [0-9]+, user [^)]+\); the supervisor was not running"\]$'
check_eq "cancel with a dead supervisor: no process with the job directory" "$(live "$J/$K2/")" ""
check_eq "cancel with a dead supervisor: no mandelbrot process" "$(live_here "$MANDEL")" ""
run_gs wait "$K2"
check_eq "wait: 6 for it" "$rc" 6

# --- ids are never reused
a=$("$GS" submit --no-metrics "$T/quick.yaml")
b=$("$GS" submit --no-metrics "$T/quick.yaml")
c=$("$GS" submit --no-metrics "$T/quick.yaml")
check "ids increase" test "$a" -lt "$b" -a "$b" -lt "$c"
for i in $a $b $c; do "$GS" wait "$i" --timeout 60 >/dev/null; done
rm -rf "${J:?}/$c"
d=$("$GS" submit --no-metrics "$T/quick.yaml")
check "the newest job deleted: the next id is still new" test "$d" -gt "$c"
"$GS" wait "$d" --timeout 60 >/dev/null
check_eq "list: newest last" "$("$GS" list | tail -n 1 | awk '{ print $1 }')" "$d"
check_eq "list --json: every job, oldest first" \
	"$("$GS" list --json | jq -c '[.schema_version, (.jobs | length), .jobs[-1].id]')" \
	"[3,$(ls "$J" | grep -c '^[0-9]*$'),$d]"

# --- bad state files: a clear error naming the file, exit 3, never a crash
cp "$J/$a/state.json" "$T/state.good"
head -c 40 "$T/state.good" > "$J/$a/state.json"
run_gs status "$a"
check_eq "torn state.json: exit 3" "$rc" 3
check_match "torn state.json: names the file" "$err" \
	"^gridsubmit: $J/$a/state.json:[0-9]+:[0-9]+: corrupt job state"
: > "$J/$a/state.json"
run_gs status "$a"
check_eq "empty state.json: exit 3" "$rc" 3
check_match "empty state.json: no earlier copy, said so" "$err" \
	"^gridsubmit: $J/$a/state.json: empty .*no earlier copy"
head -c 3000 /dev/urandom > "$J/$a/state.json"
run_gs status --json "$a"
check_eq "binary state.json: exit 3, the error document on stdout (--json)" \
	"$rc:$(printf '%s' "$out" | jq -c '[.error.code, (.error.message | test("state.json"))]')" \
	"3:[3,true]"
head -c 2000000 /dev/zero | tr '\0' ' ' > "$J/$a/state.json"
run_gs status "$a"
check_match "huge state.json: exit 3, said" "$rc $err" \
	"^3 .*state.json: corrupt job state: not a regular file of at most"
jq '.state = "zombie"' "$T/state.good" > "$J/$a/state.json"
run_gs wait "$a"
check_eq "wait on an unknown state: exit 3" "$rc" 3
check_match "unknown state: said" "$err" "unknown state 'zombie'"
jq '.ranks = "three"' "$T/state.good" > "$J/$a/state.json"
run_gs cancel "$a"
check_eq "cancel on a wrong type: exit 3" "$rc" 3
check_match "wrong type: names the field" "$err" '"ranks" has the wrong type'
run_gs list
check_eq "list with a corrupt job: exit 0" "$rc" 0
check_match "list with a corrupt job: unreadable" "$out" "^$a +- +unreadable( +-)+$"
check_match "list with a corrupt job: why on stderr" "$err" "$J/$a/state.json"
rm "$J/$a/state.json"
run_gs logs "$a"
check_match "missing state.json: exit 3, said" "$rc $err" "^3 .*state.json: missing"
cp "$T/state.good" "$J/$a/state.json"

# --- unknown ids and usage errors
run_gs status 9999
check_eq "unknown id: exit 2" "$rc" 2
check_eq "unknown id: clear error" "$err" "gridsubmit: job 9999: no such job (see gridsubmit list)"
run_gs wait ../../etc
check_eq "an id that is a path: exit 2" "$rc" 2
check_match "an id that is a path: refused" "$err" "is not a job id"
for args in "submit" "submit a.yaml b.yaml" "status 1 2" "list x" "cancel" "wait" \
    "wait 1 --timeout -1" "wait 1 --timeout x" "logs" "logs 1 --bogus" \
    "submit --top $T/quick.yaml"; do
	# shellcheck disable=SC2086
	run_gs $args
	check_eq "usage error: gridsubmit $args: exit 2" "$rc" 2
	check_match "usage error: gridsubmit $args: the usage" "$err" "^usage: gridsubmit "
done
run_gs submit --no-metrics "$T/no-such.yaml"
check_eq "submit of a missing file: exit 3, no id" "$rc:$out" "3:"
run_gs help wait
check_match "help wait: the exit codes" "$out" "8 the job reached its time limit, 124 --timeout ran out"
run_gs --help
check_match "--help lists the lifecycle commands after run" \
	"$(printf '%s' "$out" | awk '{ printf "%s ", $1 }')" \
	" run submit status list cancel wait logs "

# --- the store is refused when world-writable
mkdir -p "$T/open"
chmod 777 "$T/open"
GRIDSUBMIT_HOME="$T/open" "$GS" list > "$T/ww.out" 2>&1
check_eq "world-writable store: refused" "$?" 1
check_match "world-writable store: said" "$(cat "$T/ww.out")" "world-writable"

# nothing of any job is left
check_eq "no process of any job remains" "$(live "$J/")" ""
