#!/bin/sh
# test-simulate-bound.sh — with no noise left, what remains is the scheme (doc/simulate.md,
# issue 17): a loop of uniform units (synthetic --uniform) on a simulated heterogeneous star
# (two sites, workers of four speeds on links of 1000 and 100 Mbit/s) comes within 5% of the
# divisible-load bound with hetcomm, whose fixed point is the single-round optimum of that
# star; the bound stays a bound (efficiency at most 1), and gss, which ignores the speeds,
# does worse than hetcomm. The bound leaves out each rank's first contact (doc/simulate.md,
# "First contact": 14 ms of this host's CPU, 56 ms on the slowest worker here), so the loop
# is long enough (12 s of CPU, 2.5 s simulated) for that to be about 2% of the makespan.
# serial: alone (what it checks depends on this host's CPUs being its own)
. tests/lib.sh

need_smpi "simulate bound" synthetic || exit 0

cat > "$T/star.yaml" <<'YAML'
sites:
  - name: near
    link: {bandwidth_mbps: 1000, latency_ms: 0.1}
    nodes:
      - {host: "a[1-2]", cpu_mhz: 3000, cores: 1}
      - {host: "b[1-2]", cpu_mhz: 1500, cores: 1}
  - name: far
    link: {bandwidth_mbps: 100, latency_ms: 2}
    nodes:
      - {host: "c[1-2]", cpu_mhz: 2000, cores: 1}
      - {host: "d[1-2]", cpu_mhz: 750, cores: 1}
YAML
cat > "$T/job.yaml" <<YAML
name: uniform-star
program: $PWD/$BUILD/examples/synthetic
args: ["--units", "120000", "--mean-us", "100", "--uniform", "--check"]
ranks: 9
runtime: {scheme: hetcomm}
YAML

# eff SCHEME: the simulated run's efficiency (and its result checked), in $eff
eff() {
	run_gs simulate "$T/job.yaml" --sites "$T/star.yaml" --scheme "$1" --json
	check_eq "simulate of the star with $1 exits 0" "$rc" 0
	check_eq "its result matches the sequential computation" \
		"$(printf '%s\n' "$out" | jq -r .state)" done
	eff=$(printf '%s\n' "$out" | jq -r .efficiency)
	echo "# $1: makespan $(printf '%s\n' "$out" | jq -r .makespan) s, efficiency $eff"
}

# SMPI times each block of the real computation on this host's CPU: another process here
# lengthens some of them, and the simulated run loses a few percent (0.964 and 0.966 quiet,
# 0.927 and 0.940 beside other work). What is claimed is what hetcomm reaches: the best of
# up to three runs.
het=0
for try in 1 2 3; do
	eff hetcomm
	het=$(awk -v a="$het" -v b="$eff" 'BEGIN { print (b > a ? b : a) }')
	awk -v e="$het" 'BEGIN { exit !(e >= 0.95) }' && break
done
check "hetcomm is within 5% of the divisible-load bound ($het, best of $try)" \
	awk -v e="$het" 'BEGIN { exit !(e >= 0.95) }'
check "the bound is a bound: efficiency at most 1 ($het)" \
	awk -v e="$het" 'BEGIN { exit !(e <= 1.0001) }'
eff gss
check "gss, blind to the speeds, does worse than hetcomm ($eff < $het)" \
	awk -v a="$eff" -v b="$het" 'BEGIN { exit !(a < b) }'
