#!/bin/sh
# test-install.sh — `make install` into a DESTDIR: the programs, man pages (one for every
# program installed), site files, the bash and zsh completion and libgrt (library, public
# headers, pkg-config file; its SMPI twin libgrt-smpi where SimGrid is) with their modes; a
# user's own MPI program built with mpicc and pkg-config against that tree runs on 3 ranks
# and sums right (with smpicc and libgrt-smpi, it builds too); the installed gridsubmit
# finds `--sites NAME` in $XDG_CONFIG_HOME/gridsubmit/sites and names the places it searched
# for an unknown name, and the installed bash completion offers that NAME; `make uninstall`
# leaves no file behind. Then `make install prefix=DIR` (GNU's name) and `PREFIX=DIR`: each
# installs into DIR, with pkg-config files of that prefix and a gridsubmit that looks for
# its site files there; none of the three installs changes build/gridsubmit (checksum and
# time) or what configure wrote (gs-config.h). Last, the README's "Your own program" as it
# is written (HOME in $T): the install, examples/hello built with pkg-config's libgrt and
# run by the installed gridsubmit, its SMPI build with libgrt-smpi simulated.
. tests/lib.sh

# configure's choices, so that install rebuilds nothing in $BUILD
PREFIX=$(sed -n 's/^CONFIGURED_PREFIX *= *//p' Makefile)
MPICC=$(sed -n 's/^MPICC *= *//p' Makefile)
R=$T/root
P=$R$PREFIX

# what an install must leave as it is: the program make built and configure's header
# built_state: their checksums and modification times
built_state() {
	sha256sum "$BUILD/gridsubmit" "$BUILD/gen/gs-config.h"
	stat -c '%n %y' "$BUILD/gridsubmit" "$BUILD/gen/gs-config.h"
}
built0=$(built_state)

check "make install DESTDIR=$R" make -s B="$BUILD" DESTDIR="$R" install
check_eq "make install DESTDIR=... leaves build/gridsubmit and gs-config.h as they were" \
	"$(built_state)" "$built0"

# mode FILE: its permission bits, or "missing"
mode() {
	stat -c %a "$1" 2>/dev/null || echo missing
}
for f in bin/gridsubmit bin/gridsubmit-rank; do
	check_eq "$f installed, mode 755" "$(mode "$P/$f")" 755
done
if [ "$(sed -n 's/^HAVE_NFQ *= *//p' Makefile)" = yes ]; then
	check_eq "bin/gridsubmit-delay installed (it was built), mode 755" \
		"$(mode "$P/bin/gridsubmit-delay")" 755
else
	check "bin/gridsubmit-delay not installed (it was not built)" \
		test ! -e "$P/bin/gridsubmit-delay"
	check "nor its page" test ! -e "$P/share/man/man1/gridsubmit-delay.1"
fi
# the library gridsubmit-rank preloads lives beside it (launch/rank/rank-preload.h): not a
# command, no page of its own (gridsubmit-rank(1) describes it)
check_eq "bin/libgridsubmit-finalize.so installed beside gridsubmit-rank, mode 644" \
	"$(mode "$P/bin/libgridsubmit-finalize.so")" 644
for f in "$P"/bin/*; do
	f=${f##*/}
	case $f in *.so) continue ;; esac
	check_eq "bin/$f has its page: share/man/man1/$f.1, mode 644" \
		"$(mode "$P/share/man/man1/$f.1")" 644
done
check_eq "the bash completion: share/bash-completion/completions/gridsubmit, mode 644" \
	"$(mode "$P/share/bash-completion/completions/gridsubmit")" 644
check "it is completion/gridsubmit.bash" \
	cmp completion/gridsubmit.bash "$P/share/bash-completion/completions/gridsubmit"
check_eq "the zsh completion: share/zsh/site-functions/_gridsubmit, mode 644" \
	"$(mode "$P/share/zsh/site-functions/_gridsubmit")" 644
check "it is completion/_gridsubmit" \
	cmp completion/_gridsubmit "$P/share/zsh/site-functions/_gridsubmit"
for f in share/man/man1/gridsubmit.1 share/man/man5/gridsubmit-sites.5 \
	include/grt/grt.h include/grt/grt-error.h include/grt/scheme.h lib/libgrt.a \
	lib/pkgconfig/libgrt.pc; do
	check_eq "$f installed, mode 644" "$(mode "$P/$f")" 644
done
for f in sites/*.yaml; do
	check_eq "$f installed, mode 644" "$(mode "$P/share/gridsubmit/$f")" 644
done
check "no internal header installed" test ! -e "$P/include/grt/grt-internal.h"
if [ "$(sed -n 's/^HAVE_SMPI *= *//p' Makefile)" = yes ]; then
	smpi=yes
	for f in lib/libgrt-smpi.a lib/pkgconfig/libgrt-smpi.pc; do
		check_eq "libgrt's SMPI twin: $f installed, mode 644" "$(mode "$P/$f")" 644
	done
else
	smpi=no
	check "no SMPI twin installed (it was not built)" test ! -e "$P/lib/libgrt-smpi.a"
fi

# a user's program (tests/project/grt-sum.c, <grt/grt.h>), and one that includes "grt.h"
# as programs written before the headers' folder did
printf '#include "grt.h"\nint main(void) { return grt_end(GRT_OK); }\n' > "$T/old.c"
# only the DESTDIR tree: its pkg-config file, its paths moved under $R
pc() {
	PKG_CONFIG_LIBDIR="$P/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$R" pkg-config "$@"
}
check_eq "pkg-config knows libgrt's version" "$(pc --modversion libgrt)" "$(cat VERSION)"
flags=$(pc --cflags --libs libgrt)
check_match "pkg-config points into the DESTDIR tree" "$flags" "-I$P/include/grt .*-L$P/lib -lgrt"
# shellcheck disable=SC2086 # the flags are separate words
check "mpicc builds a program with pkg-config's flags" \
	"$MPICC" -o "$T/sum" "$SRC/tests/project/grt-sum.c" $flags
# shellcheck disable=SC2086 # the flags are separate words
check "and one that includes \"grt.h\"" "$MPICC" -o "$T/old" "$T/old.c" $flags
unset GRT_SCHEME GRT_K GRT_ALPHA GRT_SWR GRT_DEADLINE GRT_EVENTS GRT_JOB GRT_RANKMAP \
	GRT_EVENTS_CHUNKS GRT_MASTER_COMPUTES GRT_ROUNDS
got=$(timeout -k 5 60 "$MPIEXEC" -n 3 "$T/sum" gss 2>&1)
check_eq "the program sums 0..999 on 3 ranks" "$got" "gss sum 499500"
if [ "$smpi" = yes ]; then
	flags=$(pc --cflags --libs libgrt-smpi)
	check_match "pkg-config's libgrt-smpi is the SMPI twin" "$flags" \
		"-I$P/include/grt .*-L$P/lib -lgrt-smpi"
	# shellcheck disable=SC2086 # the flags are separate words
	check "smpicc builds the program with libgrt-smpi's flags" \
		smpicc -o "$T/sum-smpi" "$SRC/tests/project/grt-sum.c" $flags
fi

# --sites NAME: the user's directory, then the installed one
export XDG_CONFIG_HOME="$T/config"
mkdir -p "$XDG_CONFIG_HOME/gridsubmit/sites"
cp sites/tiger.yaml "$XDG_CONFIG_HOME/gridsubmit/sites/mygrid.yaml"
GS=$P/bin/gridsubmit
run_gs sites check mygrid
check_eq "sites check NAME: exit 0" "$rc" 0
check_match "finds NAME.yaml in \$XDG_CONFIG_HOME/gridsubmit/sites" "$out" \
	"^mygrid: ok, 4 sites, 16 nodes"
run_gs sites show mygrid --json
check_match "the model records the file it was read from" "$out" \
	"\"file\": \"$XDG_CONFIG_HOME/gridsubmit/sites/mygrid.yaml\""
run_gs sites check nosuchgrid
check_eq "an unknown NAME: exit 3" "$rc" 3
check_eq "an unknown NAME: the places searched" "$err" \
	"gridsubmit: no site file named 'nosuchgrid': looked for nosuchgrid.yaml in $XDG_CONFIG_HOME/gridsubmit/sites and $PREFIX/share/gridsubmit/sites (give a path to use a file elsewhere)"
run_gs sites check mygird
check_match "a misspelt NAME: the one found meant" "$err" \
	"^gridsubmit: no site file named 'mygird' \(did you mean 'mygrid'\?\): "
run_gs sites check "$XDG_CONFIG_HOME/gridsubmit/sites/mygrid"
check_eq "a path with a '/' stays a path" "$rc" 3
check_match "and is read as given" "$err" "mygrid: "
if command -v bash >/dev/null 2>&1; then
	got=$(PATH="$P/bin:$PATH" bash -c '. "$1" && COMP_WORDS=(gridsubmit run --sites myg)
		COMP_CWORD=3 && _gridsubmit && printf "%s\n" "${COMPREPLY[@]}"' sh \
		"$P/share/bash-completion/completions/gridsubmit")
	check_eq "the installed bash completion offers the NAME, asking the installed gridsubmit" \
		"$got" "mygrid"
else
	skip "the installed bash completion" "bash is not installed"
fi

check "make uninstall DESTDIR=$R" make -s B="$BUILD" DESTDIR="$R" uninstall
check_eq "make uninstall leaves no file behind" "$(find "$R" ! -type d)" ""
check "nor gridsubmit's own directories" sh -c \
	"test ! -e '$P/share/gridsubmit' && test ! -e '$P/include/grt'"

# prefix=DIR and PREFIX=DIR: installed there, the build tree untouched
for v in prefix PREFIX; do
	D=$T/$v-tree
	check "make install $v=DIR" make -s B="$BUILD" "$v=$D" install
	check_eq "$v=DIR: the program in DIR/bin, mode 755" "$(mode "$D/bin/gridsubmit")" 755
	check_eq "$v=DIR: libgrt in DIR/lib" "$(mode "$D/lib/libgrt.a")" 644
	check_eq "$v=DIR: libgrt's pkg-config file has DIR for prefix" \
		"$(PKG_CONFIG_LIBDIR="$D/lib/pkgconfig" pkg-config --variable=prefix libgrt)" "$D"
	if [ "$smpi" = yes ]; then
		check_eq "$v=DIR: libgrt-smpi's too" "$(PKG_CONFIG_LIBDIR="$D/lib/pkgconfig" \
			pkg-config --variable=prefix libgrt-smpi)" "$D"
	fi
	GS=$D/bin/gridsubmit
	run_gs sites check nosuchgrid
	check_match "$v=DIR: the installed gridsubmit looks for its site files in DIR" "$err" \
		" and $D/share/gridsubmit/sites \\(give a path"
	GS=$BUILD/gridsubmit
	check_eq "$v=DIR: build/gridsubmit and gs-config.h as they were (nothing relinked)" \
		"$(built_state)" "$built0"
	run_gs sites check nosuchgrid
	check_match "and build/gridsubmit still looks in configure's prefix" "$err" \
		" and $PREFIX/share/gridsubmit/sites \\(give a path"
done

# the README's "Your own program", its commands as they are written, in a home of the test's
block=$(sed -n '/^<!-- newcomer: begin -->$/,/^<!-- newcomer: end -->$/p' README.md |
	sed -e '/^<!--/d' -e '/^```/d')
check_match "the README has its \"Your own program\" steps" "$block" "make install prefix="
if [ "$smpi" != yes ]; then
	# without SimGrid: the steps up to its first smpicc
	block=$(printf '%s\n' "$block" | sed -e '/smpicc/,$d')
	skip "the README's steps with simulate" "SimGrid's SMPI was not found by configure"
fi
mkdir "$T/newcomer"
got=$(cd "$SRC" && HOME=$T/newcomer B=$BUILD sh -e -c "$block" 2>"$T/newcomer.err")
st=$?
# the program's lines among make's
got=$(printf '%s\n' "$got" | grep '^hello:')
check_eq "the README's steps run, one after the other, without an error" "$st" 0
[ "$st" -eq 0 ] || sed -e 's/^/#   /' "$T/newcomer.err" | tail -n 20
check_eq "the installed gridsubmit ran the newcomer's hello: the master and one worker" \
	"$(printf '%s\n' "$got" | sed -n 1p)" "hello: sum 332833500, the master and 1 worker(s)"
if [ "$smpi" = yes ]; then
	check_eq "and simulated it, with the same result" "$(printf '%s\n' "$got" | sed -n 2p)" \
		"hello: sum 332833500, the master and 1 worker(s)"
	check_match "simulate said its simulated makespan" "$(cat "$T/newcomer.err")" \
		"simulated makespan [0-9.e-]+ s on 2 ranks"
fi
check_eq "nothing of it relinked build/gridsubmit" "$(built_state)" "$built0"
