# test-shellcheck.sh — every shell script gridsubmit ships or runs on nodes passes
# shellcheck as POSIX sh: the scripts under */sh/ (embedded into the program at build
# time), the build and install scripts, configure and CI's entry point.
. tests/lib.sh

if ! command -v shellcheck >/dev/null 2>&1; then
	skip "shellcheck" "shellcheck is not installed (Debian package: shellcheck)"
	exit 0
fi
for f in */sh/*.sh scripts/* configure .ci/run; do
	[ -f "$f" ] || continue
	if out=$(shellcheck -s sh -- "$f" 2>&1); then
		pass "shellcheck: $f"
	else
		fail "shellcheck: $f"
		printf '%s\n' "$out" | head -n 40 | sed -e 's/^/# /'
	fi
done
