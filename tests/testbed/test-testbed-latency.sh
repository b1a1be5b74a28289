#!/bin/sh
# test-testbed-latency.sh — a site's link latency_ms on the testbed (root): one way, so the
# round trip between the master (NET.0.1, the bridge) and a node of a 20 ms site is 40 ms, and
# about 0 for a 0 ms site; loopback inside a node is not delayed; bulk transfers both ways
# still run at the shaped bandwidth; `status` says how latency is emulated; on a kernel
# without netem the delay line (gridsubmit-delay) dies with `down`, also after a kill -9
# of `up` halfway through.
# serial: testbed-a (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

# --- the delay line's own arguments (no root needed: refused before any socket)
DL=$BUILD/gridsubmit-delay
if [ ! -x "$DL" ]; then
	skip "gridsubmit-delay's arguments" "not built (./configure found no libnetfilter_queue)"
else
	for a in "--delay abc" "--delay -1" "--delay 1e9" "--delay nan" \
	    "--delay 5 --queue 70000" "--delay 5 --ready-fd x" "--delay" ""; do
		# shellcheck disable=SC2086
		o=$("$DL" $a 2>&1)
		drc=$?
		check_match "gridsubmit-delay refuses '$a' (exit $drc)" "$drc:$o" \
			'^(1:gridsubmit-delay: --|2:(usage: gridsubmit-delay|.* requires an argument))'
	done
fi

need_testbed "testbed latency" sshd ssh-keygen tc prometheus-node-exporter iptables jq || exit 0
if [ ! -x "$DL" ] && ! kernel_has_netem; then
	# up refuses: tests/testbed/test-testbed-nodelay.sh
	skip "testbed latency" "neither sch_netem nor the delay line (gridsubmit-delay)"
	exit 0
fi

# within X LO HI: LO <= X < HI for decimal numbers
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x < hi) }'; }
# rtt_stats "ping output": "min avg max" in ms
rtt_stats() { printf '%s\n' "$1" | sed -n 's|^rtt [^=]*= \([0-9.]*\)/\([0-9.]*\)/\([0-9.]*\)/.*|\1 \2 \3|p'; }

SITES=$T/lat.yaml
cat > "$SITES" <<'EOF'
# the same 20 Mbit/s link, one far (20 ms one way) and one near (0 ms)
sites:
  - name: far
    link: {bandwidth_mbps: 20, latency_ms: 20}
    nodes:
      - {host: latf1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
  - name: near
    link: {bandwidth_mbps: 20, latency_ms: 0}
    nodes:
      - {host: latn1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
EOF
# delay_lines: this test's live delay lines (their log is in its testbed's directory; other
# tests' testbeds may be up meanwhile)
delay_lines() {
	for dl_p in $(pgrep -f 'gridsubmit-delay --delay'); do
		case $(readlink "/proc/$dl_p/fd/1" 2>/dev/null) in
		"$T"/*) echo "$dl_p" ;;
		esac
	done
}
testbed_up "$SITES" "testbed up exits 0" || exit 0
NSF=gs-$TAG-latf1
NSN=gs-$TAG-latn1
check_match "up says how the far node's latency is emulated" "$out" \
	'latf1 .* 20 ms \((netem|delay line)\)'
check_match "up says nothing of latency for the 0 ms node" "$out" 'latn1 .* 0 ms, cpu'
how=$(printf '%s\n' "$out" | sed -n 's/.*latf1 .* 20 ms (\([a-z ]*\)).*/\1/p')

# --- status: per node, how
run_gs testbed status "$SITES"
check_eq "status exits 0" "$rc" 0
check_match "status: the far node's latency and how" "$out" \
	'latf1 .* up +up .* 20 ms, (netem|delay line)$'
check_match "status: the near node has none" "$out" 'latn1 .* up +up .* -$'
run_gs testbed status --json "$SITES"
j=$(printf '%s\n' "$out" | jq -r '.nodes[] | "\(.host) \(.latency) \(.latency_ms)"' | tr '\n' ' ')
check_match "status --json: latency and latency_ms per node" "$j" \
	'^latf1 (netem|delay-line) 20 latn1 none 0 $'

# --- round trips: 2 x 20 ms to the far node, about nothing to the near one
if command -v ping >/dev/null 2>&1; then
	p=$(ping -n -q -c 10 -i 0.2 $NET.1.1 2>&1)
	set -- $(rtt_stats "$p")
	check "master->far node: every round trip >= 40 ms, mean < 55 ms (min/avg/max $1/$2/$3 ms)" \
		sh -c "awk -v a=${1:-0} 'BEGIN { exit !(a >= 40) }' && awk -v a=${2:-0} 'BEGIN { exit !(a < 55) }'"
	p=$(ping -n -q -c 10 -i 0.2 $NET.2.1 2>&1)
	set -- $(rtt_stats "$p")
	check "master->near node: mean round trip < 5 ms (min/avg/max $1/$2/$3 ms)" \
		within "${2:-99}" 0 5
	# -U: time in user space; the kernel's receive stamp comes before an inbound delay
	p=$(ip netns exec "$NSF" ping -U -n -q -c 5 -i 0.2 $NET.0.1 2>&1)
	set -- $(rtt_stats "$p")
	check "far node->master: round trip >= 40 ms, mean < 55 ms (min/avg/max $1/$2/$3 ms)" \
		sh -c "awk -v a=${1:-0} 'BEGIN { exit !(a >= 40) }' && awk -v a=${2:-0} 'BEGIN { exit !(a < 55) }'"
	p=$(ip netns exec "$NSF" ping -U -n -q -c 5 -i 0.2 127.0.0.1 2>&1)
	set -- $(rtt_stats "$p")
	check "loopback in the far node is not delayed (mean $2 ms)" within "${2:-99}" 0 5
	p=$(ip netns exec "$NSF" ping -U -n -q -c 5 -i 0.2 $NET.1.1 2>&1)
	set -- $(rtt_stats "$p")
	check "the far node's own address is not delayed (mean $2 ms)" within "${2:-99}" 0 5
else
	skip "round trip times" "ping is not installed (Debian package iputils-ping)"
fi

# --- bulk: 4 MB both ways at the shaped 20 Mbit/s (1.6 s), with and without the delay
if command -v nc >/dev/null 2>&1 && nc -h 2>&1 | grep -q '^[[:space:]]*-N[[:space:]]'; then
	# xfer NETNS FROM-NS|- LISTEN-ADDR: seconds to send 4 MB to LISTEN-ADDR:47311
	xfer() {
		if [ "$2" = - ]; then
			ip netns exec "$1" nc -l "$3" 47311 > /dev/null 2>&1 &
		else
			nc -l "$3" 47311 > /dev/null 2>&1 &
		fi
		lp=$!
		at_exit "kill $lp"
		sleep 0.5
		t0=$(date +%s.%N)
		if [ "$2" = - ]; then
			head -c 4000000 /dev/zero | timeout 20 nc -N "$3" 47311
		else
			head -c 4000000 /dev/zero | timeout 20 ip netns exec "$2" nc -N "$3" 47311
		fi
		t1=$(date +%s.%N)
		wait $lp
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
	}
	# 32 Mbit at 20 Mbit/s: 1.6 s; at least 13 Mbit/s (2.46 s) and no faster than the
	# shaping allows (1.39 s): slow start over a 40 ms round trip costs a little
	for d in "master->far:$NSF:-:$NET.1.1" "far->master:$NSF:$NSF:$NET.0.1" \
	    "master->near:$NSN:-:$NET.2.1" "near->master:$NSN:$NSN:$NET.0.1"; do
		name=${d%%:*}
		rest=${d#*:}
		ns=${rest%%:*}
		rest=${rest#*:}
		from=${rest%%:*}
		addr=${rest#*:}
		s=$(xfer "$ns" "$from" "$addr")
		check "4 MB $name over 20 Mbit/s in 1.39..2.46 s (took $s s)" within "$s" 1.39 2.46
	done
else
	skip "bulk transfers" "nc (OpenBSD, with -N) is not installed (Debian package netcat-openbsd)"
fi

# --- down: no delay line left
DPIDS=$(awk '$1 == "pid" && $4 == "delay" {print $2}' "$TB/manifest" | tr '\n' ' ')
if [ "$how" = "delay line" ]; then
	check "the far node has a delay line, recorded in the manifest" test -n "$DPIDS"
	check "the delay line runs in the far node's namespace" sh -c \
		"ip netns pids $NSF | grep -qx '$(echo $DPIDS | cut -d' ' -f1)'"
	check "the near node has none" sh -c "! grep -q '^pid .* delay latn1\$' '$TB/manifest'"
	# a delay line that is gone: the node's packets are dropped, not let through undelayed
	for p in $DPIDS; do kill -TERM "$p"; done
	i=0
	while [ $i -lt 50 ]; do
		still=""
		for p in $DPIDS; do alive "$p" && still=1; done
		[ -z "$still" ] && break
		sleep 0.1
		i=$((i + 1))
	done
	check_match "a stopped delay line writes its totals to the node's delay.log" \
		"$(cat "$TB/nodes/latf1/delay.log")" 'stopping: [0-9]+ packets delayed.*0 ENOBUFS'
	if command -v ping >/dev/null 2>&1; then
		check "without its delay line the far node is unreachable (nothing bypasses it)" \
			sh -c "! ping -n -q -c 2 -W 1 $NET.1.1"
	fi
	run_gs testbed status "$SITES"
	check_match "status: the far node's delay line is not running, the node is down" \
		"$rc:$(printf '%s\n' "$out" | grep latf1)" '^1:latf1 .*delay line \(not running\)$'
fi
run_gs testbed down "$SITES"
check_eq "down exits 0" "$rc" 0
left=""
for p in $DPIDS $(delay_lines); do alive "$p" && left="$left $p"; done
check_eq "no delay line left after down" "$left" ""
check "no namespace left" sh -c "! ip netns list | grep -q gs-$TAG-"

# --- kill -9 of up right after it started a delay line, then down
if [ "$how" = "delay line" ]; then
	crash_up "$SITES" delay
	DPIDS=$(awk '$1 == "pid" && $4 == "delay" {print $2}' "$TB/manifest" 2>/dev/null)
	check "a crashed up had started a delay line" test -n "$DPIDS"
	run_gs testbed down "$SITES"
	check_eq "down after a crashed up exits 0" "$rc" 0
	left=""
	for p in $DPIDS $(delay_lines); do alive "$p" && left="$left $p"; done
	check_eq "no delay line left after a crashed up and down" "$left" ""
	check "no namespace left after a crashed up" sh -c "! ip netns list | grep -q gs-$TAG-"
fi
