#!/bin/sh
# test-testbed-nodelay.sh — gridsubmit built without the delay line (./configure without
# libnetfilter_queue builds no gridsubmit-delay, and gridsubmit looks for it next to
# itself: here, a copy of the program alone in a directory). On a kernel without sch_netem,
# `testbed up` of a site file with latency_ms > 0 is refused, naming the site, the key and
# what to install, before anything is built (root).
# serial: testbed-a (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "testbed up without the delay line" sshd ssh-keygen tc \
	prometheus-node-exporter || exit 0
if kernel_has_netem; then
	skip "testbed up without the delay line" "this kernel has sch_netem: no site needs it"
	exit 0
fi

mkdir -p "$T/bin"
cp "$GS" "$T/bin/gridsubmit"
cat > "$T/nodelay.yaml" <<'YAML'
sites:
  - name: near
    link: {bandwidth_mbps: 100, latency_ms: 0}
    nodes:
      - {host: ndn1, cpu_mhz: 2000, cores: 1}
  - name: far
    link: {bandwidth_mbps: 20, latency_ms: 20}
    nodes:
      - {host: ndf1, cpu_mhz: 2000, cores: 1}
YAML
at_exit "$GS testbed down $T/nodelay.yaml"
"$T/bin/gridsubmit" testbed up "$T/nodelay.yaml" > "$T/up.out" 2> "$T/up.err"
check_eq "up without gridsubmit-delay exits 1" "$?" 1
uperr=$(cat "$T/up.err")
check_match "it names the site, where it is and the key" "$uperr" \
	"nodelay\.yaml:6:[0-9]+: site 'far': link latency_ms 20 needs the delay line"
check_match "and what to install" "$uperr" "install libnetfilter-queue-dev"
check "and not the 0 ms site" sh -c '! grep -q "near" "$1"' sh "$T/up.err"
check "nothing was built: no state directory" test ! -e "$GRIDSUBMIT_HOME/testbed/nodelay"
check "no namespace" sh -c '! ip netns list | grep -q -- "-ndf1"'
check "no bridge" sh -c "! ip -o link show | grep -q ' gs$(tb_tag "$T/nodelay.yaml")br[:@]'"

