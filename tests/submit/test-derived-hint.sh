#!/bin/sh
# test-derived-hint.sh — a testbed's source site file given to run while the testbed is up
# (root): its hosts resolve only through the derived site file that `testbed up` printed,
# so run and submit refuse it before the job takes an id (exit 3) and name the derived
# file; the derived file itself runs; with the testbed down the source file is left alone
# (its mistake is then the launch's, as for any unreachable host).
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "the derived site file named" sshd tc prometheus-node-exporter || exit 0
case $GS in /*) ;; *) GS=$SRC/$GS ;; esac

SITES=$T/fa.yaml
cat > "$SITES" <<'YAML'
sites:
  - name: a
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: dhfa1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
YAML
printf 'program: /bin/true\nranks: 1\n' > "$T/job.yaml"
testbed_up "$SITES" "testbed up fa.yaml" || exit 0
check_match "testbed up printed the derived site file" "$out$err" "site file: +$TB/sites\.yaml"

id=$(next_id)
for cmd in run submit; do
	run_gs "$cmd" "$T/job.yaml" --sites "$SITES" --no-metrics
	check_eq "$cmd of the source file: exit 3" "$rc" 3
	check_eq "$cmd of the source file: the derived file to use" "$err" \
		"gridsubmit: $SITES: host 'dhfa1' does not resolve; its testbed is up: use the derived site file $TB/sites.yaml"
done
check_eq "no id was taken" "$(next_id)" "$id"
check_eq "no job directory was made" "$(ls "$GRIDSUBMIT_HOME/jobs" 2>/dev/null | grep -c '^[0-9]')" 0

run_gs run -q "$T/job.yaml" --sites "$TB/sites.yaml" --no-metrics
check_eq "the derived file runs the job" "$rc" 0

# rank reads the figures only: the source file is fine for it
run_gs rank "$T/job.yaml" --sites "$SITES" --no-metrics
check_eq "rank of the source file: no hint, it ranks" "$rc" 0

run_gs testbed down "$SITES"
check_eq "testbed down" "$rc" 0
run_gs run "$T/job.yaml" --sites "$SITES" --no-metrics
check "with the testbed down, no hint about it" \
	sh -c '! printf "%s\n" "$1" | grep -q "derived site file"' sh "$err"
