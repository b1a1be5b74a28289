#!/bin/sh
# test-loads.sh — the node-loads feed of task migration (submit/jobrun-loads.c; doc/runtime.md,
# "Node loads"): a job with migration load-diff on a site file whose node's monitor is a REAL
# prometheus-node-exporter on 127.0.0.1 (textfile collector: the test sets node_load1) gets
# DIR/loads while it runs, with that node and its load, rewritten live when the load
# changes; its ranks get GRT_LOADS. A job with migration none gets neither. --migration on
# run and submit: the job's policy, in DIR/job.yaml; a bad name is a usage error; its value
# completes to the policies.
. tests/lib.sh

NE=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -z "$NE" ]; then
	skip "loads" "prometheus-node-exporter is not installed (scripts/install-deps)"
	exit 0
fi
if ! command -v jq > /dev/null 2>&1; then
	skip "loads" "jq is not installed (scripts/install-deps)"
	exit 0
fi
SYN="$SRC/$BUILD/examples/synthetic"

NE_PID=""
loads_cleanup() {
	[ -n "$NE_PID" ] && kill "$NE_PID"
	sweep
}
at_exit loads_cleanup

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

mkdir -p "$T/tf"
echo 'node_load1 2.25' > "$T/tf/load.prom"
NE_PORT=$(free_port)
"$NE" --web.listen-address="127.0.0.1:$NE_PORT" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$T/tf" > "$T/ne.log" 2>&1 &
NE_PID=$!
i=0
until curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$NE_PORT/metrics"; do
	i=$((i + 1))
	if [ $i -ge 50 ]; then
		fail "node_exporter starts"
		sed -e 's/^/#   /' "$T/ne.log"
		exit 1
	fi
	sleep 0.1
done

cat > "$T/sites.yaml" <<EOF
sites:
  - name: local
    link: {bandwidth_mbps: 10000, latency_ms: 0.01}
    nodes:
      - {host: localhost, cpu_mhz: 2000, cores: 2, slots: 8, mem_mb: 1024,
         monitor: "http://127.0.0.1:$NE_PORT/metrics"}
EOF
# about 3 s of work for the one worker
syn_job() {
	cat > "$1" <<EOF
name: $2
program: "$SYN"
args: ["--units", "3000", "--mean-us", "1000", "--check"]
ranks: 2
runtime: {migration: $3}
EOF
}
syn_job "$T/diff.yaml" loads-diff load-diff
syn_job "$T/none.yaml" loads-none none

# --- load-diff: DIR/loads while the job runs, live
run_gs submit "$T/diff.yaml" --sites "$T/sites.yaml"
check_eq "submit a load-diff job" "$rc" 0
id=$out
D="$GRIDSUBMIT_HOME/jobs/$id"
check "DIR/loads appears while the job runs, with the node's load" \
	poll 10 grep -qx "localhost 2.25" "$D/loads"
check_eq "DIR/loads: its header" "$(head -n 1 "$D/loads" 2> /dev/null)" "# gridsubmit node loads"
check_eq "DIR/loads: one line per monitored node" "$(grep -vc '^#' "$D/loads" 2> /dev/null)" 1
check_eq "the job is still running meanwhile" "$(jq -r .state "$D/state.json")" running
echo 'node_load1 0.5' > "$T/tf/load.prom"
check "DIR/loads follows the node's load during the run" \
	poll 5 grep -qx "localhost 0.5" "$D/loads"
run_gs wait "$id" --timeout 60
check_eq "the load-diff job ends well (a loop program ignores the policy)" "$rc" 0
check_match "its result is right" "$(cat "$D/stdout")" "result matches"
check_eq "no temporary file is left" "$(find "$D" -maxdepth 1 -name '.loads.*')" ""
last=$(stat -c %Y "$D/loads")
sleep 1.5
check_eq "the feed stops with the job" "$(stat -c %Y "$D/loads")" "$last"

# --- none: no feed at all, over a run longer than its period
id=$(next_id)
run_gs run "$T/none.yaml" --sites "$T/sites.yaml" -q
check_eq "a job with migration none runs" "$rc" 0
check "migration none: no DIR/loads" test ! -e "$GRIDSUBMIT_HOME/jobs/$id/loads"

# --- GRT_LOADS given to the ranks, only with a policy (a program without libgrt's end
# record is a failed job: only what its ranks saw matters here)
cat > "$T/env.sh" <<'EOF'
#!/bin/sh
echo "loads=${GRT_LOADS:-unset} migration=${GRT_MIGRATION:-unset}"
EOF
chmod +x "$T/env.sh"
printf 'name: env\nprogram: "%s"\nranks: 2\n' "$T/env.sh" > "$T/env.yaml"
last=$(next_id)
run_gs run "$T/env.yaml" --sites "$T/sites.yaml" --migration LOAD-ABS -q
check_eq "run --migration: both ranks ran" "$(wc -l < "$GRIDSUBMIT_HOME/jobs/$last/stdout")" 2
check_eq "--migration load-abs: GRT_LOADS and GRT_MIGRATION reach every rank" \
	"$(sort -u "$GRIDSUBMIT_HOME/jobs/$last/stdout")" \
	"loads=$GRIDSUBMIT_HOME/jobs/$last/loads migration=load-abs"
check_match "--migration: kept in DIR/job.yaml" \
	"$(grep -A3 '^runtime:' "$GRIDSUBMIT_HOME/jobs/$last/job.yaml")" "migration: load-abs"
check_match "--migration: named in DIR/job.yaml's comment" \
	"$(cat "$GRIDSUBMIT_HOME/jobs/$last/job.yaml")" "^# command line: --migration load-abs"
id=$(next_id)
run_gs run "$T/env.yaml" --sites "$T/sites.yaml" -q
check_eq "no policy: no GRT_LOADS" "$(sort -u "$GRIDSUBMIT_HOME/jobs/$id/stdout")" \
	"loads=unset migration=unset"
id=$(next_id)
run_gs run "$T/env.yaml" --sites "$T/sites.yaml" --migration none -q
check_eq "--migration none: no GRT_LOADS" "$(sort -u "$GRIDSUBMIT_HOME/jobs/$id/stdout")" \
	"loads=unset migration=none"

# --- bad names: usage errors, no job
n=$(next_id)
run_gs run "$T/env.yaml" --migration load-dif
check_eq "run --migration load-dif: exit 2" "$rc" 2
check_match "run --migration load-dif: did you mean" "$err" \
	"--migration: unknown policy 'load-dif' \(did you mean 'load-diff'\?\)"
run_gs submit "$T/env.yaml" --migration rotate
check_eq "submit --migration rotate: exit 2" "$rc" 2
check_match "submit --migration rotate: for the tests only" "$err" "'rotate' is for the tests only"
run_gs submit "$T/env.yaml" --migration sched2
check_match "submit --migration sched2: the known policies" "$err" "one of: none, load-diff, load-abs"
check_eq "bad names make no job" "$(next_id)" "$n"
# a job file's mistake is an input error, located
printf 'program: "%s"\nruntime: {migration: load-dif, spare: -1}\n' "$T/env.sh" > "$T/bad.yaml"
run_gs run "$T/bad.yaml"
check_eq "a bad runtime.migration: exit 3" "$rc" 3
check_match "a bad runtime.migration: located, did you mean" "$err" \
	"bad.yaml:2:22: unknown migration policy 'load-dif' \(did you mean 'load-diff'\?\)"
check_match "a bad runtime.spare: located too" "$err" \
	"bad.yaml:2:39: 'spare' must be a whole number >= 0, not '-1'"

# --- completion: --migration's value is one of the policies, as bash offers it
BIN=$(cd "$(dirname "$GS")" && pwd)
check_eq "__complete: --migration takes a policy" \
	"$("$GS" __complete options submit | grep '^--migration ')" "--migration migration"
check_eq "__complete migrations: the job file's policies" \
	"$("$GS" __complete migrations | tr '\n' ' ')" "none load-diff load-abs "
if command -v bash > /dev/null 2>&1; then
	got=$(PATH="$BIN:$PATH" bash -c '
		. "$1" || exit 1
		COMP_WORDS=(gridsubmit run --migration load-)
		COMP_CWORD=3
		_gridsubmit
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' sh "$SRC/completion/gridsubmit.bash")
	check_eq "bash: run --migration load-<Tab>" "$got" "load-abs load-diff "
fi
