#!/bin/sh
# bench-top.sh — the console (issue 6): events/s ingested and CPU per refresh on 1,000 ranks
# and 1,000,000 chunk events; rows from tests/bench/bench-top.c.
BUILD=${BUILD:-build}
exec "$BUILD/tests/bench/bench-top"
