# The command line: help, version, usage errors with the closest valid name (issue 2).
. tests/lib.sh

run_gs --help
check_eq "--help exits 0" "$rc" 0
check_match "--help lists the commands" "$out" "^  run +submit a job"
check_match "--help lists schedule" "$out" "^  schedule "
check_eq "--help writes nothing to stderr" "$err" ""

run_gs --version
check_eq "--version exits 0" "$rc" 0
check_eq "--version prints the version" "$out" "gridsubmit $(cat VERSION)"

run_gs
check_eq "no command is a usage error" "$rc" 2
check_match "no command prints the usage on stderr" "$err" "^usage: gridsubmit"

run_gs rnu examples/mandelbrot/job.yaml
check_eq "unknown command exits 2" "$rc" 2
check_match "unknown command names the closest one" "$err" "unknown command 'rnu' \(did you mean 'run'\?\)"
run_gs schedul
check_match "unknown command: schedul -> schedule" "$err" "did you mean 'schedule'"
run_gs frobnicate
check_eq "a word far from any command exits 2" "$rc" 2
check_match "and suggests nothing" "$err" "^gridsubmit: unknown command 'frobnicate'$"

run_gs --frob
check_eq "unknown global option exits 2" "$rc" 2

run_gs run --rnaks 3 examples/mandelbrot/job.yaml
check_eq "unknown option exits 2" "$rc" 2
check_match "unknown option names the closest one" "$err" "unknown option '--rnaks' \(did you mean '--ranks'\?\)"
check_match "a usage error shows the synopsis" "$err" \
	"^usage: gridsubmit run \\{JOB.yaml \\[-- ARGS...\\] \\| -- PROGRAM \\[ARGS...\\]\\}"

run_gs run --ranks zero examples/mandelbrot/job.yaml
check_eq "a bad option value exits 2" "$rc" 2
check_match "and names the option" "$err" "--ranks: 'zero' is not a whole number"
run_gs run --scheme gsss examples/mandelbrot/job.yaml
check_eq "an unknown scheme exits 2" "$rc" 2
run_gs run
check_match "run without a job file or a program says so" "$err" \
	"missing JOB.yaml or -- PROGRAM"

for c in run submit status list cancel wait logs resume top sites rank schedule testbed; do
	run_gs help "$c"
	check_eq "help $c exits 0" "$rc" 0
	check_match "help $c shows its usage" "$out" "^usage: gridsubmit $c "
	check_match "gridsubmit --help lists $c" "$("$GS" --help)" "^  $c "
	"$GS" help "$c" > "$T/help1" 2>&1
	"$GS" "$c" --help > "$T/help2" 2>&1
	check "help $c == $c --help" cmp "$T/help1" "$T/help2"
done
run_gs help nosuch
check_eq "help of an unknown command exits 2" "$rc" 2
