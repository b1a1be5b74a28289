#!/bin/sh
# test-trust.sh — cancel and resume look only at the user's own processes, and the store
# refuses what others could have planted, from the command line. A sleeper of uid nobody
# whose argv names the job's master.status as a gridsubmit-rank of the job would (and
# whose environment names its events file) neither blocks `resume` ("still has a process")
# nor is signalled by `cancel`; a group-writable store is refused with its path and no
# job id taken; a state.json whose allocation login is an ssh option is refused by status
# and cancel naming the field, and nothing runs. As root (setpriv to nobody).
. tests/lib.sh

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
	skip trust "another uid's process needs root and setpriv (util-linux)"
	exit 0
fi
export GRIDSUBMIT_HOME="$T/home"

# a job that ends failed, so that resume would run it again
run_gs run -q --no-metrics -n 1 -- false
run_gs list --json
id=$(jq -r '.jobs[-1].id' "$T/.out")
dir=$T/home/jobs/$id
check_eq "a failed job to work on" "$(jq -r .state "$dir/state.json")" failed

# another user's sleeper that names the job's files in its argv and environment
# shellcheck disable=SC2016 # $0 is the inner shell's
setpriv --reuid=65534 --regid=65534 --clear-groups env "GRT_EVENTS=$dir/events.jsonl" \
    bash -c 'exec -a gridsubmit-rank sh -c "sleep 60; :" sh --status "$0" -- prog' \
    "$dir/master.status" &
theirs=$!
at_exit "kill -9 $theirs"
# sleeper_ready: the sleeper has become theirs: uid nobody, the job's file in its argv (a
# loaded host may take seconds to get there through setpriv, env and bash)
sleeper_ready() {
	[ "$(stat -c %u "/proc/$theirs")" = 65534 ] &&
	    grep -q gridsubmit-rank "/proc/$theirs/cmdline" &&
	    grep -q "$dir/master.status" "/proc/$theirs/cmdline"
}
check "the sleeper is another uid's and names the job's master.status" poll 60 sleeper_ready

run_gs cancel "$id"
check_eq "cancel: exit 0, nothing of the job found here" "$rc" 0
check "cancel: another uid's sleeper was not signalled" kill -0 "$theirs"
run_gs resume "$id"
check_eq "resume: not refused by another uid's process (the job ran again, failed)" \
    "$rc:$(grep -c 'still has' "$T/.err")" "1:0"
check "resume: the sleeper is still there" kill -0 "$theirs"

# a group-writable store: refused, named, no id taken
mkdir -m 0770 "$T/group"
chmod 0770 "$T/group"
GRIDSUBMIT_HOME=$T/group "$GS" run -q --no-metrics -n 1 -- true > "$T/g.out" 2> "$T/g.err"
check_eq "a group-writable store: refused (1)" "$?" 1
check_match "a group-writable store: its path and chmod g-w" "$(cat "$T/g.err")" \
    "$T/group: the job store is writable by its group.*chmod g-w"
check "a group-writable store: nothing made in it" test ! -e "$T/group/jobs"

# a state.json whose login is an ssh option: refused by the commands that read it
jq '.allocations = [{"site": "s", "login": "-oProxyCommand=touch '"$T"'/owned",
    "id": "12", "hosts": ["n1"], "state": "RUNNING"}]' "$dir/state.json" > "$T/state"
cp "$T/state" "$dir/state.json"
for c in status cancel resume; do
	run_gs "$c" "$id"
	check_match "$c of a state.json with an ssh option for a login: refused, the field named" \
	    "$rc $err" '^[1-9].*state.json: corrupt job state: "allocations"\[0\]\."login" is not a host name'
done
check "nothing ran from the planted login" test ! -e "$T/owned"
