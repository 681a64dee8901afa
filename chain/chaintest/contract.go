package chaintest

import (
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
)

type contract struct {
	abi       []byte // the ABI JSON (nil: none set)
	packedABI []byte // the ABI as the chain stores it (nil: packed from abi when asked)
	tables    map[antelope.Name]bool
	indexes   map[antelope.Name]tableIndexes // the tables' key_names and key_types
	handler   execHandler                    // a contract written in Go; or
	module    *wasm.Module
	code      []byte // its WebAssembly
	codeHash  antelope.Checksum256
}

// billFixture bills RAM to an account for state written outside a
// transaction (an account the chain does not know pays nothing).
func (c *engine) billFixture(account antelope.Name, delta int64) {
	if a := c.account(account); a != nil {
		a.ramUsage += delta
	}
}

// codeAuthority is an authority satisfied by the account's own contract
// (its eosio.code permission) only: the active permission of an account
// chaintest makes for a contract.
func codeAuthority(acct antelope.Name) chain.Authority {
	return chain.Authority{Threshold: 1, Accounts: []chain.PermissionLevelWeight{
		{Permission: antelope.PermissionLevel{Actor: acct, Permission: nameEosioCode}, Weight: 1}}}
}
