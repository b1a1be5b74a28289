#!/bin/sh
# simulate-testbed.sh — does a simulation predict the testbed? (doc/simulate.md,
# "Validation"; issue 17; run by bench-simulate-testbed.sh, in the test format of
# tests/lib.sh): the same job on the same site file, run on the emulated testbed
# and simulated on the testbed's derived site file (which carries the CPU quotas `testbed up`
# applied), gives makespans within 15% of each other, and the two schemes come in the same
# order. The tiger and lanwlan testbeds, mandelbrot of 1024 x 1024 with each site file's job
# (tss against static on tiger, pure self-scheduling against static on lanwlan: pairs
# apart by a fifth or more, so that their order is not noise; not gss against static on
# tiger, within 5% of each other once the simulation counts each rank's first contact;
# not PWD, whose partition follows the speeds it samples in its first few rows, different
# from run to run); the testbed's makespan is the median
# of three runs (its CPU quotas and links carry some noise), the simulation's is one run
# (it measures CPU time, not wall time: what else runs here does not change it).
. tests/lib.sh

need_testbed "simulate against the testbed" sshd ssh-keygen tc prometheus-node-exporter || exit 0
need_smpi "simulate against the testbed" mandelbrot || exit 0

# makespan ID: the job's makespan from its status
makespan() {
	"$GS" status "$1" --json | jq -r .makespan
}

# median A B C
median() {
	printf '%s\n' "$@" | sort -g | sed -n 2p
}

# compare SITES JOB SIZE SCHEME...: every scheme on the testbed (3 runs) and simulated, with
# the makespans within 15%; sets the pairs "scheme testbed simulated" in $pairs
compare() {
	c_sites=$1 c_job=$2 c_size=$3
	shift 3
	testbed_up "sites/$c_sites.yaml" "testbed up of $c_sites" || return 1
	sed -e "s|\"--size\", \"[0-9]*\"|\"--size\", \"$c_size\"|" \
	    -e "s|^program: .*|program: $PWD/$BUILD/examples/mandelbrot|" \
	    -e '/^stage_out:/d' -e 's|, "--out", "mandelbrot.pgm"||' \
	    "examples/mandelbrot/$c_job" > "$T/$c_sites-job.yaml"
	pairs=""
	for c_s in "$@"; do
		c_m=""
		for c_i in 1 2 3; do
			run_gs run "$T/$c_sites-job.yaml" --sites "$TB/sites.yaml" --scheme "$c_s" -q
			check_eq "$c_sites: $c_s on the testbed, run $c_i, exits 0" "$rc" 0
			c_m="$c_m $(makespan "$("$GS" list --format id | tail -n 1)")"
		done
		# shellcheck disable=SC2086 # three numbers
		c_tb=$(median $c_m)
		run_gs simulate "$T/$c_sites-job.yaml" --sites "$TB/sites.yaml" --scheme "$c_s" --json
		check_eq "$c_sites: $c_s simulated exits 0" "$rc" 0
		c_sim=$(printf '%s\n' "$out" | jq -r .makespan)
		echo "# $c_sites $c_s: testbed$c_m (median $c_tb s), simulated $c_sim s"
		check "$c_sites: $c_s simulated within 15% of the testbed ($c_sim against $c_tb)" \
			awk -v a="$c_sim" -v b="$c_tb" \
			'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.15 * b) }'
		pairs="$pairs$c_s $c_tb $c_sim
"
	done
	run_gs testbed down "sites/$c_sites.yaml"
}

# same_order: the schemes rank the same by testbed and by simulated makespan
same_order() {
	[ "$(printf '%s' "$pairs" | sort -g -k2 | cut -d' ' -f1)" = \
	  "$(printf '%s' "$pairs" | sort -g -k3 | cut -d' ' -f1)" ]
}

if compare tiger job-tiger.yaml 1024 tss static; then
	check "tiger: the schemes come in the same order" same_order
fi
if compare lanwlan job-lanwlan.yaml 1024 pss static; then
	check "lanwlan: the schemes come in the same order" same_order
fi
