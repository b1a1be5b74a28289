#!/bin/sh
# test-examples.sh — every example of examples/ at a small size under every scheme with
# mpiexec -n 4 (synthetic: under a few, with -n 3 as in bench-race.sh): exit 0 and the
# summary line saying the result matches the sequential computation; the task examples
# (ep, ssa) with -n 5, also with every task moved every step (GRT_MIGRATION=rotate), which
# must change no bit of their results. Then runs that must
# fail: a unit's result corrupted on purpose (--corrupt-unit) must be caught by the check,
# and bad arguments must give status 2.
# Sizes are small so the whole file stays well under a minute on two shared cores.
. tests/lib.sh

SCHEMES="static wstatic pss css gss fss tss ngss angss pwd hetcalc hetcomm"
RUN="timeout -k 5 60 $MPIEXEC -n 4"

for p in mandelbrot matmul apriori codesign synthetic ep ssa; do
	if [ ! -x "$BUILD/examples/$p" ]; then
		fail "examples: $BUILD/examples/$p is not built (run make)"
		exit 0
	fi
done

# ex NAME REGEX VAR=VALUE... -- PROGRAM ARGS...: run under env, expect status 0 and REGEX
# in stdout; on failure show the output
ex() {
	name=$1 want=$2
	shift 2
	env "$@" > "$T/out" 2> "$T/err"
	st=$?
	o=$(cat "$T/out")
	if [ "$st" -eq 0 ] && printf '%s\n' "$o" | grep -Eq -- "$want"; then
		pass "$name"
	else
		fail "$name"
		echo "#   command: $*"
		echo "#   status: $st"
		sed -e 's/^/#   out: /' "$T/out" | tail -n 5
		sed -e 's/^/#   err: /' "$T/err" | tail -n 10
	fi
}

# the parameter a scheme needs: css chunk size, pwd SWR measured from samples
scheme_env() {
	case $1 in
	css) echo GRT_K=4 ;;
	pwd) echo GRT_SWR=auto ;;
	*) echo GRT_K=1 ;;
	esac
}

for s in $SCHEMES; do
	e=$(scheme_env "$s")
	ex "mandelbrot 64 $s" "scheme $s, 4 ranks.*image matches the sequential" \
	    $e $RUN "$BUILD/examples/mandelbrot" --size 64 --iter 200 --check --scheme "$s"
	ex "matmul form a 64 $s" "form a, order 64, 4 rounds.*scheme $s,.*C matches the sequential" \
	    $e $RUN "$BUILD/examples/matmul" --form a --n 64 --bcols 16 --scheme "$s"
	ex "matmul form b 64 $s" "form b, order 64, scheme $s,.*C matches the sequential" \
	    $e $RUN "$BUILD/examples/matmul" --form b --n 64 --scheme "$s"
	ex "apriori D1000 $s" "5 passes, 331 frequent.*scheme $s,.*itemsets match the sequential" \
	    $e $RUN "$BUILD/examples/apriori" --d 1000 --block 10 --items 200 --patterns 200 \
	    --minsup 0.03 --scheme "$s"
	ex "codesign 81x3 $s" "81 combinations.*3 rounds, scheme $s,.*estimates match the sequential" \
	    $e $RUN "$BUILD/examples/codesign" --fu-max 3 --ops 40 --rounds 3 --scheme "$s"
done

# the scheme and the rounds from the environment gridsubmit sets (job file runtime: keys)
ex "matmul: scheme from GRT_SCHEME" "scheme tss,.*C matches" \
    GRT_SCHEME=tss $RUN "$BUILD/examples/matmul" --n 50 --bcols 20
ex "codesign: rounds from GRT_ROUNDS" "2 rounds, scheme fss,.*estimates match" \
    GRT_SCHEME=fss GRT_ROUNDS=2 $RUN "$BUILD/examples/codesign" --fu-max 2 --ops 30
# the master computing too: pack() output handed to compute() on rank 0
ex "matmul form a, master computes" "C matches" GRT_MASTER_COMPUTES=1 \
    $RUN "$BUILD/examples/matmul" --n 48 --bcols 7 --scheme gss
ex "apriori, master computes" "itemsets match" GRT_MASTER_COMPUTES=1 \
    $RUN "$BUILD/examples/apriori" --d 500 --block 7 --items 100 --patterns 100 --minsup 0.03
ex "codesign, master computes, hetcomm" "estimates match" GRT_MASTER_COMPUTES=1 \
    $RUN "$BUILD/examples/codesign" --fu-max 2 --ops 30 --rounds 3 --scheme hetcomm
# one transaction per unit, and a block size that does not divide D
ex "apriori, one transaction per unit" "itemsets match" \
    $RUN "$BUILD/examples/apriori" --d 300 --block 1 --items 50 --patterns 50 --minsup 0.05 \
    --scheme fss
ex "apriori, ragged last block" "itemsets match" \
    $RUN "$BUILD/examples/apriori" --d 1003 --block 10 --items 200 --patterns 200 --minsup 0.03
# order not a multiple of the block of columns; slowed ranks
ex "matmul form a, ragged last block, slowed" "6 rounds of 9 columns.*C matches" \
    $RUN "$BUILD/examples/matmul" --n 50 --bcols 9 --slow 1:2,3:3 --scheme hetcomm

# synthetic: 3 ranks (a master and two workers, as in bench-race.sh) under a few schemes,
# slowed ranks (the repeats must not change a result), rounds, the master computing
SYN="timeout -k 5 60 $MPIEXEC -n 3 $BUILD/examples/synthetic --units 3000 --mean-us 5 --check"
for s in gss pss static; do
	ex "synthetic 3000 $s, 3 ranks" "3000 units x 1 rounds.*scheme $s, 3 ranks.*result matches" \
	    $SYN --scheme "$s" --slow 2:3
done
ex "synthetic, master computes" "scheme gss, 3 ranks.*result matches" GRT_MASTER_COMPUTES=1 \
    $SYN --slow 1:2
ex "synthetic, master computes, pss" "scheme pss,.*result matches" GRT_MASTER_COMPUTES=1 \
    $SYN --scheme pss
ex "synthetic, 3 rounds, hetcomm" "x 3 rounds.*scheme hetcomm,.*result matches" \
    $SYN --rounds 3 --scheme hetcomm
ex "synthetic: rounds from GRT_ROUNDS" "x 2 rounds, .*scheme fss,.*result matches" \
    GRT_SCHEME=fss GRT_ROUNDS=2 $SYN --seed 7
ex "synthetic: the rate given, not measured" "\\(seed 1, 50\\.0 iterations/us\\).*result matches" \
    $SYN --iters-per-us 50

# ep and ssa: migratable tasks (grt_tasks_run) with -n 5: a master and four workers.
# rotate (tests only) moves every task after every step; the results must not change.
RUN5="timeout -k 5 60 $MPIEXEC -n 5"
EP="$BUILD/examples/ep --steps 20 --pairs 20000 --check"
ex "ep, 4 tasks, no migration" \
    "^ep: 4 tasks x 20 steps x 20000 pairs.*migration none, 5 ranks.* 0 migrations.*result matches" \
    $RUN5 $EP
ex "ep, a spare: one task fewer" "^ep: 3 tasks .*migration none, 5 ranks.*result matches" \
    GRT_SPARE=1 $RUN5 $EP
ex "ep, 9 tasks on 4 workers" "^ep: 9 tasks .*result matches" $RUN5 $EP --tasks 9
ex "ep, every task moved every step, 64 KiB states" \
    "state 64 KiB\), migration rotate,.* [1-9][0-9]* migrations.*result matches" \
    GRT_MIGRATION=rotate GRT_SPARE=1 $RUN5 $EP --state-kb 64
ex "ep, moves and checkpoints" "migration rotate,.* [1-9][0-9]* migrations.*result matches" \
    GRT_MIGRATION=rotate GRT_CHECKPOINT_EVERY=3 $RUN5 $EP --tasks 6
ex "ep, load-diff and a spare, 2 workers per task" "migration load-diff,.*result matches" \
    GRT_MIGRATION=load-diff GRT_SPARE=2 $RUN5 $EP
# the same seed and tasks give the same counts and sums whatever the placement
ep_sums() {
	sed -n 's/.*gaussians, \(counts .*, sy [^,]*\),.*/\1/p' "$T/out"
}
$RUN5 $EP --tasks 5 --seed 3 > "$T/out" 2>&1
a=$(ep_sums)
GRT_MIGRATION=rotate $RUN5 $EP --tasks 5 --seed 3 > "$T/out" 2>&1
b=$(ep_sums)
check_match "ep: counts and sums printed" "$a" "^counts( [0-9]+){10}, sx -?[0-9.e+-]+, sy -?[0-9.e+-]+$"
check_eq "ep: moves change no count or sum" "$b" "$a"

SSA="$BUILD/examples/ssa --particles 60 --steps 30 --check"
ex "ssa, 4 tasks, no migration" \
    "^ssa: 60 particles, 4 tasks x 30 steps.*migration none, 5 ranks.*energy [0-9.]+ .*result matches" \
    $RUN5 $SSA
ex "ssa, 7 tasks on 4 workers" "^ssa: 60 particles, 7 tasks .*result matches" \
    $RUN5 $SSA --tasks 7
ex "ssa, one task" "^ssa: 60 particles, 1 tasks .*result matches" $RUN5 $SSA --tasks 1
ex "ssa, every task moved every step" \
    "migration rotate,.* [1-9][0-9]* migrations.*result matches" \
    GRT_MIGRATION=rotate GRT_SPARE=1 $RUN5 $SSA --tasks 3
ex "ssa, moves and checkpoints" "migration rotate,.* [1-9][0-9]* migrations.*result matches" \
    GRT_MIGRATION=rotate GRT_CHECKPOINT_EVERY=4 $RUN5 $SSA --tasks 5
# the final energy, with 17 digits, is the same bits with and without moves
ssa_energy() {
	sed -n 's/.*, energy \([^ ]*\) (start.*/\1/p' "$T/out"
}
$RUN5 $SSA --tasks 3 --seed 5 > "$T/out" 2>&1
a=$(ssa_energy)
GRT_MIGRATION=rotate GRT_SPARE=1 $RUN5 $SSA --tasks 3 --seed 5 > "$T/out" 2>&1
b=$(ssa_energy)
check_match "ssa: energy printed with 17 digits" "$a" "^[0-9]+\.[0-9]+$"
check_eq "ssa: energy bit-identical with every task moved every step" "$b" "$a"
# annealing lowers the energy: 30 particles end near the best known 359.6039
$RUN5 "$BUILD/examples/ssa" --particles 30 --steps 400 > "$T/out" 2>&1
check_match "ssa: 30 particles anneal to about 359.60" "$(ssa_energy)" "^359\.6[0-2]"

# broken on purpose: the check must catch one corrupted unit, exit 1 and say so
broken() {
	name=$1
	shift
	$RUN "$@" > "$T/out" 2> "$T/err"
	st=$?
	check_eq "$name: exit status" "$st" 1
	check_match "$name: says wrong result" "$(cat "$T/err")" "wrong result"
	check_match "$name: summary says WRONG" "$(cat "$T/out")" "WRONG"
}
broken "matmul form a, corrupted row 5" "$BUILD/examples/matmul" --n 64 --bcols 16 \
    --corrupt-unit 5
broken "matmul form b, corrupted row 63" "$BUILD/examples/matmul" --form b --n 64 \
    --corrupt-unit 63 --scheme pss
broken "apriori, corrupted block 3" "$BUILD/examples/apriori" --d 1000 --block 10 \
    --items 200 --patterns 200 --minsup 0.03 --corrupt-unit 3
broken "codesign, corrupted combination 7" "$BUILD/examples/codesign" --fu-max 3 --ops 40 \
    --rounds 2 --corrupt-unit 7 --scheme hetcalc
broken "synthetic, corrupted unit 2999" "$BUILD/examples/synthetic" --units 3000 \
    --mean-us 5 --check --corrupt-unit 2999 --scheme gss
broken "synthetic, 2 rounds, corrupted unit 0" "$BUILD/examples/synthetic" \
    --units 500 --mean-us 5 --rounds 2 --check --corrupt-unit 0 --scheme pss
broken "ep, corrupted task 2" "$BUILD/examples/ep" --steps 10 --pairs 5000 --check \
    --corrupt-task 2
broken "ep, corrupted task 0, moved every step" env GRT_MIGRATION=rotate \
    "$BUILD/examples/ep" --steps 10 --pairs 5000 --check --tasks 5 --corrupt-task 0
broken "ssa, corrupted task 1" "$BUILD/examples/ssa" --particles 40 --steps 10 --check \
    --corrupt-task 1
# without the check a corrupted run is not reported as matching
ex "matmul --no-check says not checked" "C not checked" \
    $RUN "$BUILD/examples/matmul" --n 32 --no-check --corrupt-unit 1

# usage errors: status 2 and a message naming the argument
for p in "matmul --form c" "matmul --n 0" "apriori --minsup 2" "codesign --fu-max 0" \
    "matmul --scheme nosuch" "apriori --slow 1:x" "codesign --bogus" "synthetic --units 0" \
    "synthetic --mean-us x" "synthetic --rounds 1.5" "synthetic --scheme nosuch" \
    "ep --pairs 0" "ep --state-kb 32769" "ep --corrupt-task 99" "ep --scheme gss" \
    "ssa --particles 1" "ssa --tasks 0" "ssa --particles 3 --tasks 4" "ssa --steps x"; do
	set -- $p
	prog=$1
	shift
	timeout -k 5 30 $MPIEXEC -n 2 "$BUILD/examples/$prog" "$@" > "$T/out" 2> "$T/err"
	st=$?
	check_eq "$p: usage status" "$st" 2
	check_match "$p: message" "$(cat "$T/err")" "^$prog: (bad argument|unknown scheme)"
done
GRT_SCHEME=nosuch timeout -k 5 30 $MPIEXEC -n 2 "$BUILD/examples/matmul" > "$T/out" 2> "$T/err"
check_eq "matmul: bad GRT_SCHEME: status" "$?" 2
check_match "matmul: bad GRT_SCHEME: message" "$(cat "$T/err")" "bad GRT_SCHEME"
GRT_PREFETCH=maybe timeout -k 5 30 $MPIEXEC -n 2 "$BUILD/examples/synthetic" --units 10 \
    > "$T/out" 2> "$T/err"
check_eq "synthetic: bad GRT_PREFETCH: status" "$?" 2
check_match "synthetic: bad GRT_PREFETCH: message" "$(cat "$T/err")" "bad GRT_PREFETCH"
GRT_T0=yesterday timeout -k 5 30 $MPIEXEC -n 2 "$BUILD/examples/synthetic" --units 10 \
    > "$T/out" 2> "$T/err"
check_eq "synthetic: bad GRT_T0: status" "$?" 2
check_match "synthetic: bad GRT_T0: message" "$(cat "$T/err")" "bad GRT_T0"
GRT_JOURNAL=$T/no/such/dir/journal timeout -k 5 30 $MPIEXEC -n 2 \
    "$BUILD/examples/synthetic" --units 10 > "$T/out" 2> "$T/err"
check_eq "synthetic: a journal that cannot be made: status" "$?" 1
check_match "synthetic: a journal that cannot be made: names it" "$(cat "$T/err")" \
    "$T/no/such/dir/journal: No such file or directory"

# the generator: D lines, deterministic, sorted distinct items per line
check "apriori --generate writes D transactions" \
    timeout -k 5 30 $MPIEXEC -n 1 "$BUILD/examples/apriori" --d 500 --generate "$T/db1.txt"
timeout -k 5 30 $MPIEXEC -n 1 "$BUILD/examples/apriori" --d 500 --generate "$T/db2.txt"
check_eq "apriori --generate: 500 lines" "$(wc -l < "$T/db1.txt" | tr -d ' ')" 500
check "apriori --generate: deterministic" cmp "$T/db1.txt" "$T/db2.txt"
check_eq "apriori --generate: items sorted and distinct" \
    "$(awk '{ for (i = 2; i <= NF; i++) if ($i <= $(i-1)) bad++ } END { print bad + 0 }' \
    "$T/db1.txt")" 0
check_match "apriori --generate: average length near T5..I10" \
    "$(awk '{ n += NF } END { printf "%d\n", n / NR }' "$T/db1.txt")" '^([4-9]|1[0-2])$'
