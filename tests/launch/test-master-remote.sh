#!/bin/sh
# test-master-remote.sh — the site file's master honoured (doc/broker.md, "Placement") on a
# testbed of 4 sites (root): `rank --explain` names the master node and what B measures;
# mandelbrot runs with rank 0 (its process, PMI_RANK 0) in the master's namespace, the job
# directory here receiving its events while it runs (`top --once --json` follows the units
# done) and the image right (--check), on a node that shares the job directory and on one
# that does not (private_fs: the relay, doc/runtime.md; the journal grows here, and
# master.status and the image come back; the relay's key in no process's argv; a master
# of migratable tasks, ep, too); a
# worker's node lost under a relayed master: the
# relaunch keeps rank 0 there and it resumes from the journal the relay hands it; then the
# master's node crashes mid-run, relayed or not (every process of its namespace killed,
# sshd included): the job is relaunched with rank 0 on this host, resumes from the journal
# committed here (the resume event) and ends done with the check passing; nothing of it is
# left. Without master:, rank 0 runs here as before (tests/broker/test-rank.sh).
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "master on a node" sshd tc jq || exit 0
MANDEL=$SRC/$BUILD/examples/mandelbrot
[ -x "$MANDEL" ] || { fail "master on a node: $MANDEL is not built"; exit 1; }
J=$GRIDSUBMIT_HOME/jobs
HERE=$(hostname)

SITES=$T/mr.yaml
cat > "$SITES" <<'EOF'
# the master in the well-connected site; a slower site and a slow one
master: mrc1
sites:
  - name: campus
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: "mrc[1-2]", cpu_mhz: 2000, cores: 1, mem_mb: 256}
  - name: eth
    link: {bandwidth_mbps: 10, latency_ms: 0.5}
    nodes:
      - {host: mre1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
  - name: wlan
    link: {bandwidth_mbps: 2, latency_ms: 2}
    nodes:
      - {host: mrw1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
  # a site with disks of its own: its node sees none of this host's files
  - name: priv
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: mrp1, cpu_mhz: 2000, cores: 1, mem_mb: 256, emulate: {private_fs: true}}
EOF
testbed_up "$SITES" "testbed up with 3 sites, the master mrc1" || exit 0
at_exit sweep
TBS=$TB/sites.yaml

# job FILE SEED [SITES [RANKS]]: mandelbrot on 4 ranks (master mrc1: rank 0 there,
# workers on mrc2, mre1, mrw1); the iterations tell the runs apart
job() {
	cat > "$1" <<EOF
name: mr-$2
program: $MANDEL
args: ["--size", "1024", "--iter", "$((3000 + $2))", "--check", "--out", "m.pgm"]
ranks: ${4:-4}
sites: [${3:-campus, eth, wlan}]
runtime: {scheme: css, k: 8}
stage_out: [m.pgm]
EOF
}

# no_argv_has FILE: no process's command line holds FILE's line
no_argv_has() {
	! grep -qsFf "$1" /proc/[0-9]*/cmdline
}

# rank0_in NODE: the pid of rank 0's mandelbrot in NODE's namespace (PMI_RANK=0), if any
rank0_in() {
	for p in $(ns_job "$1" mandelbrot); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = mandelbrot ] || continue
		tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qx 'PMI_RANK=0' && echo "$p"
	done
}

# rank0_here: the pid of a mandelbrot of the test's in this host's own network namespace
# (the testbed's nodes share this kernel's pids and our files: live_here sees them too)
rank0_here() {
	for p in $(live_here "^$MANDEL "); do
		[ "$(readlink "/proc/$p/ns/net")" = "$(readlink /proc/self/ns/net)" ] && echo "$p"
	done
}

# units ID: the units done as the console reads them from the job directory
units() {
	"$GS" top --once --json "$1" 2>/dev/null | jq -r '.units_done // 0'
}

# units_past ID N: more than N units done, the job still running
units_past() {
	u=$(units "$1")
	[ "$u" -gt "$2" ] && [ "$u" -lt 1024 ] &&
	    [ "$(jq -r .state "$J/$1/state.json")" = running ]
}

nothing_left() {
	[ -z "$(ns_job mrc1 mandelbrot)$(ns_job mrc2 mandelbrot)$(ns_job mre1 mandelbrot)$(ns_job mrw1 mandelbrot)$(ns_job mrp1 mandelbrot)" ] &&
	    ! pgrep -f "^$MANDEL --size 1024 " > /dev/null
}

# --- rank --explain: where rank 0 runs and why
job "$T/m1.yaml" 1
run_gs rank "$T/m1.yaml" --sites "$TBS" --no-metrics --explain
check_eq "rank: exit 0" "$rc" 0
check_match "rank: the placement puts rank 0 on mrc1" "$out" \
	"^placement: mrc1:1 mrc2:1 mre1:1 mrw1:1 \(rank 0, the master, on mrc1\)$"
check_match "rank --explain: rank 0 on the master, B to it" "$out" \
	"^rank 0 \(the master\): on mrc1, the site file's master; B is each node's link to it: its site's link in campus, else the slower of its site's and campus's$"
check "rank: no note that the master is replaced" test -z "$err"

# --- 1. rank 0 on mrc1: it runs there, the events come here live, the image is right
id=$(cat "$J/next-id" 2>/dev/null || echo 1)
"$GS" run --no-metrics --sites "$TBS" "$T/m1.yaml" > "$T/r1.out" 2> "$T/r1.err" &
pid=$!
at_exit "kill -9 $pid"
poll 90 units_past "$id" 0 || echo "# job $id: no units within 90 s"
check "remote master: rank 0 runs in mrc1's namespace" test -n "$(rank0_in mrc1)"
check "remote master: no rank 0 here" test -z "$(rank0_here)"
u1=$(units "$id")
check "remote master: the console follows the job live (units $u1, then more)" \
	poll 90 units_past "$id" "$u1"
wait $pid
check_eq "remote master: run exits 0" "$?" 0
[ -s "$T/r1.err" ] && sed -e 's/^/#   /' "$T/r1.err"
check_match "remote master: the check passed" "$(cat "$T/r1.out")" \
	"image matches the sequential computation"
check_eq "remote master: done" "$(jq -r .state "$J/$id/state.json")" done
check "remote master: launched speculatively, mrc1 checked in its own session" \
	test -s "$J/$id/.remote/mrc1.preflight"
check "remote master: no second launch" sh -c "! grep -q 'launching again' '$T/r1.err'"
check_eq "remote master: the start event has rank 0 on mrc1" \
	"$(grep '"ev":"start"' "$J/$id/events.jsonl" | jq -r '.ranks[0].node')" mrc1
check "remote master: the image here" test -s "$J/$id/m.pgm"
check "remote master: nothing of the job left" poll 30 nothing_left

# --- 2. the master on a node without this host's files (mrp1): the relay keeps the job
# directory here for it: events live, the journal here, master.status and the image back
sed -e 's/^master: mrc1$/master: mrp1/' "$TBS" > "$T/priv.yaml"
job "$T/m3.yaml" 3 "priv, campus, eth"
run_gs rank "$T/m3.yaml" --sites "$T/priv.yaml" --no-metrics
check_match "relay: rank 0 on mrp1, workers on the shared nodes" "$out" \
	"^placement: mrp1:1 mrc1:1 mrc2:1 mre1:1 \(rank 0, the master, on mrp1\)$"
id=$(cat "$J/next-id" 2>/dev/null || echo 1)
"$GS" run --no-metrics --sites "$T/priv.yaml" "$T/m3.yaml" > "$T/r3.out" 2> "$T/r3.err" &
pid=$!
at_exit "kill -9 $pid"
poll 90 units_past "$id" 0 || echo "# job $id: no units within 90 s"
check "relay: rank 0 runs in mrp1's namespace" test -n "$(rank0_in mrp1)"
# the relay's key (GRT_RELAY=ADDR:PORT/KEY) reaches rank 0 through hydra's control
# connection: in no process's argv, here or on a node (the grep reads it from a file, so
# that its own argv does not hold it)
tr '\0' '\n' < "/proc/$(rank0_in mrp1 | head -n 1)/environ" 2>/dev/null |
	sed -n 's|^GRT_RELAY=.*/||p' > "$T/relay.key"
check "relay: rank 0 has the relay's key" test -s "$T/relay.key"
check "relay: the key is in no process's argv" no_argv_has "$T/relay.key"
check "relay: rank 0's directory is mrp1's own" \
	test "$(readlink "/proc/$(rank0_in mrp1 | head -n 1)/cwd")" != "$J/$id"
u1=$(units "$id")
check "relay: the console follows the job live (units $u1, then more)" \
	poll 90 units_past "$id" "$u1"
check "relay: the journal grows here while the job runs" test -s "$J/$id/journal"
wait $pid
check_eq "relay: run exits 0" "$?" 0
[ -s "$T/r3.err" ] && sed -e 's/^/#   /' "$T/r3.err"
check_match "relay: the check passed" "$(cat "$T/r3.out")" \
	"image matches the sequential computation"
check_eq "relay: done" "$(jq -r .state "$J/$id/state.json")" done
check_eq "relay: rank 0's end here" "$(cat "$J/$id/master.status" 2>/dev/null)" "exit 0"
check_match "relay: the speculative launch called off for mrp1, then the relay" \
	"$(cat "$T/r3.err")" "launching again with what the preflight found \(files staged\)"
check_eq "relay: one start and one end record, here" \
	"$(grep -c '"ev":"start"\|"ev":"end"' "$J/$id/events.jsonl")" 2
check "relay: the image back here" test -s "$J/$id/m.pgm"
check "relay: nothing of the job left" poll 30 nothing_left

# --- 2b. a master of migratable tasks (ep) on mrp1: its rank map and events through the
# relay too (doc/runtime.md, "The relay")
EP=$SRC/$BUILD/examples/ep
cat > "$T/ep.yaml" <<EOF
name: mr-ep
program: $EP
args: ["--tasks", "3", "--steps", "40", "--pairs", "20000", "--check"]
ranks: 4
sites: [priv, campus, eth]
EOF
id=$(cat "$J/next-id" 2>/dev/null || echo 1)
run_gs run --no-metrics --sites "$T/priv.yaml" "$T/ep.yaml"
check_eq "relayed tasks master: run exits 0" "$rc" 0
check_match "relayed tasks master: the check passed" "$out" "matches the sequential computation"
check_eq "relayed tasks master: its start record here, rank 0 on mrp1" \
	"$(grep '"ev":"start"' "$J/$id/events.jsonl" | jq -r '.ranks[0].node')" mrp1
check_eq "relayed tasks master: its end record here" \
	"$(grep -c '"ev":"end"' "$J/$id/events.jsonl")" 1

# --- 3. a worker's node (mre1) lost under a relayed master: the relaunch keeps rank 0 on
# mrp1 (mrw1 replaces mre1), which gets the journal through the relay and resumes from it
job "$T/m4.yaml" 4 "priv, campus, eth, wlan"
id=$(cat "$J/next-id" 2>/dev/null || echo 1)
"$GS" run --no-metrics --sites "$T/priv.yaml" "$T/m4.yaml" > "$T/r4.out" 2> "$T/r4.err" &
pid=$!
at_exit "kill -9 $pid"
poll 90 units_past "$id" 256 || echo "# job $id: no units within 90 s"
for p in $(ip netns pids "gs-$TAG-mre1"); do
	[ "$(cat "/proc/$p/comm" 2>/dev/null)" = gridsubmit-dela ] || kill -9 "$p"
done
wait $pid
check_eq "relayed master, worker lost: run exits 0" "$?" 0
[ -s "$T/r4.err" ] && sed -e 's/^/#   /' "$T/r4.err"
check_match "relayed master, worker lost: the check passed" "$(cat "$T/r4.out")" \
	"image matches the sequential computation"
check_eq "relayed master, worker lost: done, a restart without mre1" \
	"$(jq -c '[.state, .restarts, .restart_log[0].excluded]' "$J/$id/state.json")" \
	'["done",1,["mre1"]]'
check_eq "relayed master, worker lost: the relaunch's rank 0 on mrp1 again" \
	"$(grep '"ev":"start"' "$J/$id/events.jsonl" | tail -n 1 | jq -r '.ranks[0].node')" mrp1
check_eq "relayed master, worker lost: it resumed the journal the relay gave it" \
	"$(grep '"ev":"resume"' "$J/$id/events.jsonl" | tail -n 1 | jq -r '.units >= 64')" true

# --- 4. the relayed master's node crashes: relaunched with rank 0 here, nothing committed lost
job "$T/m5.yaml" 5 "priv, campus, wlan"
id=$(cat "$J/next-id" 2>/dev/null || echo 1)
"$GS" run --no-metrics --sites "$T/priv.yaml" "$T/m5.yaml" > "$T/r5.out" 2> "$T/r5.err" &
pid=$!
at_exit "kill -9 $pid"
poll 90 units_past "$id" 256 || echo "# job $id: no units within 90 s"
for p in $(ip netns pids "gs-$TAG-mrp1"); do
	[ "$(cat "/proc/$p/comm" 2>/dev/null)" = gridsubmit-dela ] || kill -9 "$p"
done
wait $pid
check_eq "relayed master crash: run exits 0" "$?" 0
[ -s "$T/r5.err" ] && sed -e 's/^/#   /' "$T/r5.err"
check_match "relayed master crash: the check passed" "$(cat "$T/r5.out")" \
	"image matches the sequential computation"
check_eq "relayed master crash: the relaunch's rank 0 here" \
	"$(grep '"ev":"start"' "$J/$id/events.jsonl" | tail -n 1 | jq -r '.ranks[0].node')" "$HERE"
check_eq "relayed master crash: it resumed the journal the relay committed here" \
	"$(grep '"ev":"resume"' "$J/$id/events.jsonl" | tail -n 1 | jq -r '.units >= 64')" true
check "relayed master crash: nothing of the job left" poll 30 nothing_left

# --- 5. the master node crashes mid-run (last: its sshd dies too): relaunched with rank 0
# here, the journal replayed
job "$T/m2.yaml" 2 "campus, wlan" 3
id=$(cat "$J/next-id" 2>/dev/null || echo 1)
"$GS" run --no-metrics --sites "$TBS" "$T/m2.yaml" > "$T/r2.out" 2> "$T/r2.err" &
pid=$!
at_exit "kill -9 $pid"
poll 90 units_past "$id" 256 || echo "# job $id: no units within 90 s"
check "master crash: rank 0 runs on mrc1 before" test -n "$(rank0_in mrc1)"
for p in $(ip netns pids "gs-$TAG-mrc1"); do
	[ "$(cat "/proc/$p/comm" 2>/dev/null)" = gridsubmit-dela ] || kill -9 "$p"
done
wait $pid
check_eq "master crash: run exits 0" "$?" 0
[ -s "$T/r2.err" ] && sed -e 's/^/#   /' "$T/r2.err"
check_match "master crash: the check passed" "$(cat "$T/r2.out")" \
	"image matches the sequential computation"
check_eq "master crash: done, one restart without mrc1" \
	"$(jq -c '[.state, .restarts, .restart_log[0].excluded]' "$J/$id/state.json")" \
	'["done",1,["mrc1"]]'
check_match "master crash: stderr says rank 0 comes here" "$(cat "$T/r2.err")" \
	"rank 0 runs on this host \\($HERE\\), not on the site file's master mrc1: it was left out after a failure"
check_eq "master crash: the relaunch's rank 0 here" \
	"$(grep '"ev":"start"' "$J/$id/events.jsonl" | tail -n 1 | jq -r '.ranks[0].node')" "$HERE"
check_eq "master crash: the relaunch resumed the journal written before the crash" \
	"$(grep '"ev":"resume"' "$J/$id/events.jsonl" | tail -n 1 | jq -r '.units >= 64')" true
check "master crash: nothing of the job left" poll 30 nothing_left
