#!/bin/sh
# test-simulate.sh — gridsubmit simulate (submit/cmd-simulate.c, doc/simulate.md): a job
# run by SimGrid's smpirun on a platform made of its placement, as a user relies on it:
# - examples/synthetic/job.yaml on the embedded localhost site: exit 0, stdout only the
#   program's, the simulated makespan on stderr and in the end event, a job directory that
#   list, status, top --replay read; --json: one document with the result;
# - the makespan follows the host's calibration: --host-mhz twice the top cpu_mhz about
#   doubles a compute-bound run's; --first-contact-ms 500 adds about a second;
# - two sites: every placed host with its speed and its site's link, --links site one
#   uplink per site, and a data-heavy job slower behind a 1 Mbit/s, 50 ms link;
# - background load (emulate.load): a speed trace per loaded host, and a longer makespan;
# - bad input creates no job: load_interval too short (3), bad options (2), a program with
#   no SMPI build or a native one there (3), too few memory maps for the ranks (5);
# - Ctrl-C: exit 130, no smpirun or smpimain left, the job cancelled;
# - scale: 1,000 nodes over 10 sites, 1001 ranks (its wall time is in the test's name);
# - the runtime's ranks block: free probes end, dear ones do not lengthen the makespan.
# Skipped when the SMPI builds are missing (SimGrid not installed).
. tests/lib.sh

need_smpi "simulate" synthetic || exit 0
command -v jq >/dev/null 2>&1 || { skip "simulate" "jq is not installed"; exit 0; }
SYN="$SRC/$BUILD/examples/synthetic"
MM="$SRC/$BUILD/examples/matmul"
[ -x "$MM" ] || { fail "simulate: $MM is not built"; exit 1; }
J="$GRIDSUBMIT_HOME/jobs"

at_exit sweep

# njobs: how many jobs the store lists
njobs() {
	"$GS" list --format id | grep -c '^[0-9]'
}

# gt A B: A > B (numbers)
gt() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'
}

# job_id: the id of the job run_gs just ran, from its first line on stderr
job_id() {
	printf '%s\n' "$err" | sed -n 's/^gridsubmit: job \([0-9]*\) .*/\1/p' | head -n 1
}

# jmakespan: the makespan of the --json document run_gs just printed
jmakespan() {
	printf '%s\n' "$out" | jq -r .makespan
}

# now: seconds since the epoch, with nanoseconds
now() {
	date +%s.%N
}

# bad NAME CODE REGEX ARGS...: simulate ARGS exits CODE, says REGEX on stderr, and adds no
# job to the store
bad() {
	bad_name=$1 bad_code=$2 bad_re=$3
	shift 3
	bad_n=$(njobs)
	run_gs simulate "$@"
	check_eq "$bad_name: exit $bad_code" "$rc" "$bad_code"
	check_match "$bad_name: the message" "$err" "$bad_re"
	check_eq "$bad_name: no job created" "$(njobs)" "$bad_n"
}

# --- 1. the example job on the embedded localhost site file: the shipped file as it is but
# for its program, which it names in build/, and this build may be elsewhere ($BUILD), and
# for its 4 ranks taken whatever this host's cores (the simulated host is not bound by them)
sed "s|^program: .*|program: \"$SYN\"|" examples/synthetic/job.yaml > "$T/synthetic.yaml"
echo "oversubscribe: true" >> "$T/synthetic.yaml"
run_gs simulate "$T/synthetic.yaml"
check_eq "synthetic: exit 0" "$rc" 0
check_match "synthetic: stdout is the program's line, and only it" "$out" \
	'^synthetic: 100000 units .*, 4 ranks, makespan .*result matches the sequential computation$'
check_eq "synthetic: stdout is one line" "$(printf '%s\n' "$out" | wc -l)" 1
check_match "synthetic: the simulated makespan on stderr" "$err" \
	'^gridsubmit: simulated makespan [0-9.e+-]+ s on 4 ranks, efficiency [0-9.]+ '
id=$(job_id)
D="$J/$id"
printed=$(printf '%s\n' "$err" | sed -n 's/^gridsubmit: simulated makespan \([^ ]*\) s .*/\1/p')
check_eq "synthetic: state.json says done" "$(jq -r .state "$D/state.json" 2>&1)" "done"
end_ms=$(jq -r 'select(.ev == "end") | .makespan' "$D/events.jsonl" 2>&1)
check_match "synthetic: events.jsonl has an end with a makespan" "$end_ms" '^[0-9.e+-]+$'
check_eq "synthetic: the end's makespan is the printed one" \
	"$(printf '%.6g' "$end_ms" 2>&1)" "$printed"
for f in platform.xml hostfile rankmap; do
	check "synthetic: $f in the job directory" test -s "$D/$f"
done
check_match "synthetic: listed, done" "$("$GS" list --format id,name,state)" \
	"^$id +synthetic +done"
run_gs status "$id"
check_eq "synthetic: status exits 0" "$rc" 0
check_match "synthetic: status says done" "$out" 'state: +done'
run_gs top --replay "$D/events.jsonl" --once
check_eq "synthetic: top --replay --once exits 0" "$rc" 0
check_match "synthetic: top --replay renders the ended job" "$out" \
	"^Job $id .*ended: ok"
check_match "synthetic: top --replay shows every unit done" "$out" '100k/100k 100\.0%'

run_gs simulate "$T/synthetic.yaml" --json
check_eq "synthetic --json: exit 0" "$rc" 0
check_eq "synthetic --json: stdout is one JSON document" \
	"$(printf '%s\n' "$out" | jq -s length 2>&1)" 1
# shellcheck disable=SC2016 # jq's program
check "synthetic --json: id (the next job's), state, makespan, efficiency, ranks, wall_seconds" \
	jq -e --argjson id "$((id + 1))" \
	'.id == $id and .state == "done" and .makespan > 0 and .efficiency > 0 and
	 .efficiency <= 1.05 and .ranks == 4 and .wall_seconds > 0 and .exit_code == 0' \
	"$T/.out"
check_eq "synthetic --json: the job is done in the store" \
	"$(jq -r .state "$J/$((id + 1))/state.json" 2>&1)" "done"

# --- 2. the calibration: --host-mhz M counts this host as M MHz, so the localhost node
# (this host's clock as read, the top) runs at MHZ/M of this host's speed. A regular loop with
# a fixed iteration rate (--uniform, --iters-per-us: the same work every run), compute-bound.
cat > "$T/cpu.yaml" <<YAML
name: cpu
program: "$SYN"
args: ["--units", "3000", "--mean-us", "200", "--uniform", "--iters-per-us", "500", "--check"]
ranks: 4
oversubscribe: true
runtime: {scheme: gss}
YAML
run_gs simulate "$T/cpu.yaml" --json
check_eq "host-mhz: default run exits 0" "$rc" 0
here_mhz=$("$GS" sites show --json | jq '.nodes[0].cpu_mhz')
check_eq "host-mhz: the default is the site file's top cpu_mhz (this host's, as read)" \
	"$(printf '%s\n' "$out" | jq --argjson m "$here_mhz" '.host_mhz == $m')" true
m1=$(jmakespan)
twice=$(awk -v m="$here_mhz" 'BEGIN { printf "%.0f", 2 * m }')
run_gs simulate "$T/cpu.yaml" --json --host-mhz "$twice"
check_eq "host-mhz: --host-mhz $twice (twice the default) exits 0" "$rc" 0
m2=$(jmakespan)
ratio=$(awk -v a="$m1" -v b="$m2" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print 0 }')
if gt "$ratio" 1.7 && ! gt "$ratio" 2.3; then
	pass "host-mhz: twice the MHz, $ratio times the makespan ($m1 s, $m2 s)"
else
	fail "host-mhz: twice the MHz, $ratio times the makespan ($m1 s, $m2 s), not in [1.7, 2.3]"
fi

# The first contact (doc/simulate.md): --first-contact-ms 500 makes the master wait half a
# second before its first send, and each worker as long after its first chunk arrives
run_gs simulate "$T/cpu.yaml" --json --first-contact-ms 0
check_eq "first contact: --first-contact-ms 0 exits 0" "$rc" 0
m0=$(jmakespan)
run_gs simulate "$T/cpu.yaml" --json --first-contact-ms 500
check_eq "first contact: --first-contact-ms 500 exits 0" "$rc" 0
m5=$(jmakespan)
check "first contact: 500 ms of it at master and worker add a second or near ($m0 s, $m5 s)" \
	awk -v a="$m0" -v b="$m5" 'BEGIN { exit !(a > 0 && b - a >= 0.9 && b - a <= 1.5) }'

# --- 3. two sites: one on a 1000 Mbit/s link, one on 1 Mbit/s with 50 ms of latency (the
# nodes are never contacted); matmul sends rows of A with every chunk and B every round
cat > "$T/simulate-two.yaml" <<'YAML'
sites:
  - name: fast
    link: {bandwidth_mbps: 1000, latency_ms: 0.1}
    nodes:
      - {host: "n[1-2]", cpu_mhz: 2000, cores: 1}
  - name: slow
    link: {bandwidth_mbps: 1, latency_ms: 50}
    nodes:
      - {host: "n[3-4]", cpu_mhz: 1000, cores: 1}
YAML
sed -e 's/bandwidth_mbps: 1, latency_ms: 50/bandwidth_mbps: 1000, latency_ms: 0.1/' \
	"$T/simulate-two.yaml" > "$T/simulate-twofast.yaml"
cat > "$T/mm.yaml" <<YAML
name: mm
program: "$MM"
args: ["--form", "a", "--n", "256", "--bcols", "64"]
ranks: 5
runtime: {scheme: gss}
YAML
run_gs simulate "$T/mm.yaml" --sites "$T/simulate-two.yaml" --json
check_eq "two sites: exit 0" "$rc" 0
slow=$(jmakespan)
P="$J/$(printf '%s\n' "$out" | jq .id)/platform.xml"
check_match "two sites: matmul's product checked" "$(cat "$J/$(printf '%s\n' "$out" | jq .id)/stdout")" \
	'5 ranks, .* C matches the sequential product'
for h in n1 n2 n3 n4; do
	case $h in
	n1|n2) speed=1000000000 mbps=1000 ;;
	*) speed=500000000 mbps=1 ;;
	esac
	check "two sites: $h placed, at ${speed} flop/s (cpu_mhz / top)" \
		grep -q "<host id=\"$h\" speed=\"${speed}f\"" "$P"
	check "two sites: $h's link at its site's ${mbps} Mbit/s" \
		grep -q "<link id=\"$h:link\" bandwidth=\"${mbps}Mbps\"" "$P"
done
check "two sites: the slow site's link has its 50 ms" \
	grep -q '<link id="n3:link" bandwidth="1Mbps" latency="50ms"' "$P"
run_gs simulate "$T/mm.yaml" --sites "$T/simulate-twofast.yaml" --json
check_eq "both sites at 1000 Mbit/s: exit 0" "$rc" 0
fast=$(jmakespan)
if gt "$slow" "$(awk -v f="$fast" 'BEGIN { print 2 * f }')"; then
	pass "two sites: the 1 Mbit/s site makes the job slower ($slow s against $fast s)"
else
	fail "two sites: the 1 Mbit/s site makes the job slower ($slow s against $fast s)"
fi
run_gs simulate "$T/mm.yaml" --sites "$T/simulate-two.yaml" --links site --json
check_eq "--links site: exit 0" "$rc" 0
P="$J/$(printf '%s\n' "$out" | jq .id)/platform.xml"
check_eq "--links site: one uplink per site" "$(grep -c ':uplink" bandwidth=' "$P")" 2
check "--links site: the slow site's uplink" \
	grep -q ':uplink" bandwidth="1Mbps" latency="50ms"' "$P"
check "--links site: the fast site's uplink" \
	grep -q ':uplink" bandwidth="1000Mbps" latency="0.1' "$P"
for h in n1 n2 n3 n4; do
	check "--links site: $h placed" grep -q "<host id=\"$h\" speed=" "$P"
done

# --- 4. background load: two emulated jobs on average on the node, arriving every 0.05 s
# so that the load builds within the run from an empty node, as on the testbed
cat > "$T/simulate-load.yaml" <<'YAML'
sites:
  - name: local
    link: {bandwidth_mbps: 10000, latency_ms: 0.01}
    nodes:
      - {host: localhost, cpu_mhz: 2000, cores: 2, slots: 64,
         emulate: {load: 2, load_interval: 0.05}}
YAML
sed -e '/emulate:/d' -e 's/slots: 64,/slots: 64}/' "$T/simulate-load.yaml" > "$T/simulate-idle.yaml"
run_gs simulate "$T/cpu.yaml" --sites "$T/simulate-idle.yaml" --json
check_eq "load: the idle node's run exits 0" "$rc" 0
idle=$(jmakespan)
run_gs simulate "$T/cpu.yaml" --sites "$T/simulate-load.yaml" --json
check_eq "load: the loaded node's run exits 0" "$rc" 0
if [ "$rc" -ne 0 ]; then
	printf '%s\n' "$err" | head -n 5 | sed -e 's/^/#   /'
	sed -e 's/^/#   /' "$(printf '%s\n' "$out" | jq -r .dir)/stderr" | head -n 5
fi
loaded=$(jmakespan)
LD=$(printf '%s\n' "$out" | jq -r .dir)
check "load: load/localhost.trace written" test -s "$LD/load/localhost.trace"
check "load: platform.xml reads it as the host's speed_file" \
	grep -Eq '<host id="localhost" [^>]*speed_file="[^"]*load/localhost\.trace"' \
	"$LD/platform.xml"
if gt "$loaded" "$(awk -v i="$idle" 'BEGIN { print 1.2 * i }')"; then
	pass "load: the loaded node is slower ($loaded s against $idle s)"
else
	fail "load: the loaded node is slower ($loaded s against $idle s)"
fi

# --- 5. bad input: the exit code, the file or field named, no job created
sed -e 's/load_interval: 0.05/load_interval: 0.0001/' "$T/simulate-load.yaml" > "$T/badload.yaml"
bad "load_interval 0.0001" 3 "^$T/badload.yaml:[0-9]+:[0-9]+: emulate\\.load_interval: " \
	"$T/cpu.yaml" --sites "$T/badload.yaml"
bad "--links foo" 2 "--links: 'foo'" "$T/cpu.yaml" --links foo
bad "--cfg nocolon" 2 "--cfg: 'nocolon' is not NAME:VALUE" "$T/cpu.yaml" --cfg nocolon
bad "--cfg send-is-detached-thresh:0" 2 \
	"needs messages of 8 bytes sent without waiting for the receiver" \
	"$T/cpu.yaml" --cfg smpi/send-is-detached-thresh:0
bad "--first-contact-ms -1" 2 "--first-contact-ms: '-1'" "$T/cpu.yaml" --first-contact-ms -1
bad "--host-mhz 0" 2 "--host-mhz: '0'" "$T/cpu.yaml" --host-mhz 0
bad "--scheme gs" 2 "did you mean 'gss'" "$T/cpu.yaml" --scheme gs
mkdir -p "$T/native"
cp "$SYN" "$T/native/synthetic"
sed -e "s|^program: .*|program: \"$T/native/synthetic\"|" "$T/cpu.yaml" > "$T/native.yaml"
bad "no SMPI build" 3 "^$T/native.yaml: program: .*$T/native/smpi/synthetic" "$T/native.yaml"
mkdir -p "$T/native/smpi"
cp "$SYN" "$T/native/smpi/synthetic"
bad "a native program as the SMPI build" 3 \
	"^$T/native.yaml: program: $T/native/smpi/synthetic was not built by smpicc" "$T/native.yaml"

# Too many ranks for vm.max_map_count: the most --ranks allows (each needs memory maps of
# its own) exceeds any usual limit, so the check is met without lowering the limit of a
# machine others use; only where the limit is higher still is it lowered, as root, and
# restored at exit.
cat > "$T/simulate-wide.yaml" <<'YAML'
sites:
  - name: local
    link: {bandwidth_mbps: 10000, latency_ms: 0.01}
    nodes:
      - {host: localhost, cpu_mhz: 2000, cores: 2, slots: 100000}
YAML
maps=$(cat /proc/sys/vm/max_map_count 2>/dev/null)
maps_ok=1
if [ -z "$maps" ]; then
	skip "vm.max_map_count" "/proc/sys/vm/max_map_count cannot be read"
	maps_ok=0
elif [ "$maps" -ge 700000 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		skip "vm.max_map_count" "it is $maps here; lowering it needs root"
		maps_ok=0
	else
		at_exit "sysctl -q -w vm.max_map_count=$maps"
		sysctl -q -w vm.max_map_count=262144 > /dev/null
	fi
fi
if [ "$maps_ok" -eq 1 ]; then
	bad "vm.max_map_count too small" 5 "sysctl -w vm\\.max_map_count=[0-9]+" \
		"$T/cpu.yaml" --sites "$T/simulate-wide.yaml" --ranks 100000
fi

# smpimain_runs DIR: the simulation of the job in DIR runs
smpimain_runs() {
	[ -n "$(live "smpimain.*$1")" ]
}

# --- Ctrl-C: a long job interrupted once smpirun has run for a second
sed -e 's/"3000"/"100000000"/' "$T/cpu.yaml" > "$T/long.yaml"
"$GS" simulate "$T/long.yaml" > "$T/long.out" 2> "$T/long.err" &
pid=$!
if poll 20 grep -q '^gridsubmit: job [0-9]* ' "$T/long.err"; then
	id=$(sed -n 's/^gridsubmit: job \([0-9]*\) .*/\1/p' "$T/long.err" | head -n 1)
	check "cancel: smpimain runs the job" poll 20 smpimain_runs "$J/$id/"
	sleep 1
	kill -INT "$pid"
	wait "$pid"
	check_eq "cancel: SIGINT, exit 130 (128+SIGINT)" "$?" 130
	check "cancel: no smpirun left" gone "smpirun.*$J/$id/"
	check "cancel: no smpimain left" gone "smpimain.*$J/$id/"
	check_eq "cancel: the job is cancelled" "$(jq -r .state "$J/$id/state.json")" cancelled
else
	kill "$pid"
	fail "cancel: the job did not start"
	sed -e 's/^/#   /' "$T/long.err"
fi

# --- 6. scale: 1,000 worker nodes over 10 sites, 1001 ranks
{
	echo "sites:"
	for s in 1 2 3 4 5 6 7 8 9 10; do
		printf '  - name: site%d\n' "$s"
		printf '    link: {bandwidth_mbps: %d, latency_ms: %d}\n' $((100 * s)) "$s"
		printf '    nodes:\n      - {host: "s%dn[001-100]", cpu_mhz: %d, cores: 1}\n' \
			"$s" $((1000 + 100 * s))
	done
} > "$T/simulate-1000.yaml"
sed -e 's/"100000"/"20000"/' "$T/synthetic.yaml" > "$T/scale.yaml"
t0=$(now)
run_gs simulate "$T/scale.yaml" --sites "$T/simulate-1000.yaml" --ranks 1001
wall=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
check_eq "scale: 1000 nodes over 10 sites, 1001 ranks, 20000 units: exit 0 in $wall s" "$rc" 0
check_match "scale: the result matches" "$out" \
	'^synthetic: 20000 units .*, 1001 ranks, .*result matches the sequential computation$'
id=$(job_id)
check_eq "scale: platform.xml has the 1000 nodes and the master" \
	"$(grep -c '<host id=' "$J/$id/platform.xml" 2>&1)" 1001

# --- 7. the runtime's ranks block, they do not poll (runtime/comm/grt-comm-block.c): 41 ranks of
# the same grid. With empty probes free (smpi/iprobe:0, smpi/test:0), a rank that waited in
# SMPI's MPI_Probe, itself a loop of probes, would keep simulated time from moving (the run
# would end only by the timeout); ranks that polled with probes at 10 ms each would spend
# them in the makespan (the polling build: 0.58 s against 0.019 s, 21 ranks). Neither
# changes the makespan.
run_gs simulate "$T/scale.yaml" --sites "$T/simulate-1000.yaml" --ranks 41 --json
check_eq "probes: 41 ranks with SimGrid's probe costs: exit 0" "$rc" 0
m_base=$(jmakespan)
timeout 120 "$GS" simulate "$T/scale.yaml" --sites "$T/simulate-1000.yaml" --ranks 41 \
	--json --cfg smpi/iprobe:0 --cfg smpi/test:0 > "$T/free.json" 2> "$T/free.err"
rc=$?
check_eq "probes: free empty probes: the simulation ends, exit 0" "$rc" 0
m_free=$(jq -r .makespan "$T/free.json" 2>/dev/null)
run_gs simulate "$T/scale.yaml" --sites "$T/simulate-1000.yaml" --ranks 41 --json \
	--cfg smpi/iprobe:0.01
check_eq "probes: at 10 ms each: exit 0" "$rc" 0
m_dear=$(jmakespan)
for p in "free $m_free" "10 ms $m_dear"; do
	check "probes: makespan with probes ${p% *} (${p##* } s) within 10% of $m_base s" \
		awk -v a="${p##* }" -v b="$m_base" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 0.1 * b) }'
done
