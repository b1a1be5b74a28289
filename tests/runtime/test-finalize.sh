#!/bin/sh
# test-finalize.sh — the plain programs' MPI_Finalize (runtime/finalize/grt-finalize.c,
# preloaded by gridsubmit-rank) on this host, under real mpiexec launched as gridsubmit
# launches (the wrapper, -disable-auto-cleanup, GRT_FINALIZE=skip) over UCX's tcp transport,
# where MPICH 4.0.2's own MPI_Finalize hangs in most runs (doc/reliability.md): pi on 4
# ranks ends every time with the right result; MPI_Finalize returns MPI_SUCCESS and
# MPI_Finalized says 1 after it; without GRT_FINALIZE the real PMPI_Finalize runs; a program
# that is not an MPI program runs with the library preloaded, after the job's own
# LD_PRELOAD; a wrapper without the library beside it runs the program without it; a libgrt
# program never calls MPI_Finalize under GRT_FINALIZE=skip.
# serial: finalize (its processes are reaped by name; by their environment, so that a pi of
# test-plain.sh or test-pi.sh beside it is not)
. tests/lib.sh

case $BUILD in
/*) B=$BUILD ;;
*) B=$SRC/$BUILD ;;
esac
PI=$B/examples/pi
MANDEL=$B/examples/mandelbrot
CHECK=$B/tests/runtime/mpi/finalize-check
RANKEXEC=$B/gridsubmit-rank
LIB=$B/libgridsubmit-finalize.so
for f in "$PI" "$MANDEL" "$CHECK" "$RANKEXEC" "$LIB"; do
	if [ ! -e "$f" ]; then
		fail "finalize: $f is built (run make tests)"
		exit 0
	fi
done
at_exit "own '$PI' | xargs -r kill -KILL; own '$CHECK' | xargs -r kill -KILL"
unset GRT_FINALIZE LD_PRELOAD

# gsrun N WRAPPER PROGRAM ARGS...: N ranks as gridsubmit launches them, over tcp; output in
# $out, status in $rc (124 or 137: it did not end within 20 s)
gsrun() {
	gn=$1 gw=$2
	shift 2
	UCX_TLS=self,tcp GRT_FINALIZE=skip timeout -k 2 20 "$MPIEXEC" -disable-auto-cleanup \
	    -n "$gn" "$gw" -- "$@" > "$T/.out" 2>&1
	rc=$?
	out=$(cat "$T/.out")
}

# --- 1. pi over tcp: 10 runs, every one ends with status 0 and the right value (without
# the library 7 of 10 such runs hung here)
ends=0 why=""
for i in 1 2 3 4 5 6 7 8 9 10; do
	gsrun 4 "$RANKEXEC" "$PI" --n 1000000
	if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'matches M_PI$'; then
		ends=$((ends + 1))
	else
		why="$why
run $i: status $rc: $(printf '%s\n' "$out" | tail -n 3 | tr '\n' '|')"
	fi
done
check_eq "pi on 4 ranks over tcp, as gridsubmit launches: 10 of 10 runs end, status 0, pi right" \
    "$ends" 10
[ -n "$why" ] && printf '%s\n' "$why" | sed -n 's/^./#   &/p'
check_eq "no pi is left" "$(own "$PI")" ""

# --- 2. what the program sees: MPI_Finalize returns MPI_SUCCESS, MPI_Finalized says 1,
# and MPI itself was not finalized (the interposer ended the rank)
gsrun 4 "$RANKEXEC" "$CHECK"
check_eq "finalize-check under GRT_FINALIZE=skip: exit 0" "$rc" 0
check_eq "every rank returns from MPI_Finalize with MPI_SUCCESS and MPI_Finalized 1" \
    "$(printf '%s\n' "$out" | grep -c '^finalize-check: rank [0-3] sum 6 finalize 0 finalized 1 pmpi 0$')" 4

# --- 3. without GRT_FINALIZE (a plain mpiexec, shared memory) the real MPI_Finalize runs
out=$(LD_PRELOAD=$LIB timeout -k 2 20 "$MPIEXEC" -n 2 "$CHECK" 2>&1)
check_eq "finalize-check preloaded, no GRT_FINALIZE: exit 0" "$?" 0
check_eq "every rank finalized by MPI itself (PMPI_Finalized 1)" \
    "$(printf '%s\n' "$out" | grep -c '^finalize-check: rank [01] sum 1 finalize 0 finalized 1 pmpi 1$')" 2

# --- 4. a program that is not an MPI program, with the library and the job's own preload
gsrun 2 "$RANKEXEC" /bin/sh -c 'echo "preload=$LD_PRELOAD"; exit 0'
check_eq "/bin/sh through the wrapper: exit 0" "$rc" 0
check_eq "its LD_PRELOAD is the library beside the wrapper" \
    "$(printf '%s\n' "$out" | sort -u)" "preload=$LIB"
out=$(LD_PRELOAD=libm.so.6 UCX_TLS=self,tcp GRT_FINALIZE=skip timeout -k 2 20 "$MPIEXEC" \
    -disable-auto-cleanup -n 1 "$RANKEXEC" -- /bin/sh -c 'echo "preload=$LD_PRELOAD"' 2>&1)
check_eq "the job's own LD_PRELOAD comes first, the library after it" "$out" \
    "preload=libm.so.6:$LIB"

# --- 5. a wrapper without the library beside it: the program runs, nothing preloaded
mkdir -p "$T/alone"
cp "$RANKEXEC" "$T/alone/gridsubmit-rank"
gsrun 1 "$T/alone/gridsubmit-rank" /bin/sh -c 'echo "preload=[$LD_PRELOAD]"'
check_eq "a wrapper alone runs its program without a preload" "$rc.$out" "0.preload=[]"

# --- 6. a libgrt program under GRT_FINALIZE=skip never calls MPI_Finalize (ld.so binds a
# function on its first call and says so with LD_DEBUG=bindings); pi does
gsrun 3 "$RANKEXEC" env LD_DEBUG=bindings "$MANDEL" --size 64
check_eq "mandelbrot (libgrt) under GRT_FINALIZE=skip: exit 0" "$rc" 0
check_eq "mandelbrot never calls MPI_Finalize" \
    "$(printf '%s\n' "$out" | grep -c "normal symbol \`MPI_Finalize'")" 0
gsrun 3 "$RANKEXEC" env LD_DEBUG=bindings "$PI" --n 1000
check_eq "pi's MPI_Finalize is the library's, on each of its 3 ranks" \
    "$(printf '%s\n' "$out" | grep -c "to $LIB \[0\]: normal symbol \`MPI_Finalize'")" 3
