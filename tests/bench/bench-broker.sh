#!/bin/sh
# bench-broker.sh — the broker's benchmarks (issue 4, "Tests and benchmark"):
#  1. load and rank a generated 10,000-node site file, against a bare libyaml parse (event
#     loop) of the same file: the ratio must stay under 3;
#  2. fetch 256 metrics endpoints concurrently, against the slowest single fetch: under 2x.
#     The endpoints are 4 HTTP servers on 127.0.0.1 (asyncio) that answer the body of a
#     real node_exporter after 200 ms (a remote node's latency; on loopback a fetch would
#     be all CPU, and 2 cores would measure the servers, not the concurrency), 64 distinct
#     URLs each.
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
BB="$BUILD/tests/bench/bench-broker"
T=$(mktemp -d "${TMPDIR:-/tmp}/gs-bench.XXXXXX") || exit 1
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ -x "$BB" ] || { echo "bench-broker: $BB not built (make bench)" >&2; exit 1; }

# --- 1. 10,000 nodes: 100 sites of 100 nodes, one line per node (no host ranges)
awk 'BEGIN {
	print "sites:"
	for (s = 0; s < 100; s++) {
		printf "  - name: S%03d\n    link: {bandwidth_mbps: %d, latency_ms: 1}\n    nodes:\n", s, 100 + s * 10
		for (n = 0; n < 100; n++)
			printf "      - {host: n%05d, cpu_mhz: %d, cores: %d, mem_mb: %d, arch: x86_64}\n", \
			    s * 100 + n, 1000 + (s * 100 + n) % 2000, 1 + n % 8, 512 * (1 + n % 4)
	}
}' > "$T/sites.yaml"

# 11 trials of parse and load+rank back to back; the ratio is the median of the trials' own
set -- $("$BB" rank "$T/sites.yaml" 11) || exit 1
rank_s=$1 yaml_s=$2 ratio=$3
echo "# 10,000-node site file: $(wc -c < "$T/sites.yaml") bytes, $4 nodes pass the requirements;" \
	"best load $(awk -v x="$5" 'BEGIN { printf "%.1f", x * 1000 }') ms," \
	"best rank $(awk -v x="$6" 'BEGIN { printf "%.1f", x * 1000 }') ms;" \
	"medians of 11 paired trials"
awk -v v="$rank_s" -v b="$yaml_s" -v r="$ratio" 'BEGIN {
	printf "| broker | load + rank 10,000 nodes | %.1f ms | %.1f ms (bare libyaml parse) | %.2f | < 3 |\n", \
	    v * 1000, b * 1000, r
}'
ok1=$(awk -v r="$ratio" 'BEGIN { print (r < 3) ? 1 : 0 }')

# --- 2. 256 endpoints
NE=$(command -v prometheus-node-exporter || true)
body="$T/body.prom"
if [ -n "$NE" ]; then
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	mkdir -p "$T/tf"
	echo 'node_load1 0.5' > "$T/tf/load.prom"
	"$NE" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$T/tf" --collector.cpu \
		> /dev/null 2>&1 &
	PIDS="$PIDS $!"
	i=0
	while [ $i -lt 50 ] && ! curl -s -o "$body" "http://127.0.0.1:$port/metrics"; do
		sleep 0.1
		i=$((i + 1))
	done
fi
[ -s "$body" ] || printf 'node_load1 0.5\nnode_cpu_seconds_total{cpu="0",mode="idle"} 1\n' > "$body"

# one asyncio process per server: no thread per request, so the servers stay cheap next to
# the 256 transfers being measured
cat > "$T/server.py" <<'EOF'
import asyncio, sys
body = open(sys.argv[2], "rb").read()
head = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\n"
        b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body))
async def serve(r, w):
    try:
        await r.readuntil(b"\r\n\r\n")
        await asyncio.sleep(0.2)
        w.write(head + body)
        await w.drain()
    except Exception:
        pass
    w.close()
async def main():
    s = await asyncio.start_server(serve, "127.0.0.1", int(sys.argv[1]), backlog=512)
    await s.serve_forever()
asyncio.run(main())
EOF
urls=""
for k in 1 2 3 4; do
	p=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	python3 "$T/server.py" "$p" "$body" &
	PIDS="$PIDS $!"
	urls="$urls http://127.0.0.1:$p/metrics"
done
for u in $urls; do
	i=0
	while [ $i -lt 50 ] && ! curl -s -o /dev/null "$u"; do
		sleep 0.1
		i=$((i + 1))
	done
done
set -- $("$BB" fetch 256 $urls) || exit 1
echo "# 256 URLs on 4 servers answering a node_exporter body ($(wc -c < "$body") bytes) after 200 ms"
awk -v v="$1" -v b="$2" 'BEGIN {
	printf "| broker | fetch 256 endpoints concurrently | %.0f ms | %.0f ms (slowest single fetch) | %.2f | < 2 |\n", \
	    v * 1000, b * 1000, v / b
}'
ok2=$(awk -v v="$1" -v b="$2" 'BEGIN { print (v / b < 2) ? 1 : 0 }')
[ "$ok1" = 1 ] && [ "$ok2" = 1 ]
