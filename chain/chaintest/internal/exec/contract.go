package exec

import (
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
)

// Contract is an account's contract: its ABI and either a Go handler or
// wasm code. A contract is replaced, never changed in place.
type Contract struct {
	ABI       []byte                         // the ABI JSON (nil: none set)
	PackedABI []byte                         // the ABI as the chain stores it (nil: packed from abi when asked)
	Tables    map[antelope.Name]bool         // the tables its ABI has
	indexes   map[antelope.Name]tableIndexes // the tables' key_names and key_types
	handler   Handler                        // a contract written in Go; or
	Module    *wasm.Module                   // its wasm, compiled
	Code      []byte                         // its WebAssembly
	CodeHash  antelope.Checksum256           // sha256 of Code (zero: none)
}

// billFixture bills RAM to an account for state written outside a
// transaction (an account the chain does not know pays nothing).
func (c *Engine) billFixture(account antelope.Name, delta int64) {
	if a := c.Account(account); a != nil {
		a.RAMUsage += delta
	}
}

// CodeAuthority is an authority satisfied by the account's own contract
// (its eosio.code permission) only: the active permission of an account
// chaintest makes for a contract.
func CodeAuthority(acct antelope.Name) chain.Authority {
	return chain.Authority{Threshold: 1, Accounts: []chain.PermissionLevelWeight{
		{Permission: antelope.PermissionLevel{Actor: acct, Permission: nameEosioCode}, Weight: 1}}}
}

// Packed is the contract's ABI as the chain stores it (none: nil).
func (ct *Contract) Packed() []byte {
	if ct.PackedABI != nil || ct.ABI == nil {
		return ct.PackedABI
	}
	packed, _, err := packABI(ct.ABI)
	if err != nil {
		return nil
	}
	ct.PackedABI = packed
	return packed
}
