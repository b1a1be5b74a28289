#!/bin/sh
# test-testbed-limits.sh — a grid larger than this kernel's default neighbour table (root).
# Linux holds one ARP table for all network namespaces, capped by
# net.ipv4.neigh.default.gc_thresh3 (1024 by default); 37 hosts that all talk to each other
# need 37 x 36 = 1332 entries, and beyond the cap new connections fail with "No route to
# host" (doc/testbed.md, "Kernel limits"). `testbed up` adds the grid's need to the host's
# values and `down` takes it away again: a job of 37 ranks across 4 sites of 9 nodes is done
# without one table overflow (the kernel's own count, table_fulls of
# /proc/net/stat/arp_cache); after down, and after down of an up killed halfway, this
# testbed's share is gone and the values are what they were (plus the shares of testbeds
# other tests hold meanwhile).
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "testbed-limits" sshd tc prometheus-node-exporter || exit 0
SYN=$SRC/$BUILD/examples/synthetic
REG=/run/gridsubmit-testbed-limits
if [ ! -x "$SYN" ]; then
	skip "testbed-limits" "$SYN is not built"
	exit 0
fi
K3=net.ipv4.neigh.default.gc_thresh3

# 4 sites of 9 nodes, each with its own file system: no host login scripts run on them
SITES=$T/wide.yaml
{
	echo "sites:"
	for s in 1 2 3 4; do
		printf '  - name: w%d\n    link: {bandwidth_mbps: 1000, latency_ms: 0}\n' "$s"
		printf '    nodes:\n      - {host: "w%dn[1-9]", cpu_mhz: 2000, cores: 1, ' "$s"
		printf 'mem_mb: 256, emulate: {private_fs: true}}\n'
	done
} > "$SITES"

# expected K: what the registry says K should be now (the host's value plus the shares of
# testbeds up, or nothing when none is: then the host's own value stands)
expected() {
	[ -f "$REG/saved" ] || return 0
	awk -v k="$1" 'FILENAME ~ /saved$/ { if ($1 == k) old = $2; next }
	    $1 == k { need += $2 } END { print old + need }' "$REG/saved" \
	    $(ls "$REG" | grep -v saved | sed "s|^|$REG/|")
}
fulls() { awk 'NR == 2 { print $13 }' /proc/net/stat/arp_cache; }

before=$(sysctl -n $K3)
# the host's own value: the one saved while other testbeds hold shares
host=$(awk -v k=$K3 '$1 == k { print $2 }' "$REG/saved" 2>/dev/null)
host=${host:-$before}
testbed_up "$SITES" "testbed up of 36 nodes in 4 sites" || exit 0
check "up gave this testbed a share of the kernel limits" test -f "$REG/$TAG"
check_match "up said what it raised" "$out" "$K3 [0-9]+ -> [0-9]+"
now=$(sysctl -n $K3)
# judged against the host's own value and this testbed's share, not against the value read
# before up: another test's testbed may have given its share back in between
share=$(awk -v k=$K3 '$1 == k { print $2 }' "$REG/$TAG" 2>/dev/null)
check "this testbed's share of gc_thresh3 is 2 x 37 x 36 entries or more: ${share:-none}" \
	test "${share:-0}" -ge $((2 * 37 * 36))
check "gc_thresh3 raised by that share over the host's value: $host -> $now" \
	test "$now" -ge $((host + ${share:-0}))
check_eq "gc_thresh3 is the host's value plus the shares" "$now" "$(expected $K3)"

f0=$(fulls)
cat > "$T/job.yaml" <<EOF
name: wide
program: $SYN
args: ["--units", "5000", "--mean-us", "20", "--seed", "1", "--check"]
ranks: 37
runtime: {scheme: gss}
restarts: 0
EOF
run_gs run "$T/job.yaml" --sites "$TB/sites.yaml"
check_eq "37 ranks across 4 sites of 9 nodes: done" "$rc" 0
[ "$rc" -eq 0 ] || printf '%s\n' "$err" | tail -n 20 | sed -e 's/^/#   /'
check_eq "the ARP table never overflowed (table_fulls)" "$(fulls)" "$f0"
sites=$(awk 'NR > 1 && $3 != "-" { print $3 }' "$GRIDSUBMIT_HOME/jobs/1/rankmap" |
	sort -u | wc -l)
check "its ranks were on every site" test "${sites:-0}" -ge 4

run_gs testbed down "$SITES"
check_eq "down" "$rc" 0
check "down gave its share back" test ! -e "$REG/$TAG"
if [ -f "$REG/saved" ]; then
	check_eq "gc_thresh3 is the host's value plus the others' shares" \
		"$(sysctl -n $K3)" "$(expected $K3)"
else
	check_eq "gc_thresh3 restored" "$(sysctl -n $K3)" "$host"
fi

# up killed once its share is taken (its first sshd recorded): down still gives it back
TB=$GRIDSUBMIT_HOME/testbed/wide
crash_up "$SITES" sshd
check "the killed up had taken its share" test -e "$REG/$TAG"
run_gs testbed down "$SITES"
check_eq "down after a killed up" "$rc" 0
check "down after a killed up gave its share back" test ! -e "$REG/$TAG"
if [ -f "$REG/saved" ]; then
	check_eq "gc_thresh3 after the killed up: the host's value plus the others' shares" \
		"$(sysctl -n $K3)" "$(expected $K3)"
else
	check_eq "gc_thresh3 restored after the killed up" "$(sysctl -n $K3)" "$host"
fi
