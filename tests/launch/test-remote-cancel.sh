#!/bin/sh
# test-remote-cancel.sh — what the cleanup on a node (launch/sh/remote-cancel.sh, no tag)
# does with the process group recorded in DIR/.remote/HOST.pgid: a group proven the job's
# (its leader the user's hydra proxy, started when the file was written) is stopped with
# its members; a value of 1, this shell's own group, a group led by another program, and
# another proxy's group older than the file are each left alone with "gs-ignored PGID:
# why", and a sleeper of the same user in another group survives every case. The script
# runs in a PID namespace of its own (unshare), so that a wrong kill can reach nothing
# outside the test; as root.
. tests/lib.sh

if [ "$(id -u)" != 0 ] || ! unshare --pid --fork --mount-proc true 2>/dev/null; then
	skip remote-cancel "a PID namespace of its own needs root (unshare)"
	exit 0
fi
mkdir -p "$T/job/.remote" "$T/bin"
cp "$(command -v sleep)" "$T/bin/hydra_pmi_proxy"

# The scene, in the namespace: one "NAME VALUE" line per fact for the checks below.
cat > "$T/scene.sh" <<'SCENE'
T=$1 RC=$2
f=$T/job/.remote/n1.pgid
alive() {
	s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	s=${s##*) }
	[ "${s%% *}" != Z ]
}
cancel() {
	sh "$RC" "$T/job" n1 nomark "" 1 keep 2>"$T/err.$1" >/dev/null
	echo "$1-err $(cat "$T/err.$1")"
}
setsid sleep 60 &
by=$!
sleep 60 &
mine=$!

echo 1 > "$f"
cancel one
echo "one-bystander $(alive $by && echo alive)"
echo "one-own $(alive $mine && echo alive)"

# the cleanup run from a group of its own, recorded as the job's
setsid sh -c 'echo $$ > "$0"; exec sh "$1" "$2" n1 nomark "" 1 keep' "$f" "$RC" \
    "$T/job" 2>"$T/err.self" >/dev/null
echo "self-err $(cat "$T/err.self")"
echo "self-own $(alive $mine && echo alive)"

setsid sh -c 'exec sleep 60' &
other=$!
sleep 0.2
echo "$other" > "$f"
cancel other
echo "other-leader $(alive $other && echo alive)"

setsid "$T/bin/hydra_pmi_proxy" 60 &
old=$!
sleep 0.2
echo "$old" > "$f"
touch -d '10 minutes ago' "$f"
cancel old
echo "old-leader $(alive $old && echo alive)"

setsid sh -c 'echo $$ > "$0"; sleep 60 & exec "$1" 60' "$f" "$T/bin/hydra_pmi_proxy" &
job=$!
i=0
while [ "$(cat /proc/$job/comm 2>/dev/null)" != hydra_pmi_proxy ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
member=$(cat /proc/$job/task/$job/children 2>/dev/null)
member=${member%% *}
echo "job-member $(alive "$member" && echo alive)"
cancel job
sleep 0.2
echo "job-leader $(alive $job && echo alive)"
echo "job-member-after $(alive "$member" && echo alive)"
echo "job-file $( [ -e "$f" ] && echo kept)"
echo "end-bystander $(alive $by && echo alive)"
echo "end-own $(alive $mine && echo alive)"
SCENE
unshare --pid --fork --mount-proc sh "$T/scene.sh" "$T" "$SRC/launch/sh/remote-cancel.sh" \
    > "$T/facts" 2>&1
fact() {
	sed -n "s/^$1 //p" "$T/facts"
}

check_match "a pgid file of 1: ignored, saying why" "$(fact one-err)" \
    "^gs-ignored 1: not a job's group"
check_eq "a pgid file of 1: a sleeper of the same user in another group survives" \
    "$(fact one-bystander)" alive
check_eq "a pgid file of 1: the caller's own group survives" "$(fact one-own)" alive
check_match "the cleanup shell's own group: ignored, saying why" "$(fact self-err)" \
    "^gs-ignored [0-9]+: this shell's own group"
check_eq "the cleanup shell's own group: the caller survives" "$(fact self-own)" alive
check_match "another program's group: ignored, saying why" "$(fact other-err)" \
    "^gs-ignored [0-9]+: its leader is not a hydra proxy"
check_eq "another program's group survives" "$(fact other-leader)" alive
check_match "another proxy's group, older than the file: ignored, saying why" \
    "$(fact old-err)" "^gs-ignored [0-9]+: its leader did not start when the file was"
check_eq "another proxy's group survives" "$(fact old-leader)" alive
check_eq "the job's group: its member ran before" "$(fact job-member)" alive
check_eq "the job's group: nothing said" "$(fact job-err)" ""
check_eq "the job's group: its leader is stopped" "$(fact job-leader)" ""
check_eq "the job's group: its member is stopped" "$(fact job-member-after)" ""
check_eq "the job's group: its record is dropped" "$(fact job-file)" ""
check_eq "after all: the sleeper in another group survives" "$(fact end-bystander)" alive
check_eq "after all: the caller's own group survives" "$(fact end-own)" alive
