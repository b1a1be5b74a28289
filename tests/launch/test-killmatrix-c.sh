#!/bin/sh
# test-killmatrix-c.sh — a part of the kill matrix (tests/launch/killmatrix.sh, root):
# forged lease connections from a node (no evidence). A part of its own: its job must
# outlive the lease's timeout while the forgeries are held, the longest case of the
# matrix, which with the cases of test-killmatrix-a.sh came within 40 s of the runner's
# 600 s limit per test on a busy host.
# serial: testbed-a
KM_CASES="forge:syn"
. tests/launch/killmatrix.sh
