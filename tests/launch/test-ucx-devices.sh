# A job whose ranks all run on this host uses no network interface but loopback: while other
# interfaces come and go (a container's veth, another testbed's), its ranks' MPI_Init still
# works (launch/launch-argv.c, UCX_NET_DEVICES; doc/reliability.md, "UCX's network devices").
# serial: alone (its six loops of ip commands load this host's two cores)
. tests/lib.sh
# what gridsubmit chooses is under test, not the setting lib.sh gives every test
unset UCX_NET_DEVICES

need_root "interfaces that come and go" || exit 0
NS="gs-ucx-$$"
ip netns add "$NS" || { fail "a network namespace of the test's own"; exit 0; }
at_exit "ip netns del $NS"
ip -n "$NS" link set lo up

# veth pairs added, given an address, brought up (both ends: carrier) and deleted, in six
# loops at once (one is too slow to meet a MPI_Init), in that namespace
touch "$T/churn"
for k in 1 2 3 4 5 6; do
	ip netns exec "$NS" sh -c '
		i=0
		while [ -e "$1" ]; do
			ip link add gsu$2x$i type veth peer name gsu$2x${i}p
			ip addr add 10.99.$2.$((i + 1))/32 dev gsu$2x$i
			ip link set gsu$2x${i}p up
			ip link set gsu$2x$i up
			ip link del gsu$2x$i
			i=$(( (i + 1) % 20 ))
		done 2>/dev/null' churn "$T/churn" $k &
done
at_exit "rm -f $T/churn"

# job NAME [ENV-LINE]: a two-rank synthetic job file $T/NAME.yaml, no restart (one MPI_Init
# per run)
job() {
	cat > "$T/$1.yaml" <<YAML
name: $1
program: $SRC/$BUILD/examples/synthetic
$(yaml_args --units 40)
ranks: 2
runtime: {scheme: css}
restarts: 0
${2:-}
YAML
}

job plain
ok_runs=0
for i in $(seq 20); do
	ip netns exec "$NS" "$GS" run "$T/plain.yaml" --no-metrics >"$T/out.$i" 2>&1 &&
		ok_runs=$((ok_runs + 1))
done
check_eq "twenty local jobs while interfaces come and go: every one done" "$ok_runs" 20
[ "$ok_runs" -eq 20 ] || grep -h -m 3 'No such device\|failed' "$T"/out.* | sed 's/^/#   /' | head

# the control: with every device (the job file's choice wins), about a quarter of runs fail
# here; thirty runs without a failure would mean the churn no longer reaches UCX
job all "env: {UCX_NET_DEVICES: all}"
bad=0
for i in $(seq 30); do
	ip netns exec "$NS" "$GS" run "$T/all.yaml" --no-metrics >"$T/all.$i" 2>&1 ||
		{ bad=$((bad + 1)); break; }
done
check "a job that sets UCX_NET_DEVICES=all gets it: MPI_Init fails within thirty runs" \
	test "$bad" -eq 1
check_match "and gridsubmit shows UCX's reason" "$(cat "$T"/all.*)" "init_worker No such device"

# the loops end before their namespace goes
rm -f "$T/churn"
wait
