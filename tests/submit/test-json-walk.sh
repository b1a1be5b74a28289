#!/bin/sh
# test-json-walk.sh — one JSON vocabulary (gridsubmit-json(5)) over every command that takes
# --json, in success and in failure. The commands come from `gridsubmit --help` and each
# one's help: one that takes --json and has no case here fails the test, so a new command is
# walked or noticed. Every document printed is checked (json_ok): one JSON object on stdout,
# schema_version first and the number `top --help` gives, a job id only under "id" (never
# "job" or "job_id") and an integer there, the numeric fields numbers (never a string that
# reads as one), every real written as its shortest round-trip text, and "error" exactly
# when the exit status is not 0: {"code": the exit status, "message": a text}. Failures:
# a bad job file for submit, rank and simulate, an unknown id for status, cancel, wait and
# top, an unknown name for sites, experiment and testbed, a bad option for every command.
# An experiment's parameters that the file gave as numbers are numbers. The closing line
# counts the documents checked. As root, a testbed of one node is brought up for testbed
# status's document.
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "json-walk" "jq is not installed (scripts/install-deps)"; exit 0; }
command -v python3 >/dev/null 2>&1 || { skip "json-walk" "python3 is not installed"; exit 0; }
MANDEL="$SRC/$BUILD/examples/mandelbrot"
[ -x "$MANDEL" ] || { fail "json-walk: $MANDEL is not built"; exit 1; }
at_exit sweep

# the schema the documents have, as top --help tells it
SCHEMA=$("$GS" top --help | sed -n 's/.*(schema_version \([0-9]*\)).*/\1/p')
check_match "top --help names the schema version" "$SCHEMA" '^[0-9]+$'
NDOCS=0
NCMDS=0

# the checker of one document: text, exit status, schema version
cat > "$T/json_ok.py" <<'PY'
import json, sys
text, rc, schema = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
# numeric fields of gridsubmit-json(5): a number or null wherever they appear
NUMERIC = {"id", "ranks", "exit_code", "mpiexec_exit", "makespan", "restarts",
    "restarts_max", "supervisor_pid", "requeued", "units_done", "units_total", "rounds",
    "N", "P", "elapsed", "percent", "rate", "eta", "efficiency", "wall_seconds", "host_mhz",
    "load1", "cpu_busy_pct", "age", "pf", "pr", "cs", "cl", "b", "cores", "slots",
    "cpu_mhz", "memory_mb", "line", "col", "code", "run", "point", "rep", "seq", "seed",
    "attempts", "chunk", "size", "start", "alpha", "share", "processes_stopped",
    "stopped", "left", "leftover_processes", "latency_ms", "cpu_quota", "schema_version"}
bad = []
def real(s):
    # the shortest text that reads back: Python repr is; more digits than it is noise
    digits = lambda t: len(t.lower().split("e")[0].replace("-", "").replace(".", "").lstrip("0").rstrip("0") or "0")
    if digits(s) > digits(repr(float(s))):
        bad.append("real %s is longer than its shortest %s" % (s, repr(float(s))))
    return float(s)
try:
    d = json.loads(text, parse_float=real)
except ValueError as e:
    sys.exit("not one JSON document: %s: %r" % (e, text[:300]))
if not isinstance(d, dict):
    sys.exit("not an object")
if list(d)[:1] != ["schema_version"] or d["schema_version"] != schema:
    bad.append("schema_version is not first or not %d" % schema)
def walk(o, path):
    if isinstance(o, dict):
        for k, v in o.items():
            p = path + "." + k
            if k in ("job", "job_id"):
                bad.append("%s: a job id under %r" % (p, k))
            if k == "id" and not (v is None or (type(v) is int)) and "slurm" not in path and "allocations" not in path:
                bad.append("%s is %r, not an integer" % (p, v))
            if k in NUMERIC and not (v is None or type(v) in (int, float)):
                if isinstance(v, str):
                    try:
                        float(v)
                        bad.append("%s is the string %r" % (p, v))
                    except ValueError:
                        pass
                if not isinstance(v, str):
                    bad.append("%s is %r, not a number" % (p, v))
            walk(v, p)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            walk(v, "%s[%d]" % (path, i))
walk(d, "")
err = d.get("error")
if rc == 0 and err is not None:
    bad.append("an error document with exit 0")
if rc != 0:
    if not isinstance(err, dict) or err.get("code") != rc or not isinstance(err.get("message"), str) or not err["message"]:
        bad.append("exit %d without its error document: error is %r" % (rc, err))
if bad:
    sys.exit("; ".join(bad))
PY

# json_ok NAME: $out (after run_gs) is one document of the vocabulary, its "error" as $rc says
json_ok() {
	NDOCS=$((NDOCS + 1))
	check "$1 (exit $rc): the vocabulary" python3 "$T/json_ok.py" "$out" "$rc" "$SCHEMA"
}

# walk NAME EXPECTED-EXIT ARGS...: gridsubmit ARGS, its exit status, and its document
walk() {
	w_name=$1 w_rc=$2
	shift 2
	run_gs "$@"
	check_eq "$w_name: exit $w_rc" "$rc" "$w_rc"
	json_ok "$w_name"
}

mandel_job walk "$T/quick.yaml" 256
mandel_job walk "$T/long.yaml" 3000 --iter 5000
printf 'name: bad\nprogram: "%s"\nranks: 3\nrankz: 2\n' "$MANDEL" > "$T/bad.yaml"
cat > "$T/badsites.yaml" <<EOF
sites:
  - name: A
    linkk: 3
    nodes: [{host: a, cores: 1, cpu_mhz: 1000}]
EOF

# a job whose state.json was torn: listed as unreadable, refused by status
mkdir -p "$GRIDSUBMIT_HOME/jobs/9000"
printf '{"schema_version": 2, "id": 90' > "$GRIDSUBMIT_HOME/jobs/9000/state.json"

# --- one case per command that takes --json
case_submit() {
	walk "submit" 0 submit --no-metrics --json "$T/quick.yaml"
	Q=$(printf '%s' "$out" | jq .id)
	walk "submit a bad job file" 3 submit --json "$T/bad.yaml"
	walk "submit a missing job file" 3 submit --json "$T/none.yaml"
	walk "wait for the submitted job" 0 wait --json "$Q" --timeout 120
}
case_status() {
	walk "status" 0 status --json "$Q"
	walk "status of an unknown id" 2 status --json 9999
	walk "status of a word" 2 status --json nosuch
	walk "status of a job whose state.json is torn" 3 status --json 9000
}
case_list() {
	walk "list" 0 list --json
	check_eq "list: a job whose state.json is torn, unreadable with its error" \
		"$(printf '%s' "$out" | jq -c '.jobs[] | select(.id == 9000) | [.state, .error.code]')" \
		'["unreadable",3]'
	walk "list --state of an unknown state" 2 list --json --state runing
}
case_cancel() {
	L=$("$GS" submit --no-metrics --now "$T/long.yaml")
	walk "cancel" 0 cancel --json "$L"
	check_eq "cancel: remote_nodes a list, as status gives it" \
		"$(printf '%s' "$out" | jq -c '.jobs[0].remote_nodes')" '[]'
	walk "cancel of an unknown id" 2 cancel --json 9999
	walk "cancel of a known and an unknown id" 2 cancel --json "$L" 9999
}
case_wait() {
	walk "wait" 0 wait --json "$Q"
	walk "wait of an unknown id" 2 wait --json 9999
	walk "wait of a cancelled job" 6 wait --json "$L"
	check_match "wait of a cancelled job: the message says how it ended" \
		"$(printf '%s' "$out" | jq -r .error.message)" "^job $L cancelled \\("
}
case_schedule() {
	walk "schedule" 0 schedule --scheme gss -N 100 -P 4 --json
	walk "schedule of a real-valued scheme" 0 schedule --scheme fss -N 1000 -P 3 --json
	walk "schedule of an unknown scheme" 2 schedule --scheme gsss -N 100 -P 4 --json
}
case_sites() {
	walk "sites show" 0 sites show sites/tiger.yaml --json
	walk "sites check" 0 sites check --json sites/tiger.yaml
	walk "sites check of a bad file" 3 sites check --json "$T/badsites.yaml"
	walk "sites show of a missing file" 3 sites show "$T/none.yaml" --json
}
case_rank() {
	walk "rank" 0 rank "$T/quick.yaml" --no-metrics --json
	walk "rank of a bad job file" 3 rank "$T/bad.yaml" --no-metrics --json
	printf 'name: many\nprogram: "%s"\nranks: 999\n' "$MANDEL" > "$T/many.yaml"
	walk "rank of more ranks than slots" 4 rank "$T/many.yaml" --no-metrics --json
	check_eq "rank of more ranks than slots: the ranking kept beside the error" \
		"$(printf '%s' "$out" | jq -c '[(.nodes | length > 0), .placement,
		    (.error.message | startswith("no placement: "))]')" '[true,null,true]'
}
case_purge() {
	P=$("$GS" submit --no-metrics "$T/quick.yaml")
	"$GS" wait "$P" --timeout 120 >/dev/null 2>&1
	walk "purge --dry-run" 0 purge --json --dry-run "$P"
	walk "purge" 0 purge --json "$P"
	check_eq "purge: the job removed under id" "$(printf '%s' "$out" | jq -c '[.jobs[].id]')" "[$P]"
	walk "purge of an unknown id" 2 purge --json 9999
	L2=$("$GS" submit --no-metrics --now "$T/long.yaml")
	walk "purge of a live job" 7 purge --json "$L2"
	"$GS" cancel "$L2" >/dev/null 2>&1
}
case_top() {
	walk "top" 0 top --json "$Q"
	walk "top of an unknown id" 2 top --json 9999
}
case_testbed() {
	cat > "$T/wt1.yaml" <<EOF
sites:
  - name: one
    link: {bandwidth_mbps: 1000, latency_ms: 0}
    nodes: [{host: jw1, cpu_mhz: 2000, cores: 1, mem_mb: 256}]
EOF
	walk "testbed status of a testbed not up" 1 testbed status "$T/wt1.yaml" --json
	need_testbed "json-walk: testbed status of a testbed up" sshd tc prometheus-node-exporter ||
		return 0
	testbed_up "$T/wt1.yaml" "json-walk: a testbed of one node up" || return 0
	walk "testbed status" 0 testbed status "$T/wt1.yaml" --json
}
case_experiment() {
	cat > "$T/exp.yaml" <<EOF
name: walk
job: $T/quick.yaml
matrix:
  size: [64, 96]
  iter: [100, "200"]
args: ["--size", "{size}", "--iter", "{iter}", "--check"]
order: sequential
EOF
	"$GS" experiment -q "$T/exp.yaml" >/dev/null 2>&1
	walk "experiment list" 0 experiment list --json
	walk "experiment show" 0 experiment show walk --json
	check_eq "experiment show: parameters typed as the file wrote them" \
		"$(printf '%s' "$out" | jq -c '[.runs[] | .params | [.size, .iter]] | unique')" \
		'[[64,100],[64,"200"],[96,100],[96,"200"]]'
	check_eq "experiment show: each run's job under id" \
		"$(printf '%s' "$out" | jq -c '[.runs[] | .id | type] | unique')" '["number"]'
	walk "experiment show of an unknown name" 2 experiment show nosuch --json
}
case_simulate() {
	walk "simulate of a bad job file" 3 simulate --json "$T/bad.yaml"
	need_smpi "json-walk: simulate" synthetic || return 0
	sed "s|^program: .*|program: \"$SRC/$BUILD/examples/synthetic\"|" examples/synthetic/job.yaml \
		> "$T/syn.yaml"
	echo "oversubscribe: true" >> "$T/syn.yaml"
	walk "simulate" 0 simulate --json "$T/syn.yaml"
	check_match "simulate: the job under id" "$(printf '%s' "$out" | jq -r '.id | type')" '^number$'
}

# the commands, from the program's own table; a bad option with --json for each
cmds=$("$GS" --help | awk '/^commands:/ { c = 1; next } c && /^  [a-z]/ { print $1 } /^$/ { c = 0 }')
check_match "gridsubmit --help lists the commands" "$(echo $cmds)" 'run submit .*simulate'
for c in $cmds; do
	"$GS" help "$c" 2>/dev/null | grep -q -- '--json' || continue
	NCMDS=$((NCMDS + 1))
	if ! type "case_$c" >/dev/null 2>&1; then
		fail "json-walk: '$c' takes --json and has no case in this test"
		continue
	fi
	"case_$c"
	case $c in
	sites) walk "sites check with a bad option" 2 sites check --json --bogus ;;
	experiment) walk "experiment show with a bad word" 2 experiment show walk --json --bogus ;;
	testbed) walk "testbed status with a bad option" 2 testbed status --json --bogus ;;
	*) walk "$c with a bad option" 2 "$c" --json --bogus ;;
	esac
done
check "json-walk: $NDOCS documents of $NCMDS commands checked" [ "$NDOCS" -gt 0 ]
