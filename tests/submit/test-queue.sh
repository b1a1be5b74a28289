#!/bin/sh
# test-queue.sh — the queue (README.md, "The queue"), with real mpiexec jobs of the
# mandelbrot example on a site whose one node has few slots: a job whose slots are held
# waits pending with the reason; jobs start in submission order, one never passing an
# earlier one on the same node; run waits in the foreground; --now starts at once;
# cancelling a pending job frees its place; a supervisor killed with SIGKILL holds nothing;
# many submissions at once never run more ranks than the node has slots. The jobs that hold
# slots run until the test cancels them: no check depends on how fast this host is.
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "queue" "jq is not installed (scripts/install-deps)"; exit 0; }
MANDEL="$SRC/$BUILD/examples/mandelbrot"
[ -x "$MANDEL" ] || { fail "queue: $MANDEL is not built"; exit 1; }
J="$GRIDSUBMIT_HOME/jobs"
at_exit sweep

# sites FILE SLOTS: one site, THU, whose one node (this host) has SLOTS slots
sites() {
	cat > "$1" <<EOF
sites:
  - name: THU
    link: {bandwidth_mbps: 1000}
    nodes:
      - {host: localhost, cpu_mhz: 2000, cores: 2, slots: $2}
EOF
}
# job FILE RANKS SIZE [ITER]: a mandelbrot job of RANKS ranks, its image checked (SIZE sets
# how long it runs); with ITER, a holder of slots, unchecked, which runs until it is
# cancelled (size 30000, 100000 iterations: hours)
job() {
	if [ -n "${4:-}" ]; then
		job_args="\"--size\", \"$3\", \"--iter\", \"$4\""
	else
		job_args="\"--size\", \"$3\", \"--iter\", \"3000\", \"--check\""
	fi
	cat > "$1" <<EOF
name: q$2
program: "$MANDEL"
args: [$job_args]
ranks: $2
EOF
}
sites "$T/three.yaml" 3
sites "$T/four.yaml" 4
job "$T/r3.yaml" 3 1024
job "$T/r3-hold.yaml" 3 30000 100000
job "$T/r2-hold.yaml" 2 30000 100000
job "$T/r2.yaml" 2 768
job "$T/r1.yaml" 1 64

# field ID KEY: a field of the job's state.json
field() {
	jq -r ".$2" "$J/$1/state.json"
}
# state_is ID STATE
state_is() {
	[ "$(field "$1" state)" = "$2" ]
}
# started ID: the job has started (it may have ended since)
started() {
	[ "$(field "$1" started)" != null ]
}
# release ID: cancel the holder ID, which frees its slots
release() {
	"$GS" cancel "$1" > /dev/null 2>&1
}
# before A B: time A is earlier than time B (ISO 8601 texts of one format)
before() {
	[ "$(printf '%s\n%s\n' "$1" "$2" | sort | head -n 1)" = "$1" ] && [ "$1" != "$2" ]
}

# --- a job whose slots are held waits, pending, with the reason; then it runs
run_gs submit "$T/r3-hold.yaml" --sites "$T/three.yaml"
a=$out
run_gs submit "$T/r3.yaml" --sites "$T/three.yaml"
b=$out
check "the first job runs" poll 20 state_is "$a" running
check "the second waits: pending" poll 10 state_is "$b" pending
check_eq "the reason names the slots, the site and who holds them" "$(field "$b" reason)" \
	"waiting for 3 slots on THU, held by job $a"
run_gs list
check_match "list shows it pending" "$out" "^$b +q3 +pending"
run_gs status "$b"
check_match "status shows the reason" "$out" "pending \(waiting for 3 slots on THU"
check_eq "a pending job has not started" "$(field "$b" started)" "null"
release "$a"
run_gs wait "$b" --timeout 120
check_eq "then it runs to its end" "$rc" 0
check "it started after the first ended" before "$(field "$a" ended)" "$(field "$b" started)"
check_match "its supervisor said it waited, then started" "$(cat "$J/$b/supervisor.log")" \
	"job $b pending: waiting for 3 slots on THU"

# --- submission order: a later job that would fit waits behind an earlier one on its node
run_gs submit "$T/r2-hold.yaml" --sites "$T/three.yaml"
a=$out
check "2 of 3 slots held" poll 20 state_is "$a" running
run_gs submit "$T/r3.yaml" --sites "$T/three.yaml"
b=$out
run_gs submit "$T/r1.yaml" --sites "$T/three.yaml"
c=$out
check "the 3-rank job waits for 2 slots" poll 10 state_is "$b" pending
check_eq "its reason: 2 slots" "$(field "$b" reason)" "waiting for 2 slots on THU, held by job $a"
check "the 1-rank job, which would fit, waits too" poll 10 state_is "$c" pending
check_match "behind the earlier job" "$(field "$c" reason)" "behind job $b"
release "$a"
run_gs wait "$b" "$c" --timeout 180
check_eq "both end once the first is gone" "$rc" 0
check "the earlier job started first" before "$(field "$b" started)" "$(field "$c" started)"

# --- run waits in the foreground and says so on stderr
run_gs submit "$T/r3-hold.yaml" --sites "$T/three.yaml"
a=$out
check "a job holds every slot" poll 20 state_is "$a" running
"$GS" run "$T/r1.yaml" --sites "$T/three.yaml" > "$T/run.out" 2> "$T/run.err" &
runpid=$!
check "run says it is pending" poll 20 grep -q \
	"pending: waiting for 1 slot on THU, held by job $a" "$T/run.err"
release "$a"
wait "$runpid"
check_eq "run waits, then succeeds" "$?" 0
check_match "and says when it starts" "$(cat "$T/run.err")" "its slots are free, starting"

# --- wait on a terminal: the progress line says the job is pending, and why
if command -v script > /dev/null 2>&1; then
	run_gs submit "$T/r3-hold.yaml" --sites "$T/three.yaml"
	a=$out
	check "a job holds every slot for wait's line" poll 20 state_is "$a" running
	run_gs submit "$T/r1.yaml" --sites "$T/three.yaml"
	p=$out
	TERM=xterm script -qefc "'$GS' wait $p --timeout 120" /dev/null > "$T/wait.tty" 2>&1 &
	waitpid=$!
	poll 20 grep -q pending "$T/wait.tty"
	release "$a"
	wait "$waitpid"
	check_match "wait's progress line: pending, with the reason" "$(tr '\r' '\n' < "$T/wait.tty")" \
		"^job $p: pending, waiting for 1 slot on THU, held by job $a, [0-9.]+ s elapsed"
	check_match "then the job's end" "$(cat "$T/wait.tty")" "job $p done"
else
	skip "wait's progress line" "script (util-linux) is not installed"
fi

# --- --now starts at once, whatever is held
run_gs submit "$T/r3-hold.yaml" --sites "$T/three.yaml"
a=$out
check "a job holds every slot again" poll 20 state_is "$a" running
run_gs submit "$T/r1.yaml" --sites "$T/three.yaml" --now
n=$out
check "--now runs while the slots are held (it may be over already)" poll 20 started "$n"
check "the holder still holds them" state_is "$a" running
check "--now never was pending" sh -c "! grep -q pending '$J/$n/supervisor.log'"

# --- cancelling a pending job: cancelled, and its place freed
run_gs submit "$T/r3.yaml" --sites "$T/three.yaml"
p=$out
check "a job waits" poll 10 state_is "$p" pending
run_gs cancel "$p"
check_eq "cancel of a pending job: exit 0" "$rc" 0
check_eq "it is cancelled" "$(field "$p" state)" "cancelled"
check_match "with the reason: who cancelled, and when" "$(field "$p" reason)" \
	"^cancelled by gridsubmit cancel \\(pid [0-9]+, user [^)]+\\) while pending$"
run_gs submit "$T/r3.yaml" --sites "$T/three.yaml"
q=$out
check "the next one waits for the running job, not the cancelled one" poll 10 \
	state_is "$q" pending
check_eq "its reason names the running job only" "$(field "$q" reason)" \
	"waiting for 3 slots on THU, held by job $a"
release "$a"
run_gs wait "$n" "$q" --timeout 180
check_eq "the others end well" "$rc" 0

# --- a supervisor killed with SIGKILL holds nothing
run_gs submit "$T/r3-hold.yaml" --sites "$T/three.yaml"
a=$out
check "a job runs" poll 20 state_is "$a" running
run_gs submit "$T/r3.yaml" --sites "$T/three.yaml"
b=$out
check "another waits" poll 10 state_is "$b" pending
kill -KILL "$(field "$a" supervisor_pid)"
check "once the supervisor is gone, the waiting job runs" poll 20 state_is "$b" running
run_gs cancel "$a"
check_eq "the dead job's processes are swept by cancel" "$rc" 0
run_gs wait "$b" --timeout 120
check_eq "and the waiting job ends well" "$rc" 0

# --- many at once: never more ranks than slots (started/ended of every job, 2 ranks of 4)
ids=""
for i in 1 2 3 4 5 6; do
	"$GS" submit "$T/r2.yaml" --sites "$T/four.yaml" > "$T/id.$i" 2>"$T/err.$i" &
done
wait
for i in 1 2 3 4 5 6; do
	ids="$ids $(cat "$T/id.$i")"
done
# shellcheck disable=SC2086 # the ids are words
run_gs wait $ids --timeout 300
check_eq "six jobs submitted at once all end well" "$rc" 0
for id in $ids; do
	printf '%s +1\n%s -1\n' "$(field "$id" started)" "$(field "$id" ended)"
done | sort > "$T/edges"
most=$(awk '{ n += $2; if (n > m) m = n } END { print m }' "$T/edges")
check_eq "at most two of them ran at any time (4 slots, 2 ranks each)" "$most" 2
waited=$(grep -l pending "$J"/*/supervisor.log | wc -l)
check "some of them waited" test "$waited" -ge 2
