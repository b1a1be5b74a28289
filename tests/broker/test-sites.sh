#!/bin/sh
# test-sites.sh — gridsubmit sites check / show: the shipped site files, bad files (exit 3
# with file:line:col), the JSON model read back with jq, usage errors.
. tests/lib.sh

# every shipped site file validates, with the counts of its paper
for f in sites/*.yaml; do
	run_gs sites check "$f"
	check_eq "sites check $f: exit 0" "$rc" 0
done
run_gs sites check sites/tiger.yaml
check_eq "tiger summary" "$out" "sites/tiger.yaml: ok, 4 sites, 16 nodes, 16 cores, 16 slots"
run_gs sites check sites/lanwlan.yaml
check_eq "lanwlan summary" "$out" "sites/lanwlan.yaml: ok, 3 sites, 6 nodes, 6 cores, 6 slots"
run_gs sites check sites/das.yaml
check_eq "das summary" "$out" "sites/das.yaml: ok, 4 sites, 136 nodes, 136 cores, 136 slots"
run_gs sites check sites/localhost.yaml
# this host's cores, and as many slots (tests/broker/test-hosts.sh checks them with /proc)
n=$(printf '%s' "$out" | sed -n 's/.* 1 node, \([0-9]*\) cores, .*/\1/p')
check_eq "localhost summary" "$out" "sites/localhost.yaml: ok, 1 site, 1 node, $n cores, $n slots"

# several files at once: one line each
run_gs sites check sites/tiger.yaml sites/das.yaml
check_eq "two files: exit 0" "$rc" 0
check_eq "two files: two lines" "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 2

# every bad site file: exit 3, exactly the expected located message on stderr, and on
# stdout the file's summary line, its number of errors
nbad=0
for f in tests/data/bad/site-*.yaml; do
	run_gs sites check "$f"
	want=$(cat "${f%.yaml}.expect")
	n=$(printf '%s\n' "$want" | wc -l | tr -d ' ')
	sum="$f: $n errors"
	[ "$n" -eq 1 ] && sum="$f: 1 error"
	if [ "$rc" -eq 3 ] && [ "$err" = "$want" ] && [ "$out" = "$sum" ]; then
		nbad=$((nbad + 1))
	else
		fail "sites check $f"
		printf '#   rc %s\n#   got:  %s\n#   want: %s\n#   stdout: %s\n' "$rc" "$err" "$want" \
			"$out"
	fi
done
check "bad site files: more than 30 checked ($nbad)" test "$nbad" -gt 30

# the message format itself, file:line:col: message
run_gs sites check tests/data/bad/site-unknown-key.yaml
check_match "unknown key: file:line:col and a suggestion" "$err" \
	"^tests/data/bad/site-unknown-key\.yaml:[0-9]+:[0-9]+: unknown key 'cpu_mz' \(did you mean 'cpu_mhz'\?\)$"

# a good and a bad file together: the good one summarised, exit 3 for the bad one
run_gs sites check sites/tiger.yaml tests/data/bad/site-dup-host.yaml
check_eq "good + bad: exit 3" "$rc" 3
check_match "good + bad: good summarised" "$out" "^sites/tiger.yaml: ok"
check_match "good + bad: duplicate host names both places" "$err" \
	"site-dup-host.yaml:10:16: duplicate host 'delta3' \(also at line 5, col 16\)"

# a file that does not exist, and a directory
run_gs sites check "$T/none.yaml"
check_eq "missing file: exit 3" "$rc" 3
check_match "missing file: message" "$err" "none.yaml: cannot open: No such file or directory"
check_eq "missing file: its summary line" "$out" "$T/none.yaml: 1 error"

# sites show: counts in the singular where they are one
run_gs sites show sites/localhost.yaml
check_match "sites show of one site and one node: '1 site, 1 node'" "$out" \
	"^total:  1 site, 1 node, ([2-9]|[0-9][0-9]+) cores, ([2-9]|[0-9][0-9]+) slots$|^total:  1 site, 1 node, 1 core, 1 slot$"
run_gs sites show sites/tiger.yaml
check_match "and in the plural where they are more" "$out" "^total:  4 sites, 16 nodes, 16 cores, 16 slots$"
run_gs sites check sites
check_eq "directory: exit 3" "$rc" 3

# a hostile host name in a file made here
cat > "$T/evil.yaml" <<'EOF'
sites:
  - name: x
    link: {bandwidth_mbps: 1}
    nodes:
      - {host: "n1;echo INJECTED", cpu_mhz: 1, cores: 1}
EOF
run_gs sites check "$T/evil.yaml"
check_eq "hostile host: exit 3" "$rc" 3
check_match "hostile host: located" "$err" "evil.yaml:5:16: invalid host name 'n1;echo INJECTED'"

# show --json: one document, read back with jq
if command -v jq > /dev/null 2>&1; then
	run_gs sites show sites/tiger.yaml --json
	check_eq "show --json: exit 0" "$rc" 0
	printf '%s\n' "$out" > "$T/tiger.json"
	check_eq "json: schema_version" "$(jq -r .schema_version "$T/tiger.json")" 3
	check_eq "json: master" "$(jq -r .master "$T/tiger.json")" delta1
	check_eq "json: 16 nodes" "$(jq '.nodes | length' "$T/tiger.json")" 16
	check_eq "json: totals" "$(jq -c .totals "$T/tiger.json")" \
		'{"sites":4,"nodes":16,"cores":16,"slots":16}'
	check_eq "json: sites in order" "$(jq -r '[.sites[].name] | join(",")' "$T/tiger.json")" \
		"THU,LZ,HIT,PU"
	check_eq "json: LZ hosts" \
		"$(jq -r '[.nodes[] | select(.site == "LZ") | .host] | join(",")' "$T/tiger.json")" \
		"lz01,lz02,lz03,lz04"
	check_eq "json: lz03 memory" \
		"$(jq '.nodes[] | select(.host == "lz03") | .mem_mb' "$T/tiger.json")" 384
	check_eq "json: monitor expanded" \
		"$(jq -r '.nodes[0].monitor' "$T/tiger.json")" "http://delta1:9100/metrics"
	check_eq "json: ssh merged" "$(jq -c '.nodes[15].ssh' "$T/tiger.json")" \
		'{"user":"grid","port":22,"host_key":"strict","identity":null}'
	check_eq "json: PU bandwidth" \
		"$(jq '.sites[] | select(.name == "PU") | .bandwidth_mbps' "$T/tiger.json")" 1000
	run_gs sites show --json
	check_eq "show --json without FILE: the embedded default" \
		"$(printf '%s\n' "$out" | jq -r '.file + " " + .nodes[0].host')" \
		"<embedded>/sites/localhost.yaml localhost"
	run_gs sites show sites/das.yaml --json
	check_eq "json: das clusters" \
		"$(printf '%s\n' "$out" | jq -r '[.nodes | group_by(.site)[] | length] | sort | join(",")')" \
		"24,24,24,64"
else
	skip "sites show --json" "jq is not installed"
fi

# show as text
run_gs sites show sites/lanwlan.yaml
check_eq "show: exit 0" "$rc" 0
check_match "show: the wireless site" "$out" "site wlan: link 2 Mbit/s, 3 ms"
check_match "show: the 200 MHz node" "$out" "pc4 +200 +1 +1 +64 i686"
run_gs sites show tests/data/bad/site-tab.yaml --json
check_eq "show bad file: exit 3" "$rc" 3
check_eq "show bad file: the error document on stdout (--json), located" \
	"$(printf '%s' "$out" | jq -r '[.error.code, .error.message] | @tsv')" \
	"3	tests/data/bad/site-tab.yaml:3:1: found a tab character that violates indentation (indent with spaces, not tabs)"

# usage errors: exit 2
run_gs sites
check_eq "no action: exit 2" "$rc" 2
run_gs sites chek sites/tiger.yaml
check_eq "misspelt action: exit 2" "$rc" 2
check_match "misspelt action: suggestion" "$err" "did you mean 'check'"
run_gs sites check
check_eq "check without FILE: exit 2" "$rc" 2
run_gs sites show --jsn sites/tiger.yaml
check_eq "bad option: exit 2" "$rc" 2
check_match "bad option: suggestion" "$err" "did you mean '--json'"
run_gs sites --help
check_eq "--help: exit 0" "$rc" 0
check_match "--help: synopsis" "$out" "usage: gridsubmit sites check FILE"
run_gs help sites
check_eq "help sites: exit 0" "$rc" 0

# ssh: {config: PATH}: relative to the site file, made absolute; checked where it is written
mkdir -p "$T/cfg/sub"
cat > "$T/cfg/sub/c.yaml" <<'YAML'
defaults: {cpu_mhz: 1000, cores: 1, ssh: {config: ssh/nodes.conf}}
sites:
  - name: s
    link: {bandwidth_mbps: 10}
    nodes:
      - {host: c1}
      - {host: c2, ssh: {config: /etc/ssh/ssh_config}}
YAML
if command -v jq >/dev/null 2>&1; then
	run_gs sites show --json "$T/cfg/sub/c.yaml"
	check_eq "ssh config: show exits 0" "$rc" 0
	check_eq "ssh config: relative to the site file, absolute" \
		"$(printf '%s' "$out" | jq -r '.nodes[0].ssh.config')" "$T/cfg/sub/ssh/nodes.conf"
	check_eq "ssh config: absolute as written, the node's over the defaults'" \
		"$(printf '%s' "$out" | jq -r '.nodes[1].ssh.config')" "/etc/ssh/ssh_config"
	(cd "$T/cfg" && "$SRC/$GS" sites show --json sub/c.yaml > "$T/cfg/out" 2>&1)
	check_eq "ssh config: a relative site file path, from where it was named" \
		"$(jq -r '.nodes[0].ssh.config' "$T/cfg/out")" "$T/cfg/sub/ssh/nodes.conf"
else
	skip "ssh config in sites show --json" "jq is not installed"
fi
sed -e 's|config: ssh/nodes.conf|config: "my ssh.conf"|' "$T/cfg/sub/c.yaml" > "$T/cfg/blank.yaml"
run_gs sites check "$T/cfg/blank.yaml"
check_eq "ssh config with a blank: exit 3" "$rc" 3
check_match "ssh config with a blank: located, says why" "$err" \
	"blank\.yaml:1:[0-9]+: 'config' must be an ssh_config file, .* no blanks"
sed -e 's|config: ssh/nodes.conf|confg: x|' "$T/cfg/sub/c.yaml" > "$T/cfg/typo.yaml"
run_gs sites check "$T/cfg/typo.yaml"
check_match "ssh confg: did you mean config" "$err" \
	"typo\.yaml:1:[0-9]+: unknown key 'confg' \(did you mean 'config'\?\)"
# a job whose node names a config that cannot be read fails before anything starts (ssh
# itself would skip a missing Include without a word)
cat > "$T/cfg/missing.yaml" <<'YAML'
sites:
  - name: s
    link: {bandwidth_mbps: 10}
    nodes:
      - {host: cfgx1, cpu_mhz: 1000, cores: 2, ssh: {config: missing.conf}}
YAML
printf 'name: m\nprogram: %s\nranks: 2\n' "$SRC/$BUILD/examples/mandelbrot" > "$T/cfg/job.yaml"
run_gs run "$T/cfg/job.yaml" --sites "$T/cfg/missing.yaml" --no-metrics
check_eq "a missing ssh config: the job fails (exit 5)" "$rc" 5
check_match "naming the node and the file" "$err" \
	"cfgx1: ssh config $T/cfg/missing\.conf: No such file or directory"
