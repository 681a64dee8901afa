#!/usr/bin/env bash
# Makes the differential vectors in testdata/oracle and checks the Go side's
# JSON against both oracles. Needs Node.js and npm (the registry); the Go
# tests that read the vectors do not.
#
#   internal/oracle/regen.sh          rewrite testdata/oracle
#   internal/oracle/regen.sh --check  fail if a fresh oracle run differs from
#                                     the committed vectors (CI)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$here"

npm ci --no-audit --no-fund --loglevel=error >/dev/null

check=false
[ "${1:-}" = "--check" ] && check=true
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out="$root/testdata/oracle"
if $check; then
	out="$tmp/vectors"
else
	rm -f "$out"/*.json.gz "$out"/keys/*.json.gz "$out"/esr/*.json.gz "$out"/powerup/*.json.gz
fi
mkdir -p "$out"

cases=$(./cases.sh | sed "s|^|$root/golden/|")
echo "oracle: making vectors for $(echo "$cases" | wc -l) golden ABIs"
node oracle.js gen "$out" $cases >/dev/null
# Keys, signatures and transactions (actions from the same golden ABIs).
node signing.js "$out/keys" $cases
# Signing requests (@wharfkit/signing-request), actions from the same ABIs.
node esr.js gen "$out/esr" $cases
# PowerUp fractions (@wharfkit/resources) on the recorded EOS and Jungle 4
# states and random ones.
node powerup.js "$out/powerup" "$root"/powerup/testdata/powup.state.*.json

if $check; then
	status=0
	for f in "$out"/*.json.gz "$out"/{keys,esr,powerup}/*.json.gz "$root"/testdata/oracle/*.json.gz "$root"/testdata/oracle/{keys,esr,powerup}/*.json.gz; do
		name=${f#"$out"/}
		name=${name#"$root"/testdata/oracle/}
		if ! cmp -s <(gzip -dc "$out/$name" 2>/dev/null) <(gzip -dc "$root/testdata/oracle/$name" 2>/dev/null); then
			echo "testdata/oracle/$name differs from a fresh oracle run"
			status=1
		fi
	done
	if [ $status -ne 0 ]; then
		echo "run internal/oracle/regen.sh (go generate ./internal/oracle), review and commit"
		exit 1
	fi
	echo "oracle: testdata/oracle equals a fresh oracle run"
fi

# The Go side's MarshalJSON of every vector must read back to the same bytes
# in both libraries.
(cd "$root" && ORACLE_GO_JSON="$tmp/go.json" go test -count=1 -run '^TestOracleVectors$' ./internal/oracle >/dev/null)
node oracle.js check "$tmp/go.json"

# The other way round for signing requests: requests antelope makes must
# decode, re-encode and resolve the same in @wharfkit/signing-request.
(cd "$root" && ORACLE_GO_ESR="$tmp/go-esr.json" go test -count=1 -run '^TestESRVectors$' ./internal/oracle >/dev/null)
node esr.js check "$tmp/go-esr.json" "$root/golden"
