#!/bin/sh
# test-layering.sh — the house as doc/architecture.md draws it ("Allowed edges"): every
# #include of the product names its part ("store/jobstore.h"), and a part includes only
# the parts its line allows, so data flows one way and a new back-edge fails here. Also:
# every top-level folder of C code is a declared part, product code never includes tests/,
# and no library below submit/ ends the process (exit, fatal): libraries return codes and
# reasons, only programs exit.
. tests/lib.sh

RULES=$T/rules
# the block between the two markers of doc/architecture.md: "PART -> PART PART ..."
awk '/<!-- edges: begin -->/ { on = 1; next } /<!-- edges: end -->/ { on = 0 }
	on && / -> / { print }' doc/architecture.md | sed -e 's/`//g' > "$RULES"
check "doc/architecture.md declares the allowed edges" test -s "$RULES"

# part FILE: the part a product file belongs to (runtime's sub-folders are parts of their own)
part() {
	case $1 in
	runtime/include/*) echo runtime/include ;;
	runtime/*/*) echo "runtime/$(echo "$1" | cut -d/ -f2)" ;;
	*/*) echo "${1%%/*}" ;;
	*) echo . ;;
	esac
}

# allowed FROM TO: FROM's line names TO, or a wildcard of it (runtime/*)
allowed() {
	[ "$1" = "$2" ] && return 0
	awk -v from="$1" -v to="$2" '
		$1 == from { for (i = 3; i <= NF; i++)
			if ($i == to || ($i ~ /\/\*$/ && index(to, substr($i, 1, length($i) - 1)) == 1))
				ok = 1 }
		END { exit !ok }' "$RULES"
}

PRODUCT="common broker runtime store remote launch simulate testbed experiment tui submit"
for d in */; do
	d=${d%/}
	case " $PRODUCT examples tests build " in *" $d "*) continue ;; esac
	if [ -n "$(find "$d" -name '*.c' 2>/dev/null | head -n 1)" ]; then
		fail "top-level folder $d holds C code but is not a part of doc/architecture.md"
	fi
done
for p in $PRODUCT; do
	grep -q "^$p -> " "$RULES" || grep -q "^$p/[a-z]* -> " "$RULES" ||
		fail "part $p has no line in doc/architecture.md's allowed edges"
done

# the product's files at every depth: git's own patterns, where * crosses '/' (no shell
# globbing of them: it would keep each part's top level only)
set -f
git ls-files -- $(for p in $PRODUCT; do printf '%s/*.c %s/*.h ' "$p" "$p"; done) > "$T/files"
git ls-files -- $(for p in $PRODUCT; do [ "$p" = submit ] || printf '%s/*.c ' "$p"; done) \
	> "$T/libfiles"
set +f
check "the files include those of sub-folders (launch/launchers/fork.c)" \
	grep -qx launch/launchers/fork.c "$T/files"

# every include of a product header, "..." or <PART/...>, as "FILE:LINE PATH"
parts_re=$(echo "$PRODUCT grt gen" | tr ' ' '|')
while IFS= read -r f; do
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		sed -e "s|^\([0-9]*\):.*\"\(.*\)\".*|$f:\1 \2|"
	grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*<($parts_re)/" "$f" |
		sed -e "s|^\([0-9]*\):.*<\(.*\)>.*|$f:\1 \2|"
done < "$T/files" > "$T/includes"
check "the product has includes to check" test -s "$T/includes"

bad=0
while read -r where path; do
	f=${where%:*}
	from=$(part "$f")
	case $path in
	*/*) ;;
	*)
		# unqualified: only the installed headers name their siblings so (they are
		# included as <grt/grt.h> or "grt.h" once installed)
		[ "$from" = runtime/include ] && continue
		echo "# $where: #include \"$path\" is not written from the root (PART/FILE.h)"
		bad=$((bad + 1))
		continue
		;;
	esac
	case $path in
	grt/*) to=runtime/include; [ -f "runtime/include/$path" ] || to=missing ;;
	gen/embedded-sh-*) to=$(echo "$path" | sed -e 's|gen/embedded-sh-||' -e 's|\.h$||') ;;
	gen/*) continue ;;
	*) to=$(part "$path"); [ -f "$path" ] || to=missing ;;
	esac
	if [ "$to" = missing ]; then
		echo "# $where: #include \"$path\": no such file"
		bad=$((bad + 1))
	elif ! allowed "$from" "$to"; then
		echo "# $where: $from -> $to (#include \"$path\") is not an allowed edge"
		bad=$((bad + 1))
	fi
done < "$T/includes" > "$T/violations"
n=$(grep -c . "$T/violations")
if [ "$n" -eq 0 ]; then
	pass "every include of the product follows doc/architecture.md's edges ($(wc -l < "$T/includes") includes)"
else
	fail "$n includes cross an edge doc/architecture.md does not allow"
	head -n 40 "$T/violations"
fi

# the checker itself: a made-up back-edge and an unqualified include are caught
allowed store launch && fail "the rules let store include launch" ||
	pass "a back-edge (store -> launch) is refused"
allowed launch store && pass "a declared edge (launch -> store) is allowed" ||
	fail "the rules refuse launch -> store"

# libraries return codes; only programs (submit/, the rank wrapper, the delay line) exit.
# common/log.c defines fatal() for them and xmalloc() dies only when memory runs out.
grep -v -e '^launch/rank/' -e '^testbed/delay/' -e '^common/log\.c$' \
    -e '^common/xmalloc\.c$' "$T/libfiles" |
	xargs grep -nE '(^|[^_a-z])(exit|fatal|fatalx|abort)[[:space:]]*\(' |
	grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)' > "$T/exits"
if [ -s "$T/exits" ]; then
	fail "$(wc -l < "$T/exits") calls that end the process in libraries below submit/"
	sed -e 's/^/#   /' "$T/exits" | head -n 40
else
	pass "no library below submit/ calls exit, fatal or abort"
fi
