#!/usr/bin/env bash
# Runs every fuzz target of the module, one after the other by default.
#
#   scripts/fuzz.sh              # 10 minutes each (the bar for a release)
#   FUZZTIME=30s scripts/fuzz.sh # any -fuzztime: a duration or a count (50000x)
#   scripts/fuzz.sh FuzzLoad     # only the targets whose names match
#   FUZZJOBS=2 FUZZPARALLEL=1 scripts/fuzz.sh  # two targets at once, one worker each
#   FUZZCACHE=$(mktemp -d) scripts/fuzz.sh     # start from the seeds alone
#
# FUZZJOBS runs that many targets at once, each with
# FUZZPARALLEL workers (default: one per CPU): CI fuzzes every target for
# 35 s, two at a time with one worker each, so both cores fuzz all the time
# and each target's build overlaps another's fuzzing.
#
# A crasher stops the run; go test has written it to
# <package>/testdata/fuzz/<Target>/ — commit it as a regression test once the
# bug is fixed. The line per target gives its execution count and its rate:
# executions per second of fuzzing (after the seed corpus's baseline run),
# all workers together.
#
# A target that runs slower than FUZZFLOOR executions a second (default
# 300) fails the run: it explores nothing, whatever its budget says (one made
# 35 executions in 2 minutes). Every target runs at a thousand or more a
# second on one core, most at thousands; three that once could not (126 to
# 900 a second, #31) spent their time on what they do not test.
# FUZZFLOOR=0 turns the check off (for a machine busy with other work).
# FuzzTokenWasmActions's floor is a sixth of it (50): some of its inputs
# cost the real contract 30 to 70 ms of its own work (an issue whose memo
# length is a billion: eosio.token's wasm runs that long before its
# datastream refuses to read past the end), and once the fuzzer finds
# one, it mutates it for seconds. Six runs made 716 to 3,245
# a second; one in CI made 149.
#
# Go 1.26's fuzz coordinator can fail a clean timed run at its deadline with
# "context deadline exceeded" (go.dev/issue/75804, fixed in Go 1.27). Such a
# run that wrote no crasher counts as a pass, when that error alone is the
# failure (not a seed or a target's message that quotes it).
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZTIME=${FUZZTIME:-10m}
FUZZPARALLEL=${FUZZPARALLEL:-$(nproc)}
FUZZJOBS=${FUZZJOBS:-1}
if ! [[ $FUZZJOBS =~ ^[1-9][0-9]*$ ]]; then
	echo "FUZZJOBS=$FUZZJOBS: a number of targets at once, 1 or more" >&2
	exit 2
fi
# Every input that reaches new code is minimized before fuzzing goes on,
# and a time limit for it (60 s by default, then 5 s) left targets stalled
# for most of a short run: FuzzErrorAnswer found a hundred such inputs in
# 20,000 executions and made 10,000 executions in 277 s with 5 s, in 13 s
# with 100 executions. A crasher is still written, less minimized.
FUZZMINIMIZE=${FUZZMINIMIZE:-100x}
filter=${1:-.}
FUZZFLOOR=${FUZZFLOOR:-300}
# Where the inputs found interesting are kept between runs: Go's own cache
# by default ($GOCACHE/fuzz), so that local runs build on each other. Each
# run first replays them all, and a replay costs a whole coverage map
# through a pipe (18 ms an input in gen, whose binary holds every golden
# package): CI gives each run an empty directory, so that its time does not
# grow with every run the machine has made (700 kept inputs in gen alone).
FUZZCACHE=${FUZZCACHE:-}
count() { if [ -d "$1" ]; then ls "$1" | wc -l; else echo 0; fi; }

# fuzz_one PKG DIR TARGET RESULT: fuzzes one target; writes its report line
# to RESULT, and on failure go test's output after it. Returns 1 on failure.
fuzz_one() {
	local pkg=$1 dir=$2 target=$3 result=$4
	local crashers="$dir/testdata/fuzz/$target" before after log start status
	before=$(count "$crashers")
	log=$(mktemp)
	start=$(date +%s)
	status=ok
	local cache=()
	if [ -n "$FUZZCACHE" ]; then
		cache=(-args "-test.fuzzcachedir=$FUZZCACHE/${pkg#github.com/antelopego/abigen}")
	fi
	if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINIMIZE" -parallel "$FUZZPARALLEL" "$pkg" "${cache[@]}" >"$log" 2>&1; then
		after=$(count "$crashers")
		# The coordinator's failure is that error alone on its line, as
		# testing prints it; a target's own failure quoting it (a seed
		# that fails again writes no crasher) is a failure.
		if grep -qxE '[[:space:]]*context deadline exceeded' "$log" &&
			! grep -q 'failure while testing seed corpus entry\|Failing input written to' "$log" &&
			[ "$after" -eq "$before" ]; then
			status="ok (go.dev/issue/75804 at the deadline)"
		else
			{ cat "$log"; echo "FAIL $target (a new crasher, if any, is in $crashers)"; } >"$result"
			rm -f "$log"
			return 1
		fi
	fi
	local execs secs began ended fuzzsecs rate
	execs=$(grep -o 'execs: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*' || echo 0)
	secs=$(($(date +%s) - start))
	# Seconds of fuzzing: from the line that ends the baseline run to
	# the last one (go test prints whole seconds, so at least one).
	began=$(grep -o 'elapsed: [0-9]*s, gathering baseline coverage: .*now fuzzing' "$log" | grep -o '^elapsed: [0-9]*' | grep -o '[0-9]*' || echo 0)
	ended=$(grep -o 'elapsed: [0-9]*s, execs' "$log" | tail -n 1 | grep -o '[0-9]*' || echo 0)
	fuzzsecs=$((ended - began > 0 ? ended - began : 1))
	rate=$((execs / fuzzsecs))
	rm -f "$log"
	printf '%-28s %-40s %10s execs in %4ds, %4ds fuzzing (%6s/s)  %s\n' "$target" "${pkg#github.com/antelopego/abigen/}" "$execs" "$secs" "$fuzzsecs" "$rate" "$status" >"$result"
	local floor=$FUZZFLOOR
	if [ "$target" = FuzzTokenWasmActions ]; then
		floor=$((FUZZFLOOR / 6))
	fi
	if ((floor > 0 && rate < floor)); then
		echo "FAIL $target: $rate executions a second, under the floor of $floor: it explores next to nothing" >>"$result"
		return 1
	fi
}

# The targets this run fuzzes, in order: package, its directory, target.
targets=()
for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
		[[ $target =~ $filter ]] || continue
		targets+=("$pkg $dir $target")
	done
done

# Up to FUZZJOBS targets at once; each report is printed as its target
# ends. The first failure stops new targets; those running finish, then
# the failure is printed and the run fails.
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
declare -A running=()
failed=""
reap() {
	local pid
	wait -n -p pid || true
	local n=${running[$pid]}
	unset "running[$pid]"
	if [ -e "$results/$n.failed" ]; then
		failed="$failed $n"
	else
		cat "$results/$n"
	fi
}
n=0
for entry in "${targets[@]}"; do
	while ((${#running[@]} >= FUZZJOBS)); do reap; done
	[ -z "$failed" ] || break
	read -r pkg dir target <<<"$entry"
	(fuzz_one "$pkg" "$dir" "$target" "$results/$n" || touch "$results/$n.failed") &
	running[$!]=$n
	n=$((n + 1))
done
while ((${#running[@]} > 0)); do reap; done
if [ -n "$failed" ]; then
	for n in $failed; do cat "$results/$n"; done
	exit 1
fi
