#!/bin/sh
# test-hosts.sh — hosts described by what they are (issue 31): the embedded localhost site's
# cores, memory and clock read from this host and compared with /proc and sysfs; a job that
# asks for memory this host has, placed here; more ranks than cores refused (the exact text,
# exit 4, no job id), then run with --oversubscribe and with oversubscribe: true; a remote
# node's values left to its monitor, read from a REAL prometheus-node-exporter and shown by
# rank --explain and --json with their sources; a monitor that lies beyond what a node can
# be, one that does not answer, and metrics turned off, each named; a value left out with
# no monitor, located at file:line:col.
. tests/lib.sh

J=$GRIDSUBMIT_HOME/jobs
njobs() { ls "$J" 2>/dev/null | grep -c '^[0-9]'; }

# --- this host, as /proc and sysfs say (the cgroup v2 limits of this process, when lower)
want_cores=$(nproc)
cg=$(sed -n 's/^0:://p' /proc/self/cgroup)
[ "$cg" = / ] && cg=
if [ -r "/sys/fs/cgroup$cg/cpu.max" ]; then
	q=$(awk '$1 != "max" { printf "%d", ($1 + $2 - 1) / $2 }' "/sys/fs/cgroup$cg/cpu.max")
	[ -n "$q" ] && [ "$q" -ge 1 ] && [ "$q" -lt "$want_cores" ] && want_cores=$q
fi
want_mem=$(awk '/^MemTotal:/ { printf "%.0f", $2 / 1024 }' /proc/meminfo)
if [ -r "/sys/fs/cgroup$cg/memory.max" ] && [ "$(cat "/sys/fs/cgroup$cg/memory.max")" != max ]; then
	m=$(awk '{ printf "%.0f", $1 / 1048576 }' "/sys/fs/cgroup$cg/memory.max")
	[ "$m" -lt "$want_mem" ] && want_mem=$m
fi
MAXF=/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq
if [ -r "$MAXF" ]; then
	want_mhz=$(awk '{ printf "%.0f", $1 / 1000 }' "$MAXF")
	want_how="this host: cpufreq"
else
	want_mhz=$(awk -F: '/^cpu MHz/ { if ($2 + 0 > m) m = $2 + 0 } END { printf "%.0f", m }' \
		/proc/cpuinfo)
	want_how="this host: /proc/cpuinfo"
fi

run_gs sites show --json
check_eq "sites show --json: exit 0" "$rc" 0
node=$(printf '%s\n' "$out" | jq -c '.nodes[0]')
check_eq "localhost: the cores this process may use (nproc)" \
	"$(printf '%s' "$node" | jq .cores)" "$want_cores"
check_eq "localhost: slots are the cores" "$(printf '%s' "$node" | jq .slots)" "$want_cores"
check_eq "localhost: mem_mb is MemTotal in MiB" \
	"$(printf '%s' "$node" | jq '.mem_mb | round')" "$want_mem"
check_eq "localhost: cpu_mhz is the CPU's clock" \
	"$(printf '%s' "$node" | jq '.cpu_mhz | round')" "$want_mhz"
check_match "localhost: each value says where it was read" \
	"$(printf '%s' "$node" | jq -r '.sources | [.cores, .cpu_mhz, .mem_mb] | join("|")')" \
	"^this host: (affinity|cgroup cpu\.max)\|$want_how\|this host: (MemTotal|cgroup memory\.max)$"
run_gs sites show
check_match "sites show: the sources under the node" "$out" \
	"cores from this host: (affinity|cgroup cpu\.max); cpu_mhz from $want_how; mem_mb from this host: "

# --- a requirement on memory that this host meets: placed here, and run
if [ "$want_mem" -ge 2048 ]; then
	printf 'program: /bin/true\nranks: 2\nrequirements: mem_mb >= 2048\n' > "$T/mem.yaml"
	run_gs run "$T/mem.yaml" --no-metrics
	check_eq "requirements: mem_mb >= 2048 on a host of $want_mem MiB: run exits 0" "$rc" 0
	check_eq "and ran here" "$(cat "$J/1/hostfile" 2>&1)" "localhost:2"
else
	skip "mem_mb >= 2048" "this host has $want_mem MiB"
	printf 'program: /bin/true\nranks: 2\n' > "$T/mem.yaml"
	run_gs run "$T/mem.yaml" --no-metrics
fi
printf 'program: /bin/true\nranks: 2\nrequirements: mem_mb >= %s\n' "$((want_mem + 1))" \
	> "$T/toomuch.yaml"
run_gs rank "$T/toomuch.yaml" --no-metrics --explain
check_eq "one MiB more than this host has: filtered out (exit 4)" "$rc" 4
check_match "naming the clause" "$out" "localhost \(local\): mem_mb >= $((want_mem + 1))"

# --- more ranks than cores: refused before an id is taken, then run when the job allows it
over=$((want_cores + 1))
printf 'program: /bin/true\nranks: %s\n' "$over" > "$T/over.yaml"
why="gridsubmit: no placement: the job asks for $over ranks (the master included) but 1 of 1 nodes pass the requirements, with $want_cores slots (localhost $want_cores); add --oversubscribe or oversubscribe: true to run more ranks than cores"
before=$(njobs)
run_gs run "$T/over.yaml" --no-metrics
check_eq "run: $over ranks on $want_cores cores is refused: exit 4, the reason" "$rc:$err" "4:$why"
run_gs submit "$T/over.yaml" --no-metrics
check_eq "submit: the same, and no id printed" "$rc:$out:$err" "4::$why"
run_gs rank "$T/over.yaml" --no-metrics
check_eq "rank: exit 4" "$rc" 4
check_eq "refused: no job taken" "$(njobs)" "$before"

run_gs run "$T/over.yaml" --no-metrics --oversubscribe
check_eq "run --oversubscribe: exit 0" "$rc" 0
D="$J/$((before + 1))"
check_eq "run --oversubscribe: every rank here" "$(cat "$D/hostfile" 2>&1)" "localhost:$over"
check "the job directory's job.yaml records it" grep -qx "oversubscribe: true" "$D/job.yaml"
run_gs run "$D/job.yaml" --sites "$D/sites.yaml" --no-metrics
check_eq "and runs as it is" "$rc" 0
run_gs rank "$T/over.yaml" --no-metrics --oversubscribe --json
check_eq "rank --oversubscribe places them" "$rc:$(printf '%s' "$out" | jq -c .placement.hosts)" \
	"0:[{\"host\":\"localhost\",\"first_rank\":0,\"ranks\":$over}]"
printf 'program: /bin/true\nranks: {min: 2, max: %s}\noversubscribe: true\n' \
	"$((over + 1))" > "$T/over-yaml.yaml"
run_gs run "$T/over-yaml.yaml" --no-metrics
check_eq "oversubscribe: true: exit 0" "$rc" 0
# once in CI it exited 1: what it said, and the job's own stderr, to see why
[ "$rc" -eq 0 ] || { printf '%s\n' "$err"; cat "$J/$((before + 3))/stderr"; } 2>&1 | sed -e 's/^/#   /'
check_eq "oversubscribe: true: a range takes its max" \
	"$(cat "$J/$((before + 3))/hostfile" 2>&1)" "localhost:$((over + 1))"

# --- a value left out without a monitor, on a node that is not this host: located
cat > "$T/nomon.yaml" <<'EOF'
sites:
  - name: far
    link: {bandwidth_mbps: 100}
    nodes:
      - {host: far1.example.org, cpu_mhz: 2000}
EOF
run_gs rank "$T/over.yaml" --sites "$T/nomon.yaml" --no-metrics
check_eq "cores left out, no monitor: exit 3 at file:line:col" "$rc:$err" \
	"3:$T/nomon.yaml:5:9: node 'far1.example.org' has no 'cores': set it on the node or in defaults, or give the node a monitor that serves it"

# --- a remote node's values from its monitor: a real node_exporter
NE=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -z "$NE" ]; then
	skip "monitor values" "prometheus-node-exporter is not installed (scripts/install-deps)"
	exit 0
fi
PIDS=""
hosts_cleanup() {
	for p in $PIDS; do kill "$p"; done
}
at_exit hosts_cleanup
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_http() {
	i=0
	while [ $i -lt 50 ]; do
		curl -s -o /dev/null --max-time 1 "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# the honest one: its cpu, meminfo and loadavg collectors, and a CPU's maximum clock in the
# textfile (this host may have no cpufreq to serve); the liar claims a 50 GHz CPU
mkdir -p "$T/tf" "$T/tf-liar"
printf 'node_cpu_frequency_max_hertz{cpu="0"} 3.1e+09\n' > "$T/tf/freq.prom"
printf 'node_load1 0.5\nnode_cpu_frequency_max_hertz{cpu="0"} 5e+10\n' > "$T/tf-liar/liar.prom"
NE_PORT=$(free_port)
"$NE" --web.listen-address="127.0.0.1:$NE_PORT" --collector.disable-defaults \
	--collector.cpu --collector.meminfo --collector.loadavg \
	--collector.textfile --collector.textfile.directory="$T/tf" > "$T/ne.log" 2>&1 &
PIDS="$PIDS $!"
LIAR_PORT=$(free_port)
"$NE" --web.listen-address="127.0.0.1:$LIAR_PORT" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$T/tf-liar" > "$T/liar.log" 2>&1 &
PIDS="$PIDS $!"
DEAD_PORT=$(free_port)
if ! wait_http "http://127.0.0.1:$NE_PORT/metrics" || ! wait_http "http://127.0.0.1:$LIAR_PORT/metrics"; then
	fail "node_exporters start"
	sed -e 's/^/#   /' "$T/ne.log" "$T/liar.log"
	exit 1
fi
curl -s "http://127.0.0.1:$NE_PORT/metrics" > "$T/ne.txt"
ne_cpus=$(grep '^node_cpu_seconds_total{.*mode="idle"' "$T/ne.txt" |
	sed -e 's/.*cpu="\([^"]*\)".*/\1/' | sort -u | wc -l)
ne_mem=$(awk '/^node_memory_MemTotal_bytes / { printf "%.0f", $2 / 1048576 }' "$T/ne.txt")
check "the exporter serves CPUs and memory" test "$ne_cpus" -ge 1 -a -n "$ne_mem"

NE_URL="http://127.0.0.1:$NE_PORT/metrics"
cat > "$T/mon.yaml" <<EOF
sites:
  - name: far
    link: {bandwidth_mbps: 100, latency_ms: 1}
    nodes:
      - {host: far1.example.org, monitor: "$NE_URL"}
      - {host: far2.example.org, cpu_mhz: 1800, monitor: "$NE_URL"}
      - {host: liar.example.org, monitor: "http://127.0.0.1:$LIAR_PORT/metrics"}
      - {host: dead.example.org, cpu_mhz: 1800, monitor: "http://127.0.0.1:$DEAD_PORT/metrics"}
EOF
printf 'program: /bin/true\nranks: 2\n' > "$T/two.yaml"
run_gs sites check "$T/mon.yaml"
check_eq "values left to a monitor: the site file is valid" "$rc" 0
run_gs rank "$T/two.yaml" --sites "$T/mon.yaml" --explain
check_eq "rank --explain: exit 0" "$rc" 0
check_match "far1: every value from the monitor" "$out" \
	"far1\.example\.org \(far\): cores $ne_cpus \(monitor $NE_URL\), cpu_mhz 3100 \(monitor $NE_URL\), mem_mb $ne_mem \(monitor $NE_URL\), slots $ne_cpus"
check_match "far2: cores and memory from the monitor, the clock from the site file" "$out" \
	"far2\.example\.org \(far\): cores $ne_cpus \(monitor $NE_URL\), cpu_mhz 1800 \(site file\), mem_mb $ne_mem \(monitor $NE_URL\)"
check_match "a monitor that claims a 50 GHz CPU is not believed: filtered out, why" "$out" \
	"liar\.example\.org \(far\): cores, cpu_mhz, mem_mb left to its monitor, which cannot be read: http://127\.0\.0\.1:$LIAR_PORT/metrics: it claims a CPU of 50000 MHz \(at most 10000\)"
check_match "a monitor that does not answer: filtered out, why" "$out" \
	"dead\.example\.org \(far\): cores, mem_mb left to its monitor, which cannot be read: http://127\.0\.0\.1:$DEAD_PORT/metrics: connection refused"
run_gs rank "$T/two.yaml" --sites "$T/mon.yaml" --json
check_eq "rank --json: far1's values and their sources" \
	"$(printf '%s' "$out" | jq -c '.nodes[] | select(.host == "far1.example.org") |
	    [.cores, (.mem_mb | round), .cpu_mhz, .sources.cores, .sources.cpu_mhz]')" \
	"[$ne_cpus,$ne_mem,3100,\"monitor $NE_URL\",\"monitor $NE_URL\"]"
check_eq "rank --json: a value the site file gives says so" \
	"$(printf '%s' "$out" | jq -r '.nodes[] | select(.host == "far2.example.org") | .sources.cpu_mhz')" \
	"site file"
run_gs rank "$T/two.yaml" --sites "$T/mon.yaml" --explain --no-metrics
check_eq "--no-metrics: no node can be ranked (exit 4)" "$rc" 4
check_match "and each says why" "$out" \
	"far1\.example\.org \(far\): cores, cpu_mhz, mem_mb left to its monitor $NE_URL, which was not read \(metrics are off\)"
