#!/bin/sh
# test-ends.sh — how a job that did not end by itself is told, with real mpiexec jobs of the
# mandelbrot example run in the foreground:
# - `gridsubmit cancel` of a running `run`: the run exits 6; the reason names the command,
#   its pid and user in state.json, run's last line, status and list; no rank's "died of
#   signal 15" on run's stderr, though every rank's end is recorded in rank-ends; the
#   supervisor's cancel event says who too;
# - Ctrl-C on a real terminal (tmux): the run exits 130, the reason names Ctrl-C, nothing of
#   the job is left; SIGINT to the run's process group (kill -INT -PGID): 130, the sender
#   named; SIGTERM to the run: 143;
# - no makespan for a job that did not complete: run's last line, status and status --json
#   (null) of a cancelled, a timed-out and a failed job; a rank killed by a signal nobody
#   sent is still said on stderr;
# - resume says it in one line.
. tests/lib.sh

for tool in jq pgrep setsid tmux; do
	command -v "$tool" >/dev/null 2>&1 || { skip "ends" "$tool is not installed"; exit 0; }
done
MANDEL="$SRC/$BUILD/examples/mandelbrot"
[ -x "$MANDEL" ] || { fail "ends: $MANDEL is not built"; exit 1; }
J="$GRIDSUBMIT_HOME/jobs"
SOCK=gs-ends-$$
at_exit "tmux -L $SOCK kill-server"
at_exit sweep

mandel_job ends "$T/long.yaml" 3000 --iter 5000

# computing ID: the job runs and its master has started (its events say so)
computing() {
	[ "$(jq -r .state "$J/$1/state.json" 2>/dev/null)" = running ] &&
		grep -q '"ev":"start"' "$J/$1/events.jsonl" 2>/dev/null
}
# nothing_left ID: no process of the job on this host (test-lifecycle.sh's checks)
nothing_left() {
	[ -z "$(live "$J/$1/")" ] && [ -z "$(live_here "$MANDEL")" ] &&
		[ -z "$(live "mpiexec.*$J/$1/hostfile")" ]
}
# fg_run NAME ARGS...: `gridsubmit run ARGS` in the background in a session of its own (a
# terminal's foreground job: its own process group), stdout and stderr to $T/NAME.out and
# .err; its pid in $fg, its job's id in $fid once the job computes
fg_run() {
	fg_name=$1
	shift
	fid=$(next_id)
	setsid -w "$GS" run --no-metrics "$@" > "$T/$fg_name.out" 2> "$T/$fg_name.err" &
	fg=$!
	poll 30 computing "$fid" || echo "# job $fid did not start computing"
}

# --- gridsubmit cancel of a run in the foreground
fg_run cancel "$T/long.yaml"
c=$fid
run_gs cancel "$c"
check_eq "cancel: exit 0" "$rc:$out" "0:job $c cancelled"
wait "$fg"
check_eq "cancel: the run exits 6 (cancelled), not 128+15" "$?" 6
reason=$(jq -r .reason "$J/$c/state.json")
check_match "cancel: state.json's reason names gridsubmit cancel, its pid and user" "$reason" \
	"^cancelled by gridsubmit cancel \\(pid [0-9]+, user $(id -un)\\)$"
check_eq "cancel: the supervisor's last event says who" \
	"$(tail -n 1 "$J/$c/events.jsonl" | jq -c '[.ev, .reason]')" "[\"cancel\",\"$reason\"]"
check_match "cancel: run's last line says who, and no makespan" \
	"$(grep "^gridsubmit: job $c " "$T/cancel.err" | tail -n 1)" \
	"^gridsubmit: job $c cancelled in [0-9.]+ s: cancelled by gridsubmit cancel \\(pid [0-9]+, user "
check "cancel: no makespan anywhere in run's lines" sh -c "! grep -q makespan '$T/cancel.err'"
check "cancel: no rank's 'died of signal' on run's stderr" \
	sh -c "! grep -q 'died of signal' '$T/cancel.err'"
check_eq "cancel: yet every rank's end is recorded, by signal 15" \
	"$(jq -c '[.rank_ends[] | .signal] | sort' "$J/$c/state.json")" '[15,15,15]'
run_gs status "$c"
check_match "cancel: status shows the reason" "$out" \
	"^  state: +cancelled \\(cancelled by gridsubmit cancel \\(pid [0-9]+, user "
check "cancel: status has no makespan line" sh -c "! printf '%s\\n' \"\$1\" | grep -q makespan" sh "$out"
check_eq "cancel: status --json: makespan null, the reason" \
	"$("$GS" status --json "$c" | jq -c '[.makespan, .reason]')" "[null,\"$reason\"]"
run_gs list --format id,reason --state cancelled
check_match "cancel: list shows the reason" "$out" "^$c +cancelled by gridsubmit cancel \\(pid"
check "cancel: nothing of the job is left" poll 15 nothing_left "$c"

# --- resume says it in one line (then the resumed run is cancelled again)
setsid -w "$GS" resume "$c" > "$T/resume.out" 2> "$T/resume.err" &
rp=$!
check "resume: the job computes again" poll 30 computing "$c"
run_gs cancel "$c"
wait "$rp"
check_eq "resume cancelled: exit 6" "$?" 6
check_match "resume: one line" "$(grep resumed "$T/resume.err")" \
	"^gridsubmit: job $c \\(ends-3000\\): resumed \\(restart 1\\), 3 ranks, scheme gss$"
check_eq "resume: only that line says resumed" "$(grep -c resumed "$T/resume.err")" 1
check "resume: nothing of the job is left" poll 15 nothing_left "$c"

# --- Ctrl-C on a real terminal: 130, the reason names Ctrl-C, nothing left
tmux -L "$SOCK" new-session -d -s keep -x 80 -y 24 "sleep 600"
i=$(next_id)
# the pane's shell traps SIGINT so that it lives to say the run's status
tmux -L "$SOCK" new-session -d -s cc -x 200 -y 10 \
	"trap : INT; $GS run --no-metrics $T/long.yaml 2> $T/ctrlc.err; echo RUN-EXITED rc=\$?; sleep 60"
poll 30 computing "$i" || echo "# job $i did not start computing"
tmux -L "$SOCK" send-keys -t cc C-c
check "Ctrl-C: the run ends" poll 30 sh -c "tmux -L $SOCK capture-pane -p -t cc | grep -q RUN-EXITED"
check_match "Ctrl-C: the run exits 130 (128+SIGINT)" \
	"$(tmux -L "$SOCK" capture-pane -p -t cc)" "RUN-EXITED rc=130$"
check_eq "Ctrl-C: the cancel event" "$(tail -n 1 "$J/$i/events.jsonl" | jq -r .reason)" \
	"interrupted by Ctrl-C (SIGINT)"
check_eq "Ctrl-C: state.json: cancelled, interrupted by Ctrl-C" \
	"$(jq -c '[.state, .reason]' "$J/$i/state.json")" \
	'["cancelled","interrupted by Ctrl-C (SIGINT)"]'
check_match "Ctrl-C: run's last line" "$(grep "^gridsubmit: job $i " "$T/ctrlc.err" | tail -n 1)" \
	"^gridsubmit: job $i cancelled in [0-9.]+ s: interrupted by Ctrl-C \\(SIGINT\\)$"
check "Ctrl-C: no rank's 'died of signal'" sh -c "! grep -q 'died of signal' '$T/ctrlc.err'"
check "Ctrl-C: nothing of the job is left" poll 15 nothing_left "$i"

# --- SIGINT to the run's process group, as a shell's job control sends it
fg_run sigint "$T/long.yaml"
s=$fid
pg=$(ps -o pgid= -p "$(jq .supervisor_pid "$J/$s/state.json")" | tr -d ' ')
kill -INT "-$pg"
wait "$fg"
check_eq "SIGINT to the group: exit 130" "$?" 130
check_match "SIGINT to the group: the sender named" "$(jq -r .reason "$J/$s/state.json")" \
	"^interrupted by SIGINT from pid [0-9]+$"
check "SIGINT to the group: nothing of the job is left" poll 15 nothing_left "$s"

# --- SIGTERM to the run (kill, a batch system): 143
fg_run sigterm "$T/long.yaml"
t=$fid
kill -TERM "$(jq .supervisor_pid "$J/$t/state.json")"
wait "$fg"
check_eq "SIGTERM: exit 143 (128+SIGTERM)" "$?" 143
check_match "SIGTERM: the reason" "$(jq -r .reason "$J/$t/state.json")" \
	"^terminated by SIGTERM from pid $$$"
check "SIGTERM: nothing of the job is left" poll 15 nothing_left "$t"

# --- no makespan for a job that did not complete: timeout
run_gs run --no-metrics --time 0:02 "$T/long.yaml"
o=$(next_id)
o=$((o - 1))
check_eq "timeout: exit 8" "$rc" 8
check_match "timeout: run's last line, no makespan" \
	"$(printf '%s\n' "$err" | grep "^gridsubmit: job $o ")" \
	"^gridsubmit: job $o timeout in [0-9.]+ s: time limit 0:02 reached after [0-9.]+ s of running$"
check_eq "timeout: status --json makespan null" \
	"$("$GS" status --json "$o" | jq -c '[.state, .makespan]')" '["timeout",null]'

# --- a failed job: rank 0 killed by a signal nobody sent, no restart
fg_run failed --restarts 0 "$T/long.yaml"
f=$fid
for p in $(live_here "^$MANDEL "); do
	tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qx PMI_RANK=0 && kill -KILL "$p"
done
wait "$fg"
check_eq "failed: exit 1" "$?" 1
check_match "failed: run's last line, no makespan" \
	"$(grep "^gridsubmit: job $f " "$T/failed.err" | tail -n 1)" \
	"^gridsubmit: job $f failed in [0-9.]+ s: rank 0 died of signal 9"
check_match "failed: the rank killed by a signal nobody sent is said" "$(cat "$T/failed.err")" \
	"gridsubmit-rank: rank 0 on [^:]+: .*mandelbrot died of signal 9"
run_gs status "$f"
check "failed: status has no makespan line" sh -c "! printf '%s\\n' \"\$1\" | grep -q makespan" sh "$out"
check_eq "failed: status --json makespan null" \
	"$("$GS" status --json "$f" | jq -c '[.state, .makespan]')" '["failed",null]'
check "failed: nothing of the job is left" poll 15 nothing_left "$f"
