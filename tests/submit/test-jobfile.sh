#!/bin/sh
# test-jobfile.sh — the job directory's job.yaml and sites.yaml run as they are
# (submit/jobrun-jobfile.c, issue 18):
# - a job with a relative program, a stage_in file, --scheme and --ranks, submitted from
#   another directory: DIR/job.yaml names where it came from and the command line in its
#   comments, has the program absolute and the overrides written in, and DIR/sites.yaml
#   passes `sites check`;
# - with the original job file and its stage_in source gone, `cd / && gridsubmit run
#   DIR/job.yaml --sites DIR/sites.yaml` is the same job: same scheme, ranks, program
#   output and an identical result file;
# - a site file of its own: sites.yaml has its relative ssh config made absolute, and
#   expands to the same nodes from /;
# - an experiment's job directory: job.yaml holds the point's parameters, and runs so;
# - resume of a cancelled job after its original job file and stage_in sources (a file
#   and a directory) were deleted: done, from the job directory's files.
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "jobfile" "jq is not installed"; exit 0; }
MB="$SRC/$BUILD/examples/mandelbrot"
SYN="$SRC/$BUILD/examples/synthetic"
[ -x "$MB" ] || { fail "jobfile: $MB is not built"; exit 1; }
[ -x "$SYN" ] || { fail "jobfile: $SYN is not built"; exit 1; }
J="$GRIDSUBMIT_HOME/jobs"
GSA=$(cd "$(dirname "$GS")" && pwd)/$(basename "$GS")
R=$(cd "$T" && pwd -P)

at_exit sweep

# a project: the program and an input beside the job file, named relative to it
mkdir -p "$R/proj/bin" "$R/proj/data" "$R/elsewhere"
cp "$MB" "$R/proj/bin/mandel"
printf 'input of the job\n' > "$R/proj/data/params.txt"
cat > "$R/proj/job.yaml" <<'YAML'
# a comment of the user's
program: bin/mandel
args: ["--size", "96", "--iter", "300", "--check", "--out", "m.pgm"]
ranks: 2
# more ranks than a 2-core host has: --ranks 3 below, to see it recorded
oversubscribe: true
runtime: {scheme: gss}
stage_in: [data/params.txt]
stage_out: [m.pgm]
YAML

# --- submitted from another directory with a relative path and overrides
(cd "$R/elsewhere" && "$GSA" run ../proj/job.yaml --scheme static --ranks 3 --no-metrics \
    > "$R/run1.out" 2> "$R/run1.err")
check_eq "run from elsewhere: exit 0" "$?" 0
D1="$J/1"
Y1="$D1/job.yaml"
check_eq "state.json: the overrides, the original file" \
	"$(jq -c '[.state, .scheme, .ranks, .job_file]' "$D1/state.json")" \
	"[\"done\",\"static\",3,\"$R/proj/job.yaml\"]"
check_eq "job.yaml: the comments say where it came from and how to run it" \
	"$(sed -n '1,5p' "$Y1")" \
	"# gridsubmit job 1: the job as it ran, runnable as it is from any directory:
#   gridsubmit run $D1/job.yaml --sites $D1/sites.yaml
# made from: $R/proj/job.yaml
# command line: --scheme static --ranks 3 --no-metrics (not a key of the job file)
# program: $R/proj/bin/mandel (absolute)"
check "job.yaml: the stage_in source in a comment" \
	grep -qx "#   params.txt <- $R/proj/data/params.txt" "$Y1"
check "job.yaml: the program absolute" grep -qx "program: \"$R/proj/bin/mandel\"" "$Y1"
check "job.yaml: ranks from --ranks" grep -qx "ranks: 3" "$Y1"
check "job.yaml: scheme from --scheme" grep -qx "  scheme: static" "$Y1"
check "job.yaml: the name the job had" grep -qx 'name: "job"' "$Y1"
check "job.yaml: stage_in names the copy in the directory" \
	sh -c "grep -A1 -x 'stage_in:' '$Y1' | grep -qx -- '- \"params.txt\"'"
check "the stage_in copy is in the directory" cmp "$D1/params.txt" "$R/proj/data/params.txt"
check "sites.yaml: written (the embedded default), and valid" "$GS" sites check "$D1/sites.yaml"
check_eq "sites.yaml: says what it was made from" "$(sed -n 2p "$D1/sites.yaml")" \
	"# made from: the embedded default, sites/localhost.yaml"

# --- the same job again from / with only the job directory's files
rm -f "$R/proj/job.yaml"
rm -rf "$R/proj/data"
(cd / && "$GSA" run "$Y1" --sites "$D1/sites.yaml" --no-metrics > "$R/run2.out" \
    2> "$R/run2.err")
check_eq "run DIR/job.yaml from /: exit 0" "$?" 0
D2="$J/2"
check_eq "the same scheme and ranks" "$(jq -c '[.state, .scheme, .ranks]' "$D2/state.json")" \
	'["done","static",3]'
check_eq "the same program output" \
	"$(sed -n 's/, makespan.*//p' "$R/run2.out")" "$(sed -n 's/, makespan.*//p' "$R/run1.out")"
check_match "the program ran so" "$(cat "$R/run2.out")" "96x96, scheme static, 3 ranks"
check "an identical result file" cmp "$D1/m.pgm" "$D2/m.pgm"
check "the same input staged" cmp "$D1/params.txt" "$D2/params.txt"

# --- a site file of its own: copied with its relative ssh config made absolute
mkdir -p "$R/sites/conf"
: > "$R/sites/conf/ssh_config"
cat > "$R/sites/mine.yaml" <<'YAML'
defaults:
  ssh: {config: conf/ssh_config}
sites:
  - name: here
    link: {bandwidth_mbps: 1000, latency_ms: 0.1}
    nodes:
      - {host: localhost, cpu_mhz: 2000, cores: 2, slots: 8, mem_mb: 1024}
YAML
cat > "$R/proj/quick.yaml" <<YAML
program: "$SYN"
args: ["--units", "200"]
ranks: 2
YAML
(cd "$R/elsewhere" && "$GSA" run ../proj/quick.yaml --sites ../sites/mine.yaml --no-metrics \
    > /dev/null 2>&1)
check_eq "a job with a site file of its own: exit 0" "$?" 0
S="$J/3/sites.yaml"
check_eq "sites.yaml: made from the site file, its ssh config absolute" \
	"$(sed -n '2,3p' "$S")" "# made from: $R/sites/mine.yaml
# ssh config paths: made absolute (against $R/sites)"
check "sites.yaml: the config path" grep -qx "    config: \"$R/sites/conf/ssh_config\"" "$S"
# shellcheck disable=SC2016 # jq's program
nodes='[.sites[].name, (.nodes[] | del(.line, .col, .ssh.config)), (.nodes[].ssh.config)]'
check_eq "sites.yaml: the same nodes as the original (ssh config: the same file)" \
	"$(cd / && "$GSA" sites show "$S" --json | jq -c "$nodes")" \
	"$(cd "$R/elsewhere" && "$GSA" sites show ../sites/mine.yaml --json | jq -c "$nodes" |
	    sed "s|$R/elsewhere/\\.\\./|$R/|")"

# --- an experiment's job directory holds the point's parameters
cat > "$R/proj/mjob.yaml" <<'YAML'
program: bin/mandel
args: ["--size", "64"]
ranks: 2
oversubscribe: true
runtime: {scheme: gss}
stage_out: [m.pgm]
YAML
cat > "$R/exp.yaml" <<'YAML'
name: jobfile-exp
job: proj/mjob.yaml
matrix:
  scheme: [pwd]
  ranks: [3]
  size: [80]
args: ["--size", "{size}", "--check", "--out", "m.pgm"]
YAML
run_gs experiment "$R/exp.yaml"
check_eq "experiment: exit 0" "$rc" 0
D3="$J/4"
Y3="$D3/job.yaml"
check "experiment's job.yaml: says which file set what" grep -qx \
	"# experiment: $R/exp.yaml sets runtime.scheme, ranks, args" "$Y3"
check "experiment's job.yaml: the scheme" grep -qx "  scheme: pwd" "$Y3"
check "experiment's job.yaml: the ranks" grep -qx "ranks: 3" "$Y3"
check "experiment's job.yaml: the args with {size} put in" \
	sh -c "grep -A2 -x 'args:' '$Y3' | tail -n 1 | grep -qx -- '- \"80\"'"
(cd / && "$GSA" run "$Y3" --sites "$D3/sites.yaml" --no-metrics > "$R/run4.out" \
    2> "$R/run4.err")
check_eq "the experiment's job.yaml runs: exit 0" "$?" 0
check_match "as the point: size, scheme and ranks" "$(cat "$R/run4.out")" \
	"80x80, scheme pwd, 3 ranks"

# --- resume after the original job file and input were deleted
mkdir -p "$R/proj/data" "$R/proj/cfg"
printf 'again\n' > "$R/proj/data/params.txt"
printf 'a directory staged in, staged again by the resume\n' > "$R/proj/cfg/notes"
cp "$SYN" "$R/proj/bin/syn"
cat > "$R/proj/long.yaml" <<'YAML'
name: jobfile-long
program: bin/syn
args: ["--units", "60000", "--mean-us", "40", "--seed", "77", "--check", "--slow", "1:3,2:3"]
ranks: 2
oversubscribe: true
runtime: {scheme: gss, k: 2000}
stage_in: [data/params.txt, cfg]
YAML
id=$(cd "$R/elsewhere" && "$GSA" submit ../proj/long.yaml --scheme css --ranks 3 --no-metrics)
check_eq "submit: the next id" "$id" 6
poll 30 grep -q '"ev":"chunk"' "$J/$id/events.jsonl"
run_gs cancel "$id"
check_eq "cancel: exit 0" "$rc" 0
rm -f "$R/proj/long.yaml"
rm -rf "$R/proj/data" "$R/proj/cfg"
run_gs resume "$id"
check_eq "resume without the original files: exit 0" "$rc" 0
check_match "resume: the overrides of the submit kept" "$err" \
	"^gridsubmit: job $id \\(jobfile-long\\): resumed \\(restart 1\\), 3 ranks, scheme css$"
check_match "resume: the check passed" "$out" "result matches the sequential computation"
check_eq "resume: the staged directory is there once, whole" "$(cat "$J/$id/cfg/notes")" \
	"a directory staged in, staged again by the resume"
check_eq "resume: no copy of it left aside" "$(ls -d "$J/$id"/cfg.* 2>/dev/null)" ""
check_eq "resume: done, the original file still named" \
	"$(jq -c '[.state, .restarts, .job_file]' "$J/$id/state.json")" \
	"[\"done\",1,\"$R/proj/long.yaml\"]"
