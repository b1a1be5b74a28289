#!/bin/sh
# test-experiment-params.sh — every knob of a run as an experiment parameter
# (doc/experiments.md, "Site parameters", "Simulate's options", "Repetitions", "--only";
# experiment/exp-site.c, exp-sim.c, exp-repeat.c; submit/exp-sites.c, exp-simopts.c,
# exp-only.c):
# - first_contact_ms and host_mhz as parameters of simulated points: a larger first
#   contact and a faster clock counted for this host give larger simulated makespans;
#   --dry-run names each point's simulate options, and says a real point ignores them;
# - repeat: {run: 1, simulate: 3}, and --only mode=simulate: the simulated points' 3 runs
#   each done, the real ones left pending, the report from what is done; the same command
#   without --only runs those; --only with a parameter or value the file lacks refused
#   with the closest, nothing created;
# - load as a parameter of simulated points on a site file: the site file each run used
#   has its load, the loaded point's runs are seeded by their {seed} (three repetitions,
#   three traces, three makespans) and slower than the unloaded point's;
# - bad values refused before anything is created, located (exit 3);
# - as root: load [0, 3] on a testbed: one testbed per value, brought up before its
#   group's runs and down after; the load its nodes' monitors report when the job is
#   placed (load_before) is 0 and 3; the simulated point of load 3 on that testbed's
#   derived site file; nothing left up.
# Skipped when the SMPI builds are missing (SimGrid not installed).
# serial: testbed-a (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_smpi "experiment params" synthetic || exit 0
for tool in jq sqlite3; do
	command -v "$tool" >/dev/null 2>&1 || { skip "experiment params" "$tool is not installed"; exit 0; }
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

# median NAME WHERE: the median makespan of experiment NAME's done runs of the points
# WHERE selects (an SQL condition on the point's parameters, p)
median() {
	exp_q "$1" "select r.id, m.value from run r join point p on p.id = r.point
	    join metric m on m.run = r.id and m.name = 'makespan'
	    where r.state = 'done' and $2 order by m.value" |
	    awk -F'|' '{ v[NR] = $2 } END { if (NR) print v[int((NR + 1) / 2)]; else print "none" }'
}

# above A B: the number A is larger than B
above() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'
}

cat > "$T/syn.yaml" <<YAML
name: exp-syn
program: "$SYN"
args: ["--units", "2000"]
ranks: 2
runtime: {scheme: gss}
YAML

# --- simulate's options as parameters
exp "$T/knobs.yaml" \
	"name: knobs" \
	"job: $T/syn.yaml" \
	"matrix:" \
	"  mode: [run, simulate]" \
	"  first_contact_ms: [0, 300]" \
	"  host_mhz: [500, 8000]" \
	"order: sequential"
run_gs experiment --dry-run "$T/knobs.yaml"
check_eq "knobs: dry-run exit 0" "$rc" 0
check_eq "knobs: dry-run: simulate's options per point, ignored by real points" \
	"$(printf '%s\n' "$out" | grep -E '^point (1|5|8):')" \
	"point 1: mode=run first_contact_ms=0 host_mhz=500 (runs 1-1, mode run; not simulated, ignored: first_contact_ms=0 host_mhz=500)
point 5: mode=simulate first_contact_ms=0 host_mhz=500 (runs 5-5, mode simulate; simulated with first_contact_ms=0 host_mhz=500)
point 8: mode=simulate first_contact_ms=300 host_mhz=8000 (runs 8-8, mode simulate; simulated with first_contact_ms=300 host_mhz=8000)"
run_gs experiment -q --only mode=simulate "$T/knobs.yaml"
check_eq "knobs: exit 0" "$rc" 0
fc0=$(median knobs "json_extract(p.params, '\$.first_contact_ms') = '0' and
    json_extract(p.params, '\$.host_mhz') = '500'")
fc300=$(median knobs "json_extract(p.params, '\$.first_contact_ms') = '300' and
    json_extract(p.params, '\$.host_mhz') = '500'")
mhz8000=$(median knobs "json_extract(p.params, '\$.first_contact_ms') = '0' and
    json_extract(p.params, '\$.host_mhz') = '8000'")
check "knobs: a first contact of 300 ms makes a larger makespan ($fc300 s) than none ($fc0 s)" \
	above "$fc300" "$fc0"
check "knobs: this host counted as 8000 MHz makes a larger makespan ($mhz8000 s) than as 500 ($fc0 s)" \
	above "$mhz8000" "$fc0"

# --- repeat per mode, --only
exp "$T/rep.yaml" \
	"name: rep" \
	"job: $T/syn.yaml" \
	"matrix:" \
	"  mode: [run, simulate]" \
	"  scheme: [gss, static]" \
	"repeat: {run: 1, simulate: 3}"
run_gs experiment --dry-run --only mode=simulate "$T/rep.yaml"
check_eq "rep: dry-run: the counts per mode" "$(printf '%s\n' "$out" | head -n 1)" \
	"experiment rep: 4 points x run 1, simulate 3 repetitions = 8 runs, order random"
check_eq "rep: dry-run: the points --only leaves out" \
	"$(printf '%s\n' "$out" | grep -c '^point .*(not this time: --only)$')" 2
check_eq "rep: dry-run: their runs" \
	"$(printf '%s\n' "$out" | grep -c '^order .*(not this time: --only)$')" 2
n0=$(next_id)
run_gs experiment --only mode=simulat "$T/rep.yaml"
check_eq "--only: a value the file lacks: exit 2" "$rc" 2
check_match "--only: the value named, with the closest" "$err" \
	"--only: 'simulat' is not a value of 'mode' in $T/rep.yaml \\(did you mean 'simulate'\\?\\)"
run_gs experiment --only sheme=gss "$T/rep.yaml"
check_match "--only: a parameter the file lacks, with the closest" "$err" \
	"--only: 'sheme' is not a parameter of $T/rep.yaml \\(did you mean 'scheme'\\?\\)"
check "--only: refused, no results directory" test ! -e "$X/rep"
check_eq "--only: refused, no job" "$(next_id)" "$n0"
run_gs experiment --only mode=simulate "$T/rep.yaml"
check_eq "rep --only mode=simulate: exit 0" "$rc" 0
check_match "rep --only: says what it left" "$err" "--only left 2 runs as they were"
check_eq "rep --only: 3 done runs per simulated point, the real ones pending" \
	"$(exp_q rep "select json_extract(p.params, '\$.mode'), json_extract(p.params,
	    '\$.scheme'), r.state, count(*) from run r join point p on p.id = r.point
	    group by 1, 2, 3 order by 1, 2, 3" | tr '\n' ' ')" \
	"run|gss|pending|1 run|static|pending|1 simulate|gss|done|3 simulate|static|done|3 "
check_match "rep --only: the report from what is done" "$(cat "$X/rep/summary.md")" \
	"8 runs: 6 done, 0 failed, 0 interrupted, 2 pending"
check_eq "rep --only: 6 jobs" "$(next_id)" $((n0 + 6))
run_gs experiment "$T/rep.yaml"
check_eq "rep: the rest: exit 0" "$rc" 0
check_match "rep: the rest: the 2 real runs" "$err" "rep: 2 runs this time, 0 failed"
check_eq "rep: every run done" "$(exp_q rep "select count(*) from run where state = 'done'")" 8

# --- load of simulated points, seeded by the run's seed
sed 's/arch: x86_64}/arch: x86_64, emulate: {load_interval: 0.1}}/' \
	sites/localhost.yaml > "$T/local.yaml"
exp "$T/load.yaml" \
	"name: load" \
	"job: $T/syn.yaml" \
	"sites: $T/local.yaml" \
	"matrix:" \
	"  mode: [simulate]" \
	"  load: [0, 2]" \
	"repeat: 3" \
	"order: sequential"
run_gs experiment --dry-run "$T/load.yaml"
check_eq "load: dry-run: each point's site values" "$(printf '%s\n' "$out" | grep '^point ')" \
	"point 1: mode=simulate load=0 (runs 1-3, mode simulate; site file with load=0 laid over it)
point 2: mode=simulate load=2 (runs 4-6, mode simulate; site file with load=2 laid over it)"
run_gs experiment -q "$T/load.yaml"
check_eq "load: exit 0" "$rc" 0
j4=$(exp_q load "select job_id from run where id = 4")
check_eq "load: the run's site file is the point's, in the results" "$(jq -r .sites_file "$J/$j4/state.json")" \
	"$X/load/sites/load-p2.yaml"
check_eq "load: its node's load is the point's, its other emulate keys the file's" \
	"$(GRIDSUBMIT_HOME=$T/home "$GS" sites show --json "$X/load/sites/load-p2.yaml" |
	    jq -c '[.nodes[0].emulate.load, .nodes[0].emulate.load_interval]')" '[2,0.1]'
traces=$(for r in 4 5 6; do cksum < "$J/$(exp_q load "select job_id from run where id = $r")/load/localhost.trace"; done | sort -u | wc -l)
check_eq "load: three repetitions, three seeds, three background loads" "$traces" 3
check_eq "load: three repetitions, three makespans" \
	"$(exp_q load "select count(distinct m.value) from metric m join run r on r.id = m.run
	    where m.name = 'makespan' and r.point = 2")" 3
l0=$(median load "json_extract(p.params, '\$.load') = '0'")
l2=$(median load "json_extract(p.params, '\$.load') = '2'")
check "load: the loaded point is slower ($l2 s) than the unloaded one ($l0 s)" above "$l2" "$l0"

# --- bad values refused before anything is created
n0=$(next_id)
bad() {
	b=$1
	want=$2
	shift 2
	exp "$T/$b.yaml" "name: $b" "job: $T/syn.yaml" "$@"
	run_gs experiment "$T/$b.yaml"
	check_eq "$b: exit 3" "$rc" 3
	check_eq "$b: located" "$err" "$T/$b.yaml:$want"
	check "$b: no results directory" test ! -e "$X/$b"
}
bad bad-load "6:13: 'load' must be a number >= 0 (background jobs), not '-1'" \
	"sites: $T/local.yaml" "matrix:" "  mode: [simulate]" "  load: [1, -1]"
bad bad-site "6:11: 'locl' is not a site of the site file (did you mean 'local'?)" \
	"sites: $T/local.yaml" "matrix:" "  mode: [simulate]" "  load: [{locl: 1}]"
bad bad-links "5:11: 'links' must be node or site, not 'nod' (did you mean 'node'?)" \
	"matrix:" "  mode: [simulate]" "  links: [nod]"
bad bad-repeat "5:18: 'repeat': 'simulat' is not a mode (run, testbed or simulate) (did you mean 'simulate'?)" \
	"matrix:" "  mode: [run, simulate]" "repeat: {run: 1, simulat: 5}"
bad bad-nosim "4:3: 'host_mhz' is an option of simulate, and no point is simulated: add mode: [simulate] (or a list with it) to the matrix, or drop 'host_mhz'" \
	"matrix:" "  host_mhz: [500]"
check_eq "refusals: no job" "$(next_id)" "$n0"

# --- as root: load as a parameter on a testbed
need_testbed "a testbed's load as a parameter" sshd ssh-keygen tc \
	prometheus-node-exporter || exit 0
cat > "$T/tbp.yaml" <<'YAML'
sites:
  - name: tbp
    link: {bandwidth_mbps: 1000, latency_ms: 0}
    nodes:
      - {host: "pxn[1-2]", cpu_mhz: 2000, cores: 1, mem_mb: 256}
YAML
exp "$T/tbload.yaml" \
	"name: tbload" \
	"job: $T/syn.yaml" \
	"testbed: $T/tbp.yaml" \
	"matrix:" \
	"  load: [0, 3]" \
	"  mode: [testbed, simulate]"
at_exit "'$GS' testbed down '$X/tbload/sites/tbload-p1.yaml'"
at_exit "'$GS' testbed down '$X/tbload/sites/tbload-p3.yaml'"
run_gs experiment "$T/tbload.yaml"
check_eq "testbed load: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || printf '%s\n' "$err" | sed 's/^/#   /'
check_eq "testbed load: one testbed per load, each brought up once" \
	"$(printf '%s\n' "$err" | grep -o 'bringing up the testbed of .*' | sort)" \
	"bringing up the testbed of $X/tbload/sites/tbload-p1.yaml
bringing up the testbed of $X/tbload/sites/tbload-p3.yaml"
check_eq "testbed load: the load the nodes' monitors report at placement, per point" \
	"$(exp_q tbload "select json_extract(p.params, '\$.load'), m.value from run r
	    join point p on p.id = r.point join metric m on m.run = r.id and
	    m.name = 'load_before' where json_extract(p.params, '\$.mode') = 'testbed'
	    order by 1" | awk -F'|' '{ printf "%s:%s ", $1, ($2 >= 2 ? "loaded" : $2 + 0) }')" \
	"0:0 3:loaded "
check_eq "testbed load: the simulated point of load 3 on that testbed's derived site file" \
	"$(jq -r .sites_file "$J/$(exp_q tbload "select r.job_id from run r join point p on
	    p.id = r.point where json_extract(p.params, '\$.mode') = 'simulate' and
	    json_extract(p.params, '\$.load') = '3'")/state.json")" \
	"$GRIDSUBMIT_HOME/testbed/tbload-p3/sites.yaml"
for g in p1 p3; do
	run_gs testbed status "$X/tbload/sites/tbload-$g.yaml"
	check_eq "testbed load: tbload-$g brought down after its runs" "$rc" 1
done
