#!/bin/sh
# test-killmatrix-b.sh — a part of the kill matrix (tests/launch/killmatrix.sh, root): a
# worker's program, wrapper and node's proxy killed, the supervisor killed and the job
# resumed, and one or two nodes crashing (more failures than restarts, then resume).
# serial: testbed-b
KM_CASES="prog:syn wrap:syn proxy:syn proxy:mm sup:syn sup:mm two:syn over:syn"
. tests/launch/killmatrix.sh
