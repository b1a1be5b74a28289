# ./configure: finds what is needed, names the Debian package of what is missing, and
# writes no Makefile when it fails (issue 2). Runs out of tree, in $T.
. tests/lib.sh

mkdir -p "$T/ok" "$T/nopc" "$T/noyaml" "$T/pc-noyaml"
(cd "$T/ok" && "$SRC/configure" > out 2>&1)
check_eq "configure succeeds here" "$?" 0
check "configure writes a Makefile" test -s "$T/ok/Makefile"
check "the Makefile has no @placeholders@ left" sh -c "! grep -q '@[A-Z_]*@' '$T/ok/Makefile'"

(cd "$T/ok" && "$SRC/configure" --help > help 2>&1)
check_eq "configure --help exits 0" "$?" 0
check_match "configure --help lists --enable-sanitize" "$(cat "$T/ok/help")" "--enable-sanitize"
(cd "$T/ok" && "$SRC/configure" --enable-nonsense > bad 2>&1)
check_eq "configure: an unknown option exits 2" "$?" 2

# no library can be found: pkg-config looks only in an empty directory
(cd "$T/nopc" && PKG_CONFIG_PATH="$T/empty" PKG_CONFIG_LIBDIR="$T/empty" \
	"$SRC/configure" > out 2>&1)
check_eq "configure fails when pkg-config finds nothing" "$?" 1
check_match "and names the Debian package" "$(cat "$T/nopc/out")" \
	"library not found by pkg-config: yaml-0.1 \(Debian package: libyaml-dev\)"
check "and writes no Makefile" test ! -e "$T/nopc/Makefile"

# every library but libyaml
for d in $(pkg-config --variable pc_path pkg-config | tr ':' ' '); do
	[ -d "$d" ] && cp "$d"/*.pc "$T/pc-noyaml/" 2>/dev/null
done
rm -f "$T/pc-noyaml/yaml-0.1.pc"
(cd "$T/noyaml" && PKG_CONFIG_PATH="$T/pc-noyaml" PKG_CONFIG_LIBDIR="$T/pc-noyaml" \
	"$SRC/configure" > out 2>&1)
check_eq "configure fails without libyaml alone" "$?" 1
check_match "naming libyaml-dev" "$(cat "$T/noyaml/out")" "yaml-0.1 \(Debian package: libyaml-dev\)"

(cd "$T/noyaml" && MPICC=/nonexistent/mpicc "$SRC/configure" > out 2>&1)
check_eq "configure fails without mpicc" "$?" 1
check_match "naming the missing compiler" "$(cat "$T/noyaml/out")" "MPICC=/nonexistent/mpicc not found"

# every library but libnetfilter_queue (the testbed's delay line)
mkdir -p "$T/pc-nonfq" "$T/nonfq"
cp "$T"/pc-noyaml/*.pc "$T/pc-nonfq/" 2>/dev/null
for d in $(pkg-config --variable pc_path pkg-config | tr ':' ' '); do
	[ -f "$d/yaml-0.1.pc" ] && cp "$d/yaml-0.1.pc" "$T/pc-nonfq/"
done
rm -f "$T/pc-nonfq/libnetfilter_queue.pc"
(cd "$T/nonfq" && PKG_CONFIG_PATH="$T/pc-nonfq" PKG_CONFIG_LIBDIR="$T/pc-nonfq" \
	"$SRC/configure" > out 2>&1)
check_eq "configure succeeds without libnetfilter_queue alone" "$?" 0
check_match "saying libnetfilter_queue is missing" "$(cat "$T/nonfq/out")" \
	"warning: libnetfilter_queue not found by pkg-config"
check_match "naming libnetfilter-queue-dev" "$(cat "$T/nonfq/out")" \
	"\(Debian package: libnetfilter-queue-dev\)"
check_match "saying the delay line will not be built" "$(cat "$T/nonfq/out")" \
	"\(gridsubmit-delay\) will not be built; everything else will"
check "and writes a Makefile with HAVE_NFQ = no" grep -q '^HAVE_NFQ *= no$' "$T/nonfq/Makefile"
check "where found, HAVE_NFQ = yes" grep -q '^HAVE_NFQ *= yes$' "$T/ok/Makefile"

# what make all would build (-n: nothing is run), from this tree into an empty directory,
# into a file: the commands are longer than one argument may be (128 KiB)
make_all_n() {
	env -u MAKEFLAGS -u MAKELEVEL make -n -C "$SRC" -f "$1" B="$T/b" all > "$2" 2>&1
}
make_all_n "$T/ok/Makefile" "$T/ok.all"
check "make all builds the delay line when configure found the library" \
	grep -q -- "-o $T/b/gridsubmit-delay " "$T/ok.all"
make_all_n "$T/nonfq/Makefile" "$T/nonfq.all"
check "without it, make all still builds gridsubmit" grep -q -- "-o $T/b/gridsubmit " "$T/nonfq.all"
check "but not the delay line" sh -c '! grep -q gridsubmit-delay "$1"' sh "$T/nonfq.all"
