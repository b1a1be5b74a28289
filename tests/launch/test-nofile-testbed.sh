#!/bin/sh
# test-nofile-testbed.sh — a run without a job file on other sites (root): `run -n 3
# --stage-in F -- PROGRAM ARGS` on a testbed of a node sharing this host's files and one
# that does not (emulate: {private_fs: true}): the program found in PATH here (a script of
# the test's own, which the private node cannot see) and the --stage-in file are staged
# to that node, every rank runs with its args and reads the file, nothing stays on the
# node; the job directory's job.yaml and sites.yaml run the same job again (issue 31).
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "run -- PROGRAM on a testbed" sshd scp tc prometheus-node-exporter jq || exit 0
case $GS in /*) ;; *) GS=$SRC/$GS ;; esac

SITES=$T/nf2.yaml
cat > "$SITES" <<'EOF'
sites:
  - name: near
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: nfn1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
  - name: far
    link: {bandwidth_mbps: 20, latency_ms: 1}
    nodes:
      - {host: nff1, cpu_mhz: 2000, cores: 1, mem_mb: 256, emulate: {private_fs: true}}
EOF
testbed_up "$SITES" "testbed up with a private_fs node" || exit 0

# on NODE COMMAND: a shell command on a node, over the testbed's ssh_config
on() {
	on_h=$1
	shift
	ssh -F "$TB/ssh_config" -o BatchMode=yes -o ConnectTimeout=5 -o ControlPath=none \
		"$on_h" "$*"
}
mkdir -p "$T/bin" "$T/work"
printf '#!/bin/sh\necho "rank $PMI_RANK: $* $(cat data.txt)"\n' > "$T/bin/greet"
chmod +x "$T/bin/greet"
echo "with the staged data" > "$T/work/data.txt"
check_eq "nff1 does not see the program" \
	"$(on nff1 "test -e '$T/bin/greet' && echo yes || echo no")" "no"

id=$(next_id)
out=$(cd "$T/work" && PATH="$T/bin:$PATH" "$GS" run -q -n 3 --sites "$TB/sites.yaml" \
	--stage-in data.txt -- greet hello 2>"$T/err")
rc=$?
check_eq "run -n 3 --stage-in data.txt -- greet hello on 2 sites exits 0" "$rc" 0
[ "$rc" -eq 0 ] || sed -e 's/^/#   /' "$T/err" | tail -n 20
check_eq "every rank ran the program with its args and read the file" \
	"$(printf '%s\n' "$out" | sort | tr '\n' '|')" \
	"rank 0: hello with the staged data|rank 1: hello with the staged data|rank 2: hello with the staged data|"
D=$GRIDSUBMIT_HOME/jobs/$id
check_eq "one rank on each node" \
	"$(cut -d: -f1 "$D/hostfile" | grep -e '^nfn1$' -e '^nff1$' | sort | tr '\n' ' ')" "nff1 nfn1 "
check_match "stage.log: the program, gridsubmit-rank and its library went to nff1's bin/" \
	"$(cat "$D/stage.log")" "^bin nff1 3 "
check_match "stage.log: the --stage-in file went to nff1" "$(cat "$D/stage.log")" \
	"^in nff1 1 $(wc -c < "$T/work/data.txt") "
check_eq "nothing of the job stays on nff1" "$(on nff1 'ls -A ~ | wc -l')" "0"

rid=$(next_id)
out=$(cd / && "$GS" run -q "$D/job.yaml" --sites "$D/sites.yaml" 2>"$T/err")
rc=$?
check_eq "the recorded job.yaml runs the same job again on the testbed" "$rc" 0
[ "$rc" -eq 0 ] || sed -e 's/^/#   /' "$T/err" | tail -n 20
check_eq "with the same output" "$(printf '%s\n' "$out" | sort | tr '\n' '|')" \
	"rank 0: hello with the staged data|rank 1: hello with the staged data|rank 2: hello with the staged data|"
check_match "and the program again staged to nff1" \
	"$(cat "$GRIDSUBMIT_HOME/jobs/$rid/stage.log")" "^bin nff1 3 "
