#!/usr/bin/env bash
# Measures what the README's test command costs a newcomer: a fresh clone of
# HEAD, an empty Go build cache (the standard library and every dependency
# compiled too), the module cache as it is (downloading is network time,
# not CPU). Prints wall and CPU time (user + system, the go command and
# every compiler, linker and test process it ran) beside issue #34's goal of
# at most 4 CPU-minutes.
#
#   scripts/testcost.sh         # about 4 CPU-minutes on two cores
set -euo pipefail
cd "$(dirname "$0")/.."

# The command is read from the README, so the figure is the README's own.
cmd=$(awk '/^## On a fresh machine/{f=1} f&&/^```sh/{c=1;next} c&&/^```/{exit} c' README.md | sed -n 2p)
case $cmd in
"go test "*) ;;
*)
	echo "testcost: the README's second command is not a go test command: $cmd" >&2
	exit 1
	;;
esac

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
git clone -q . "$work/clone"
mkdir "$work/cache"
cd "$work/clone"
go mod download # network, not counted
TIMEFORMAT='%R %U %S'
times=$({ time GOCACHE="$work/cache" GOFLAGS= bash -c "$cmd" >"$work/log" 2>&1; } 2>&1) || {
	tail -n 30 "$work/log"
	echo "testcost: $cmd failed" >&2
	exit 1
}
read -r wall user sys <<<"$times"
awk -v cmd="$cmd" -v n="$(nproc)" -v wall="$wall" -v user="$user" -v sys="$sys" 'BEGIN {
	c = user + sys
	printf "| README test command (`%s`), fresh clone, empty build cache, %s CPUs | %.0f s wall, %.0f CPU-s (%.1f CPU-min) | ≤ 4 CPU-min | %s |\n", cmd, n, wall, c, c / 60, (c <= 240 ? "yes" : "**no**")
}'
