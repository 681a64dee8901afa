#!/usr/bin/env bash
# Runs the benchmarks of bench/ and prints medians and ratios. The README's
# performance section is this script's output.
#
#   bench/run.sh            # -count 6
#   COUNT=10 bench/run.sh
#   BENCH=Encode bench/run.sh   # a subset (a -bench regexp)
#   TESTCOST=1 bench/run.sh     # and the README test command's cost (scripts/testcost.sh)
set -euo pipefail
cd "$(dirname "$0")"
COUNT=${COUNT:-6}
BENCH=${BENCH:-.}
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
echo "machine: $(go env GOOS)/$(go env GOARCH), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //' || echo unknown), $(go version | cut -d' ' -f3)"
go test -run '^$' -bench "$BENCH" -benchmem -count "$COUNT" . | tee "$raw" >/dev/null
go run ./cmd/benchtable <"$raw"

# The README's test command on a fresh clone with an empty build cache
# (about 4 CPU-minutes itself, so only when asked).
if [ "${TESTCOST:-0}" = 1 ]; then
	../scripts/testcost.sh
else
	echo
	echo "(TESTCOST=1 bench/run.sh also measures the README's test command on a fresh clone with an empty build cache, against its goal of 4 CPU-minutes)"
fi
