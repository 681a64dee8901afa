package chaintest

import (
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
)

// The state a test sets outside any transaction (Chain's CreateAccount,
// SetPermission, LinkPermission, SetResources, DeployWASM, SetContract,
// SetTableRow): the chain's lock is held by the caller, which produces a
// block where the public method says so.

// createAccount makes account name with the given authorities, created at
// the head block's time.
func (c *engine) createAccount(name antelope.Name, owner, active chain.Authority) {
	c.accounts[name] = newAccount(name, owner, active, c.above.headTime())
}

// setPrivileged is Chain.SetPrivileged.
func (c *engine) setPrivileged(acct antelope.Name, on bool) error {
	a := c.account(acct)
	if a == nil {
		return fmt.Errorf("chaintest: no account %s", acct)
	}
	a.privileged = on
	return nil
}

// setPermission is Chain.SetPermission.
func (c *engine) setPermission(acct, perm, parent antelope.Name, auth chain.Authority) error {
	a := c.account(acct)
	if a == nil {
		return fmt.Errorf("chaintest: no account %s", acct)
	}
	if parent == 0 && perm != nameOwner {
		parent = nameActive
	}
	delta := permissionRAM(auth)
	if old := a.perms[perm]; old != nil {
		delta -= permissionRAM(old.auth)
	}
	if err := a.fixtureRAM(delta); err != nil {
		return err
	}
	perms := maps.Clone(a.perms)
	lastUsed := c.above.headTime().Add(500 * time.Millisecond) // created in the next block
	if old := a.perms[perm]; old != nil {
		lastUsed = old.lastUsed
	}
	perms[perm] = &permission{name: perm, parent: parent, auth: auth, lastUsed: lastUsed}
	a.perms = perms
	return nil
}

// linkPermission is Chain.LinkPermission.
func (c *engine) linkPermission(acct, code, action, perm antelope.Name) error {
	a := c.account(acct)
	if a == nil {
		return fmt.Errorf("chaintest: no account %s", acct)
	}
	if c.account(code) == nil {
		return fmt.Errorf("chaintest: no account %s to link %s's permission to", code, acct)
	}
	if isPermissionAction(code, action) {
		return fmt.Errorf("chaintest: cannot link eosio::%s to a minimum permission", action)
	}
	if perm != 0 && perm != nameEosioAny && a.perms[perm] == nil {
		return fmt.Errorf("chaintest: %s has no permission %s", acct, perm)
	}
	_, linked := a.links[linkKey{code, action}]
	var delta int64
	switch {
	case perm == 0 && linked:
		delta = -billableLink
	case perm != 0 && !linked:
		delta = billableLink
	}
	if err := a.fixtureRAM(delta); err != nil {
		return err
	}
	links := maps.Clone(a.links)
	if links == nil {
		links = map[linkKey]antelope.Name{}
	}
	if perm == 0 {
		delete(links, linkKey{code, action})
	} else {
		links[linkKey{code, action}] = perm
	}
	a.links = links
	return nil
}

// setResources is Chain.SetResources.
func (c *engine) setResources(acct antelope.Name, cpuUS, netBytes int64) error {
	a := c.account(acct)
	if a == nil {
		return fmt.Errorf("chaintest: no account %s", acct)
	}
	if cpuUS < -1 || netBytes < -1 {
		return fmt.Errorf("chaintest: SetResources(%s, %d, %d): an allowance is -1 (unlimited) or at least 0", acct, cpuUS, netBytes)
	}
	a.res = resourceLimits{cpuLimit: cpuUS, netLimit: netBytes}
	return nil
}

// resources is an account's CPU and NET allowance and usage (Chain.Resources).
func (c *engine) resources(acct antelope.Name) (resourceLimits, error) {
	a := c.account(acct)
	if a == nil {
		return resourceLimits{}, fmt.Errorf("chaintest: no account %s", acct)
	}
	return a.res, nil
}

// deployWASM is Chain.DeployWASM but for the block it produces.
func (c *engine) deployWASM(account antelope.Name, code, abi []byte) error {
	if c.account(account) == nil {
		c.accounts[account] = newAccount(account, emptyAuthority(), codeAuthority(account), c.above.headTime())
	}
	before := c.codeRAM(account)
	var u undoLog
	if err := c.setCode(&u, account, code, c.above.headTime()); err != nil {
		u.rollback(c)
		return fmt.Errorf("chaintest: deploying %s: %w", account, err)
	}
	if abi != nil {
		if err := c.setABI(&u, account, abi); err != nil {
			u.rollback(c)
			return fmt.Errorf("chaintest: deploying %s: %w", account, err)
		}
	}
	// Billed as setcode and setabi bill, so that they later refund only
	// what was billed; a fixture is not held to the RAM quota.
	c.account(account).ramUsage += c.codeRAM(account) - before
	return nil
}

// goContract is a contract written in Go: its ABI JSON (the tables, with
// their key_names and key_types) and its handler.
func goContract(acct antelope.Name, abiJSON []byte, handler execHandler) (*contract, error) {
	var abi struct {
		Tables []struct {
			Name     string   `json:"name"`
			KeyNames []string `json:"key_names"`
			KeyTypes []string `json:"key_types"`
		} `json:"tables"`
	}
	if err := json.Unmarshal(abiJSON, &abi); err != nil {
		return nil, fmt.Errorf("chaintest: the ABI of %s: %v", acct, err)
	}
	ct := &contract{abi: abiJSON, tables: map[antelope.Name]bool{}, indexes: map[antelope.Name]tableIndexes{}, handler: handler}
	for _, t := range abi.Tables {
		n, err := antelope.ParseName(t.Name)
		if err != nil {
			return nil, fmt.Errorf("chaintest: the ABI of %s: table %q: %v", acct, t.Name, err)
		}
		ct.tables[n] = true
		ct.indexes[n] = tableIndexes{names: t.KeyNames, types: t.KeyTypes}
	}
	return ct, nil
}

// setContract is Chain.SetContract but for the block it produces: ct
// (goContract) at acct.
func (c *engine) setContract(acct antelope.Name, ct *contract) {
	if c.account(acct) == nil {
		c.accounts[acct] = newAccount(acct, emptyAuthority(), codeAuthority(acct), c.above.headTime())
	}
	// Wasm code and a packed ABI replaced by a Go handler are refunded, as
	// setcode and setabi refund what they replace (the handler and its ABI
	// are the test's, billed nothing).
	c.account(acct).ramUsage -= c.codeRAM(acct)
	c.contracts[acct] = ct
	// The state service keeps every version by the block it was set in: the
	// next block.
	c.abis[acct] = append(c.abis[acct], abiVersion{block: c.above.nextBlockNum(), json: ct.abi})
}

// setTableRow is Chain.SetTableRow.
func (c *engine) setTableRow(code, scope, table antelope.Name, pk uint64, data []byte, payer antelope.Name, secondary ...antelope.TableKey) {
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
