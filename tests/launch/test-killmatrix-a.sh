#!/bin/sh
# test-killmatrix-a.sh — a part of the kill matrix (tests/launch/killmatrix.sh, root): a
# worker's node cut off and frozen (its lease silent: relaunched without it), and rank 0's
# program killed (a relaunch on the same nodes), of synthetic and of matmul.
# serial: testbed-a
KM_CASES="link:syn freeze:syn master:syn master:mm"
. tests/launch/killmatrix.sh
