#!/bin/sh
# test-testbed-cores.sh — two ranks in one testbed namespace (root). It was measured
# (doc/testbed.md, "Launch over ssh", item "UCX") that two ranks in one namespace hung in
# MPI_Finalize over UCX's tcp transport; gridsubmit's jobs no longer call it
# (GRT_FINALIZE=skip, doc/runtime.md, "Failures"), so nodes with `cores: 2` take two ranks
# each: every one of 8 runs ends done, at once, with the sequential image.
# serial: testbed-a (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "testbed-cores" sshd tc prometheus-node-exporter || exit 0
MANDEL=$SRC/$BUILD/examples/mandelbrot
if [ ! -x "$MANDEL" ]; then
	skip "testbed-cores" "$MANDEL is not built"
	exit 0
fi

SITES=$T/tc2.yaml
cat > "$SITES" <<'EOF'
# two sites of one node each, two cores a node: ranks 1-2 and 3-4 share a namespace
sites:
  - name: near
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: tcn1, cpu_mhz: 2000, cores: 2, mem_mb: 256}
  - name: far
    link: {bandwidth_mbps: 10, latency_ms: 0.5}
    nodes:
      - {host: tcf1, cpu_mhz: 2000, cores: 2, mem_mb: 256}
EOF
testbed_up "$SITES" "testbed up with two 2-core nodes" || exit 0

cat > "$T/job.yaml" <<EOF
name: cores
program: $MANDEL
args: ["--size", "256", "--check", "--out", "m.pgm"]
ranks: 5
runtime: {scheme: gss}
EOF

done_runs=0 slow=""
for i in 1 2 3 4 5 6 7 8; do
	t0=$(date +%s)
	"$GS" run "$T/job.yaml" --sites "$TB/sites.yaml" > "$T/run.$i.out" 2>&1
	grc=$?
	t1=$(date +%s)
	if [ "$grc" -eq 0 ] && grep -q 'image matches' "$T/run.$i.out"; then
		done_runs=$((done_runs + 1))
	else
		echo "# run $i: status $grc"
		tail -n 5 "$T/run.$i.out" | sed -e 's/^/#   /'
	fi
	[ $((t1 - t0)) -lt 30 ] || slow="$slow $i:$((t1 - t0))s"
done
J=$(ls -d "$GRIDSUBMIT_HOME"/jobs/[0-9]* | sort -t/ -k1 -V | tail -n 1)
check_eq "two ranks on each node" \
	"$(awk '$1 > 0 { n[$2]++ } END { for (h in n) print h, n[h] }' "$J/rankmap" | sort |
	tr '\n' ' ')" "tcf1 2 tcn1 2 "
check_eq "8 of 8 runs with two ranks per namespace end done with the sequential image" \
	"$done_runs" 8
check_eq "and none waits for a finalize that hangs (runs over 30 s:${slow:- none})" \
	"$slow" ""
check_match "the job's state is done" "$(cat "$J/state.json")" '"state": "done"'
