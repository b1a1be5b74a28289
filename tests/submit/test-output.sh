#!/bin/sh
# test-output.sh — what gridsubmit says and where (issue 18): run's own lines on stderr and
# the program's output alone on stdout, -q, the progress line on a terminal (erased before
# anything else, and nothing of it elsewhere), run --top's report of the job's own time,
# --scheme's "did you mean" in every command that takes it, and the exit codes of
# README.md's table in every command.
. tests/lib.sh

SYN="$SRC/$BUILD/examples/synthetic"
ESC=$(printf '\033')
# job FILE UNITS: a synthetic job of UNITS units of 20 us on 3 ranks (the master and two
# workers, whose lines this test reads, on a host of 2 cores or more: oversubscribed)
job() {
	cat > "$1" <<YAML
name: out-test
program: $SYN
args: ["--units", "$2", "--mean-us", "20", "--seed", "1", "--check"]
ranks: 3
oversubscribe: true
restarts: 0
YAML
}
job "$T/job.yaml" 20000
job "$T/long.yaml" 100000
job "$T/forever.yaml" 50000000
printf 'program: /bin/false\nranks: 2\nrestarts: 0\n' > "$T/false.yaml"
J="$GRIDSUBMIT_HOME/jobs"

# ---- stdout is the program's, stderr gridsubmit's
"$GS" run "$T/job.yaml" --no-metrics > "$T/out" 2> "$T/err"
check_eq "run: exit 0" "$?" 0
check "run > out.txt: exactly the program's output" cmp "$T/out" "$J/1/stdout"
check_match "the program's output is there" "$(cat "$T/out")" "^synthetic: 20000 units .*matches"
check_eq "no line of gridsubmit's on stdout" "$(grep -c 'gridsubmit' "$T/out")" 0
check_match "stderr: the start line" "$(cat "$T/err")" \
	"^gridsubmit: job 1 \(out-test\): 3 ranks, scheme gss$"
check_match "stderr: the end line" "$(cat "$T/err")" \
	"^gridsubmit: job 1 done in [0-9.]+ s \(makespan"
check_match "stderr: where the job's directory is" "$(cat "$T/err")" "^  directory: $J/1$"
check_eq "not a terminal: no progress line (no CR, no erase)" \
	"$(tr -cd "\r$ESC" < "$T/err" | wc -c)" 0

# ---- -q: only errors
run_gs run "$T/job.yaml" --no-metrics -q
check_eq "-q: exit 0" "$rc" 0
check_eq "-q: nothing on stderr for a job that succeeds" "$err" ""
check "-q: stdout is still the program's output" cmp "$T/.out" "$J/2/stdout"
run_gs run "$T/false.yaml" --no-metrics --quiet
check_eq "--quiet: a failing job exits 1" "$rc" 1
check_match "--quiet: its failure is still said" "$err" \
	"^gridsubmit: job 3 failed in .*rank [0-9] on node localhost exited with status 1"
check_eq "--quiet: no start line, no where lines" \
	"$(printf '%s\n' "$err" | grep -Ec '3 ranks|2 ranks, scheme|^  (directory|events|output):')" 0

# ---- the progress line, on a terminal (script(1) gives the job a pseudo-terminal)
# render TTYFILE: the screen the bytes leave, line by line, as a terminal draws them: CR
# goes back to column 0, ESC [ K erases to the end of the line
render() {
	awk -v e="$ESC" '{
		scr = ""; col = 0; n = length($0)
		for (i = 1; i <= n; i++) {
			c = substr($0, i, 1)
			if (c == "\r") { col = 0; continue }
			if (c == e && substr($0, i, 3) == e "[K") { scr = substr(scr, 1, col); i += 2; continue }
			scr = substr(scr, 1, col) c substr(scr, col + 2); col++
		}
		print scr
	}' "$1"
}
if ! command -v script > /dev/null 2>&1; then
	skip "progress line" "script (util-linux) is not installed"
else
	TERM=xterm script -qefc "'$GS' run '$T/long.yaml' --no-metrics" /dev/null \
	    < /dev/null > "$T/tty" 2>&1
	check_eq "terminal: run exits 0" "$?" 0
	check_match "terminal: a progress line with units, rate, ETA and elapsed" \
		"$(tr '\r' '\n' < "$T/tty")" \
		"^job 4: [0-9]+/100000 units \([0-9]+%\), [0-9]+/s, ETA [^,]+, [0-9.]+ s elapsed"
	check_match "terminal: redrawn in place, several times (CR, text, erase)" \
		"$(tr '\r' '\n' < "$T/tty" | grep -c "^job 4: .*$ESC\[K\$")" "^([2-9]|[1-9][0-9]+)$"
	render "$T/tty" > "$T/screen"
	check_eq "terminal: erased before anything else is written: none of it stays" \
		"$(grep -c 'job 4: .*units' "$T/screen")" 0
	check_match "terminal: the program's output on a line of its own" \
		"$(cat "$T/screen")" "^synthetic: 100000 units .*matches"
	check_match "terminal: the end line on a line of its own" "$(cat "$T/screen")" \
		"^gridsubmit: job 4 done in"
	TERM=xterm script -qefc "'$GS' run '$T/long.yaml' --no-metrics -q" /dev/null \
	    < /dev/null > "$T/tty-q" 2>&1
	check_eq "terminal, -q: no progress" "$(grep -c "$ESC" "$T/tty-q")" 0
	TERM=dumb script -qefc "'$GS' run '$T/long.yaml' --no-metrics" /dev/null \
	    < /dev/null > "$T/tty-dumb" 2>&1
	check_eq "terminal, TERM=dumb: no progress" "$(grep -c "$ESC\|job 6: [0-9]*/" "$T/tty-dumb")" 0
	check_match "terminal, TERM=dumb: the end line still comes" "$(cat "$T/tty-dumb")" \
		"gridsubmit: job 6 done in"
fi

# ---- run --top: the report gives the job's time, however long the console stays open
if ! command -v tmux > /dev/null 2>&1; then
	skip "run --top: the job's time" "tmux is not installed"
else
	SOCK=gs-out-$$
	at_exit "tmux -L $SOCK kill-server"
	# the id the run will take: counted before it starts
	id=$(($("$GS" list --format id | tail -n +2 | wc -l) + 1))
	tmux -L "$SOCK" new-session -d -x 100 -y 30 \
	    "'$GS' run '$T/job.yaml' --no-metrics --top 2> '$T/top.err'; sleep 60"
	i=0
	while [ $i -lt 300 ] && [ "$(jq -r .state "$J/$id/state.json" 2>/dev/null)" != "done" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	# the console stays open 4 s after the end, then q
	sleep 4
	tq=$(date +%s.%N)
	tmux -L "$SOCK" send-keys q
	i=0
	while [ $i -lt 100 ] && ! grep -q 'done in' "$T/top.err"; do sleep 0.1; i=$((i + 1)); done
	took=$(sed -n 's/^gridsubmit: job [0-9]* done in \([0-9.]*\) s.*/\1/p' "$T/top.err")
	check_match "run --top: the report comes once q is pressed" "$took" "^[0-9]+\.[0-9]+$"
	sub=$(date -d "$(jq -r .submitted "$J/$id/state.json")" +%s.%N)
	end=$(date -d "$(jq -r .ended "$J/$id/state.json")" +%s.%N)
	check "run --top: the job's time, from its submission to its recorded end" \
		awk -v t="$took" -v s="$sub" -v e="$end" \
		    'BEGIN { d = t - (e - s); exit !(d < 0.02 && d > -0.02) }'
	check "run --top: not the console's 4 s more" \
		awk -v t="$took" -v s="$sub" -v q="$tq" 'BEGIN { exit !(t + 3.5 < q - s) }'
fi

# ---- --scheme: "did you mean" in every command that takes it
for c in run submit; do
	run_gs $c "$T/job.yaml" --scheme gs
	check_eq "$c --scheme gs: a usage error, exit 2" "$rc" 2
	check_match "$c --scheme gs: did you mean gss" "$err" \
		"^gridsubmit $c: --scheme: unknown scheme 'gs' \(did you mean 'gss'\?\)$"
done
run_gs schedule --scheme pws -N 10 -P 2
check_match "schedule --scheme pws: did you mean pss" "$rc:$err" \
	"^2:gridsubmit schedule: --scheme: unknown scheme 'pws' \(did you mean 'pss'\?\)"
run_gs run "$T/job.yaml" --scheme xyzzy
check_match "run --scheme far from any: the list of schemes" "$err" \
	"unknown scheme 'xyzzy' \(one of: static, wstatic, .*, pwd-speed\)$"
n=$("$GS" list --format id | tail -n +2 | wc -l)
run_gs run "$T/job.yaml" --no-metrics --scheme GSS
check_match "run --scheme in another case: the scheme's own name" "$rc:$err" \
	"^0:gridsubmit: job $((n + 1)) \(out-test\): 3 ranks, scheme gss$"
printf 'name: x\njob: %s\nmatrix:\n  scheme: [gss, gs]\n' "$T/job.yaml" > "$T/exp.yaml"
run_gs experiment "$T/exp.yaml" --dry-run
check_match "experiment: a scheme of its matrix too, exit 3" "$rc:$err" \
	"^3:$T/exp.yaml:4:[0-9]+: unknown scheme 'gs' \(did you mean 'gss'\?\)$"

# ---- exit codes (README.md, "Exit codes")
for c in status logs wait cancel resume top; do
	run_gs $c 999
	check_eq "$c of an unknown job id: exit 2" "$rc:$err" \
		"2:gridsubmit: job 999: no such job (see gridsubmit list)"
done
run_gs bogus
check_eq "an unknown command: exit 2" "$rc" 2
run_gs run "$T/missing.yaml"
check_eq "run of a missing job file: exit 3" "$rc" 3
run_gs run "$T/false.yaml" --no-metrics --ranks 100000
check_match "run that cannot be placed: exit 4" "$rc:$err" "^4:gridsubmit: no placement: "
printf 'garbage\n' > "$T/garbage.jsonl"
run_gs top --replay "$T/garbage.jsonl" --once
check_eq "top --replay of a file with no event: exit 3" "$rc" 3
run_gs logs 3
check_eq "logs of a job that wrote nothing: exit 0, nothing" "$rc:$out" "0:"
run_gs wait 1
check_eq "wait for a job that is done: exit 0" "$rc" 0
run_gs wait 3
check_eq "wait for a job that failed: exit 1" "$rc" 1
run_gs status 3
check_eq "status of a job that failed: exit 0 (status itself worked)" "$rc" 0
run_gs resume 1
check_eq "resume of a job that is done: exit 7" "$rc" 7
run_gs submit "$T/forever.yaml" --no-metrics
check_eq "submit: exit 0" "$rc" 0
fid=$out
at_exit "'$GS' cancel $fid"
run_gs wait "$fid" --timeout 1
check_eq "wait --timeout that runs out: exit 124" "$rc" 124
run_gs cancel "$fid"
check_eq "cancel of a running job: exit 0" "$rc" 0
run_gs wait "$fid"
check_eq "wait for a cancelled job: exit 6" "$rc" 6
run_gs logs "$fid"
check_eq "logs of a cancelled job: exit 0" "$rc" 0
