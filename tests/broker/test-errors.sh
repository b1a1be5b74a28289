#!/bin/sh
# test-errors.sh — every error of a site or job file, as a compiler reports them, from every
# command that loads one (sites check and show, rank, run, submit, experiment): each one
# file:line:col, in file order, at most 20 then "FILE: too many errors, stopping"; a YAML
# syntax error alone; exit 3; nothing created for a job that was refused.
. tests/lib.sh

BAD=tests/data/bad
MB="$SRC/$BUILD/examples/mandelbrot"

# a good site file and a good job file (the job's program exists)
cat > "$T/two.yaml" <<'EOF'
sites:
  - {name: THU, link: {bandwidth_mbps: 100}, nodes: [{host: localhost, cpu_mhz: 1000, cores: 2}]}
  - {name: LZ, link: {bandwidth_mbps: 10}, nodes: [{host: lz1, cpu_mhz: 1000, cores: 1}]}
EOF
printf 'program: %s\nranks: 2\n' "$MB" > "$T/good.yaml"

# nlines TEXT: how many lines TEXT has
nlines() {
	printf '%s\n' "$1" | wc -l | tr -d ' '
}

# --- sites check: six mistakes, six lines, in order, each located
run_gs sites check "$BAD/site-six-mistakes.yaml"
check_eq "sites check, six mistakes: exit 3" "$rc" 3
check_eq "sites check, six mistakes: on stdout, the file's summary line alone" "$out" \
	"$BAD/site-six-mistakes.yaml: 6 errors"
check_eq "sites check, six mistakes: six lines" "$(nlines "$err")" 6
check_eq "sites check, six mistakes: located, in file order" \
	"$(printf '%s\n' "$err" | cut -d: -f2,3 | tr '\n' ' ')" "4:5 6:55 7:33 9:45 11:16 12:22 "
check_match "sites check: a site without link no longer hides the next line's key" "$err" \
	"site-six-mistakes\.yaml:6:55: unknown key 'arhc' \(did you mean 'arch'\?\)"
check_eq "sites check: the file's errors exactly" "$err" "$(cat "$BAD/site-six-mistakes.expect")"

# two bad files and a good one: every error of each, the good one summarised
run_gs sites check "$BAD/site-six-mistakes.yaml" sites/tiger.yaml "$BAD/site-no-cpu.yaml"
check_eq "three files: exit 3" "$rc" 3
check_eq "three files: 6 + 1 error lines" "$(nlines "$err")" 7
check_eq "three files: each summarised, in the order given" "$out" \
	"$BAD/site-six-mistakes.yaml: 6 errors
sites/tiger.yaml: ok, 4 sites, 16 nodes, 16 cores, 16 slots
$BAD/site-no-cpu.yaml: 1 error"

# the cap: 25 mistakes, 20 shown, then one line
{
	echo "sites:"
	echo "  - name: s"
	echo "    link: {bandwidth_mbps: 1}"
	echo "    nodes:"
	i=1
	while [ "$i" -le 25 ]; do
		echo "      - {host: n$i, cpu_mhz: 1, cores: x$i}"
		i=$((i + 1))
	done
} > "$T/many.yaml"
run_gs sites check "$T/many.yaml"
check_eq "25 mistakes: exit 3" "$rc" 3
check_eq "25 mistakes: 20 errors and one more line" "$(nlines "$err")" 21
check_eq "25 mistakes: the last shown is the 20th in the file" \
	"$(printf '%s\n' "$err" | sed -n 20p)" \
	"$T/many.yaml:24:40: 'cores' must be a whole number >= 1, not 'x20'"
check_eq "25 mistakes: then the cap" "$(printf '%s\n' "$err" | tail -n 1)" \
	"$T/many.yaml: too many errors, stopping"
check_eq "25 mistakes: the summary says there were more" "$out" "$T/many.yaml: more than 20 errors"

# a syntax error stops the reading: one line, though mistakes come before it
printf 'sites:\n  - name: s\n    lnik: 1\n    nodes: [{host: a, cpu: 1}\n' > "$T/syntax.yaml"
run_gs sites check "$T/syntax.yaml"
check_eq "syntax error: exit 3" "$rc" 3
check_eq "syntax error: one line" "$(nlines "$err")" 1
check_match "syntax error: located" "$err" "^$T/syntax\.yaml:5:1: "

# sites show: the same errors
run_gs sites show "$BAD/site-six-mistakes.yaml"
check_eq "sites show: exit 3" "$rc" 3
check_eq "sites show: all six" "$(nlines "$err")" 6

# --- a job file with six mistakes: rank, run and submit show all six, and take no id
want=$(sed -e "s|^tests/data/bad/|$BAD/|" "$BAD/job-six-mistakes.expect")
for cmd in rank run submit; do
	run_gs "$cmd" "$BAD/job-six-mistakes.yaml" --sites "$T/two.yaml" --no-metrics
	check_eq "$cmd, six job mistakes: exit 3" "$rc" 3
	check_eq "$cmd, six job mistakes: every one, in order" "$err" "$want"
done
check "no job was created for them" test ! -e "$GRIDSUBMIT_HOME/jobs/1"

# both files bad: the site file's errors, then the job file's
run_gs rank "$BAD/job-six-mistakes.yaml" --sites "$BAD/site-six-mistakes.yaml" --no-metrics
check_eq "both bad: exit 3" "$rc" 3
check_eq "both bad: 6 + 6 lines" "$(nlines "$err")" 12
check_eq "both bad: the site file's first" "$(printf '%s\n' "$err" | sed -n 1p | cut -d: -f1)" \
	"$BAD/site-six-mistakes.yaml"
check_eq "both bad: the job file's after" "$(printf '%s\n' "$err" | sed -n 7p | cut -d: -f1)" \
	"$BAD/job-six-mistakes.yaml"
# a bad site file with a good job: still exit 3, the site errors only
run_gs run "$T/good.yaml" --sites "$BAD/site-six-mistakes.yaml" --no-metrics
check_eq "run, bad site file: exit 3" "$rc" 3
check_eq "run, bad site file: its six errors" "$(nlines "$err")" 6

# --- experiment: every error of the job file its first point loads
cat > "$T/job3.yaml" <<EOF
program: $MB
ranks: 0
runtime: {scheme: gsss}
restarts: x
EOF
printf 'name: errs\njob: %s\nmatrix:\n  size: [64]\nargs: ["--size", "{size}"]\n' \
	"$T/job3.yaml" > "$T/exp.yaml"
run_gs experiment --dry-run "$T/exp.yaml"
check_eq "experiment, a bad job file: exit 3" "$rc" 3
check_eq "experiment, a bad job file: its three errors" "$err" \
"$T/job3.yaml:2:8: 'ranks' must be a whole number >= 1 or {min: N, max: M}, not '0'
$T/job3.yaml:3:19: unknown scheme 'gsss' (did you mean 'gss'?)
$T/job3.yaml:4:11: 'restarts' must be a whole number from 0 to 1000 (relaunches after a failure), not 'x'"
# an experiment parameter that is wrong: the overlay's errors name the experiment file
printf 'name: errs2\njob: %s\nmatrix:\n  ranks: [0]\n  k: [0]\n' "$T/good.yaml" > "$T/exp2.yaml"
run_gs experiment --dry-run "$T/exp2.yaml"
check_eq "experiment, bad parameters: exit 3" "$rc" 3
check_eq "experiment, bad parameters: both, located in the experiment file" \
	"$(printf '%s\n' "$err" | cut -d: -f1-3 | tr '\n' ' ')" "$T/exp2.yaml:4:11 $T/exp2.yaml:5:7 "
