#!/bin/sh
# test-timelimit.sh — the wall-time limit on the embedded fork site (doc/restarts.md, "The
# time limit"), with real mpiexec:
# - a plain program (sleep) past its time_limit: run exits 8, state timeout with the
#   reason, status, status --json, list --state timeout; nothing of the job left here;
# - a job that ends before its limit is done, untouched;
# - --time over the job file's time_limit, written into the job directory's job.yaml;
# - a bad --time (run, submit, resume): exit 2 naming the option and the formats, no job;
# - submit past its limit: wait exits 8 and says timeout;
# - a relaunch (rank 0 killed) continues the count: the limit is both launches' running;
# - mandelbrot (libgrt) past its limit: the journal kept with results in it, then resume
#   continues it (with room: resume --time) to done, the image checked against the
#   sequential computation.
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "time limit" "jq is not installed"; exit 0; }
MANDEL=$SRC/$BUILD/examples/mandelbrot
[ -x "$MANDEL" ] || { fail "time limit: $MANDEL is not built"; exit 1; }
J=$GRIDSUBMIT_HOME/jobs
at_exit sweep

# sleeper FILE LIMIT [SECONDS]: two ranks of sleep SECONDS (default 61) with time_limit LIMIT
sleeper() {
	{
		echo "name: sleeper"
		echo "program: /bin/sleep"
		echo "args: [\"${3:-61}\"]"
		echo "ranks: 2"
		echo "restarts: 0"
		echo "time_limit: \"$2\""
	} > "$1"
}

# left ID: the processes of job ID still here (its ranks' sleep, its wrappers)
left() {
	live_here "^/bin/sleep 61" | wc -l
	live "$J/$1/" | wc -l
}

# rank0: the pid of rank 0's sleep of this test's running job; false when there is none
rank0() {
	for r0 in $(live_here "^/bin/sleep 61"); do
		tr '\0' '\n' < "/proc/$r0/environ" 2>/dev/null | grep -qx PMI_RANK=0 &&
		    echo "$r0" && return 0
	done
	return 1
}

# --- a plain program stopped at its limit
sleeper "$T/sleep.yaml" "00:03"
run_gs run --no-metrics "$T/sleep.yaml"
check_eq "past its limit: run exits 8" "$rc" 8
check_eq "state timeout" "$(jq -r .state "$J/1/state.json")" timeout
check_match "the reason names the limit and the running time" \
	"$(jq -r .reason "$J/1/state.json")" "^time limit 00:03 reached after 3\\.[0-9] s of running$"
check_match "run says it on stderr" "$err" "job 1 timeout in .*: time limit 00:03 reached"
check_eq "nothing of the job is left here" "$(left 1 | tr '\n' ' ')" "0 0 "
echo "# stopped $(jq -r '.ended, .started' "$J/1/state.json" | xargs -n1 date +%s.%N -d |
	awk 'NR == 1 { e = $1 } NR == 2 { printf "%.2f", e - $1 - 3 }') s after the limit"
run_gs status 1
check_match "status: state timeout" "$out" "state: *timeout"
run_gs status 1 --json
check_eq "status --json: state, exit code 8" "$(printf '%s' "$out" | jq -r '.state + " " + (.exit_code | tostring)')" \
	"timeout 8"
run_gs list --state timeout --format id,state
check_eq "list --state timeout keeps it" "$(printf '%s\n' "$out" | sed 1d | tr -s ' ')" "1 timeout"
run_gs list --state timeout,failed --json
check_eq "list --json: the state's name" "$(printf '%s' "$out" | jq -r '.jobs[].state')" timeout

# --- a job that ends before its limit
sleeper "$T/short.yaml" "00:30" 1
run_gs run --no-metrics "$T/short.yaml"
check_eq "within its limit: done, exit 0" "$rc:$(jq -r .state "$J/2/state.json")" "0:done"

# --- --time over the job file's time_limit
sleeper "$T/long.yaml" "10:00"
run_gs run --no-metrics --time 0:02 "$T/long.yaml"
check_eq "--time 0:02 over time_limit 10:00: exit 8" "$rc" 8
check_match "the reason names --time's limit" "$(jq -r .reason "$J/3/state.json")" \
	"^time limit 0:02 reached after 2\\.[0-9] s of running$"
check_eq "the job directory's job.yaml holds it" \
	"$(grep '^time_limit:' "$J/3/job.yaml")" 'time_limit: "0:02"'
check_eq "nothing of that job is left here" "$(left 3 | tr '\n' ' ')" "0 0 "

# --- a bad --time
next=$(next_id)
run_gs run --no-metrics --time 5x "$T/long.yaml"
check_eq "run --time 5x: exit 2" "$rc" 2
check_match "names the option and the formats" "$err" \
	"gridsubmit run: --time: '5x' is not a time limit in one of Slurm's formats \\(MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS, more than 0\\)"
run_gs submit --no-metrics --time 0 "$T/long.yaml"
check_eq "submit --time 0: exit 2, no id" "$rc:$out" "2:"
check_match "submit --time 0: the option named" "$err" "gridsubmit submit: --time: '0' is not"
run_gs resume 1 --time 1:99
check_eq "resume --time 1:99: exit 2" "$rc" 2
check_match "resume --time 1:99: the option named" "$err" "gridsubmit resume: --time: '1:99'"
check_eq "no job was taken for them" "$(next_id)" "$next"

# --- submit, then wait
sleeper "$T/bg.yaml" "00:02"
run_gs submit --no-metrics "$T/bg.yaml"
id=$out
check_eq "submit: an id" "$rc" 0
run_gs wait "$id" --timeout 60
check_eq "wait: exit 8" "$rc" 8
check_match "wait: says timeout and why" "$out" "^job $id timeout \\(time limit 00:02 reached"

# --- a relaunch continues the count: rank 0 killed once mid-run, the job relaunched (a
# plain program: from scratch), then stopped when both launches together reach the limit
sleeper "$T/relaunch.yaml" "00:06"
sed -i 's/^restarts: 0$/restarts: 1/' "$T/relaunch.yaml"
id=$(next_id)
"$GS" run --no-metrics "$T/relaunch.yaml" > "$T/rl.out" 2> "$T/rl.err" &
pid=$!
at_exit "kill -9 $pid"
poll 30 rank0 || echo "# job $id: no rank 0 in time"
kill -KILL "$(rank0)"
wait $pid
check_eq "rank 0 killed, relaunched, then past its limit: exit 8" "$?" 8
check_eq "one restart" "$(jq -r .restarts "$J/$id/state.json")" 1
check_match "the limit counted both launches' running" "$(jq -r .reason "$J/$id/state.json")" \
	"^time limit 00:06 reached after 6\\.[0-9] s of running$"
check_eq "nothing of that job is left here" "$(left "$id" | tr '\n' ' ')" "0 0 "

# --- a libgrt job stopped, then resumed to done
cat > "$T/mandel.yaml" <<EOF
name: mandel-limit
program: "$MANDEL"
args: ["--size", "2000", "--iter", "4000", "--check", "--out", "m.pgm"]
ranks: 3
oversubscribe: true
runtime: {scheme: pss}
time_limit: "00:03"
EOF
id=$(next_id)
run_gs run --no-metrics "$T/mandel.yaml"
check_eq "mandelbrot past its limit: exit 8, timeout" "$rc:$(jq -r .state "$J/$id/state.json")" \
	"8:timeout"
check "its journal is kept, with results" test "$(wc -c < "$J/$id/journal")" -gt 1000
check "no mandelbrot of the job is left" gone "$J/$id/"
# a resume gets the limit afresh: --time gives it room to end
run_gs resume "$id" --time 5:00
check_eq "resume --time 5:00: done, exit 0" "$rc:$(jq -r .state "$J/$id/state.json")" "0:done"
check_match "the image matches the sequential computation" "$out" \
	"image matches the sequential computation"
check "the resumed master replayed the journal" \
	grep -q '"ev":"resume","units":[1-9]' "$J/$id/events.jsonl"
