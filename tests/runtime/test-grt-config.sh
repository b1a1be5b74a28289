#!/bin/sh
# test-grt-config.sh — libgrt's configuration from the GRT_* environment: the unit test
# tests/runtime/mpi/grt-config-unit.c (the task-migration variables, their defaults and bad values,
# the policy names), which needs mpi.h to build but no mpiexec to run.
. tests/lib.sh

UNIT=$BUILD/tests/runtime/mpi/grt-config-unit
if [ ! -x "$UNIT" ]; then
	fail "grt-config: $UNIT is built (run make tests)"
	exit 0
fi
"$UNIT" > "$T/unit.out" 2>&1
rc=$?
sed -n -e 's/^ok - /ok - grt-config: /p' -e 's/^not ok - /not ok - grt-config: /p' \
	-e '/^#/p' "$T/unit.out"
if [ "$rc" -ne 0 ] && ! grep -q '^not ok - ' "$T/unit.out"; then
	fail "grt-config: exited with status $rc"
	tail -n 20 "$T/unit.out" | sed -e 's/^/#   /'
fi
