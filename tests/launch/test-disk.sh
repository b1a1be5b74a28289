#!/bin/sh
# test-disk.sh — a job whose store's disk fills up or turns read-only mid-run (doc/restarts.md,
# "A full or read-only disk"), with real mpiexec jobs of examples/synthetic (--check) and the
# job store on a tmpfs of its own in a private mount namespace (root):
# - the master alone (mpiexec, its events off the disk): a filler file takes every free block
#   mid-run: the master exits 1 and its end record says failed, "no space left on device
#   writing JOURNAL", journal lost; no rank is left; run again with the filler removed, it
#   resumes from the committed records and the check passes;
# - full: once the job has results, a filler file takes every free block: the job ends
#   failed (run exits 1), the reason on stderr and in state.json names the error and the
#   job's directory, no restart is tried, no rank is left; the journal's committed records
#   replay: the filler removed, `gridsubmit resume ID` ends done with the check passing and
#   resumes units (the resume event's count is not zero);
# - read-only: the same on ext4 (a loop device) turned read-only mid-run by an error of its
#   own: the reason on stderr, state.json unchanged (nothing can be written), `status` says
#   the job is not running; the disk checked and mounted again, `resume` ends done with the
#   check passing.
# Each case runs REPEAT times (default 1; make soak's word `disk`).
. tests/lib.sh

[ "$(id -u)" -eq 0 ] || { skip "disk" "needs root (a tmpfs in a private mount namespace)"; exit 0; }
command -v jq >/dev/null 2>&1 || { skip "disk" "jq is not installed"; exit 0; }
command -v unshare >/dev/null 2>&1 || { skip "disk" "unshare is not installed (util-linux)"; exit 0; }
SYN="$SRC/$BUILD/examples/synthetic"
[ -x "$SYN" ] || { fail "disk: $SYN is not built"; exit 1; }

# the rest in a mount namespace of its own: the tmpfs is seen by this test alone
if [ -z "${GS_DISK_NS:-}" ]; then
	GS_DISK_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
mkdir -p "$GRIDSUBMIT_HOME"
mount -t tmpfs -o size=8m,mode=0700 gs-disk "$GRIDSUBMIT_HOME" ||
	{ fail "disk: cannot mount a tmpfs on $GRIDSUBMIT_HOME"; exit 1; }
at_exit "umount -l '$GRIDSUBMIT_HOME'"
at_exit sweep
J="$GRIDSUBMIT_HOME/jobs"

# job FILE SEED: a synthetic job of 3 ranks that runs for some seconds (the workers repeat
# each unit 3 times), named by its seed
job() {
	{
		echo "name: disk-$2"
		echo "program: \"$SYN\""
		echo "args: [\"--units\", \"60000\", \"--mean-us\", \"40\", \"--seed\", \"$2\", \"--check\", \"--slow\", \"1:3,2:3\"]"
		echo "ranks: 3"
		echo "runtime: {scheme: css, k: 2000}"
		echo "oversubscribe: true"
	} > "$1"
}

# chunks ID N: the job's events hold at least N chunk records
chunks() {
	[ "$(grep -c '"ev":"chunk"' "$J/$1/events.jsonl" 2>/dev/null)" -ge "$2" ]
}

# nothing_left ID SEED: no process of the job here
nothing_left() {
	gone "^$SYN --units 60000 --mean-us 40 --seed $2 " && gone "$J/$1/"
}

# resumed ID SEED WHAT: remove nothing, resume the job, check its end
resumed() {
	run_gs resume "$1"
	check_eq "$3: resume exits 0" "$rc" 0
	check_eq "$3: resumed: done" "$(jq -r .state "$J/$1/state.json")" done
	check_match "$3: resumed: the check passed" "$out" "result matches the sequential computation"
	check "$3: resumed: the journal's units were not computed again" \
		jq -nRe '[inputs | fromjson? | select(.ev == "resume") | .units] | any(. > 0)' \
		    "$J/$1/events.jsonl"
	check "$3: resumed: no process left" poll 10 nothing_left "$1" "$2"
}

# alone SEED: the synthetic program under mpiexec alone (as gridsubmit launches it), its
# journal on the tmpfs and its events in $T, off that disk
alone() {
	GRT_SCHEME=css GRT_K=2000 GRT_JOURNAL="$GRIDSUBMIT_HOME/alone-$1.journal" \
	    GRT_EVENTS="$T/alone-$1.jsonl" timeout -k 5 120 "$MPIEXEC" -disable-auto-cleanup \
	    -n 3 "$SYN" --units 60000 --mean-us 40 --seed "$1" --check --slow 1:3,2:3
}

for k in $(seq "${REPEAT:-1}"); do
	# --- the master itself: the first failed write of its journal ends the run, with the
	# file and the error in its end record, and what it committed resumes
	seed=$((500 + k))
	alone "$seed" > "$T/alone$k.out" 2>&1 &
	pid=$!
	at_exit "kill -9 $pid"
	poll 60 grep -q '"ev":"chunk"' "$T/alone-$seed.jsonl" || echo "# no chunk records in time"
	# and a record in the journal past its 24-byte header, so that there is something
	# committed to resume from (on an idle host the disk could fill before the first)
	poll 60 sh -c 'test "$(stat -c %s "$1" 2>/dev/null || echo 0)" -gt 24' sh \
	    "$GRIDSUBMIT_HOME/alone-$seed.journal" || echo "# no journal record in time"
	dd if=/dev/zero of="$GRIDSUBMIT_HOME/filler" bs=64k 2>/dev/null
	wait $pid
	check_eq "master ($k): exits 1" "$?" 1
	check_eq "master ($k): its end record: failed, the journal and the error" \
		"$(jq -c 'select(.ev == "end") | [.status, .error, .journal]' "$T/alone-$seed.jsonl")" \
		"[\"failed\",\"no space left on device writing $GRIDSUBMIT_HOME/alone-$seed.journal\",\"lost\"]"
	check "master ($k): no rank left" poll 10 gone "^$SYN --units 60000 --mean-us 40 --seed $seed "
	rm -f "$GRIDSUBMIT_HOME/filler"
	alone "$seed" > "$T/alone$k.out" 2>&1
	check_eq "master ($k): resumed: exits 0" "$?" 0
	check_match "master ($k): resumed: the check passed" "$(cat "$T/alone$k.out")" \
		"result matches the sequential computation"
	check "master ($k): resumed: from the committed records" \
		jq -se '[.[] | select(.ev == "resume") | .units] | any(. > 0)' "$T/alone-$seed.jsonl"
	rm -f "$GRIDSUBMIT_HOME/alone-$seed.journal"

	# --- a full disk
	seed=$((300 + k))
	job "$T/full$k.yaml" "$seed"
	id=$(next_id)
	timeout 300 "$GS" run --no-metrics "$T/full$k.yaml" > "$T/full$k.out" 2> "$T/full$k.err" &
	pid=$!
	at_exit "kill -9 $pid"
	poll 60 chunks "$id" 5 || echo "# job $id: no chunk records in time"
	dd if=/dev/zero of="$GRIDSUBMIT_HOME/filler" bs=64k 2>/dev/null
	wait $pid
	check_eq "full ($k): run exits 1" "$?" 1
	check_match "full ($k): the reason on stderr" "$(cat "$T/full$k.err")" \
		"^gridsubmit: rank 0 stopped: no space left on device writing (in )?$J/$id[/ ].*gridsubmit resume $id"
	check_eq "full ($k): state.json: failed, the reason, no restart" \
		"$(jq -c '[.state, (.reason | test("no space left on device writing (in )?.*/jobs/'"$id"'[/ ]")), .restarts]' \
		    "$J/$id/state.json")" '["failed",true,0]'
	# rank 0 stopped at the failed write rather than computing on unjournaled: no end
	# record of the failed launch says ok
	check "full ($k): the master stopped: no end record says ok" \
		jq -nRe '[inputs | fromjson? | select(.ev == "end") | .status] | all(. != "ok")' \
		    "$J/$id/events.jsonl"
	check "full ($k): no process left" poll 10 nothing_left "$id" "$seed"
	rm -f "$GRIDSUBMIT_HOME/filler"
	resumed "$id" "$seed" "full ($k)"

	# --- a read-only disk: ext4 on a loop device, turned read-only by an error of its own
	# (errors=remount-ro; a tmpfs refuses remount,ro while the job's files are open)
	RO="$T/ro$k"
	mkdir -p "$RO/home"
	truncate -s 32m "$RO/img" && mkfs.ext4 -q -m 0 "$RO/img" &&
		mount -o loop,errors=remount-ro "$RO/img" "$RO/home" ||
		{ fail "read-only ($k): cannot mount ext4 on a loop device"; continue; }
	at_exit "umount -l '$RO/home'"
	chmod 0700 "$RO/home"
	GRIDSUBMIT_HOME=$RO/home J=$RO/home/jobs
	export GRIDSUBMIT_HOME
	seed=$((400 + k))
	job "$T/ro$k.yaml" "$seed"
	id=$(next_id)
	timeout 300 "$GS" run --no-metrics "$T/ro$k.yaml" > "$T/ro$k.out" 2> "$T/ro$k.err" &
	pid=$!
	at_exit "kill -9 $pid"
	poll 60 chunks "$id" 5 || echo "# job $id: no chunk records in time"
	echo "test-disk" > "/sys/fs/ext4/$(basename "$(findmnt -no SOURCE "$RO/home")")/trigger_fs_error"
	wait $pid
	check_eq "read-only ($k): run exits 1" "$?" 1
	check_match "read-only ($k): the reason on stderr" "$(cat "$T/ro$k.err")" \
		"^gridsubmit: rank 0 stopped: read-only file system writing (in )?$J/$id[/ ].*gridsubmit resume $id"
	check "read-only ($k): no process left" poll 10 nothing_left "$id" "$seed"
	run_gs status "$id"
	check_match "read-only ($k): status: not running" "$out" "state: +failed \\(supervisor died\\)"
	# the disk back: checked and mounted again (what ext4 asks after an error)
	umount "$RO/home" && e2fsck -fy "$RO/img" >/dev/null 2>&1
	mount -o loop "$RO/img" "$RO/home"
	resumed "$id" "$seed" "read-only ($k)"
	umount "$RO/home"
	GRIDSUBMIT_HOME=$T/home J=$T/home/jobs
done
