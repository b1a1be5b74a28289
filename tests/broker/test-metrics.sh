#!/bin/sh
# test-metrics.sh — live metrics through `gridsubmit rank` against a REAL
# prometheus-node-exporter on 127.0.0.1 whose node_load1 the test sets (textfile collector,
# loadavg collector off), an HTTP server answering garbage, a listener that never answers
# and a closed port. Every server is started here and killed on exit (at_exit).
. tests/lib.sh

NE=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -z "$NE" ]; then
	skip "metrics" "prometheus-node-exporter is not installed (scripts/install-deps)"
	exit 0
fi

# every server this test starts; killed by metrics_cleanup (at_exit takes one word)
PIDS=""
metrics_cleanup() {
	for p in $PIDS; do kill "$p"; done
}
at_exit metrics_cleanup

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_http URL: until it answers (5 s at most)
wait_http() {
	i=0
	while [ $i -lt 50 ]; do
		curl -s -o /dev/null --max-time 1 "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

mkdir -p "$T/tf" "$T/www"
echo 'node_load1 3.5' > "$T/tf/load.prom"
NE_PORT=$(free_port)
"$NE" --web.listen-address="127.0.0.1:$NE_PORT" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$T/tf" --collector.cpu \
	> "$T/ne.log" 2>&1 &
PIDS="$PIDS $!"

printf '%s\n' '<html>' 'this is not prometheus' '%%%' > "$T/www/junk.txt"
WWW_PORT=$(free_port)
(cd "$T/www" && exec python3 -m http.server --bind 127.0.0.1 "$WWW_PORT") > "$T/www.log" 2>&1 &
PIDS="$PIDS $!"

# a listening socket that never accepts nor replies
SILENT_PORT=$(free_port)
python3 -c 'import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(64)
time.sleep(120)' "$SILENT_PORT" > /dev/null 2>&1 &
PIDS="$PIDS $!"

DEAD_PORT=$(free_port)	# nobody listens there: connection refused

if ! wait_http "http://127.0.0.1:$NE_PORT/metrics" || ! wait_http "http://127.0.0.1:$WWW_PORT/junk.txt"; then
	fail "servers start"
	sed -e 's/^/#   /' "$T/ne.log" "$T/www.log"
	exit 1
fi

# what the exporter itself says: the distinct CPUs of idle time
curl -s "http://127.0.0.1:$NE_PORT/metrics" > "$T/ne.txt"
CPUS=$(grep '^node_cpu_seconds_total{.*mode="idle"' "$T/ne.txt" |
	sed -e 's/.*cpu="\([^"]*\)".*/\1/' | sort -u | wc -l)
check_match "node_exporter serves the test's load" "$(grep '^node_load1 ' "$T/ne.txt")" '^node_load1 3\.5$'

cat > "$T/sites.yaml" <<EOF
sites:
  - name: A
    link: {bandwidth_mbps: 100, latency_ms: 1}
    nodes:
      - {host: live1, cpu_mhz: 1000, cores: 1, mem_mb: 1024, monitor: "http://127.0.0.1:$NE_PORT/metrics"}
      - {host: junk1, cpu_mhz: 1000, cores: 1, mem_mb: 1024, monitor: "http://127.0.0.1:$WWW_PORT/junk.txt"}
      - {host: silent1, cpu_mhz: 1000, cores: 1, mem_mb: 1024, monitor: "http://127.0.0.1:$SILENT_PORT/metrics"}
      - {host: dead1, cpu_mhz: 1000, cores: 1, mem_mb: 1024, monitor: "http://127.0.0.1:$DEAD_PORT/metrics"}
      - {host: notfound1, cpu_mhz: 1000, cores: 1, mem_mb: 1024, monitor: "http://127.0.0.1:$WWW_PORT/metrics"}
      - {host: plain1, cpu_mhz: 1000, cores: 1, mem_mb: 1024}
EOF
cat > "$T/job.yaml" <<EOF
name: m
program: /bin/true
ranks: 2
EOF

start=$(date +%s.%N)
run_gs rank "$T/job.yaml" --sites "$T/sites.yaml" --json --timeout 2
end=$(date +%s.%N)
check_eq "rank with metrics exits 0" "$rc" 0
[ "$rc" -eq 0 ] || printf '#   %s\n' "$err"
elapsed=$(python3 -c "print(round($end - $start, 2))")
check "all fetched within 1.5x the 2 s timeout ($elapsed s)" \
	python3 -c "import sys; sys.exit(0 if $elapsed < 3.0 else 1)"
check "the silent endpoint was waited for ($elapsed s)" \
	python3 -c "import sys; sys.exit(0 if $elapsed >= 1.9 else 1)"

node() { printf '%s' "$out" | jq -r --arg h "$1" ".nodes[] | select(.host == \$h) | $2"; }

check_eq "live node: not stale" "$(node live1 .stale)" null
check "live node: CL = 1 + 3.5 / $CPUS cpus" \
	python3 -c "import sys; sys.exit(0 if abs($(node live1 .cl) - (1 + 3.5 / $CPUS)) < 1e-9 else 1)"
check_eq "live node: CS from the site clock x min(cores, cpus)" "$(node live1 .cs)" 1000
check_eq "garbage: stale with the reason" "$(node junk1 .stale)" \
	"http://127.0.0.1:$WWW_PORT/junk.txt: not Prometheus text format (line 1)"
check_eq "garbage: CL 1 (site-file values)" "$(node junk1 .cl)" 1
check_eq "never answers: timed out" "$(node silent1 .stale)" \
	"http://127.0.0.1:$SILENT_PORT/metrics: timed out after 2.0 s"
check_eq "closed port: connection refused" "$(node dead1 .stale)" \
	"http://127.0.0.1:$DEAD_PORT/metrics: connection refused"
check_eq "404: stale" "$(node notfound1 .stale)" \
	"http://127.0.0.1:$WWW_PORT/metrics: HTTP status 404"
check_eq "no monitor: not stale" "$(node plain1 .stale)" null
# the loaded node ranks below the idle ones: its CS/CL is smaller
check_eq "loaded node ranked last" "$(printf '%s' "$out" | jq -r '.nodes[5].host')" live1

# the load is read live: change it and rank again
echo 'node_load1 0' > "$T/tf/load.prom"
run_gs rank "$T/job.yaml" --sites "$T/sites.yaml" --json --timeout 1
check_eq "new load read: CL 1" "$(node live1 .cl)" 1

# --explain names the stale nodes and the reasons
run_gs rank "$T/job.yaml" --sites "$T/sites.yaml" --explain --timeout 1
check_match "explain: stale section" "$out" "stale metrics"
check_match "explain: refused reason" "$out" "dead1 \(A\): http://127\.0\.0\.1:$DEAD_PORT/metrics: connection refused"

# --no-metrics: nothing fetched, nothing stale, instantly
start=$(date +%s.%N)
run_gs rank "$T/job.yaml" --sites "$T/sites.yaml" --json --no-metrics
end=$(date +%s.%N)
check_eq "no-metrics: nothing stale" "$(printf '%s' "$out" | jq '[.nodes[] | select(.stale != null)] | length')" 0
check "no-metrics: no waiting" python3 -c "import sys; sys.exit(0 if $end - $start < 1.0 else 1)"
