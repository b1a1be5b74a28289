#!/bin/sh
# test-timelimit-testbed.sh — the wall-time limit on an ssh site (doc/restarts.md, "The
# time limit"), on a testbed of 2 nodes (root): jobs of 3 ranks, rank 0 here and a worker
# on each node.
# - a plain program (sleep) past --time: run exits 8, state timeout with the reason, and
#   nothing of the job is left on either node (proxy, wrapper, program) nor here, nor its
#   directories on the nodes;
# - mandelbrot (libgrt) past its time_limit: timeout, the journal kept with results;
#   resume continues it (with room: --time) to done, the image checked against the
#   sequential computation, nothing left anywhere.
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "time limit on a testbed" sshd jq || exit 0
MANDEL=$SRC/$BUILD/examples/mandelbrot
[ -x "$MANDEL" ] || { fail "time limit testbed: $MANDEL is not built"; exit 1; }
J=$GRIDSUBMIT_HOME/jobs

SITES=$T/tlb.yaml
cat > "$SITES" <<'EOF'
# one site of 2 equal one-core nodes, each of which does not share this host's files
sites:
  - name: lab
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: "tlb[1-2]", cpu_mhz: 2000, cores: 1, mem_mb: 256, emulate: {private_fs: true}}
EOF
testbed_up "$SITES" "testbed up with 2 nodes" || exit 0
at_exit sweep

# left ID PROGRAM: what of job ID is still running, on either node or here
left() {
	echo "$(ns_job tlb1 "$2")$(ns_job tlb2 "$2")$(live "$J/$1/")"
}

# --- a plain program
cat > "$T/sleep.yaml" <<EOF
name: tlb-sleep
program: /bin/sleep
args: ["61"]
ranks: 3
restarts: 0
EOF
run_gs run --no-metrics --sites "$TB/sites.yaml" --time 0:04 "$T/sleep.yaml"
check_eq "sleep past --time 0:04 on the nodes: run exits 8" "$rc" 8
[ "$rc" -eq 8 ] || printf '%s\n' "$err" | tail -n 10 | sed -e 's/^/#   /'
check_eq "state timeout" "$(jq -r .state "$J/1/state.json")" timeout
check_match "with the reason" "$(jq -r .reason "$J/1/state.json")" \
	"^time limit 0:04 reached after 4\\.[0-9] s of running$"
check_match "its workers were placed on both nodes" "$(sort "$J/1/hostfile" | tr '\n' ' ')" \
	"tlb1.*tlb2"
check_eq "nothing of the job is left on the nodes nor here" "$(left 1 sleep)" ""
echo "# stopped and cleaned up $(jq -r '.ended, .started' "$J/1/state.json" | xargs -n1 date +%s.%N -d |
	awk 'NR == 1 { e = $1 } NR == 2 { printf "%.2f", e - $1 - 4 }') s after the limit"
check "the nodes' job directories are removed" test ! -s "$J/1/remote-dirs"

# --- a libgrt job stopped, then resumed
cat > "$T/mandel.yaml" <<EOF
name: tlb-mandel
program: "$MANDEL"
args: ["--size", "2000", "--iter", "3000", "--check", "--out", "m.pgm"]
ranks: 3
runtime: {scheme: pss}
time_limit: "00:04"
stage_out: [m.pgm]
EOF
run_gs run --no-metrics --sites "$TB/sites.yaml" "$T/mandel.yaml"
check_eq "mandelbrot past its time_limit on the nodes: exit 8, timeout" \
	"$rc:$(jq -r .state "$J/2/state.json")" "8:timeout"
check "its journal is kept, with results" test "$(wc -c < "$J/2/journal")" -gt 1000
check_eq "nothing of it is left on the nodes nor here" "$(left 2 mandelbrot)" ""
run_gs resume 2 --time 10:00
check_eq "resume --time 10:00: done, exit 0" "$rc:$(jq -r .state "$J/2/state.json")" "0:done"
[ "$rc" -eq 0 ] || printf '%s\n' "$err" | tail -n 10 | sed -e 's/^/#   /'
check_match "the image matches the sequential computation" "$out" \
	"image matches the sequential computation"
check "the resumed master replayed the journal" \
	grep -q '"ev":"resume","units":[1-9]' "$J/2/events.jsonl"
check_eq "nothing of it is left after the resume" "$(left 2 mandelbrot)" ""
