#!/bin/sh
# bench-master.sh — the site file's master against rank 0 here (issue 31, "Tests and
# measures"): a user submits from a host behind a slow link (2 Mbit/s, 20 ms each way) to
# a well-connected site (4 nodes, 1000 Mbit/s between them). The same mandelbrot job,
# 4 ranks, runs with `master: bm1` (rank 0 on bm1, workers on bm2..bm4) and without it
# (rank 0 here, workers on bm1..bm3), alternating, 3 trials each; the wall time of
# `gridsubmit run` and the program's makespan are compared (median of the trials' ratios,
# here / master; above 1: the master in the site wins).
# The testbed's links go from each node to this host's bridge, and node to node crosses
# both nodes' links, so the slow link of this host is laid on the bridge itself (root):
# this host's own traffic to the nodes is shaped to 2 Mbit/s on the bridge's egress, the
# nodes' traffic to this host to 2 Mbit/s by a class of its own on each node's link,
# and both are held 20 ms each way by a delay line of its own
# (gridsubmit-delay on NFQUEUE, iptables rules on INPUT and OUTPUT for the bridge only);
# traffic between nodes, which the bridge forwards, passes none of these.
# Needs root and a testbed; prints a SKIP comment elsewhere.
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
SRC=$(pwd)
MANDEL=$SRC/$BUILD/examples/mandelbrot
DELAY=$SRC/$BUILD/gridsubmit-delay
T=$(mktemp -d "${TMPDIR:-/tmp}/gs-bench.XXXXXX") || exit 1
export GRIDSUBMIT_HOME="$T/home"
export NO_COLOR=1
TESTBED="" BR="" QUEUE="" DPID=""
cleanup() {
	[ -n "$DPID" ] && kill "$DPID" 2>/dev/null
	if [ -n "$QUEUE" ]; then
		iptables -D OUTPUT -o "$BR" -j NFQUEUE --queue-num "$QUEUE" 2>/dev/null
		iptables -D INPUT -i "$BR" -j NFQUEUE --queue-num "$QUEUE" 2>/dev/null
	fi
	[ -n "$TESTBED" ] && "$GS" testbed down "$TESTBED" >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$(id -u)" -ne 0 ] || ! ip netns list >/dev/null 2>&1 ||
    ! command -v iptables >/dev/null 2>&1 || [ ! -x "$DELAY" ]; then
	echo "# bench-master: SKIP: needs root, ip netns, iptables and $DELAY"
	exit 0
fi
[ -x "$MANDEL" ] || { echo "bench-master: $MANDEL not built (make)" >&2; exit 1; }

now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

cat > "$T/bm.yaml" <<'EOF'
# one well-connected site; the submitting host is behind its own slow link (above)
master: bm1
sites:
  - name: campus
    link: {bandwidth_mbps: 1000, latency_ms: 0.1}
    nodes: [{host: "bm[1-4]", cpu_mhz: 2000, cores: 1, mem_mb: 256}]
EOF
"$GS" testbed up "$T/bm.yaml" > "$T/up.out" 2>&1 ||
	{ echo "bench-master: testbed up failed" >&2; cat "$T/up.out" >&2; exit 1; }
TESTBED=$T/bm.yaml
BR=$(sed -n 's/.*on bridge \(gs[0-9a-f]*br\).*/\1/p' "$T/up.out")
NET=$(sed -n 's/.*on bridge gs[0-9a-f]*br (\([0-9.]*\)\.0\.1\/16).*/\1/p' "$T/up.out")
SITES=$GRIDSUBMIT_HOME/testbed/bm/sites.yaml
sed -e '/^master:/d' "$SITES" > "$T/here.yaml"

# this host's slow link: 2 Mbit/s each way, 20 ms each way (a queue number of our own,
# from the bridge's tag, far from the nodes' queue 0)
tc qdisc add dev "$BR" root handle 1: htb default 10 &&
tc class add dev "$BR" parent 1: classid 1:10 htb rate 2mbit ceil 2mbit ||
	{ echo "bench-master: cannot shape $BR" >&2; exit 1; }
# node -> this host: a class of its own under the node's link (testbed-up.c: htb 1:, 1:1)
for n in bm1 bm2 bm3 bm4; do
	ns=$(ip netns list | awk -v n="-$n" '$1 ~ n"$" { print $1 }' | grep "^gs-")
	ip netns exec "$ns" tc class add dev eth0 parent 1: classid 1:2 htb rate 2mbit \
	    ceil 2mbit &&
	ip netns exec "$ns" tc filter add dev eth0 parent 1: protocol ip prio 1 u32 \
	    match ip dst "$NET.0.1/32" flowid 1:2 ||
		{ echo "bench-master: cannot shape $n's way to this host" >&2; exit 1; }
done
QUEUE=$((1000 + $(printf '%d' "0x$(echo "$BR" | sed 's/^gs\(....\).*/\1/')") % 30000))
"$DELAY" --delay 20 --queue "$QUEUE" > "$T/delay.out" 2>&1 &
DPID=$!
iptables -A OUTPUT -o "$BR" -j NFQUEUE --queue-num "$QUEUE" &&
iptables -A INPUT -i "$BR" -j NFQUEUE --queue-num "$QUEUE" ||
	{ echo "bench-master: cannot add the delay line's rules" >&2; exit 1; }
t0=$(now)
ping -c 1 -W 5 "$NET.1.1" > /dev/null ||
	{ echo "bench-master: bm1 does not answer through the slow link" >&2; exit 1; }
echo "# bench-master: one ping of bm1 through this host's slow link: $(awk -v a="$t0" \
    -v b="$(now)" 'BEGIN { printf "%.3f", b - a }') s"

cat > "$T/job.yaml" <<EOF
name: bench-master
program: $MANDEL
args: ["--size", "1024", "--iter", "500", "--out", "m.pgm"]
ranks: 4
runtime: {scheme: gss}
stage_out: [m.pgm]
EOF

# one SITES: a run, "wall makespan" on stdout; the rank 0 host is checked
one() {
	id=$(cat "$GRIDSUBMIT_HOME/jobs/next-id" 2>/dev/null || echo 1)
	a=$(now)
	"$GS" run --no-metrics --sites "$1" "$T/job.yaml" > "$T/run.out" 2> "$T/run.err" ||
		{ echo "bench-master: run failed" >&2; cat "$T/run.err" >&2; exit 1; }
	b=$(now)
	ms=$(grep '"ev":"end"' "$GRIDSUBMIT_HOME/jobs/$id/events.jsonl" | tail -n 1 |
	    sed -n 's/.*"makespan":\([0-9.e+-]*\).*/\1/p')
	r0=$(grep '"ev":"start"' "$GRIDSUBMIT_HOME/jobs/$id/events.jsonl" | tail -n 1 |
	    sed -n 's/.*"ranks":\[{"rank":0,"node":"\([^"]*\)".*/\1/p')
	echo "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b - a }') $ms $r0"
}

# warm: ssh connections, page cache
one "$SITES" > /dev/null
one "$T/here.yaml" > /dev/null
: > "$T/trials"
for i in 1 2 3; do
	if [ $((i % 2)) -eq 1 ]; then
		m=$(one "$SITES")
		h=$(one "$T/here.yaml")
	else
		h=$(one "$T/here.yaml")
		m=$(one "$SITES")
	fi
	echo "# trial $i: master bm1: run $(echo "$m" | cut -d' ' -f1) s, makespan" \
	    "$(echo "$m" | cut -d' ' -f2) s (rank 0 on $(echo "$m" | cut -d' ' -f3));" \
	    "rank 0 here: run $(echo "$h" | cut -d' ' -f1) s, makespan $(echo "$h" | cut -d' ' -f2) s" \
	    "(rank 0 on $(echo "$h" | cut -d' ' -f3))"
	echo "$m $h" >> "$T/trials"
done
col() { awk -v c="$1" '{ print $c }' "$T/trials" | median; }
ratio() { awk -v a="$1" -v b="$2" '{ print $a / $b }' "$T/trials" | median; }
printf '| master | run -> end, mandelbrot 1024, 4 ranks, this host behind 2 Mbit/s 20 ms: master: in the site (ratio: rank 0 here / master) | %.3f s | %.3f s (rank 0 here) | %.2f | > 1 |\n' \
	"$(col 1)" "$(col 4)" "$(ratio 4 1)"
printf '| master | makespan of the same runs (ratio: rank 0 here / master) | %.3f s | %.3f s (rank 0 here) | %.2f | > 1 |\n' \
	"$(col 2)" "$(col 5)" "$(ratio 5 2)"
