#!/usr/bin/env bash
# Lists the golden cases the oracle covers: every compiling golden package
# except the hazard cases (their names are built to break Go, not the chain)
# and repeats of the same ABI in another form.
set -euo pipefail
cd "$(dirname "$0")/../.."
for d in golden/*/; do
	name=$(basename "$d")
	[ -f "$d/types.go" ] || continue
	case $name in hazard*) continue ;; esac
	echo "$name"
done
