#!/usr/bin/env bash
# Runs every fuzz target of the module, one after the other.
#
#   scripts/fuzz.sh              # 10 minutes each (the bar for a release)
#   FUZZTIME=30s scripts/fuzz.sh # any -fuzztime: a duration or a count (50000x)
#   scripts/fuzz.sh FuzzLoad     # only the targets whose names match
#   FUZZEVERY=8 FUZZSEED=3 scripts/fuzz.sh  # every 8th target, from the 3rd
#
# FUZZEVERY/FUZZSEED let CI fuzz a few targets long in each run (a rotation
# chosen by the commit), where every target for long would not fit its time.
#
# A crasher stops the run; go test has written it to
# <package>/testdata/fuzz/<Target>/ — commit it as a regression test once the
# bug is fixed. The last line per target gives its execution count.
#
# Go 1.26's fuzz coordinator can fail a clean timed run at its deadline with
# "context deadline exceeded" (go.dev/issue/75804, fixed in Go 1.27). Such a
# run that wrote no crasher counts as a pass.
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZTIME=${FUZZTIME:-10m}
FUZZPARALLEL=${FUZZPARALLEL:-$(nproc)}
# Minimizing each new interesting input (60 s by default) stalled targets
# seeded with long recordings for seconds at a time, executing nothing;
# a crasher is still written, less minimized.
FUZZMINIMIZE=${FUZZMINIMIZE:-5s}
filter=${1:-.}
FUZZEVERY=${FUZZEVERY:-1}
FUZZSEED=${FUZZSEED:-0}
index=-1

count() { if [ -d "$1" ]; then ls "$1" | wc -l; else echo 0; fi; }

for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
		[[ $target =~ $filter ]] || continue
		index=$((index + 1))
		(((index + FUZZSEED) % FUZZEVERY == 0)) || continue
		crashers="$dir/testdata/fuzz/$target"
		before=$(count "$crashers")
		log=$(mktemp)
		start=$(date +%s)
		status=ok
		if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINIMIZE" -parallel "$FUZZPARALLEL" "$pkg" >"$log" 2>&1; then
			after=$(count "$crashers")
			if grep -q 'context deadline exceeded' "$log" && [ "$after" -eq "$before" ]; then
				status="ok (go.dev/issue/75804 at the deadline)"
			else
				cat "$log"
				echo "FAIL $target: the crasher is in $crashers"
				exit 1
			fi
		fi
		execs=$(grep -o 'execs: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*' || echo 0)
		secs=$(($(date +%s) - start))
		# The rate shows a target that explores nothing (a few executions
		# a second); every target should manage thousands on one core.
		printf '%-28s %-40s %10s execs in %4ds (%6s/s)  %s\n' "$target" "${pkg#github.com/antelopego/abigen/}" "$execs" "$secs" $((execs / (secs > 0 ? secs : 1))) "$status"
		rm -f "$log"
	done
done
