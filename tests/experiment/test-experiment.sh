#!/bin/sh
# test-experiment.sh — gridsubmit experiment (submit/cmd-experiment.c, submit/exp-run.c,
# experiment/): experiment files run as real jobs of examples/mandelbrot and
# examples/synthetic on this host, their SQLite store, reports, resume and refusals:
# - --dry-run lists the points (each with its mode), the seed (drawn for it, the file's,
#   the stored one) and the runs in order with their {seed}, and creates nothing; a random
#   order with the file's seed runs exactly as the dry run showed it; bad files
#   (unknown key, unknown parameter, empty matrix, undefined {name}, a bad runtime value,
#   zip lengths, a regex without a group, a table naming no parameter, a missing job,
#   wrong type, truncated, binary) fail with file:line:col, exit 3, and create nothing; a
#   file with several mistakes names every one in file order, up to 20 and "too many
#   errors, stopping";
# - a 2 x 2 x 2 matrix (scheme x size, repeat 2, sequential): 8 done runs, 8 done jobs,
#   each with its point's scheme and size, results.csv/json, summary.md's table equal to
#   the medians of results.csv computed here, a regex metric, the plot files;
# - experiment list|show|report;
# - a run that fails: exit 1, its reason stored, the others done; a rerun runs it alone;
# - a changed file is refused (exit 7, the store unchanged); --new keeps the old as NAME.1;
# - killed with SIGKILL mid-run: no process of its job is left, every job ends, and the
#   same command resumes: 6 runs done, each once, 6 done jobs;
# - SIGINT (Ctrl-C to the process group, and to the experiment process alone): exit 130,
#   no run left running, the running job cancelled and its run not counted, a rerun runs
#   it again and finishes.
. tests/lib.sh

for tool in jq sqlite3 pgrep; do
	command -v "$tool" >/dev/null 2>&1 || { skip "experiment" "$tool is not installed"; exit 0; }
done
MB="$SRC/$BUILD/examples/mandelbrot"
SYN="$SRC/$BUILD/examples/synthetic"
[ -x "$MB" ] || { fail "experiment: $MB is not built"; exit 1; }
[ -x "$SYN" ] || { fail "experiment: $SYN is not built"; exit 1; }
J="$GRIDSUBMIT_HOME/jobs"
X="$GRIDSUBMIT_HOME/experiments"
export LC_ALL=C

at_exit sweep

# jstate ID: the job's state as `status --json` tells it
jstate() {
	"$GS" status "$1" --json 2>/dev/null | jq -r .state
}

# ndone NAME N: at least N runs of experiment NAME are done
ndone() {
	[ "$(exp_q "$1" "select count(*) from run where state = 'done'")" -ge "$2" ] 2>/dev/null
}

# running_job NAME: the job of NAME's running run, once that job is running
running_job() {
	rj=$(exp_q "$1" "select job_id from run where state = 'running' and job_id is not null")
	[ -n "$rj" ] && [ "$(jstate "$rj")" = running ] && echo "$rj"
}

# states FROM TO: "ID STATE" of the jobs FROM..TO-1
states() {
	s_i=$1
	while [ "$s_i" -lt "$2" ]; do
		echo "$s_i $(jstate "$s_i")"
		s_i=$((s_i + 1))
	done
}

# nothing_left PATTERN FROM TO: no process matches PATTERN, nor names a job dir FROM..TO-1
nothing_left() {
	gone "$1" || return 1
	n_i=$2
	while [ "$n_i" -lt "$3" ]; do
		gone "$J/$n_i/" || return 1
		n_i=$((n_i + 1))
	done
}

# dead PID: the process has ended (a zombie too)
dead() {
	! alive "$1"
}

# stop PID: wait up to 60 s for the process to end (SIGKILL after), leaving its status in $rc
stop() {
	poll 60 dead "$1" || { echo "# $1 did not end in 60 s: killed"; kill -KILL "$1"; }
	wait "$1" 2>/dev/null
	rc=$?
}

# experiment files: exp FILE LINE...
exp() {
	f=$1
	shift
	printf '%s\n' "$@" > "$f"
}

cat > "$T/mandel.yaml" <<YAML
name: exp-mandel
program: "$MB"
args: ["--size", "64"]
ranks: 2
runtime: {scheme: gss}
YAML
cat > "$T/syn.yaml" <<YAML
name: exp-syn
program: "$SYN"
args: ["--units", "1000"]
ranks: 2
runtime: {scheme: gss}
YAML

exp "$T/grid.yaml" \
	"name: grid" \
	"job: $T/mandel.yaml" \
	"matrix:" \
	"  scheme: [gss, static]" \
	"  size: [64, 128]" \
	'args: ["--size", "{size}", "--check"]' \
	"repeat: 2" \
	"order: sequential" \
	"metrics:" \
	"  - {name: width, regex: 'mandelbrot: ([0-9]+)x[0-9]+,'}" \
	"report:" \
	"  table: {rows: scheme, cols: size, value: makespan, stat: median}" \
	"  plots:" \
	"    - {x: size, y: makespan, series: scheme, errorbars: ci95, file: fig.png}"

# --- --dry-run: the points, nothing created
run_gs experiment --dry-run "$T/grid.yaml"
check_eq "dry-run: exit 0" "$rc" 0
check_match "dry-run: 4 points x 2 repetitions" "$out" \
	"^experiment grid: 4 points x 2 repetitions = 8 runs, order sequential$"
check_eq "dry-run: the points and their runs" "$(printf '%s\n' "$out" | grep '^point ')" \
	"point 1: scheme=gss size=64 (runs 1-2, mode run)
point 2: scheme=gss size=128 (runs 3-4, mode run)
point 3: scheme=static size=64 (runs 5-6, mode run)
point 4: scheme=static size=128 (runs 7-8, mode run)"
check_eq "dry-run: the file's order of runs, each with its {seed}" \
	"$(printf '%s\n' "$out" | sed -n 's/^\(order [0-9]*: run [0-9]*, point [0-9]*, rep [0-9]*\), seed [0-9]*$/\1/p')" \
	"order 1: run 1, point 1, rep 1
order 2: run 2, point 1, rep 2
order 3: run 3, point 2, rep 1
order 4: run 4, point 2, rep 2
order 5: run 5, point 3, rep 1
order 6: run 6, point 3, rep 2
order 7: run 7, point 4, rep 1
order 8: run 8, point 4, rep 2"
check_match "dry-run: a seed drawn for it, and how to keep it" "$out" \
	"^seed: ([0-9]+) \\(drawn for this dry run: a run draws its own; put 'seed: \\1' in the file to run in this order\\)$"
check "dry-run: no results directory" test ! -e "$X/grid"
check_eq "dry-run: no job" "$(next_id)" 1

# --- bad experiment files: located errors, exit 3, nothing created
list_before=$("$GS" list 2>&1)
# bad NAME LINE...: write $T/NAME.yaml (name: NAME, then the job, then LINE...), run it
bad() {
	b=$1
	shift
	exp "$T/$b.yaml" "name: $b" "job: $T/mandel.yaml" "$@"
	run_gs experiment "$T/$b.yaml"
	check_eq "$b: exit 3" "$rc" 3
}
bad bad-key "matrix:" "  scheme: [gss]" "repat: 2"
check_eq "unknown top key: located, with the closest key" "$err" \
	"$T/bad-key.yaml:5:1: unknown key 'repat' (did you mean 'repeat'?)"
bad bad-param "matrix:" "  scheme: [gss]" "  colour: [red, blue]" 'args: ["--size", "64"]'
check_match "a parameter that sets nothing: located at its name" "$err" \
	"^$T/bad-param.yaml:5:3: parameter 'colour' is neither a key of the job"
bad bad-empty "matrix: {}"
check_eq "an empty matrix: located" "$err" \
	"$T/bad-empty.yaml:3:9: 'matrix' is empty: name at least one parameter with a list of values"
bad bad-undef "matrix:" "  scheme: [gss]" 'args: ["--size", "{size}"]'
check_eq "an undefined {name}: located at the argument" "$err" \
	"$T/bad-undef.yaml:5:18: '{size}' is not defined: name a parameter of the matrix, or seed, rep or point"
bad bad-swr "matrix:" "  scheme: [pwd]" "  swr: [0.5, 2]"
check_eq "a bad runtime value: located at the value in the experiment file" "$err" \
	"$T/bad-swr.yaml:5:14: 'swr' must be auto or a number in [0, 1], not '2'"
bad bad-zip "zip:" "  scheme: [gss, static]" "  size: [64]" 'args: ["--size", "{size}"]'
check_match "zip lists of different lengths: located" "$err" \
	"^$T/bad-zip.yaml:5:9: zip: 'size' has 1 values, 'scheme' has 2"
bad bad-regex "matrix:" "  scheme: [gss]" "metrics:" "  - {name: w, regex: 'mandelbrot: [0-9]+x'}"
check_match "a regex without a group: located at the regex" "$err" \
	"^$T/bad-regex.yaml:6:22: 'regex' needs a group"
bad bad-rows "matrix:" "  scheme: [gss]" "report:" "  table: {rows: sheme}"
check_eq "report rows naming no parameter: located, with the closest" "$err" \
	"$T/bad-rows.yaml:6:17: 'rows': 'sheme' is not a parameter of the matrix (did you mean 'scheme'?)"
exp "$T/bad-job.yaml" "name: bad-job" "job: nosuch.yaml" "matrix:" "  scheme: [gss]"
run_gs experiment "$T/bad-job.yaml"
check_eq "bad-job: exit 3" "$rc" 3
check_match "a missing job file: located at job:" "$err" \
	"^$T/bad-job.yaml:2:6: 'job': cannot open $T/nosuch.yaml: No such file"
bad bad-type "matrix:" "  scheme: [gss]" "repeat: many"
check_match "repeat: a word: located" "$err" \
	"^$T/bad-type.yaml:5:9: 'repeat' must be a whole number from 1 to 10000 or a mapping of modes to such numbers \\(\\{testbed: 5, simulate: 20\\}\\), not 'many'"
bad bad-many "matrix:" "  scheme: [gss]" "  colour: [red]" 'args: ["--size", "{size}"]' \
	"repat: 2" "order: random-ish" "metrics:" "  - {name: w, regex: 'x'}" "report:" \
	"  table: {rows: sheme}"
check_eq "several mistakes: every one, in file order" "$err" \
	"$T/bad-many.yaml:5:3: parameter 'colour' is neither a key of the job (ranks, sites, rank_weights, ...), nor of its runtime, nor used as {colour} in args
$T/bad-many.yaml:6:18: '{size}' is not defined: name a parameter of the matrix, or seed, rep or point
$T/bad-many.yaml:7:1: unknown key 'repat' (did you mean 'repeat'?)
$T/bad-many.yaml:8:8: 'order' must be random or sequential, not 'random-ish'
$T/bad-many.yaml:10:22: 'regex' needs a group around the number, as in 'rate ([0-9.]+)'
$T/bad-many.yaml:12:17: 'rows': 'sheme' is not a parameter of the matrix (did you mean 'scheme'?)"
{
	printf 'name: bad-cap\njob: %s\nmatrix:\n  scheme: [gss]\n' "$T/mandel.yaml"
	i=1
	while [ "$i" -le 25 ]; do
		echo "k$i: 1"
		i=$((i + 1))
	done
} > "$T/bad-cap.yaml"
run_gs experiment "$T/bad-cap.yaml"
check_eq "bad-cap: exit 3" "$rc" 3
check_eq "25 unknown keys: the first 20, then where it stopped" \
	"$(printf '%s\n' "$err" | sed -n '1p;20,$p' | sed 's/ (expected one of: .*)$//')" \
	"$T/bad-cap.yaml:5:1: unknown key 'k1'
$T/bad-cap.yaml:24:1: unknown key 'k20'
$T/bad-cap.yaml: too many errors, stopping"
check_eq "25 unknown keys: 21 lines" "$(printf '%s\n' "$err" | wc -l)" 21
printf 'name: bad-trunc\njob: %s\nmatrix:\n  scheme: [gs' "$T/mandel.yaml" > "$T/bad-trunc.yaml"
run_gs experiment "$T/bad-trunc.yaml"
check_eq "truncated: exit 3" "$rc" 3
check_match "truncated: located" "$err" "^$T/bad-trunc.yaml:[0-9]+:[0-9]+: [a-z]"
printf 'name: bad-bin\njob: \000\377\376junk\n' > "$T/bad-bin.yaml"
run_gs experiment "$T/bad-bin.yaml"
check_eq "binary: exit 3" "$rc" 3
check_match "binary: located at the NUL byte" "$err" "^$T/bad-bin.yaml:2:6: binary data"
check "bad files: no results directory at all" test ! -e "$X"
check_eq "bad files: no job id used" "$(next_id)" 1
check_eq "bad files: list unchanged" "$("$GS" list 2>&1)" "$list_before"

# --- a 2 x 2 x 2 experiment: 8 runs as 8 jobs, the reports
run_gs experiment "$T/grid.yaml"
check_eq "grid: exit 0" "$rc" 0
check_match "grid: says what it did" "$err" "grid: 8 runs this time, 0 failed; results in $X/grid"
check_eq "grid: 8 done runs in the store" \
	"$(exp_q grid "select count(*) from run where state = 'done'")" 8
ids=$(exp_q grid "select job_id from run order by seq")
check_eq "grid: 8 distinct job ids" "$(printf '%s\n' "$ids" | sort -u | grep -c .)" 8
check_eq "grid: order sequential: the jobs in run order" \
	"$(printf '%s\n' "$ids" | tr '\n' ' ')" "$(printf '%s\n' "$ids" | sort -n | tr '\n' ' ')"
ndonejobs=0
for id in $ids; do
	[ -d "$J/$id" ] && [ "$(jstate "$id")" = "done" ] && ndonejobs=$((ndonejobs + 1))
done
check_eq "grid: each a job directory in state done" "$ndonejobs" 8
# each job ran its point: the scheme in its state, the size and scheme in its output
bad_points=""
for line in $(jq -r '.runs[] | "\(.id),\(.params.scheme),\(.params.size)"' \
    "$X/grid/results.json"); do
	id=${line%%,*} rest=${line#*,}
	scheme=${rest%,*} size=${rest#*,}
	if [ "$("$GS" status "$id" --json | jq -r .scheme)" != "$scheme" ] ||
	    ! grep -q "^mandelbrot: ${size}x$size, scheme $scheme, 2 ranks" "$J/$id/stdout"; then
		bad_points="$bad_points $line"
	fi
done
check_eq "grid: every job ran its point's scheme and size" "$bad_points" ""
check_eq "grid: results.csv has a header and 8 rows" "$(wc -l < "$X/grid/results.csv")" 9
check_eq "grid: results.json has 8 runs" "$(jq '.runs | length' "$X/grid/results.json")" 8
check_eq "grid: results.json: 8 done runs with a numeric makespan" \
	"$(jq '[.runs[] | select(.state == "done" and (.metrics.makespan | type) == "number"
	    and .metrics.makespan > 0)] | length' "$X/grid/results.json")" 8
check_eq "grid: the width metric (regex) is each point's size" \
	"$(jq '[.runs[] | select(.metrics.width == (.params.size | tonumber))] | length' \
	    "$X/grid/results.json")" 8
check_eq "grid: the width metric in the store" "$(exp_q grid "select count(*) from metric m
	join run r on r.id = m.run join point p on p.id = r.point where m.name = 'width' and
	m.value = json_extract(p.params, '\$.size') + 0")" 8
# medians CSV ROW [COL]: the median makespan of each (ROW, COL) of the done runs of
# results.csv, as "row col median" (4 digits, as summary.md prints them); without COL,
# col is "makespan"
medians() {
	tr -d '\r' < "$1" | awk -F, -v row="$2" -v col="${3:-}" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["state"] == "done" { print $c[row], col != "" ? $c[col] : "makespan", $c["makespan"] }' |
	sort -k1,1 -k2,2n -k3,3g | awk '
		{ k = $1 " " $2; v[k, ++n[k]] = $3; if (!(k in seen)) { seen[k] = 1; key[++nk] = k } }
		END {
			for (i = 1; i <= nk; i++) {
				k = key[i]; m = n[k]
				med = m % 2 ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
				printf "%s %.4g\n", k, med
			}
		}'
}
check "grid: summary.md's table: rows scheme, cols size" \
	grep -qxF '| scheme \ size | 64 | 128 |' "$X/grid/summary.md"
check_eq "grid: summary.md's table: the median of each point, as results.csv has them" \
	"$(exp_table "$X/grid/summary.md")" "$(medians "$X/grid/results.csv" scheme size)"
check_eq "grid: the table has its 4 cells" "$(exp_table "$X/grid/summary.md" | wc -l)" 4
check_eq "grid: summary.md: 2 runs, none failed, per point" \
	"$(grep -c '^| [1-4] | [a-z]* | [0-9]* | 2 | 0 |' "$X/grid/summary.md")" 4
# three repetitions: a median that is not the mean; a table without cols
exp "$T/odd.yaml" \
	"name: odd" \
	"job: $T/mandel.yaml" \
	"matrix:" \
	"  scheme: [gss, static]" \
	"repeat: 3" \
	"report:" \
	"  table: {rows: scheme, stat: median}"
run_gs experiment -q "$T/odd.yaml"
check_eq "odd: exit 0" "$rc" 0
check_eq "odd: the table: the median of 3 runs per row" \
	"$(exp_table "$X/odd/summary.md")" "$(medians "$X/odd/results.csv" scheme)"
check_eq "odd: the table has its 2 cells" "$(exp_table "$X/odd/summary.md" | wc -l)" 2
if command -v gnuplot >/dev/null 2>&1; then
	check_eq "grid: the plot as PNG" "$(head -c 8 "$X/grid/fig.png" | od -An -tx1 | tr -d ' \n')" \
		89504e470d0a1a0a
	check "grid: the plot as SVG" grep -q '<svg' "$X/grid/fig.svg"
	check "grid: the plot's script reads its data" grep -q 'fig\.dat' "$X/grid/fig.gp"
	check "grid: the plot's data" test -s "$X/grid/fig.dat"
else
	skip "grid: plots" "gnuplot is not installed (gnuplot-nox)"
fi

# --- list, show, report
run_gs experiment list
check_match "list: the experiment with its 8 done runs" "$out" "^grid +8 +8 +0 +0 +$T/grid.yaml$"
run_gs experiment list --json
check_eq "list --json: the experiment's states" \
	"$(printf '%s\n' "$out" | jq -c '.experiments[] | select(.name == "grid") | [.runs, .states.done]')" \
	"[8,8]"
run_gs experiment show grid
check_eq "show: exit 0" "$rc" 0
check_match "show: the counts" "$out" "^8 runs: 8 done, 0 failed, 0 interrupted, 0 pending, 0 running"
check_eq "show: one line per run with its job" \
	"$(printf '%s\n' "$out" | awk '{ for (i = 4; i < NF; i++) if ($i == "done") print $(i + 1) }' |
	    tr '\n' ' ')" \
	"$(printf '%s\n' "$ids" | tr '\n' ' ')"
run_gs experiment show grid --json
check_eq "show --json: schema_version and 8 runs" \
	"$(printf '%s\n' "$out" | jq -c '[.schema_version, (.runs | length), .experiment]')" \
	'[3,8,"grid"]'
cp "$X/grid/summary.md" "$T/summary.md"
rm -f "$X/grid/summary.md" "$X/grid/results.csv"
run_gs experiment report grid
check_eq "report: exit 0, names summary.md" "$rc:$out" "0:$X/grid/summary.md"
check "report: summary.md written again, the same" cmp "$T/summary.md" "$X/grid/summary.md"
check_eq "report: results.csv written again" "$(wc -l < "$X/grid/results.csv")" 9
run_gs experiment report "$T/grid.yaml"
check_eq "report by file: exit 0" "$rc" 0
run_gs experiment report nosuch
check_eq "report nosuch: exit 2" "$rc" 2
check_match "report nosuch: says nothing is stored" "$err" "nosuch: nothing stored"

# --- a run that fails: recorded with its reason; a rerun runs it alone
exp "$T/flaky.yaml" \
	"name: flaky" \
	"job: $T/mandel.yaml" \
	"matrix:" \
	'  opt: ["--size", "--bogus"]' \
	'args: ["{opt}", "64"]' \
	"order: sequential"
run_gs experiment "$T/flaky.yaml"
check_eq "failed run: exit 1" "$rc" 1
check_eq "failed run: one done, one failed" \
	"$(exp_q flaky "select id, state from run order by id" | tr '\n' ' ')" "1|done 2|failed "
check_match "failed run: its reason stored" "$(exp_q flaky "select reason from run where id = 2")" \
	"^job [0-9]+ failed \\(exit [0-9]+\\): .+"
check_match "failed run: said, with its log" "$err" \
	"run 2 \\(opt=--bogus, rep 1\\) failed: job [0-9]+ failed.*log: $X/flaky/logs/run-2.log"
check "failed run: its log" test -s "$X/flaky/logs/run-2.log"
check_eq "failed run: no makespan stored for it" \
	"$(exp_q flaky "select count(*) from metric where run = 2 and name in ('makespan', 'efficiency')")" 0
job1=$(exp_q flaky "select job_id from run where id = 1")
n0=$(next_id)
run_gs experiment "$T/flaky.yaml"
check_eq "failed run, again: exit 1" "$rc" 1
check_eq "failed run, again: one job more" "$(next_id)" $((n0 + 1))
check_eq "failed run, again: it alone ran again" \
	"$(exp_q flaky "select id, state, attempts from run order by id" | tr '\n' ' ')" \
	"1|done|1 2|failed|2 "
check_eq "failed run, again: the done run keeps its job" \
	"$(exp_q flaky "select job_id from run where id = 1")" "$job1"

# --- a changed file is refused; --new keeps the old results as NAME.1
exp "$T/chg.yaml" \
	"name: chg" \
	"job: $T/mandel.yaml" \
	"matrix:" \
	"  scheme: [gss]" \
	"repeat: 2"
run_gs experiment -q "$T/chg.yaml"
check_eq "chg: exit 0" "$rc" 0
old=$(exp_q chg ".dump")
oldjobs=$(exp_q chg "select job_id from run order by id" | tr '\n' ' ')
sed -i -e 's/^repeat: 2$/repeat: 3/' "$T/chg.yaml"
n0=$(next_id)
run_gs experiment "$T/chg.yaml"
check_eq "changed file: exit 7" "$rc" 7
check_match "changed file: says to use --new" "$err" "changed since its runs began.*--new"
check_eq "changed file: the store unchanged" "$(exp_q chg ".dump")" "$old"
check_eq "changed file: no job" "$(next_id)" "$n0"
run_gs experiment --new -q "$T/chg.yaml"
check_eq "--new: exit 0" "$rc" 0
check "--new: the old results kept as chg.1" test -s "$X/chg.1/results.db"
check_eq "--new: chg.1 holds the old store as it was" "$(exp_q chg.1 ".dump")" "$old"
check_eq "--new: the new store has the 3 new runs, done" \
	"$(exp_q chg "select count(*), sum(state = 'done'), sum(attempts) from run")" "3|3|3"
check_eq "--new: the new runs are new jobs" \
	"$(exp_q chg "select count(*) from run where job_id >= $n0")" 3
check_eq "--new: the old jobs are still the old store's" \
	"$(exp_q chg.1 "select job_id from run order by id" | tr '\n' ' ')" "$oldjobs"

# --- killed with SIGKILL: nothing of it left; the same command resumes
exp "$T/kill.yaml" \
	"name: killed" \
	"job: $T/syn.yaml" \
	"matrix:" \
	"  mean: [40]" \
	'args: ["--units", "20000", "--mean-us", "{mean}", "--seed", "4242"]' \
	"repeat: 6" \
	"order: sequential"
KPAT="^$SYN --units 20000 --mean-us 40 --seed 4242"
first=$(next_id)
"$GS" experiment -q "$T/kill.yaml" > "$T/kill.out" 2> "$T/kill.err" &
kpid=$!
if poll 90 ndone killed 2 && poll 30 running_job killed; then
	pass "SIGKILL: 2 runs done, the third running"
else
	fail "SIGKILL: 2 runs done, the third running"
	exp_q killed "select id, state, job_id from run" | sed -e 's/^/#   /'
fi
kjob=$(running_job killed)
krun=$(exp_q killed "select id from run where state = 'running'")
[ -n "$krun" ] || krun=0
kill -KILL "$kpid"
wait "$kpid" 2>/dev/null
check_eq "SIGKILL: the experiment died of it" "$?" 137
last=$(next_id)
if poll 15 nothing_left "$KPAT" "$first" "$last" && poll 5 gone "experiment -q $T/kill.yaml"; then
	pass "SIGKILL: no process of its jobs is left"
else
	fail "SIGKILL: no process of its jobs is left"
	for pat in "$KPAT" "$J/" "experiment -q $T/kill.yaml"; do
		for p in $(live "$pat"); do
			echo "#   left: $p $(tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null)"
		done
	done
fi
check_eq "SIGKILL: every job of it ended" \
	"$(states "$first" "$last" | grep -cvE ' (done|failed|cancelled)$')" 0
check_eq "SIGKILL: the running job was cancelled" "$(jstate "$kjob")" cancelled
run_gs experiment -q "$T/kill.yaml"
check_eq "resume: exit 0" "$rc" 0
check_eq "resume: 6 runs, all done" \
	"$(exp_q killed "select count(*), count(distinct id), sum(state = 'done') from run")" "6|6|6"
check_eq "resume: the killed run ran again" "$(exp_q killed "select attempts from run where id = $krun")" 2
check_eq "resume: the runs done before ran once" \
	"$(exp_q killed "select count(*) from run where id < $krun and attempts = 1")" $((krun - 1))
djobs=$(exp_q killed "select job_id from run where state = 'done'")
check_eq "resume: 6 distinct jobs for the done runs" "$(printf '%s\n' "$djobs" | sort -u | grep -c .)" 6
ok=0
for id in $djobs; do
	[ "$(jstate "$id")" = "done" ] && ok=$((ok + 1))
done
check_eq "resume: each done run's job is done" "$ok" 6
check_eq "resume: the experiment's jobs: 6 done, none twice" \
	"$(states "$first" "$(next_id)" | grep -c ' done$')" 6
check "resume: nothing of it left" nothing_left "$KPAT" "$first" "$(next_id)"

# --- SIGINT: exit 130, the running job cancelled and its run not counted ("interrupted
# after 1 of 3 runs"), nothing left running; a rerun runs it again and finishes
# interrupt NAME SEED HOW: an experiment of 3 runs, SIGINT once its second run's job runs:
# HOW is "group" (Ctrl-C on a terminal: the whole process group) or "process" (kill -INT
# to the experiment process alone)
interrupt() {
	n=$1 seed=$2 how=$3
	exp "$T/$n.yaml" \
		"name: $n" \
		"job: $T/syn.yaml" \
		"matrix:" \
		"  mean: [40]" \
		"args: [\"--units\", \"20000\", \"--mean-us\", \"{mean}\", \"--seed\", \"$seed\"]" \
		"repeat: 3" \
		"order: sequential"
	pat="^$SYN --units 20000 --mean-us 40 --seed $seed"
	first=$(next_id)
	# setsid: a process group of its own, as a terminal's foreground job has
	setsid "$GS" experiment "$T/$n.yaml" > "$T/$n.out" 2> "$T/$n.err" &
	ipid=$!
	check_eq "$n: a process group of its own" "$(ps -o pgid= -p "$ipid" | tr -d ' ')" "$ipid"
	if poll 90 ndone "$n" 1 && poll 30 running_job "$n"; then
		pass "$n: a run done, the next running"
	else
		fail "$n: a run done, the next running"
	fi
	ijob=$(running_job "$n")
	irun=$(exp_q "$n" "select id from run where state = 'running'")
	if [ "$how" = group ]; then
		kill -INT "-$ipid"
	else
		kill -INT "$ipid"
	fi
	stop "$ipid"
	check_eq "$n: exit 130 (128+SIGINT)" "$rc" 130
	check_match "$n: the interrupted run is not counted" "$(cat "$T/$n.err")" \
		"^gridsubmit experiment: $n: interrupted after 1 of 3 runs \\(1 this time, 0 failed\\); run the same command again to resume"
	check_match "$n: its job's reason names the SIGINT" "$(jq -r .reason "$J/$ijob/state.json")" \
		"^interrupted by (Ctrl-C \\(SIGINT\\)|SIGINT from pid [0-9]+)$|^terminated by SIGTERM from pid $ipid$"
	check_eq "$n: the runs are done, interrupted or pending" \
		"$(exp_q "$n" "select count(*) from run where state not in ('done', 'interrupted', 'pending')")" 0
	check_eq "$n: the running job was cancelled" "$(jstate "$ijob")" cancelled
	check_eq "$n: its run is interrupted" "$(exp_q "$n" "select state from run where id = $irun")" \
		interrupted
	check "$n: nothing of it left" poll 15 nothing_left "$pat" "$first" "$(next_id)"
	run_gs experiment "$T/$n.yaml"
	check_eq "$n: rerun: exit 0" "$rc" 0
	check_match "$n: rerun: the interrupted run runs again, with the one never run" "$err" \
		"^gridsubmit experiment: $n: 2 runs this time, 0 failed; results in"
	check_eq "$n: rerun: all 3 runs done" \
		"$(exp_q "$n" "select count(*), sum(state = 'done') from run")" "3|3"
}
if command -v setsid >/dev/null 2>&1; then
	interrupt ctrlc 4343 group
	interrupt sigint 4444 process
else
	skip "SIGINT" "setsid is not installed (util-linux)"
fi

# --- --dry-run's seed and order are those a run then takes: random order, the file's seed
exp "$T/ord.yaml" \
	"name: ord" \
	"job: $T/syn.yaml" \
	"matrix:" \
	"  scheme: [gss, static]" \
	'args: ["--units", "1000", "--seed", "{seed}"]' \
	"repeat: 2" \
	"seed: 7"
run_gs experiment --dry-run "$T/ord.yaml"
check_match "dry-run, random order: the file's seed" "$out" "^seed: 7 \\(the file's\\)$"
dry=$(printf '%s\n' "$out" | sed -n 's/^order \([0-9]*\): run \([0-9]*\), point \([0-9]*\), rep \([0-9]*\), seed \([0-9]*\)$/\2,\3,\4,\1,\5/p')
check_eq "dry-run, random order: 4 runs listed" "$(printf '%s\n' "$dry" | wc -l | tr -d ' ')" 4
check "dry-run, random order: not the file's order" test "$(printf '%s\n' "$dry" | cut -d, -f1 |
	tr '\n' ' ')" != "1 2 3 4 "
check "dry-run, random order: nothing created" test ! -e "$X/ord"
run_gs experiment -q "$T/ord.yaml"
check_eq "the experiment run: exit 0" "$rc" 0
check_eq "it ran the runs in the dry run's order, with its seeds (run,point,rep,seq,seed)" \
	"$(sed 1d "$X/ord/results.csv" | cut -d, -f1-5)" "$dry"
run_gs experiment --dry-run "$T/ord.yaml"
check_match "dry-run of the stored experiment: its seed, every run done" "$out" \
	"^seed: 7 \\(the stored experiment's: 4 of 4 runs done, the others run in the order it recorded\\)$"
check_eq "and the same order, each run marked done" \
	"$(printf '%s\n' "$out" | grep -c '^order [0-9]*: .* (done)$')" 4

# --- the shipped experiment file stays valid (checked as a dry run: nothing runs); the
# papers' files of examples/experiments/: test-papers.sh
run_gs experiment "$SRC/examples/mandelbrot/experiment.yaml" --dry-run
check_eq "shipped experiment.yaml: a valid dry run" "$rc" 0
