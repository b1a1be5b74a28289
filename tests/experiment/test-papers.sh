#!/bin/sh
# test-papers.sh — the papers' shipped experiments (examples/experiments/, doc/experiments.md,
# "The papers' experiments"):
# - one file per figure of seed 002 (figs. 5 to 10) with the paper's program for that
#   figure (matmul 5-6, apriori 7-8, mandelbrot 9-10), seed 000's figs. 4-5 and 6-7, seed
#   001's section 5.2 (ep, ssa), fig. 3 (pingpong) and fig. 4;
# - every file passes `gridsubmit experiment FILE --dry-run` (exit 0, nothing created: no
#   results directory, no job id), with the expected number of points, half of them
#   simulated and half on the testbed;
# - every claim has an id, what it says and where the paper says it, quoting that paper
#   and the file's own figure or section; the weighted static of seed 002 is wstatic.
# The dry run reads the whole file: its claims, repeat per mode and site parameters are
# checked as a run would check them.
# Skipped when the SMPI builds are missing (SimGrid not installed).
. tests/lib.sh

need_smpi "papers' experiments" mandelbrot || exit 0
D=examples/experiments
export LC_ALL=C

# want FILE POINTS PROGRAM: FILE dry-runs with POINTS points of PROGRAM's job
want() {
	f=$D/$1
	check "$1: shipped" test -f "$f"
	[ -f "$f" ] || return
	check_match "$1: the job of $3" "$(grep '^job:' "$f")" "^job: \.\./$3/job"
	run_gs experiment --dry-run "$f"
	check_eq "$1: --dry-run exit 0" "$rc" 0
	[ "$rc" -eq 0 ] || printf '%s\n' "$err" | head -3
	check_eq "$1: $2 points" "$(printf '%s\n' "$out" | grep -c '^point ')" "$2"
	check_eq "$1: half of them simulated" \
	    "$(printf '%s\n' "$out" | grep -c '^point .*(runs [^,]*, mode simulate[;)]')" $(($2 / 2))
	check_eq "$1: half on the testbed" \
	    "$(printf '%s\n' "$out" | grep -c '^point .*(runs [^,]*, mode testbed[;)]')" $(($2 / 2))
}

# claims FILE SEED WHERE: every claim of FILE has id, says and paper, which quotes seed
# SEED at WHERE (the file's figure or section)
claims() {
	f=$D/$1
	[ -f "$f" ] || return
	ids=$(grep -c '^  - id: [a-z0-9-]*$' "$f")
	check "$1: has claims" test "$ids" -gt 0
	check_eq "$1: every claim says something" "$(grep -c '^    says: "' "$f")" "$ids"
	check_eq "$1: every claim quotes the paper at its figure" \
	    "$(grep -c "^    paper: \"seed $2, \\(.*\\)\\?$3" "$f")" "$ids"
	check_eq "$1: ids unique" "$(grep '^  - id:' "$f" | sort -u | wc -l)" "$ids"
	check_eq "$1: repeat per mode" "$(grep -c '^repeat: {testbed: 5, simulate: 20}$' "$f")" 1
}

want seed002-fig5.yaml 22 matmul
want seed002-fig6.yaml 56 matmul
want seed002-fig7.yaml 22 apriori
want seed002-fig8.yaml 56 apriori
want seed002-fig9.yaml 22 mandelbrot
want seed002-fig10.yaml 56 mandelbrot
want seed000-fig4-5.yaml 24 codesign
want seed000-fig6-7.yaml 30 matmul
want seed001-sec52-ep.yaml 12 ep
want seed001-sec52-ssa.yaml 16 ssa
want seed001-fig3.yaml 16 pingpong
want seed001-fig4.yaml 12 ep
check_eq "dry runs: no job id taken" "$(next_id)" 1
check "dry runs: no results directory" test ! -d "$GRIDSUBMIT_HOME/experiments"

for n in 5 6 7 8 9 10; do
	claims seed002-fig$n.yaml 002 "fig\\. $n"
done
claims seed000-fig4-5.yaml 000 "fig\\. [45]"
claims seed000-fig6-7.yaml 000 "fig\\. [67]"
claims seed001-sec52-ep.yaml 001 "5\\.2"
claims seed001-sec52-ssa.yaml 001 "5\\.2"
claims seed001-fig3.yaml 001 "fig\\. 3"
claims seed001-fig4.yaml 001 "fig\\. 4"
check_eq "seed 002's comparisons: weighted static, never block static" \
    "$(grep -l 'scheme: \[wstatic,' $D/seed002-fig6.yaml $D/seed002-fig8.yaml \
    $D/seed002-fig10.yaml | wc -l)" 3
check_eq "no other experiment file" "$(ls $D/*.yaml | wc -l)" 12
