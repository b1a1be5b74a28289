#!/bin/sh
# test-rank-ends.sh — the wrapper's end line (gridsubmit-rank --ends FILE, doc/restarts.md,
# "How each rank ended"): appended to FILE as the rank ends; and FILE is the one there when
# the rank started. gridsubmit removes DIR/rank-ends before each mpiexec, so a wrapper of a
# launch called off that ends after the relaunch began must not write into the relaunch's
# file (its signal would be taken for a relaunched rank's: the plain job failed though
# every rank of the relaunch exited 0). No MPI needed: the wrapper only reads PMI_RANK.
. tests/lib.sh

case $BUILD in
/*) B=$BUILD ;;
*) B=$SRC/$BUILD ;;
esac
RANKEXEC=$B/gridsubmit-rank
if [ ! -x "$RANKEXEC" ]; then
	fail "rank-ends: $RANKEXEC is built (run make)"
	exit 0
fi

# a rank that ends: its line, with its status
PMI_RANK=2 "$RANKEXEC" --ends "$T/ends" -- sh -c 'exit 3' 2> "$T/one.err"
check_eq "the wrapper ends with its program's status" "$?" 3
check_match "its line in the ends file: rank, host, exit status" "$(cat "$T/ends")" \
	"^2 [^ ]+ exit 3 [0-9.]+$"

# three ranks of the same launch: three lines, none torn
rm -f "$T/ends"
for r in 0 1 2; do
	PMI_RANK=$r "$RANKEXEC" --ends "$T/ends" -- sh -c "exit $r" 2>> "$T/three.err" &
done
wait
check_eq "three ranks: three lines" "$(wc -l < "$T/ends")" 3
check_eq "three ranks: each rank once" "$(cut -d' ' -f1 "$T/ends" | sort | tr '\n' ' ')" \
	"0 1 2 "

# the old launch's rank ends after its file was replaced (as launch_ends_reset does
# before the relaunch's mpiexec): its line does not reach the new file
rm -f "$T/ends"
PMI_RANK=1 "$RANKEXEC" --ends "$T/ends" -- sh -c ': > "$0"; sleep 1; kill -9 $$' \
	"$T/started" 2> "$T/old.err" &
old=$!
poll 5 test -e "$T/started"
rm -f "$T/ends"
: > "$T/ends"
PMI_RANK=1 "$RANKEXEC" --ends "$T/ends" -- sh -c 'exit 0' 2>> "$T/new.err"
wait $old
check_eq "the old launch's rank died of signal 9" "$?" 137
check_eq "the new file holds the relaunch's rank only" \
	"$(cut -d' ' -f1,3,4 "$T/ends")" "1 exit 0"
check_eq "nothing said on stderr but the old rank's death" \
	"$(cat "$T/one.err" "$T/three.err" "$T/new.err")" ""
check_match "the old rank's death said" "$(cat "$T/old.err")" "sh died of signal 9"

# an ends file that cannot be opened is said when the rank starts; the program still runs
PMI_RANK=4 "$RANKEXEC" --ends "$T/no/such/dir/ends" -- sh -c 'exit 0' 2> "$T/bad.err"
check_eq "an ends file that cannot be opened: the program's status still" "$?" 0
check_match "an ends file that cannot be opened: said, with its path" "$(cat "$T/bad.err")" \
	"^gridsubmit-rank: rank 4 on .*: $T/no/such/dir/ends: No such file or directory"
