#!/bin/sh
# test-experiment-simulate.sh — the reserved parameter mode of experiment files
# (doc/experiments.md, "Modes"; experiment/exp-load.c, submit/exp-run.c,
# submit/exp-testbed.c): runs that are real launches or SimGrid simulations of the same job:
# - mode: [run, simulate] x 2 schemes of examples/synthetic on the embedded localhost
#   site file: 4 done runs, each with a makespan; the simulated runs' jobs have a
#   platform.xml, the real ones none; mode is no key of any job; --dry-run lists each
#   point's mode; the report's table by mode and scheme holds the medians;
# - a simulated run is seeded with the run's own seed: its background-load trace is the
#   one `gridsubmit simulate --seed SEED` writes, and two repetitions differ;
# - refused before anything is created (exit 3, located): a misspelt mode (with "did you
#   mean"), mode testbed without testbed:, a simulated point whose program has no SMPI
#   build (naming the point and the path looked for);
# - testbed: with every point simulated and the testbed not up: simulated on the testbed's
#   site file itself, nothing brought up; as root with a free testbed range: a mix of
#   testbed and simulate brings it up and runs both on its derived site file, and an
#   all-simulated experiment uses the derived file of a testbed that is up.
# Skipped when the SMPI builds are missing (SimGrid not installed).
# serial: testbed-a (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_smpi "experiment simulate" synthetic || exit 0
for tool in jq sqlite3; do
	command -v "$tool" >/dev/null 2>&1 || { skip "experiment simulate" "$tool is not installed"; exit 0; }
done
SYN="$SRC/$BUILD/examples/synthetic"
J="$GRIDSUBMIT_HOME/jobs"
X="$GRIDSUBMIT_HOME/experiments"
export LC_ALL=C

at_exit sweep

# exp FILE LINE...: an experiment file
exp() {
	f=$1
	shift
	printf '%s\n' "$@" > "$f"
}

# differ A B: the two files differ
differ() {
	! cmp -s "$1" "$2"
}

# sites_of ID: the site file job ID was placed on (state.json)
sites_of() {
	jq -r .sites_file "$J/$1/state.json" 2>&1
}

cat > "$T/syn.yaml" <<YAML
name: exp-syn
program: "$SYN"
args: ["--units", "2000"]
ranks: 2
runtime: {scheme: gss}
YAML

# --- mode: [run, simulate] x 2 schemes
exp "$T/mix.yaml" \
	"name: mix" \
	"job: $T/syn.yaml" \
	"matrix:" \
	"  mode: [run, simulate]" \
	"  scheme: [gss, static]" \
	"order: sequential" \
	"report:" \
	"  table: {rows: mode, cols: scheme, value: makespan, stat: median}"
run_gs experiment --dry-run "$T/mix.yaml"
check_eq "dry-run: exit 0" "$rc" 0
check_eq "dry-run: each point with its mode" "$(printf '%s\n' "$out" | grep '^point ')" \
	"point 1: mode=run scheme=gss (runs 1-1, mode run)
point 2: mode=run scheme=static (runs 2-2, mode run)
point 3: mode=simulate scheme=gss (runs 3-3, mode simulate)
point 4: mode=simulate scheme=static (runs 4-4, mode simulate)"
exp "$T/plain.yaml" "name: plain" "job: $T/syn.yaml" "matrix:" "  scheme: [gss]"
run_gs experiment --dry-run "$T/plain.yaml"
check_eq "dry-run without mode: every point runs" "$(printf '%s\n' "$out" | grep '^point ')" \
	"point 1: scheme=gss (runs 1-1, mode run)"
check_eq "dry-run: no job" "$(next_id)" 1

first=$(next_id)
run_gs experiment "$T/mix.yaml"
check_eq "mix: exit 0" "$rc" 0
check_match "mix: 4 runs, none failed" "$err" "mix: 4 runs this time, 0 failed"
check_eq "mix: 4 done runs" "$(exp_q mix "select count(*) from run where state = 'done'")" 4
check_eq "mix: every point's run has a makespan" \
	"$(jq -c '[.runs[] | select(.state == "done" and (.metrics.makespan | type) == "number"
	    and .metrics.makespan > 0) | [.params.mode, .params.scheme]] | sort' "$X/mix/results.json")" \
	'[["run","gss"],["run","static"],["simulate","gss"],["simulate","static"]]'
plat=""
for line in $(jq -r '.runs[] | "\(.id),\(.params.mode),\(.params.scheme)"' \
    "$X/mix/results.json"); do
	id=${line%%,*} rest=${line#*,}
	mode=${rest%,*} scheme=${rest#*,}
	[ -f "$J/$id/platform.xml" ] && plat="$plat $mode"
	[ "$(jq -r .scheme "$J/$id/state.json")" = "$scheme" ] || plat="$plat wrong-scheme:$id"
	grep -q '^mode:' "$J/$id/job.yaml" && plat="$plat mode-in-job:$id"
done
check_eq "mix: platform.xml in the simulated runs' jobs only, each of its scheme, no mode key" \
	"$plat" " simulate simulate"
check_eq "mix: 4 jobs" "$(next_id)" $((first + 4))
check_eq "mix: mode stored as a parameter" \
	"$(exp_q mix "select json_extract(params, '\$.mode') from point order by id" | tr '\n' ' ')" \
	"run run simulate simulate "
check "mix: summary.md's table: rows mode, cols scheme" \
	grep -qxF '| mode \ scheme | gss | static |' "$X/mix/summary.md"
check_eq "mix: the table's cells are the runs' makespans (one run per point)" \
	"$(exp_table "$X/mix/summary.md")" \
	"$(jq -r '.runs[] | "\(.params.mode) \(.params.scheme) \(.metrics.makespan)"' \
	    "$X/mix/results.json" | awk '{ printf "%s %s %.4g\n", $1, $2, $3 }' | sort)"

# --- a simulated run is seeded with the run's seed (its background load's arrivals)
sed 's/arch: x86_64}/arch: x86_64, emulate: {load: 1, load_interval: 0.1}}/' \
	sites/localhost.yaml > "$T/loaded.yaml"
exp "$T/seeded.yaml" \
	"name: seeded" \
	"job: $T/syn.yaml" \
	"sites: $T/loaded.yaml" \
	"matrix:" \
	"  mode: [simulate]" \
	"repeat: 2" \
	"order: sequential"
# the runs' own outcome is simulate's: the traces are written before smpirun starts
run_gs experiment -q "$T/seeded.yaml"
j1=$(exp_q seeded "select job_id from run where id = 1")
j2=$(exp_q seeded "select job_id from run where id = 2")
s1=$(exp_q seeded "select seed from run where id = 1")
check "seeded: run 1's job has a load trace" test -s "$J/$j1/load/localhost.trace"
check "seeded: two repetitions, two seeds, two traces" \
	differ "$J/$j1/load/localhost.trace" "$J/$j2/load/localhost.trace"
n=$(next_id)
run_gs simulate "$T/syn.yaml" --sites "$T/loaded.yaml" --seed "$s1" -q
check "seeded: run 1's trace is simulate --seed <run 1's seed>'s" \
	cmp "$J/$j1/load/localhost.trace" "$J/$n/load/localhost.trace"

# --- refused before anything is created
n0=$(next_id)
bad() {
	b=$1
	shift
	exp "$T/$b.yaml" "name: $b" "$@"
	run_gs experiment "$T/$b.yaml"
	check_eq "$b: exit 3" "$rc" 3
	check "$b: no results directory" test ! -e "$X/$b"
}
bad bad-mode "job: $T/syn.yaml" "matrix:" "  mode: [run, simulte]"
check_eq "a misspelt mode: located, the three listed, with the closest" "$err" \
	"$T/bad-mode.yaml:4:15: 'mode' must be run, testbed or simulate, not 'simulte' (did you mean 'simulate'?)"
bad bad-mode-far "job: $T/syn.yaml" "zip:" "  mode: [real]" "  scheme: [gss]"
check_eq "a mode far from any, in zip: the three listed" "$err" \
	"$T/bad-mode-far.yaml:4:10: 'mode' must be run, testbed or simulate, not 'real'"
bad bad-testbed "job: $T/syn.yaml" "matrix:" "  mode: [run, testbed]"
check_eq "mode testbed without testbed:: located at the value" "$err" \
	"$T/bad-testbed.yaml:4:15: mode 'testbed' needs the experiment's 'testbed:' key (the site file to bring up as a testbed); without one, use run or simulate"
mkdir "$T/nosmpi"
cp "$SYN" "$T/nosmpi/synthetic"
sed "s|^program: .*|program: \"$T/nosmpi/synthetic\"|" "$T/syn.yaml" > "$T/nosmpi.yaml"
bad bad-smpi "job: $T/nosmpi.yaml" "matrix:" "  scheme: [gss, static]" \
	"  mode: [run, simulate]" "order: sequential"
check_match "no SMPI build: the point and the path looked for, located at its mode" "$err" \
	"^$T/bad-smpi.yaml:5:15: point 2 \\(scheme=gss mode=simulate\\) cannot be simulated: no SMPI build of $T/nosmpi/synthetic: $T/nosmpi/smpi/synthetic: No such file"
check_eq "no SMPI build: one line" "$(printf '%s\n' "$err" | wc -l)" 1
check_eq "refusals: no job" "$(next_id)" "$n0"
exp "$T/smpi-run.yaml" "name: smpi-run" "job: $T/nosmpi.yaml" "matrix:" "  mode: [run]"
run_gs experiment --dry-run "$T/smpi-run.yaml"
check_eq "no SMPI build, nothing simulated: accepted" "$rc" 0

# --- testbed:, every point simulated, the testbed not up: its site file itself
cp sites/localhost.yaml "$T/tbsim.yaml"
exp "$T/tball.yaml" "name: tball" "job: $T/syn.yaml" "testbed: $T/tbsim.yaml" "matrix:" \
	"  mode: [simulate]"
run_gs experiment --dry-run "$T/tball.yaml"
check_match "testbed, all simulated: dry-run says which site file" "$out" \
	"^simulated runs: on the testbed's derived site file when it is up, else on $T/tbsim.yaml \\(not brought up\\)$"
run_gs experiment "$T/tball.yaml"
check_eq "testbed, all simulated: exit 0" "$rc" 0
check_match "testbed, all simulated: says so" "$err" \
	"every run is simulated, on $T/tbsim.yaml \\(its testbed is not up and is not brought up"
check_eq "testbed, all simulated: on the testbed's site file" \
	"$(sites_of "$(exp_q tball "select job_id from run")")" "$T/tbsim.yaml"
check "testbed, all simulated: nothing brought up" \
	test ! -e "$GRIDSUBMIT_HOME/testbed/tbsim/manifest"
check_eq "testbed, all simulated: only asked whether it is up" \
	"$(cat "$X/tball/testbed.log")" \
	"gridsubmit testbed: not up (no $GRIDSUBMIT_HOME/testbed/tbsim/manifest)"
exp "$T/tbmix.yaml" "name: tbmix" "job: $T/syn.yaml" "testbed: $T/tbsim.yaml" "matrix:" \
	"  mode: [testbed, simulate]"
run_gs experiment --dry-run "$T/tbmix.yaml"
check_eq "testbed, mixed: dry-run: the modes" \
	"$(printf '%s\n' "$out" | grep -E '^(point|simulated)')" \
	"simulated runs: on the testbed's derived site file, as the others
point 1: mode=testbed (runs 1-1, mode testbed)
point 2: mode=simulate (runs 2-2, mode simulate)"

# --- as root: a real testbed
need_testbed "experiment on a testbed, simulated too" sshd ssh-keygen tc \
	prometheus-node-exporter || exit 0
cat > "$T/tb.yaml" <<'EOF'
sites:
  - name: tbx
    link: {bandwidth_mbps: 1000, latency_ms: 0}
    nodes:
      - {host: "sxn[1-2]", cpu_mhz: 2000, cores: 1, mem_mb: 256}
EOF
DERIVED="$GRIDSUBMIT_HOME/testbed/tb/sites.yaml"
testbed_up "$T/tb.yaml" "testbed up for an all-simulated experiment" || exit 0
exp "$T/tbup.yaml" "name: tbup" "job: $T/syn.yaml" "testbed: $T/tb.yaml" "matrix:" \
	"  mode: [simulate]"
run_gs experiment "$T/tbup.yaml"
check_eq "testbed up, all simulated: exit 0" "$rc" 0
check_eq "testbed up, all simulated: on its derived site file" \
	"$(sites_of "$(exp_q tbup "select job_id from run")")" "$DERIVED"
run_gs testbed status "$T/tb.yaml"
check_eq "testbed up, all simulated: left up" "$rc" 0
run_gs testbed down "$T/tb.yaml"
check_eq "testbed down before the mixed experiment" "$rc" 0
exp "$T/tbreal.yaml" "name: tbreal" "job: $T/syn.yaml" "testbed: $T/tb.yaml" "matrix:" \
	"  mode: [testbed, simulate]" "order: sequential"
run_gs experiment "$T/tbreal.yaml"
check_eq "testbed, mixed: exit 0" "$rc" 0
check_match "testbed, mixed: the testbed brought up" "$err" "bringing up the testbed of $T/tb.yaml"
check_eq "testbed, mixed: both runs on the derived site file" \
	"$(for id in $(exp_q tbreal "select job_id from run order by id"); do sites_of "$id"; done)" \
	"$DERIVED
$DERIVED"
check "testbed, mixed: the simulated run's job has a platform" \
	test -f "$J/$(exp_q tbreal "select job_id from run where id = 2")/platform.xml"
run_gs testbed status "$T/tb.yaml"
check_eq "testbed, mixed: brought down after" "$rc" 1
