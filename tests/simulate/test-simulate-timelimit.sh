#!/bin/sh
# test-simulate-timelimit.sh — the job file's time_limit under gridsubmit simulate, in
# simulated seconds (doc/simulate.md, "The time limit"): mandelbrot of 3 ranks on two slow
# nodes (this host counted as 100 times their clock: about 9 simulated seconds in all,
# 2 s of this host's CPU):
# - time_limit 00:03: exit 8, state timeout with the simulated running time in the
#   reason, the master's end record says timeout, the journal kept, no smpirun left;
#   --json says timeout and exit code 8;
# - time_limit 01:00: the same job is done, the image checked;
# - --time 00:02 over time_limit 01:00: stopped at 2 simulated seconds.
# Skipped when the SMPI builds are missing (SimGrid not installed).
. tests/lib.sh

need_smpi "simulate time limit" mandelbrot || exit 0
command -v jq >/dev/null 2>&1 || { skip "simulate time limit" "jq is not installed"; exit 0; }
MANDEL=$SRC/$BUILD/examples/mandelbrot
J=$GRIDSUBMIT_HOME/jobs
at_exit sweep

cat > "$T/slow.yaml" <<'EOF'
sites:
  - name: slow
    link: {bandwidth_mbps: 1000, latency_ms: 0.1}
    nodes:
      - {host: "s[1-2]", cpu_mhz: 100, cores: 1, mem_mb: 256}
EOF
# job FILE LIMIT: the mandelbrot job with time_limit LIMIT
job() {
	cat > "$1" <<EOF
name: simlimit
program: "$MANDEL"
args: ["--size", "400", "--iter", "1000", "--check", "--out", "m.pgm"]
ranks: 3
runtime: {scheme: pss}
time_limit: "$2"
EOF
}

job "$T/short.yaml" "00:03"
run_gs simulate "$T/short.yaml" --sites "$T/slow.yaml" --host-mhz 10000
check_eq "simulated past time_limit 00:03: exit 8" "$rc" 8
check_eq "state timeout" "$(jq -r .state "$J/1/state.json")" timeout
check_match "the reason counts simulated seconds, at most a chunk past the limit" \
	"$(jq -r .reason "$J/1/state.json")" \
	"^time limit 00:03 reached after 3\\.[0-9]{3} s of simulated running$"
check_eq "the master's end record says timeout" \
	"$(jq -r 'select(.ev == "end") | .status' "$J/1/events.jsonl")" timeout
check "the journal is kept, with results" test "$(wc -c < "$J/1/journal")" -gt 1000
check "no smpirun of the job is left" gone "$J/1/"
run_gs simulate "$T/short.yaml" --sites "$T/slow.yaml" --host-mhz 10000 --json
check_eq "--json: state timeout, exit code 8" \
	"$rc $(printf '%s' "$out" | jq -r '.state + " " + (.exit_code | tostring)')" "8 timeout 8"

job "$T/long.yaml" "01:00"
run_gs simulate "$T/long.yaml" --sites "$T/slow.yaml" --host-mhz 10000
check_eq "within time_limit 01:00: exit 0, done" "$rc:$(jq -r .state "$J/3/state.json")" "0:done"
check_match "the image matches the sequential computation" "$out" \
	"image matches the sequential computation"

run_gs simulate "$T/long.yaml" --sites "$T/slow.yaml" --host-mhz 10000 --time 00:02
check_eq "--time 00:02 over time_limit 01:00: exit 8" "$rc" 8
check_match "the reason names --time's limit" "$(jq -r .reason "$J/4/state.json")" \
	"^time limit 00:02 reached after 2\\.[0-9]{3} s of simulated running$"
run_gs simulate "$T/long.yaml" --sites "$T/slow.yaml" --time 1:99
check_eq "simulate --time 1:99: exit 2" "$rc" 2
check_match "named with the formats" "$err" "--time: '1:99' is not a time limit"
