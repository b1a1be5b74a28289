#!/bin/sh
# test-claims.sh — the claims an experiment checks (doc/experiments.md, "Claims";
# experiment/exp-claim*.c) and `experiment reproduction` (submit/cmd-experiment-repro.c),
# on tiny experiments of real runs whose answer is known:
# - a program that sleeps a parameter's worth (/bin/sh -c 'sleep T'), metric wall, 4 runs
#   a point, in zip: sleep 0.05 below sleep 1 holds (p = 1/12870, or below 0.001 when two
#   walls tie and the normal approximation applies), the reverse
#   fails; the ratio of medians at most 0.9 holds, at least 0.95 fails; `per: [size]` with
#   the order reversed at size 2 fails and names size=2; the same with where: {size: 1}
#   holds;
# - two identical points (3 runs each, sleeping 0.3, 0.6, 0.9 s by repetition): not
#   separable at n=3, never holds;
# - mode as a parameter (examples/synthetic run and simulated, 1000 and 60000 units: 1.2 s
#   of computing apart, since 8000 units, 0.14 s apart, were once not separable at n=4 on a
#   busy CI host, start-up jitter being as large): the claim evaluated once per mode, both
#   hold; where: {mode: simulate} evaluated once with
#   its mode; a ratio across modes once, with mode null;
# - the verdict lines on stdout of `experiment` and `experiment report`, summary.md's
#   Claims section, results.json's claims (verdict, mode, n, test, p, detail, groups);
# - `experiment reproduction --out FILE` of two experiments: the command and date, a
#   section per experiment, a row per claim with the paper's figure, the groups and
#   verdicts of the testbed and the simulation, the note as "why they differ"; each
#   experiment's file as stored, or relative to the working directory below it; the same
#   on stdout without --out; an unknown experiment refused with nothing written;
# - every refusal of a claims: key at its line and column, exit 3, nothing created.
. tests/lib.sh

for tool in jq sqlite3; do
	command -v "$tool" >/dev/null 2>&1 || { skip "claims" "$tool is not installed"; exit 0; }
done
SYN="$SRC/$BUILD/examples/synthetic"
X="$GRIDSUBMIT_HOME/experiments"
export LC_ALL=C

at_exit sweep

# exp FILE LINE...: an experiment file
exp() {
	f=$1
	shift
	printf '%s\n' "$@" > "$f"
}

# claim NAME ID: experiment NAME's results.json entry of claim ID (first of its modes), as
# "verdict mode n"
claim() {
	jq -r --arg id "$2" '[.claims[] | select(.id == $id)][0] |
	    "\(.verdict) \(.mode) \(.n)"' "$X/$1/results.json"
}

# cell FILE ID COL: column COL of claim ID's row in the reproduction's table
cell() {
	awk -F' [|] ' -v id="| $2: " -v c="$3" '
		index($0, id) == 1 { v = $c; sub(/ [|]$/, "", v); print v; exit }' "$1"
}

cat > "$T/sleep.yaml" <<YAML
name: sleeper
program: /bin/sh
args: ["-c", "sleep 0.1"]
ranks: 1
YAML

# --- sleeps: known answers on a real measure
exp "$T/sleeps.yaml" \
	"name: sleeps" \
	"job: $T/sleep.yaml" \
	"zip:" \
	"  a: [x, y, x, y]" \
	"  size: [1, 1, 2, 2]" \
	"  t: [0.05, 1.0, 1.0, 0.05]" \
	"args: [\"-c\", \"sleep {t} # {a} {size}\"]" \
	"repeat: 4" \
	"report:" \
	"  table: {rows: t, value: wall}" \
	"claims:" \
	"  - id: short-lowest" \
	"    says: \"the shorter sleep takes less time\"" \
	"    paper: \"sleep(1): fig. 1\"" \
	"    lowest: {t: 0.05}" \
	"  - id: short-highest" \
	"    says: \"the shorter sleep takes more time\"" \
	"    paper: \"nowhere\"" \
	"    highest: {t: 0.05}" \
	"  - id: ratio-most" \
	"    says: \"the short one takes at most 0.9 of the long one's time\"" \
	"    paper: \"nowhere\"" \
	"    ratio: [{t: 0.05}, {t: 1.0}]" \
	"    at_most: 0.9" \
	"  - id: ratio-least" \
	"    says: \"the short one takes at least 0.95 of the long one's time\"" \
	"    paper: \"nowhere\"" \
	"    ratio: [{t: 0.05}, {t: 1.0}]" \
	"    at_least: 0.95" \
	"  - id: x-per-size" \
	"    says: \"x is the quickest at every size\"" \
	"    paper: \"nowhere\"" \
	"    per: [size]" \
	"    lowest: {a: x}" \
	"  - id: x-at-1" \
	"    says: \"x is the quickest at size 1\"" \
	"    paper: \"nowhere\"" \
	"    where: {size: 1}" \
	"    lowest: {a: x}"
run_gs experiment -q "$T/sleeps.yaml"
check_eq "sleeps: exit 0" "$rc" 0
check_eq "sleeps: 16 done runs" "$(exp_q sleeps "select count(*) from run where state = 'done'")" 16
check_eq "sleeps: the verdict lines on stdout, in the file's order" \
	"$(printf '%s\n' "$out" | sed 's/ — .*//')" \
	"short-lowest: holds
short-highest: fails at n=8
ratio-most: holds
ratio-least: fails at n=8
x-per-size: fails at n=4
x-at-1: holds"
# p: 1/12870 exact, or (two walls equal to the millisecond) the normal approximation's
check_match "short-lowest: the test, each p and n" "$out" \
	"^short-lowest: holds — Mann-Whitney U, each p <= [0-9.e-]+ \\(Holm\\), n=8$"
check_match "short-highest: the comparison that decided, the other way" "$out" \
	"^short-highest: fails at n=8 — t=1.0 below t=0.05: the opposite, p=[0-9.e-]+$"
check "short-lowest, short-highest: p below 0.001" jq -e \
	'[.claims[0:2][] | .p < 0.001] | all' "$X/sleeps/results.json"
check_match "ratio-most: the ratio, its interval and the bound" "$out" \
	"^ratio-most: holds — median\\(t=0.05\\) / median\\(t=1.0\\) = 0\\.[0-9]+ \\[0\\.[0-9]+, 0\\.[0-9]+\\], at most 0.9 \\(bootstrap 95%\\), n=8$"
check_match "x-per-size: fails, naming the size where it does not hold" "$out" \
	"^x-per-size: fails at n=4 — a=x below a=y at size=2: the opposite, p=0\\.0[0-9]+$"
check_match "x-at-1: holds at the size where it holds" "$out" \
	"^x-at-1: holds — Mann-Whitney U, each p <= 0\\.0[0-9]+ \\(Holm\\), n=4$"
check_eq "results.json: every claim, verdict, mode and n" \
	"$(jq -r '.claims[] | "\(.id) \(.verdict) \(.mode) \(.n)"' "$X/sleeps/results.json")" \
	"short-lowest holds null 8
short-highest fails null 8
ratio-most holds null 8
ratio-least fails null 8
x-per-size fails null 4
x-at-1 holds null 4"
check_eq "results.json: a comparison's test, p, detail and groups" \
	"$(jq -c '.claims[0] | [.test, (.p | type), (.detail | sub("p=.*"; "p=")), .metric,
	    .says, .paper, .note, [.groups[] | [.label, .n, (.median | type), (.ci95 | length)]]]' \
	    "$X/sleeps/results.json")" \
	'["Mann-Whitney U (one-sided, Holm)","number","t=0.05 below t=1.0: p=","wall","the shorter sleep takes less time","sleep(1): fig. 1",null,[["t=0.05",8,"number",2],["t=1.0",8,"number",2]]]'
check_eq "results.json: a ratio has no p" \
	"$(jq -c '.claims[2] | [.test, .p]' "$X/sleeps/results.json")" \
	'["median ratio, bootstrap 95% interval",null]'
check_eq "results.json: per size, a group per size and value" \
	"$(jq -c '[.claims[4].groups[] | [.label, .n]]' "$X/sleeps/results.json")" \
	'[["a=x size=1",4],["a=y size=1",4],["a=x size=2",4],["a=y size=2",4]]'
check_eq "results.json: the groups' medians are those of the runs" \
	"$(jq -r '.claims[0].groups[0].median' "$X/sleeps/results.json")" \
	"$(jq -r '[.runs[] | select(.params.t == 0.05) | .metrics.wall] | sort |
	    (.[3] + .[4]) / 2' "$X/sleeps/results.json")"
check "summary.md: a Claims section" grep -qx '## Claims' "$X/sleeps/summary.md"
check_eq "summary.md: a row per claim with its verdict" \
	"$(awk -F' [|] ' '/^\| [a-z0-9-]+ \| – \|/ { print $1 " " $3 }' "$X/sleeps/summary.md")" \
	"| short-lowest holds
| short-highest fails
| ratio-most holds
| ratio-least fails
| x-per-size fails
| x-at-1 holds"
check_match "summary.md: the verdict line with what the claim says and where" \
	"$(cat "$X/sleeps/summary.md")" \
	"says: the shorter sleep takes less time; paper: sleep\\(1\\): fig. 1"
lines=$out
before=$(jq -c .claims "$X/sleeps/results.json")
run_gs experiment report sleeps
check_eq "report: exit 0" "$rc" 0
check_eq "report: the same verdict lines, then summary.md's path" "$out" \
	"$lines
$X/sleeps/summary.md"
check_eq "report: the same claims in results.json (the bootstrap is seeded)" \
	"$(jq -c .claims "$X/sleeps/results.json")" "$before"

# --- two identical points: not separable at n=3
exp "$T/twins.yaml" \
	"name: twins" \
	"job: $T/sleep.yaml" \
	"matrix:" \
	"  twin: [a, b]" \
	"args: [\"-c\", \"sleep 0.\$(({rep} * 3)) # {twin}\"]" \
	"repeat: 3" \
	"report:" \
	"  table: {rows: twin, value: wall}" \
	"claims:" \
	"  - id: a-below-b" \
	"    says: \"a is quicker than b\"" \
	"    paper: \"nowhere\"" \
	"    below: [{twin: a}, {twin: b}]"
run_gs experiment -q "$T/twins.yaml"
check_eq "twins: exit 0" "$rc" 0
check_match "twins: not separable at n=3, naming the comparison and its p" "$out" \
	"^a-below-b: not separable at n=3 — twin=a below twin=b: p=0\\.[0-9]+$"
check_eq "twins: results.json" "$(claim twins a-below-b)" "not separable null 3"
check "twins: p well above 0.05" \
	jq -e '.claims[0].p > 0.1' "$X/twins/results.json"

# --- mode as a parameter: a claim per mode
if need_smpi "claims per mode" synthetic; then
	cat > "$T/syn.yaml" <<YAML
name: syn
program: "$SYN"
args: ["--units", "1000"]
ranks: 2
runtime: {scheme: gss}
YAML
	exp "$T/modes.yaml" \
		"name: modes" \
		"job: $T/syn.yaml" \
		"matrix:" \
		"  mode: [run, simulate]" \
		"  units: [1000, 60000]" \
		"args: [\"--units\", \"{units}\"]" \
		"repeat: 4" \
		"claims:" \
		"  - id: units-small" \
		"    says: \"fewer units end sooner\"" \
		"    paper: \"seed 002, fig. 0: 64 rows before 256\"" \
		"    lowest: {units: 1000}" \
		"    note: \"the simulation charges no start-up\"" \
		"  - id: sim-only" \
		"    says: \"in simulation too\"" \
		"    paper: \"nowhere\"" \
		"    where: {mode: simulate}" \
		"    below: [{units: 1000}, {units: 60000}]" \
		"  - id: sim-vs-run" \
		"    says: \"the simulation's makespan is within 100 times the real one\"" \
		"    paper: \"nowhere\"" \
		"    ratio: [{mode: simulate}, {mode: run}]" \
		"    at_most: 100"
	run_gs experiment -q "$T/modes.yaml"
	check_eq "modes: exit 0" "$rc" 0
	check_eq "modes: a verdict per mode, one for a fixed mode, one across modes" \
		"$(printf '%s\n' "$out" | sed 's/ — .*//')" \
		"units-small (run): holds
units-small (simulate): holds
sim-only (simulate): holds
sim-vs-run: holds"
	check_eq "modes: results.json's modes" \
		"$(jq -c '[.claims[] | [.id, .mode, .n]]' "$X/modes/results.json")" \
		'[["units-small","run",4],["units-small","simulate",4],["sim-only","simulate",4],["sim-vs-run",null,8]]'
	check_eq "modes: each mode's groups are its own runs" \
		"$(jq -r '.claims[1].groups[0].median' "$X/modes/results.json")" \
		"$(jq -r '[.runs[] | select(.params.mode == "simulate" and .params.units == 1000) |
		    .metrics.makespan] | sort | (.[1] + .[2]) / 2' "$X/modes/results.json")"

	# --- reproduction of two experiments
	R="$T/out/repro.md"
	mkdir "$T/out"
	run_gs experiment reproduction --out "$R" modes sleeps
	check_eq "reproduction: exit 0, nothing on stdout" "$rc $out" "0 "
	check_match "reproduction: the command and the date" "$(sed -n 3p "$R")" \
		"^Written by \`gridsubmit experiment reproduction --out $R modes sleeps\` on [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC"
	check_eq "reproduction: a section per experiment, in the order named" \
		"$(grep '^## ' "$R")" "## modes
## sleeps"
	check_eq "reproduction: units-small's row: the paper, both modes' verdicts" \
		"$(cell "$R" "units-small (makespan)" 2)|$(cell "$R" "units-small (makespan)" 4 |
		    sed 's/ — .*//')|$(cell "$R" "units-small (makespan)" 6 | sed 's/ — .*//')" \
		"seed 002, fig. 0: 64 rows before 256|holds|holds"
	check_match "reproduction: the testbed's groups: median, interval, n (real runs named)" \
		"$(cell "$R" "units-small (makespan)" 3)" \
		"^\\(run\\) units=1000: [0-9.e-]+ \\[[0-9.e-]+, [0-9.e-]+\\] n=4; units=60000: [0-9.e-]+ \\[[0-9.e-]+, [0-9.e-]+\\] n=4$"
	check_match "reproduction: the simulation's groups" \
		"$(cell "$R" "units-small (makespan)" 5)" \
		"^units=1000: [0-9.e-]+ \\[[0-9.e-]+, [0-9.e-]+\\] n=4; units=60000: "
	check_eq "reproduction: sim-only has no testbed result" \
		"$(cell "$R" "sim-only (makespan)" 3)|$(cell "$R" "sim-only (makespan)" 4)" \
		"not run|–"
	check_eq "reproduction: the note as why they differ" \
		"$(grep '^Why they differ' "$R")" \
		"Why they differ, units-small: the simulation charges no start-up"
	check_eq "reproduction: sleeps' verdicts in the testbed column, none simulated" \
		"$(for id in short-lowest short-highest x-per-size; do
		    printf '%s %s %s\n' "$id" "$(cell "$R" "$id (wall)" 4 | sed 's/ — .*//')" \
		    "$(cell "$R" "$id (wall)" 6)"; done)" \
		"short-lowest holds –
short-highest fails at n=8 –
x-per-size fails at n=4 –"
	check_eq "reproduction: no temporary file left" "$(ls -A "$T/out")" "repro.md"
	check_eq "reproduction: a file outside the working directory as it was stored" \
		"$(grep -c "^\`$T/modes.yaml\`: 16 of 16 runs done (seed [0-9]*)\.$" "$R")" 1
	(cd "$T" && "$SRC/$BUILD/gridsubmit" experiment reproduction modes) > "$T/out/here.md" 2>&1
	check_eq "reproduction: a file below the working directory named from it" \
		"$(grep -c '^`modes.yaml`: 16 of 16 runs done (seed [0-9]*)\.$' "$T/out/here.md")" 1
	run_gs experiment reproduction modes sleeps
	check_eq "reproduction: stdout without --out, the same document" \
		"$(printf '%s\n' "$out" | sed 3d)" "$(sed 3d "$R")"
	run_gs experiment reproduction --out "$T/out/none.md" modes nosuch
	check_eq "reproduction: an unknown experiment: exit 2" "$rc" 2
	check_match "reproduction: an unknown experiment named" "$err" "experiment nosuch: nothing stored"
	check "reproduction: nothing written" test ! -e "$T/out/none.md"
fi
run_gs experiment reproduction
check_eq "reproduction without a name: usage error" "$rc" 2

# --- refusals at line:col, nothing created
n0=$(next_id)
exp "$T/bad.yaml" \
	"name: bad" \
	"job: $T/sleep.yaml" \
	"matrix:" \
	"  t: [0.05, 0.3]" \
	"  scheme: [gss, pwd]" \
	"args: [\"-c\", \"sleep {t} # {scheme}\"]" \
	"claims:" \
	"  - {id: Bad_Id, says: x, paper: y, lowest: {t: 0.05}}" \
	"  - {id: a, says: x, paper: y, lowest: {tt: 0.05}}" \
	"  - {id: b, says: x, paper: y, lowest: {t: 0.5}}" \
	"  - {id: c, says: x, paper: y, lowest: {t: 0.05}, below: [{t: 0.05}, {t: 0.3}]}" \
	"  - {id: d, says: x, paper: y, below: [{t: 0.05}, {t: 0.3}], at_most: 0.5}" \
	"  - {id: e, says: x, paper: y, ratio: [{t: 0.05}, {t: 0.3}]}" \
	"  - {id: f, says: x, paper: y, gap_grows: [{t: 0.05}, {t: 0.3}], over: scheme}" \
	"  - {id: g, says: x, paper: y, lowest: {t: 0.05}, over: t}" \
	"  - {id: h, sayz: x, paper: y, lowest: {t: 0.05}}" \
	"  - {id: a, says: x, paper: y, metric: makespam, lowest: {t: 0.05}}" \
	"  - {id: i, says: x, paper: y, where: {scheme: [gss, pdw]}, per: [t], lowest: {t: 0.05}}" \
	"  - {id: j, says: x, paper: y}" \
	"  - {id: k, says: x, paper: y, ratio: [{t: 0.05}], at_least: -1}" \
	"  - {id: l, says: x, paper: y, where: {t: [0.3]}, lowest: {t: 0.05}}" \
	"  - {id: m, paper: y, gap_grows: [{scheme: gss}, {scheme: pwd}]}" \
	"  - {id: n, says: x, paper: y, lowest: {t: 0.05, scheme: gss}}"
run_gs experiment "$T/bad.yaml"
check_eq "bad claims: exit 3" "$rc" 3
check_eq "bad claims: every mistake at its line and column, in file order" "$err" \
	"$T/bad.yaml:8:10: 'id' must be a name of lowercase letters, digits and '-' (at most 64), not 'Bad_Id'
$T/bad.yaml:9:41: claim 'a': lowest: 'tt' is not a parameter of the matrix (did you mean 't'?)
$T/bad.yaml:10:44: claim 'b': lowest: '0.5' is not one of the values of 't' (did you mean '0.05'?)
$T/bad.yaml:11:58: claim 'c': give one of lowest, highest, minimum_at, below, ratio or gap_grows, not both 'lowest' and 'below'
$T/bad.yaml:12:71: claim 'd': 'at_most' goes only with 'ratio'
$T/bad.yaml:13:5: claim 'e': 'ratio' needs 'at_most' or 'at_least' (the bound of median(first) / median(second))
$T/bad.yaml:14:72: claim 'f': 'over': 'scheme' has a value that is not a number ('gss')
$T/bad.yaml:15:57: claim 'g': 'over' goes only with 'gap_grows'
$T/bad.yaml:16:13: unknown key 'sayz' (did you mean 'says'?)
$T/bad.yaml:17:10: claim 'a' is defined twice (the first at line 9)
$T/bad.yaml:17:40: claim 'a': unknown metric 'makespam' (built-in: makespan, wall, efficiency, imbalance, requeued, failed_ranks, migrations, load_before; or one of metrics:)
$T/bad.yaml:18:54: claim 'i': where: 'pdw' is not one of the values of 'scheme' (did you mean 'pwd'?)
$T/bad.yaml:18:66: claim 'i': 't' is both compared and in 'per'
$T/bad.yaml:19:5: claim 'j' says nothing to check: give one of lowest, highest, minimum_at, below, ratio or gap_grows
$T/bad.yaml:20:39: claim 'k': 'ratio' is a list of two groups, as in ratio: [{scheme: fss}, {scheme: ngss}]
$T/bad.yaml:20:62: 'at_least' must be a positive number, not '-1'
$T/bad.yaml:21:39: claim 'l': 'where' leaves out t=0.05, which the claim compares
$T/bad.yaml:22:5: a claim needs 'says' (the claim in words)
$T/bad.yaml:22:5: claim 'm': 'gap_grows' needs 'over' (the numeric parameter the gap grows with)
$T/bad.yaml:23:40: claim 'n': 'lowest' names one parameter and its value, as in lowest: {scheme: pwd}"
check "bad claims: no results directory" test ! -e "$X/bad"
exp "$T/bad2.yaml" "name: bad2" "job: $T/sleep.yaml" "matrix:" "  t: [0.05]" \
	"args: [\"-c\", \"sleep {t}\"]" "claims: {id: x}"
run_gs experiment "$T/bad2.yaml"
check_eq "claims not a list: located" "$rc|$err" \
	"3|$T/bad2.yaml:6:9: 'claims' must be a list, not a mapping"
check_eq "refusals: no job id taken" "$(next_id)" "$n0"
