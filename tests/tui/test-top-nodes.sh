#!/bin/sh
# test-top-nodes.sh — each placed node's load and CPU from its monitor while a job runs
# (DIR/nodes, submit/jobrun-loads.c): a plain program on a localhost node whose monitor is a
# REAL prometheus-node-exporter on 127.0.0.1 (node_load1 set by the test through the
# textfile collector, CPU counters real) shows the node's load and CPU busy share with their
# age in status, status --json, top live under tmux, top --once and top --json; once the job
# is over, and for a node without a monitor, nothing is shown nor invented; run's progress
# line on a terminal shows them too (issue 31).
. tests/lib.sh

NE=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -z "$NE" ]; then
	skip "node values" "prometheus-node-exporter is not installed (scripts/install-deps)"
	exit 0
fi
command -v jq >/dev/null 2>&1 || { skip "node values" "jq is not installed"; exit 0; }
command -v tmux >/dev/null 2>&1 || { skip "node values" "tmux is not installed"; exit 0; }

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$T/tf"
echo 'node_load1 3.5' > "$T/tf/load.prom"
"$NE" --web.listen-address="127.0.0.1:$PORT" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$T/tf" --collector.cpu \
	> "$T/ne.log" 2>&1 &
at_exit "kill $!"
if ! poll 5 curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/metrics"; then
	fail "node_exporter starts"
	sed -e 's/^/#   /' "$T/ne.log"
	exit 1
fi
cat > "$T/mon.yaml" <<EOF2
sites:
  - name: local
    link: {bandwidth_mbps: 10000, latency_ms: 0.01}
    nodes:
      - {host: localhost, cpu_mhz: 2000, cores: 2, slots: 4, mem_mb: 1024, monitor: "http://127.0.0.1:$PORT/metrics"}
EOF2
sed -e 's/, monitor: .*}/}/' "$T/mon.yaml" > "$T/bare.yaml"

SOCK=gs-test-$$
tm() { tmux -L "$SOCK" "$@"; }
at_exit "tmux -L $SOCK kill-server"

J="$GRIDSUBMIT_HOME/jobs/1"
"$GS" run -n 2 --sites "$T/mon.yaml" -- /bin/sleep 8 > "$T/run.out" 2>&1 &
pid=$!
at_exit "kill -9 $pid"
# the node's CPU needs two answers of its monitor: about 1 s apart
if ! poll 15 grep -Eq '^localhost 3\.5 0\.[0-9]+|^localhost 3\.5 1\.0+ ' "$J/nodes"; then
	fail "the feed writes the node's load and CPU"
	cat "$J/nodes" "$T/run.out" 2>&1 | sed -e 's/^/#   /'
fi
run_gs status 1
check_match "status: the node's load and CPU from its monitor, with their age" "$out" \
	"^    localhost +load 3\.50, CPU [0-9]+% busy \(from its monitor, [0-9]+ s ago\)$"
run_gs status 1 --json
check_eq "status --json: the node's load1" \
	"$(printf '%s\n' "$out" | jq -c '[.node_values[] | .node, .load1]')" '["localhost",3.5]'
check_eq "status --json: its CPU busy share, a percentage, and its age" \
	"$(printf '%s\n' "$out" | jq '.node_values[0] | .cpu_busy_pct >= 0 and .cpu_busy_pct <= 100 and .age >= 0')" true
check "a job without migration gets no DIR/loads (the runtime's feed only)" test ! -e "$J/loads"

tm new-session -d -s top -x 120 -y 30 "'$SRC/$GS' top 1 --interval 0.2; sleep 60"
if poll 10 sh -c 'tmux -L "$1" capture-pane -p -t top | grep -Eq "localhost load 3\.50 cpu [0-9]+% [0-9]+s ago"' sh "$SOCK"; then
	pass "top live: the node's load and CPU in the header"
else
	fail "top live: the node's load and CPU in the header"
	tm capture-pane -p -t top | sed -e 's/^/#   | /'
fi
run_gs top 1 --once
check_match "top --once: the node's load and CPU" "$out" \
	"^Node localhost: load 3\.50, CPU [0-9]+% busy \(from its monitor, [0-9]+ s ago\)$"
run_gs top 1 --json
check_eq "top --json: the node's load1" "$(printf '%s\n' "$out" | jq -c '[.node_values[] | .load1]')" '[3.5]'
wait $pid
run_gs status 1
check_eq "the job is done" "$(jq -r .state "$J/state.json")" done
check_eq "status of a job that is over: no node values" "$(printf '%s\n' "$out" | grep -c 'from its monitor')" 0

# the same job on a node without a monitor: no values, none invented
"$GS" run -n 2 --sites "$T/bare.yaml" -- /bin/sleep 4 > "$T/run2.out" 2>&1 &
pid=$!
at_exit "kill -9 $pid"
poll 15 test -s "$GRIDSUBMIT_HOME/jobs/2/rankmap"
sleep 1.5
run_gs status 2
check_match "without a monitor: the job runs" "$out" "supervisor: pid [0-9]+ \(running\)"
check_eq "without a monitor: no node values in status" "$(printf '%s\n' "$out" | grep -c 'from its monitor')" 0
run_gs top 2 --json
check_eq "without a monitor: none in top --json" "$(printf '%s\n' "$out" | jq -c .node_values)" '[]'
check "without a monitor: no DIR/nodes" test ! -e "$GRIDSUBMIT_HOME/jobs/2/nodes"
wait $pid

# run's progress line on a terminal (120 columns: the line is cut to the width): the node's
# load and CPU beside the ranks
if command -v script > /dev/null 2>&1; then
	TERM=xterm script -qefc "stty cols 120; '$GS' run -n 2 --sites '$T/mon.yaml' -- /bin/sleep 4" \
		/dev/null > "$T/tty" 2>&1
	check_match "the progress line: the node's load and CPU from its monitor" \
		"$(tr '\r' '\n' < "$T/tty")" \
		"^job 3: running, no libgrt events, 0 of 2 ranks ended, [0-9.]+ s elapsed, load 3\\.50, CPU [0-9]+%"
else
	skip "the progress line's node values" "script (util-linux) is not installed"
fi
