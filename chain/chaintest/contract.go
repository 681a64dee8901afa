package chaintest

import (
	"encoding/json"
	"fmt"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
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

// SetContract deploys a contract at account: its ABI (the JSON the
// generated package embeds as ABIJSON) and its handler. The account is
// created (with no keys) if it does not exist. The handler and its ABI
// are billed no RAM; wasm code and an ABI they replace are refunded.
func (c *Chain) SetContract(acct antelope.Name, abiJSON []byte, handler Handler) error {
	var abi struct {
		Tables []struct {
			Name     string   `json:"name"`
			KeyNames []string `json:"key_names"`
			KeyTypes []string `json:"key_types"`
		} `json:"tables"`
	}
	if err := json.Unmarshal(abiJSON, &abi); err != nil {
		return fmt.Errorf("chaintest: the ABI of %s: %v", acct, err)
	}
	ct := &contract{abi: abiJSON, tables: map[antelope.Name]bool{}, indexes: map[antelope.Name]tableIndexes{}, handler: adaptHandler(handler)}
	for _, t := range abi.Tables {
		n, err := antelope.ParseName(t.Name)
		if err != nil {
			return fmt.Errorf("chaintest: the ABI of %s: table %q: %v", acct, t.Name, err)
		}
		ct.tables[n] = true
		ct.indexes[n] = tableIndexes{names: t.KeyNames, types: t.KeyTypes}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.account(acct) == nil {
		c.accounts[acct] = newAccount(acct, emptyAuthority(), codeAuthority(acct), c.headTime())
	}
	// Wasm code and a packed ABI replaced by a Go handler are refunded, as
	// setcode and setabi refund what they replace (the handler and its ABI
	// are the test's, billed nothing).
	c.account(acct).ramUsage -= c.codeRAM(acct)
	c.contracts[acct] = ct
	// The state service keeps every version by the block it was set in: the
	// next block.
	c.abis[acct] = append(c.abis[acct], abiVersion{block: c.nextBlockNum(), json: abiJSON})
	c.produce(nil)
	return nil
}

// SetTableRow stores a row directly, outside any transaction (a fixture),
// in the state of the next block. Its RAM is billed to payer as a
// contract's store would bill it (a replaced row refunded to its payer),
// so that the contract erasing it later refunds only what was billed; a
// fixture is not held to the RAM quota.
func (c *Chain) SetTableRow(code, scope, table antelope.Name, pk uint64, data []byte, payer antelope.Name, secondary ...antelope.TableKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := tableID{Code: code, Scope: scope, Table: table}
	if old := c.db.Get(id, pk); old != nil {
		c.billFixture(old.Payer, -(int64(len(old.Data)) + billableRow))
	}
	if c.db.PutRow(id, &row{PK: pk, Data: append([]byte(nil), data...), Payer: payer}) {
		c.billFixture(payer, billableTable)
	}
	c.billFixture(payer, int64(len(data))+billableRow)
	for i, key := range secondary {
		sid, kind := store.IndexTable(id, i+2), store.KindOf(key.Type())
		if old := c.db.GetSec(sid, kind, pk); old != nil {
			c.billFixture(old.Payer, -billableSec[kind])
		}
		if c.db.PutSec(sid, kind, &secRow{PK: pk, Key: key, Payer: payer}) {
			c.billFixture(payer, billableTable)
		}
		c.billFixture(payer, billableSec[kind])
	}
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
