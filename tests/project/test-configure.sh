# ./configure: finds what is needed, names the Debian package of what is missing (all of
# it in one run), and writes no Makefile when it fails (issue 2). Runs out of tree, in $T.
# Then a node with MPI and none of gridsubmit's other libraries: ./configure --libgrt-only
# there, make (libgrt alone), make install (the library, headers, pkg-config files), a
# user's master-worker program built against the installed tree and run, make tests and
# make check of the runtime alone. The runtime is built once.
. tests/lib.sh

mkdir -p "$T/ok" "$T/nopc" "$T/noyaml" "$T/pc-noyaml"
(cd "$T/ok" && "$SRC/configure" > out 2>&1)
check_eq "configure succeeds here" "$?" 0
check "configure writes a Makefile" test -s "$T/ok/Makefile"
check "the Makefile has no @placeholders@ left" sh -c "! grep -q '@[A-Z_]*@' '$T/ok/Makefile'"

(cd "$T/ok" && "$SRC/configure" --help > help 2>&1)
check_eq "configure --help exits 0" "$?" 0
check_match "configure --help lists --enable-sanitize" "$(cat "$T/ok/help")" "--enable-sanitize"
check_match "configure --help lists --libgrt-only" "$(cat "$T/ok/help")" "--libgrt-only +build and install libgrt alone"
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

# --- a node with MPI and none of gridsubmit's other libraries: a pkg-config that knows no
# module (and logs what it is asked), and their headers hidden behind ones that stop the
# compiler (every library header the sources include), so that nothing built here can use
# one unseen
mkdir -p "$T/bin" "$T/hide" "$T/full" "$T/lib" "$T/nohydra"
cat > "$T/bin/pkg-config" <<PC
#!/bin/sh
echo "\$*" >> "$T/pkg-config.log"
exit 1
PC
chmod +x "$T/bin/pkg-config"
for h in $(grep -rhoE '#include <(yaml|jansson|curl/|n?curses|sqlite3|gsl/|libnetfilter)[^>]*>' \
	--include='*.[ch]' . | sed -e 's/.*<\(.*\)>/\1/' | sort -u); do
	mkdir -p "$(dirname "$T/hide/$h")"
	echo "#error $h: not on this node" > "$T/hide/$h"
done
nodepath="$T/bin:$PATH"

(cd "$T/full" && PATH=$nodepath "$SRC/configure" > out 2>&1)
check_eq "plain configure fails on that node" "$?" 1
out=$(cat "$T/full/out")
check_eq "naming every missing library at once" \
	"$(grep -c '^configure: error: library not found by pkg-config: ' "$T/full/out")" 6
for lib in "yaml-0.1 libyaml-dev" "libcurl libcurl4-openssl-dev" \
	"ncursesw or ncurses libncurses-dev" "jansson libjansson-dev" "sqlite3 libsqlite3-dev" \
	"gsl libgsl-dev"; do
	check_match "and $lib" "$out" \
		"library not found by pkg-config: ${lib% *} \(Debian package: ${lib##* }\)"
done
debs="libyaml-dev libcurl4-openssl-dev libncurses-dev libjansson-dev libsqlite3-dev libgsl-dev"
check_match "with one apt-get line for all of them" "$out" "apt-get install $debs$"
check_match "saying that --libgrt-only builds the runtime alone" \
	"$(tr '\n' ' ' < "$T/full/out")" \
	"or build and install libgrt alone, the runtime MPI .*: \\./configure --libgrt-only"
check "and writes no Makefile" test ! -e "$T/full/Makefile"

rm -f "$T/pkg-config.log"
(cd "$T/lib" && PATH=$nodepath CFLAGS="-I$T/hide" "$SRC/configure" --libgrt-only \
	--prefix=/opt/grt > out 2>&1)
check_eq "configure --libgrt-only succeeds there" "$?" 0
out=$(cat "$T/lib/out")
check_match "saying it writes a Makefile for libgrt alone" "$out" \
	"^configure: wrote Makefile for libgrt alone \(prefix /opt/grt,"
check_match "and that gridsubmit is not built" "$out" "^ +gridsubmit is not built$"
check "without asking pkg-config for anything" test ! -e "$T/pkg-config.log"
check "nor leaving a placeholder in the Makefile" \
	sh -c "! grep -q '@[A-Z_]*@' '$T/lib/Makefile'"
smpi=$(sed -n 's/^HAVE_SMPI *= *//p' "$T/lib/Makefile")

# lmake ARGS...: make with the libgrt-only Makefile, from this tree into $T/b
lmake() {
	env -u MAKEFLAGS -u MAKELEVEL make -C "$SRC" -f "$T/lib/Makefile" B="$T/b" "$@"
}
lmake -j2 > "$T/make.out" 2>&1
rc=$?
check_eq "make builds there" "$rc" 0
[ "$rc" -eq 0 ] || tail -n 20 "$T/make.out" | sed -e 's/^/#   /'
check "make builds libgrt.a" test -f "$T/b/libgrt.a"
check "make builds no gridsubmit" test ! -e "$T/b/gridsubmit"
check_eq "make compiles the runtime and nothing else" \
	"$(find "$T/b" -name '*.o' | grep -v "^$T/b/\(smpi/\)\{0,1\}obj/runtime/")" ""
if [ "$smpi" = yes ]; then
	check "make builds the SMPI twin, smpi/libgrt.a" test -f "$T/b/smpi/libgrt.a"
else
	skip "make builds the SMPI twin" \
		"SimGrid's smpicc is not here (Debian package: libsimgrid-dev)"
fi

R=$T/root
P=$R/opt/grt
lmake DESTDIR="$R" install > "$T/install.out" 2>&1
check_eq "make install DESTDIR=... there" "$?" 0
want=$(for f in runtime/include/grt/*.h; do echo "include/grt/${f##*/}"; done
	printf '%s\n' lib/libgrt.a lib/pkgconfig/libgrt.pc
	[ "$smpi" = yes ] && printf '%s\n' lib/libgrt-smpi.a lib/pkgconfig/libgrt-smpi.pc)
check_eq "make install installs exactly the library, its headers and pkg-config files" \
	"$(cd "$P" 2>/dev/null && find . ! -type d | sed -e 's|^\./||' | sort)" \
	"$(printf '%s\n' "$want" | sort)"
check_eq "and nothing outside the prefix" "$(find "$R" ! -type d ! -path "$P/*")" ""

# a user's master-worker program (tests/project/grt-sum.c), built with mpicc and the
# installed libgrt's pkg-config flags, run on 2 ranks (a master and a worker)
# only the DESTDIR tree: its pkg-config files, their paths moved under $R
pc() {
	PKG_CONFIG_LIBDIR="$P/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$R" pkg-config "$@"
}
MPICC=$(sed -n 's/^MPICC *= *//p' "$T/lib/Makefile")
unset GRT_SCHEME GRT_K GRT_ALPHA GRT_SWR GRT_DEADLINE GRT_EVENTS GRT_JOB GRT_RANKMAP \
	GRT_EVENTS_CHUNKS GRT_MASTER_COMPUTES GRT_ROUNDS
flags=$(pc --cflags --libs libgrt)
# shellcheck disable=SC2086 # the flags are separate words
check "a user's program with <grt/grt.h> builds with mpicc and pkg-config's libgrt" \
	"$MPICC" -Werror -o "$T/grt-sum" "$SRC/tests/project/grt-sum.c" $flags
check_eq "and runs on 2 ranks: the sum of 0..999" \
	"$(timeout -k 5 60 "$MPIEXEC" -n 2 "$T/grt-sum" fss 2>&1)" "fss sum 499500"
if [ "$smpi" = yes ]; then
	flags=$(pc --cflags --libs libgrt-smpi)
	check_match "pkg-config's libgrt-smpi is the twin" "$flags" "-L$P/lib -lgrt-smpi"
	# shellcheck disable=SC2086 # the flags are separate words
	check "the same program builds with smpicc and libgrt-smpi" \
		smpicc -o "$T/grt-sum-smpi" "$SRC/tests/project/grt-sum.c" $flags
	cat > "$T/platform.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-1" speed="1Gf" bw="125MBps" lat="50us"/>
</platform>
XML
	printf 'h0\nh1\n' > "$T/hosts"
	check_eq "and runs simulated on 2 hosts, to the same sum" \
		"$(cd "$T" && TMPDIR=$T timeout -k 5 60 smpirun -np 2 -platform platform.xml \
		    -hostfile hosts ./grt-sum-smpi fss 2>/dev/null)" "fss sum 499500"
fi
lmake DESTDIR="$R" uninstall > "$T/uninstall.out" 2>&1
check_eq "make uninstall leaves no file behind" "$?/$(find "$R" ! -type d)" "0/"

# make tests and make check: the runtime's own tests, nothing that needs another library
lmake -j2 tests > "$T/tests.out" 2>&1
rc=$?
check_eq "make tests builds there" "$rc" 0
[ "$rc" -eq 0 ] || tail -n 20 "$T/tests.out" | sed -e 's/^/#   /'
check "the runtime's unit tests" test -x "$T/b/tests/runtime/test-scheme"
check "the runtime's MPI test programs" test -x "$T/b/tests/runtime/mpi/grt-check"
check "the rank wrapper they are launched through" test -x "$T/b/gridsubmit-rank"
check "still no gridsubmit" test ! -e "$T/b/gridsubmit"
check_eq "and no unit test of another part" \
	"$(find "$T/b/tests" -name 'test-*' | grep -v "^$T/b/tests/runtime/")" ""
out=$(BUILD="$T/b" sh tests/runtime/test-grt-config.sh 2>&1)
check_match "which run: test-grt-config.sh passes" "$out" "^ok - "
check_eq "with no failure" "$(printf '%s\n' "$out" | grep -c '^not ok')" 0
check_match "make check runs the runtime's tests" "$(lmake -n check 2>&1)" \
	"TESTS=tests/runtime/ sh tests/run-tests.sh"

# without hydra's mpiexec: libgrt builds and installs; make check says what it needs
(cd "$T/nohydra" && PATH=$nodepath CFLAGS="-I$T/hide" MPIEXEC=/bin/true "$SRC/configure" \
	--libgrt-only --prefix=/opt/grt > out 2>&1)
check_eq "configure --libgrt-only succeeds without hydra's mpiexec" "$?" 0
check_match "warning that make check will not run" "$(cat "$T/nohydra/out")" \
	"/bin/true is not MPICH's hydra mpiexec \(Debian package: mpich\)"
out=$(env -u MAKEFLAGS -u MAKELEVEL make -C "$SRC" -f "$T/nohydra/Makefile" B="$T/b" check 2>&1)
check_eq "make check then fails" "$?" 2
check_match "naming MPICH's hydra mpiexec" "$out" \
	"^make check: the runtime's tests need MPICH's hydra mpiexec, .*\(Debian package: mpich\)$"
