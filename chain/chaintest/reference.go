package chaintest

import (
	"crypto/sha256"
	"embed"
	"fmt"
	"slices"
	"strings"
)

// The reference contracts' builds, as leap's unit tests use them (see
// testdata/wasm/README.md for every file's hash, source and licence).
//
//go:embed testdata/wasm/eosio.token.wasm testdata/wasm/eosio.token.abi
//go:embed testdata/wasm/eosio.msig.wasm testdata/wasm/eosio.msig.abi
//go:embed testdata/wasm/eosio.system.wasm testdata/wasm/eosio.system.abi
//go:embed testdata/wasm/eosio.bios.wasm testdata/wasm/eosio.bios.abi
var referenceFiles embed.FS

// leapCommit is the AntelopeIO/leap commit the reference builds come from.
const leapCommit = "92b6fec5e949660bae78e90ebf555fe71ab06940"

// referenceSources is where each build comes from, relative to leapCommit.
var referenceSources = map[string]string{
	"eosio.token":  "unittests/contracts/eosio.token/",
	"eosio.msig":   "unittests/contracts/eosio.msig/",
	"eosio.system": "unittests/contracts/eosio.system/",
	"eosio.bios":   "libraries/testing/contracts/eosio.bios/",
}

// Reference is a reference contract's compiled code and ABI, and where they
// come from, ready for [Chain.DeployWASM] or chain.Client.Deploy.
type Reference struct {
	Name string // the contract, such as "eosio.token"
	Code []byte // the wasm, byte for byte as published
	ABI  []byte // the ABI JSON, byte for byte as published

	// Provenance names the repository, commit and directory of both files,
	// their licence, and their sha256.
	Provenance string
}

// ReferenceContracts lists the names ReferenceContract knows, sorted.
func ReferenceContracts() []string {
	names := make([]string, 0, len(referenceSources))
	for n := range referenceSources {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ReferenceContract returns a reference contract's build: "eosio.token",
// "eosio.msig", "eosio.system" or "eosio.bios", as leap's unit tests run
// them (MIT). The bytes are a fresh copy on every call.
//
// The eosio.system build predates PowerUp: it has no powerup action and no
// powup.state table. Its init action (after eosio.token's create and issue of
// the core symbol) creates the rammarket row that buyram and buyrambytes
// price RAM from.
func ReferenceContract(name string) (Reference, error) {
	dir, ok := referenceSources[name]
	if !ok {
		return Reference{}, fmt.Errorf("chaintest: no reference contract %q (have %s)", name, strings.Join(ReferenceContracts(), ", "))
	}
	code, err := referenceFiles.ReadFile("testdata/wasm/" + name + ".wasm")
	if err != nil {
		return Reference{}, err
	}
	abi, err := referenceFiles.ReadFile("testdata/wasm/" + name + ".abi")
	if err != nil {
		return Reference{}, err
	}
	return Reference{
		Name: name,
		Code: code,
		ABI:  abi,
		Provenance: fmt.Sprintf("AntelopeIO/leap@%[1]s:%[2]s%[3]s.wasm (sha256 %[4]x) and AntelopeIO/leap@%[1]s:%[2]s%[3]s.abi (sha256 %[5]x), MIT licence",
			leapCommit, dir, name, sha256.Sum256(code), sha256.Sum256(abi)),
	}, nil
}
