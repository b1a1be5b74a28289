#!/bin/sh
# test-staging.sh — staging for real (root): a testbed with nodes that do not share this
# host's files (emulate: {private_fs: true}); mandelbrot on 2 sites with such a node: the
# node lacks the program and the job store before the job, gets the program,
# gridsubmit-rank with its finalize library and the stage_in file copied into ~/.gridsubmit/jobs/NAME, computes
# chunks there, the image is the one of a local run, outputs written by remote ranks come
# back by the documented rule, and nothing stays on the node after success, cancel (of
# `run` and of a submitted job) or failure; a node whose disk is full, or whose home is
# read-only, gets one clear error and is replaced (or the job fails fast when it cannot
# do without it), leaving no process behind; `down` leaves no mount.
# serial: testbed-a (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "staging" sshd scp tc prometheus-node-exporter jq cmp sha256sum || exit 0
MANDEL=$SRC/$BUILD/examples/mandelbrot
RANKEXEC=$SRC/$BUILD/gridsubmit-rank
FINLIB=$SRC/$BUILD/libgridsubmit-finalize.so
if [ ! -x "$MANDEL" ]; then
	skip "staging" "$MANDEL is not built"
	exit 0
fi

# near: a node sharing this host's files; far: two that do not (stf2, slower, is the spare)
SITES=$T/st2.yaml
cat > "$SITES" <<'EOF'
sites:
  - name: near
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: stn1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
  - name: far
    link: {bandwidth_mbps: 20, latency_ms: 1}
    nodes:
      - {host: stf1, cpu_mhz: 2000, cores: 1, mem_mb: 256, emulate: {private_fs: true}}
      - {host: stf2, cpu_mhz: 1000, cores: 1, mem_mb: 256, emulate: {private_fs: true}}
EOF
# nsfs: the namespaces' own mounts (ip netns), of this testbed and of anything else running
mounts_before=$(grep -vc ' - nsfs ' /proc/self/mountinfo)
tmpfs_before=$(grep -c ' - tmpfs ' /proc/self/mountinfo)
testbed_up "$SITES" "testbed up with private_fs nodes" || exit 0
NSS="gs-$TAG-stn1 gs-$TAG-stf1 gs-$TAG-stf2"
check "the derived site file keeps private_fs" grep -q 'private_fs: true' "$TB/sites.yaml"
check_eq "the private views mount nothing here" "$(grep -c ' - tmpfs ' /proc/self/mountinfo)" \
	"$tmpfs_before"

# on NODE COMMAND: a shell command on a node, over the testbed's ssh_config
on() {
	h=$1
	shift
	ssh -F "$TB/ssh_config" -o BatchMode=yes -o ConnectTimeout=5 -o ControlPath=none \
		"$h" "$*"
}
# last_job: the newest job directory
last_job() {
	ls -d "$GRIDSUBMIT_HOME"/jobs/[0-9]* | sort -t/ -k1 -V | tail -n 1
}
# left_in_namespaces: the job's processes still in the testbed's namespaces
# left_in_namespaces: the job's processes still in a node namespace, each as
# "NAME(NS pid PID ppid PPID STATE)" so that a failure says what was left and where
left_in_namespaces() {
	for ns in $NSS; do
		ip netns pids "$ns" | xargs -r ps -o comm=,pid=,ppid=,stat= -p |
			awk -v ns="$ns" '$1 ~ /mandelbrot|hydra|gridsubmit-rank|wrap/ {
				printf "%s(%s pid %s ppid %s %s) ", $1, ns, $2, $3, $4 }'
	done
}

# --- the private node's view: system files yes, this host's build tree and jobs no
# seen NODE PATH: "yes" or "no", whether the node sees PATH (nothing when ssh fails)
seen() {
	on "$1" "if test -e '$2'; then echo yes; else echo no; fi"
}
check_eq "stf1 does not see the program (the build tree is not shared)" \
	"$(seen stf1 "$MANDEL")" "no"
check_eq "stf1 does not see the job store" "$(seen stf1 "$GRIDSUBMIT_HOME/jobs")" "no"
check_eq "stf1 has hydra_pmi_proxy (system files are shared)" \
	"$(on stf1 'command -v hydra_pmi_proxy')" "$(command -v hydra_pmi_proxy)"
check_eq "stf1's home is its own and empty" "$(on stf1 'ls -A ~ | wc -l')" "0"
check "stn1 (no private_fs) sees the program" on stn1 test -x "$MANDEL"

# --- the reference: the same image computed on this host alone (embedded localhost sites)
head -c 300000 /dev/urandom > "$T/input.dat"
in_sha=$(sha256sum < "$T/input.dat" | cut -d' ' -f1)
cat > "$T/ref.yaml" <<EOF
name: ref
program: $MANDEL
args: ["--size", "384", "--iter", "300", "--out", "ref.pgm"]
ranks: 2
EOF
run_gs run "$T/ref.yaml" --no-metrics
check_eq "the local reference run exits 0" "$rc" 0
REF=$(last_job)/ref.pgm

# --- 1. mandelbrot over 2 sites, one rank on the private node: the program is staged
cat > "$T/m.yaml" <<EOF
name: staged
program: $MANDEL
args: ["--size", "384", "--iter", "300", "--check", "--out", "m.pgm"]
ranks: 3
runtime: {scheme: css, k: 8}
stage_in: [input.dat]
stage_out: [m.pgm]
EOF
run_gs run "$T/m.yaml" --sites "$TB/sites.yaml"
check_eq "mandelbrot with a private_fs node exits 0" "$rc" 0
[ "$rc" -eq 0 ] || printf '%s\n' "$out" "$err" | tail -n 20 | sed -e 's/^/#   /'
check_match "the speculative launch was called off for the staging" "$err" \
	'launching again with what the preflight found \(files staged\)'
J=$(last_job)
check "the image is identical to the local run's" cmp "$J/m.pgm" "$REF"
nodes=$(jq -r 'select(.ev == "start") | [.ranks[].node] | join(" ")' "$J/events.jsonl")
check_match "ranks on this host, stn1 and stf1" "$nodes" '^[^ ]+ stn1 stf1$'
chunks=$(jq -s '(.[0].ranks | map(select(.node == "stf1")) | .[0].rank) as $r
	| [.[] | select(.ev == "chunk" and .rank == $r) | .count] | add // 0' "$J/events.jsonl")
check "stf1 computed chunks ($chunks rows)" test "${chunks:-0}" -gt 0
bin_bytes=$(( $(stat -c %s "$MANDEL") + $(stat -c %s "$RANKEXEC") + $(stat -c %s "$FINLIB") ))
check_match "stage.log: the program, gridsubmit-rank and its library ($bin_bytes bytes) went to stf1's bin/" \
	"$(cat "$J/stage.log")" "^bin stf1 3 $bin_bytes [0-9.]+ ok /root/\.gridsubmit/jobs/[^ ]+-$(basename "$J")-[0-9a-f]{8}/bin$"
check_match "stage.log: the stage_in file went to stf1" "$(cat "$J/stage.log")" \
	'^in stf1 1 300000 [0-9.]+ ok /root/\.gridsubmit/jobs/'
check_match "stage.log: the 4 copies on stf1 have this host's sha256" "$(cat "$J/stage.log")" \
	'^verify stf1 4 [0-9.]+ ok$'
check "stage.log: nothing was copied to stn1 (it shares this host's files)" \
	sh -c "! grep -q ' stn1 ' '$J/stage.log'"
secs=$(awk '$1 == "bin" && $2 == "stf1" {print $5}' "$J/stage.log")
echo "# staging mandelbrot + gridsubmit-rank + its library ($bin_bytes bytes) to stf1 over 20 Mbit/s: $secs s"
check_match "stage.log: stf1's directory was removed after the job" "$(cat "$J/stage.log")" \
	'^removed stf1 /root/\.gridsubmit/jobs/'
check "the list of remote directories is gone (nothing left to remove)" test ! -e "$J/remote-dirs"
check_eq "nothing of the job stays on stf1" "$(on stf1 'ls -A ~ | wc -l')" "0"
check_eq "the job directory's own path was never made on stf1" "$(seen stf1 "$J")" "no"
check_match "the launcher looks the node's directory up in remote-dirs" \
	"$(cat "$J/ssh-launcher")" 'remote-dirs'

# --- 2. inputs used remotely, outputs of remote ranks collected: a wrapper as the program
# runs mandelbrot (itself a stage_in file) in its job directory; every worker writes
# note-HOST.txt (one writer each) and all.txt (every worker: stn1 writes it here, the
# private nodes' copies come back as all.txt.HOST). A stage_in directory (nested, a name
# with a space, a symbolic link) arrives whole: each worker notes the hash of its tree.
cp "$MANDEL" "$T/mandelbrot"
mkdir -p "$T/inputs/sub/empty"
head -c 5000 /dev/urandom > "$T/inputs/a.bin"
echo "second" > "$T/inputs/sub/with space.txt"
ln -s ../a.bin "$T/inputs/sub/link.bin"
tree_hash() { (cd "$1" && find -L . -type f -exec sha256sum {} + | LC_ALL=C sort | sha256sum |
	cut -d' ' -f1); }
tree_sha=$(tree_hash "$T/inputs")
cat > "$T/wrap.sh" <<'EOF'
#!/bin/sh
if [ "${PMI_RANK:-0}" != 0 ]; then
	h=$(hostname)
	{ echo "$h"; pwd; sha256sum < input.dat | cut -d' ' -f1
	  (cd inputs && find . -type f -exec sha256sum {} + | LC_ALL=C sort | sha256sum |
		cut -d' ' -f1); find inputs -type d | sort | tr '\n' ' '; echo; } > "note-$h.txt"
	echo "$h" > all.txt
	mkdir -p "res/$h" && echo "$h" > "res/$h/who.txt"
fi
exec ./mandelbrot "$@"
EOF
chmod +x "$T/wrap.sh"
cat > "$T/w.yaml" <<EOF
name: wrapped
program: wrap.sh
args: ["--size", "384", "--iter", "300", "--out", "m.pgm"]
ranks: 4
runtime: {scheme: css, k: 8}
stage_in: [input.dat, mandelbrot, inputs/]
stage_out: [m.pgm, note-stf1.txt, note-stf2.txt, all.txt, res]
EOF
run_gs run "$T/w.yaml" --sites "$TB/sites.yaml"
check_eq "a wrapper program with staged inputs on 2 private nodes exits 0" "$rc" 0
[ "$rc" -eq 0 ] || printf '%s\n' "$out" "$err" | tail -n 20 | sed -e 's/^/#   /'
J=$(last_job)
check "its image is identical to the local run's" cmp "$J/m.pgm" "$REF"
check_match "stage.log: the wrapper, gridsubmit-rank and its library went to stf2, mandelbrot and the input too" \
	"$(grep -E '^(bin|in) stf2 ' "$J/stage.log" | cut -d' ' -f1-3 | tr '\n' ' ')" \
	'^bin stf2 3 in stf2 5 $'
n=$(sed -n 1p "$J/note-stf1.txt" 2>/dev/null)
check_eq "stf1's output came back as note-stf1.txt" "$n" "stf1"
check_match "stf1's rank ran in its own job directory" "$(sed -n 2p "$J/note-stf1.txt")" \
	"^/root/\.gridsubmit/jobs/[^/]+-$(basename "$J")-[0-9a-f]{8}$"
check_eq "stf1 read the staged input (same sha256)" "$(sed -n 3p "$J/note-stf1.txt")" "$in_sha"
check_eq "stf1 has the staged directory's files, link resolved (same tree sha256)" \
	"$(sed -n 4p "$J/note-stf1.txt")" "$tree_sha"
check_eq "and its directories, the empty one too" "$(sed -n 5p "$J/note-stf1.txt")" \
	"inputs inputs/sub inputs/sub/empty "
check_eq "stf2 has the same tree" "$(sed -n 4p "$J/note-stf2.txt" 2>/dev/null)" "$tree_sha"
check_match "stage.log: the 6 copies on stf2 (the tree as one) have this host's sha256" \
	"$(cat "$J/stage.log")" 'verify stf2 6 [0-9.]+ ok'
check_eq "stf2's output came back as note-stf2.txt" "$(sed -n 1p "$J/note-stf2.txt" 2>/dev/null)" "stf2"
check_eq "all.txt here is stn1's (it shares this directory)" "$(cat "$J/all.txt" 2>/dev/null)" "stn1"
check_eq "the private nodes' all.txt came back as all.txt.HOST" \
	"$(cat "$J/all.txt.stf1" "$J/all.txt.stf2" 2>/dev/null | tr '\n' ' ')" "stf1 stf2 "
check_eq "a stage_out directory: stn1's is here, the private nodes' came back whole as res.HOST" \
	"$(cd "$J" && cat res/stn1/who.txt res.stf1/stf1/who.txt res.stf2/stf2/who.txt 2>&1 |
	tr '\n' ' ')" "stn1 stf1 stf2 "
check "no partial copy (.part) is left" sh -c "! ls -d '$J'/*.part 2>/dev/null | grep -q ."
check_eq "nothing of the job stays on stf1 or stf2" \
	"$(on stf1 'ls -A ~ | wc -l'):$(on stf2 'ls -A ~ | wc -l')" "0:0"

# --- 3. cancel while ranks run from the staged copy: no process, no directory left
cat > "$T/long.yaml" <<EOF
name: long
program: $MANDEL
args: ["--size", "384", "--slow", "1:300,2:300", "--out", "m.pgm"]
ranks: 3
stage_in: [input.dat]
EOF
"$GS" run "$T/long.yaml" --sites "$TB/sites.yaml" > "$T/long.out" 2>&1 &
gpid=$!
i=0
while [ $i -lt 300 ]; do
	ip netns pids "gs-$TAG-stf1" | xargs -r ps -o comm= -p | grep -q mandelbrot && break
	sleep 0.1
	i=$((i + 1))
done
J=$(last_job)
check_match "the long job's rank runs on stf1" \
	"$(ip netns pids "gs-$TAG-stf1" | xargs -r ps -o comm= -p)" mandelbrot
cwds=$(on stf1 'for p in $(pgrep -x mandelbrot); do readlink /proc/$p/cwd; done')
check_match "stf1's rank runs in ~/.gridsubmit/jobs/NAME" "$cwds" '^/root/\.gridsubmit/jobs/'
rdir=$(awk '$1 == "stf1" {print $2}' "$J/remote-dirs" 2>/dev/null)
check_eq "remote-dirs names stf1's directory" "$(printf '%s\n' "$cwds" | grep -c "^$rdir\$")" 1
check_eq "the staged input is there, same sha256" \
	"$(on stf1 "sha256sum < $rdir/input.dat" | cut -d' ' -f1)" "$in_sha"
kill -INT $gpid
t0=$(date +%s)
wait $gpid
grc=$?
t1=$(date +%s)
check_eq "SIGINT: gridsubmit run exits 130 (128+SIGINT)" "$grc" 130
check "cancel took under 25 s ($((t1 - t0)) s)" test $((t1 - t0)) -lt 25
check_eq "cancel leaves no rank or proxy in any namespace" "$(left_in_namespaces)" ""
check_eq "cancel leaves nothing of the job on stf1" "$(on stf1 'ls -A ~ | wc -l')" "0"
check_match "the job is recorded as cancelled" "$(cat "$J/state.json")" '"cancelled"'

# --- 3b. the same, detached: submit, wait; then submit and `gridsubmit cancel ID`
run_gs submit "$T/m.yaml" --sites "$TB/sites.yaml"
id=$out
check_match "submit with a private_fs node prints the job id" "$id" '^[0-9]+$'
run_gs wait "$id" --timeout 120
check_eq "the submitted job ends done (wait exits 0)" "$rc" 0
check "its image is identical to the local run's" cmp "$GRIDSUBMIT_HOME/jobs/$id/m.pgm" "$REF"
check_match "it was staged to stf1 and the supervisor removed the copy" \
	"$(tr '\n' ' ' < "$GRIDSUBMIT_HOME/jobs/$id/stage.log")" '^bin stf1 3 .* ok .*removed stf1 '
run_gs submit "$T/long.yaml" --sites "$TB/sites.yaml"
id=$out
i=0
while [ $i -lt 300 ]; do
	ip netns pids "gs-$TAG-stf1" | xargs -r ps -o comm= -p | grep -q mandelbrot && break
	sleep 0.1
	i=$((i + 1))
done
check_match "the submitted long job's rank runs on stf1" \
	"$(ip netns pids "gs-$TAG-stf1" | xargs -r ps -o comm= -p)" mandelbrot
run_gs cancel "$id"
check_eq "gridsubmit cancel exits 0" "$rc" 0
run_gs wait "$id" --timeout 60
check_eq "the job ends cancelled (wait exits 6)" "$rc" 6
check_eq "no rank or proxy left in any namespace" "$(left_in_namespaces)" ""
check_eq "nothing of the job left on stf1" "$(on stf1 'ls -A ~ | wc -l')" "0"

# --- 4. stf1's disk is full: one clear error, stf2 replaces it, nothing left behind
on stf1 'mkdir -p ~/.gridsubmit && mount -t tmpfs -o size=64k tmpfs ~/.gridsubmit'
run_gs run "$T/m.yaml" --sites "$TB/sites.yaml"
check_eq "a full disk on stf1: the job still succeeds" "$rc" 0
check_match "preflight reports one failed node" "$err" 'preflight: 1 of 2 nodes failed:'
check_match "the error names stf1, the copy and scp's reason" "$err" \
	'  stf1: staging: copying 3 files \([0-9]+ bytes\) to /root/\.gridsubmit/jobs/[^ ]+/bin failed: .+'
check_eq "stf1 is named once" "$(printf '%s\n' "$err" | grep -c 'stf1')" 1
check_match "and replaced" "$err" 'placed again without the failed node'
J=$(last_job)
nodes=$(jq -r 'select(.ev == "start") | [.ranks[].node] | join(" ")' "$J/events.jsonl")
check_match "the spare stf2 runs instead of stf1" "$nodes" '^[^ ]+ stn1 stf2$'
check "the image is still identical" cmp "$J/m.pgm" "$REF"
check_eq "the partial copy on stf1 is removed" "$(on stf1 'ls -A ~/.gridsubmit | wc -l')" "0"
check_eq "nothing of the job stays on stf2" "$(on stf2 'ls -A ~ | wc -l')" "0"
# a read-only one: preflight cannot make the job directory there, says so, replaces it
on stf1 'mount -o remount,ro ~/.gridsubmit'
run_gs run "$T/m.yaml" --sites "$TB/sites.yaml"
check_eq "a read-only home on stf1: the job still succeeds" "$rc" 0
check_match "the error names stf1 and the directory it cannot make" "$err" \
	'  stf1: cannot create its job directory /root/\.gridsubmit/jobs/[^ ]+$'
check_match "the spare stf2 runs instead" \
	"$(jq -r 'select(.ev == "start") | [.ranks[].node] | join(" ")' "$(last_job)/events.jsonl")" \
	'^[^ ]+ stn1 stf2$'
on stf1 'mount -o remount,rw ~/.gridsubmit'
# no spare left: it fails fast and clean
cat > "$T/m4.yaml" <<EOF
name: nospare
program: $MANDEL
args: ["--size", "128", "--out", "m.pgm"]
ranks: 4
stage_in: [input.dat]
EOF
t0=$(date +%s)
run_gs run "$T/m4.yaml" --sites "$TB/sites.yaml"
t1=$(date +%s)
check_eq "no spare node: the launch fails (exit 5)" "$rc" 5
check_match "naming stf1's staging error" "$err" 'stf1: staging: copying .* failed'
check "and fast (in $((t1 - t0)) s)" test $((t1 - t0)) -lt 30
check_eq "no process of the job in any namespace" "$(left_in_namespaces)" ""
check_eq "no process of the job here" "$(pgrep -f -- "$(last_job)/" | tr '\n' ' ')" ""
check_eq "nothing left on stf1 or stf2" \
	"$(on stf1 'ls -A ~/.gridsubmit | wc -l'):$(on stf2 'ls -A ~ | wc -l')" "0:0"
check_match "the job is recorded as failed" "$(cat "$(last_job)/state.json")" '"failed"'

# --- down: the private views die with their sshd; nothing was ever mounted here
run_gs testbed down "$SITES"
check_eq "testbed down exits 0" "$rc" 0
check "no namespace left" sh -c "! ip netns list | grep -q gs-$TAG-"
check_eq "no mount left here" "$(grep -vc ' - nsfs ' /proc/self/mountinfo)" "$mounts_before"
