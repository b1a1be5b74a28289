# soak-summary.awk — the last lines of `make soak`: every line of the runs passes through;
# each run's "N passed, N failed, N skipped" is added into one, and the kill matrix's
# "killmatrix: CASE restart_after=SECONDS" lines (tests/launch/killmatrix.sh) become a
# table, per case: the runs that relaunched, the median and the longest time from the kill
# to the relaunch's start, and the runs that needed none; and, per case of the matrix (a
# check named "CASE (PROGRAM, REPETITION): what"), its checks passed and failed. Exit 1 when
# a test failed.
/^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ { p += $1; f += $3; s += $5; next }
{ print; fflush() }
/^ *(not )?ok - [^(]+ \([a-z]+, [0-9]+\): / {
	k = $0
	bad = k ~ /^ *not ok - /
	sub(/^ *(not )?ok - /, "", k)
	sub(/, [0-9]+\): .*/, ")", k)
	if (!(k in cok) && !(k in cbad)) { corder[++nck] = k }
	if (bad) cbad[k]++; else cok[k]++
}
/killmatrix: [^ ]+ restart_after=/ {
	c = $0
	sub(/.*killmatrix: /, "", c)
	v = c
	sub(/ .*/, "", c)
	sub(/.*restart_after=/, "", v)
	if (!(c in runs)) { order[++ncase] = c }
	runs[c]++
	if (v == "none") { none[c]++; next }
	t[c, ++n[c]] = v + 0
}
END {
	if (ncase > 0) {
		printf "%-16s %5s %10s %10s %6s\n", "case", "runs", "median s", "max s", "none"
		for (k = 1; k <= ncase; k++) {
			c = order[k]
			m = n[c] + 0
			# insertion sort of the case's times (mawk has no asort)
			for (i = 2; i <= m; i++) {
				x = t[c, i]
				for (j = i - 1; j >= 1 && t[c, j] > x; j--)
					t[c, j + 1] = t[c, j]
				t[c, j + 1] = x
			}
			if (m == 0)
				printf "%-16s %5d %10s %10s %6d\n", c, runs[c], "-", "-", none[c]
			else
				printf "%-16s %5d %10.1f %10.1f %6d\n", c, runs[c],
				    (m % 2 ? t[c, (m + 1) / 2] : (t[c, m / 2] + t[c, m / 2 + 1]) / 2),
				    t[c, m], none[c]
		}
	}
	if (nck > 0) {
		printf "%-36s %7s %7s\n", "checks of case", "passed", "failed"
		for (k = 1; k <= nck; k++)
			printf "%-36s %7d %7d\n", corder[k], cok[corder[k]], cbad[corder[k]]
	}
	printf "%d passed, %d failed, %d skipped\n", p, f, s
	exit f > 0
}
