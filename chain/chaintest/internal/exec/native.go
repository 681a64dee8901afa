package exec

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/model"
)

// eosio's native actions, as nodeos's eosio_contract.cpp applies them
// before eosio's own code (eosio.bios, eosio.system) runs: newaccount,
// setcode, setabi, updateauth, deleteauth, linkauth, unlinkauth.

var (
	NameEosio     = antelope.MustName("eosio") // the system account
	nameEosioCode = antelope.MustName("eosio.code")
	NameEosioAny  = antelope.MustName("eosio.any") // linkauth's any permission
)

// setcodeRAMMultiplier is nodeos's setcode_ram_bytes_multiplier: code is
// billed ten times its size.
const setcodeRAMMultiplier = 10

var nativeHandlers map[antelope.Name]func(a *applyContext) error

func init() {
	handlers := map[antelope.Name]func(a *applyContext) error{
		antelope.MustName("newaccount"): nativeNewAccount,
		antelope.MustName("setcode"):    nativeSetcode,
		antelope.MustName("setabi"):     nativeSetabi,
		nameUpdateAuth:                  nativeUpdateAuth,
		nameDeleteAuth:                  nativeDeleteAuth,
		nameLinkAuth:                    nativeLinkAuth,
		nameUnlinkAuth:                  nativeUnlinkAuth,
		nameCancelDelay: func(a *applyContext) error {
			return ErrActionValidate("chaintest has no delayed transactions to cancel")
		},
	}
	nativeHandlers = map[antelope.Name]func(a *applyContext) error{}
	for name, h := range handlers {
		// Each of nodeos's handlers first refuses a read-only transaction
		// (setabi's message has nodeos's typo).
		what := name.String() + " not allowed in read-only transaction"
		if name.String() == "setabi" {
			what = "setabi ot allowed in read-only transaction"
		}
		nativeHandlers[name] = func(a *applyContext) error {
			if a.trx.readOnly {
				return ErrActionValidate(what)
			}
			return h(a)
		}
	}
}

// nativeDecoder reads a native action's payload.
type nativeDecoder struct {
	d   *antelope.Decoder
	err error
}

func (n *nativeDecoder) name() antelope.Name {
	if n.err != nil {
		return 0
	}
	v, err := n.d.Uint64()
	n.err = err
	return antelope.Name(v)
}

func (n *nativeDecoder) u32() uint32 {
	if n.err != nil {
		return 0
	}
	v, err := n.d.Uint32()
	n.err = err
	return v
}

func (n *nativeDecoder) u16() uint16 {
	if n.err != nil {
		return 0
	}
	v, err := n.d.Uint16()
	n.err = err
	return v
}

func (n *nativeDecoder) u8() uint8 {
	if n.err != nil {
		return 0
	}
	v, err := n.d.Uint8()
	n.err = err
	return v
}

func (n *nativeDecoder) bytes() []byte {
	if n.err != nil {
		return nil
	}
	v, err := n.d.Bytes()
	n.err = err
	return v
}

func (n *nativeDecoder) length() int {
	if n.err != nil {
		return 0
	}
	v, err := n.d.Length("vector", 1)
	n.err = err
	return v
}

func (n *nativeDecoder) authority() chain.Authority {
	a := chain.Authority{Threshold: n.u32()}
	for i, k := 0, n.length(); i < k && n.err == nil; i++ {
		var kw chain.KeyWeight
		n.err = kw.Key.DecodeBinary(n.d)
		kw.Weight = n.u16()
		a.Keys = append(a.Keys, kw)
	}
	for i, k := 0, n.length(); i < k && n.err == nil; i++ {
		var pw chain.PermissionLevelWeight
		pw.Permission = antelope.PermissionLevel{Actor: n.name(), Permission: n.name()}
		pw.Weight = n.u16()
		a.Accounts = append(a.Accounts, pw)
	}
	for i, k := 0, n.length(); i < k && n.err == nil; i++ {
		a.Waits = append(a.Waits, chain.WaitWeight{WaitSec: n.u32(), Weight: n.u16()})
	}
	return a
}

func (n *nativeDecoder) finish(action string) error {
	if n.err == nil {
		n.err = n.d.Finish()
	}
	if n.err != nil {
		return ErrActionValidate("decoding the data of eosio::" + action + ": " + n.err.Error())
	}
	return nil
}

func decodeNative(a *applyContext) *nativeDecoder {
	return &nativeDecoder{d: antelope.NewDecoder(a.act().Data)}
}

// validAuthority is nodeos's validate(authority): keys and accounts sorted
// and unique, positive weights, and a threshold they can reach.
func validAuthority(auth chain.Authority) bool {
	if auth.Threshold == 0 {
		return false
	}
	var total uint64
	for i, k := range auth.Keys {
		if k.Weight == 0 || i > 0 && string(packedKey(auth.Keys[i-1].Key)) >= string(packedKey(k.Key)) {
			return false
		}
		total += uint64(k.Weight)
	}
	for i, p := range auth.Accounts {
		if p.Weight == 0 || i > 0 && !levelLess(auth.Accounts[i-1].Permission, p.Permission) {
			return false
		}
		total += uint64(p.Weight)
	}
	for i, w := range auth.Waits {
		if w.Weight == 0 || i > 0 && auth.Waits[i-1].WaitSec > w.WaitSec {
			return false
		}
	}
	return total >= uint64(auth.Threshold)
}

func packedKey(k antelope.PublicKey) []byte {
	b, _ := k.MarshalBinary()
	return b
}

func levelLess(a, b antelope.PermissionLevel) bool {
	if a.Actor != b.Actor {
		return a.Actor < b.Actor
	}
	return a.Permission < b.Permission
}

// checkAuthorityAccounts is validate_authority_precondition.
func (a *applyContext) checkAuthorityAccounts(auth chain.Authority) error {
	for _, p := range auth.Accounts {
		if a.trx.c.Account(p.Permission.Actor) == nil {
			return ErrActionValidate(fmt.Sprintf("account '%s' does not exist", p.Permission.Actor))
		}
		switch p.Permission.Permission {
		case nameOwner, NameActive, nameEosioCode:
			continue
		}
		if !a.trx.c.permissionExists(p.Permission) {
			return ErrActionValidate(fmt.Sprintf("permission '%s' does not exist", LevelText(p.Permission)))
		}
	}
	return nil
}

func nativeNewAccount(a *applyContext) error {
	n := decodeNative(a)
	creator, name := n.name(), n.name()
	owner, active := n.authority(), n.authority()
	if err := n.finish("newaccount"); err != nil {
		return err
	}
	if err := a.requireAuth(creator); err != nil {
		return err
	}
	if !validAuthority(owner) {
		return ErrActionValidate("Invalid owner authority")
	}
	if !validAuthority(active) {
		return ErrActionValidate("Invalid active authority")
	}
	c := a.trx.c
	s := name.String()
	switch {
	case name == 0:
		return ErrActionValidate("account name cannot be empty")
	case len(s) > 12:
		return ErrActionValidate("account names can only be 12 chars long")
	case strings.HasPrefix(s, "eosio.") && (c.Account(creator) == nil || !c.Account(creator).Privileged):
		return ErrActionValidate("only privileged accounts can have names that start with 'eosio.'")
	case c.Account(name) != nil:
		return &Exception{code: 3050001, name: "account_name_exists_exception", what: "Account name already exists",
			detail: "Cannot create account named " + s + ", as that name is already taken"}
	}
	for _, auth := range []chain.Authority{owner, active} {
		if err := a.checkAuthorityAccounts(auth); err != nil {
			return err
		}
	}
	a.trx.Undo.account(c, name)
	acct := NewAccount(name, owner, active, a.trx.blockTime)
	acct.RAMUsage = 0 // billed below, through the transaction
	c.Accounts[name] = acct
	a.trx.addRAM(a.trace(), name, newAccountRAM(owner, active))
	return nil
}

func nativeSetcode(a *applyContext) error {
	n := decodeNative(a)
	account, vmType, vmVersion, code := n.name(), n.u8(), n.u8(), n.bytes()
	if err := n.finish("setcode"); err != nil {
		return err
	}
	if err := a.requireAuth(account); err != nil {
		return err
	}
	if vmType != 0 {
		return &Exception{code: 3160006, name: "invalid_contract_vm_type", what: "Invalid contract vm type", detail: "code should be 0"}
	}
	if vmVersion != 0 {
		return &Exception{code: 3160007, name: "invalid_contract_vm_version", what: "Invalid contract vm version", detail: "version should be 0"}
	}
	c := a.trx.c
	acct := c.Account(account)
	if acct == nil {
		return ErrActionValidate("account " + account.String() + " does not exist")
	}
	var hash antelope.Checksum256
	if len(code) > 0 {
		hash = sha256.Sum256(code)
	}
	existing := c.Contract(account)
	hasCode := existing != nil && existing.Module != nil
	if len(code) == 0 && !hasCode {
		return errSetExactCode("contract is already cleared")
	}
	if hasCode && existing.CodeHash == hash {
		return errSetExactCode("contract is already running this version of code")
	}
	var old int64
	if hasCode {
		old = int64(len(existing.Code)) * setcodeRAMMultiplier
	}
	if err := c.setCode(&a.trx.Undo, account, code, a.trx.blockTime); err != nil {
		return err
	}
	a.trx.addRAM(a.trace(), account, int64(len(code))*setcodeRAMMultiplier-old)
	return nil
}

func nativeSetabi(a *applyContext) error {
	n := decodeNative(a)
	account, abi := n.name(), n.bytes()
	if err := n.finish("setabi"); err != nil {
		return err
	}
	if err := a.requireAuth(account); err != nil {
		return err
	}
	c := a.trx.c
	if c.Account(account) == nil {
		return ErrActionValidate("account " + account.String() + " does not exist")
	}
	var old int64
	if ct := c.Contract(account); ct != nil {
		old = int64(len(ct.PackedABI))
	}
	if err := c.setABI(&a.trx.Undo, account, abi); err != nil {
		return err
	}
	a.trx.addRAM(a.trace(), account, int64(len(abi))-old)
	return nil
}

func nativeUpdateAuth(a *applyContext) error {
	n := decodeNative(a)
	account, perm, parent := n.name(), n.name(), n.name()
	auth := n.authority()
	if err := n.finish("updateauth"); err != nil {
		return err
	}
	if err := a.requireAuth(account); err != nil {
		return err
	}
	c := a.trx.c
	switch {
	case perm == 0:
		return ErrActionValidate("Cannot create authority with empty name")
	case strings.HasPrefix(perm.String(), "eosio."):
		return ErrActionValidate("Permission names that start with 'eosio.' are reserved")
	case perm == parent:
		return ErrActionValidate("Cannot set an authority as its own parent")
	case c.Account(account) == nil:
		return ErrActionValidate("account " + account.String() + " does not exist")
	case !validAuthority(auth):
		return ErrActionValidate("Invalid authority")
	case perm == NameActive && parent != nameOwner:
		return ErrActionValidate("Cannot change active authority's parent from owner")
	case perm == nameOwner && parent != 0:
		return ErrActionValidate("Cannot change owner authority's parent")
	case perm != nameOwner && parent == 0:
		return ErrActionValidate("Only owner permission can have empty parent")
	case len(auth.Waits) > 0 && auth.Waits[len(auth.Waits)-1].WaitSec > c.maxTransactionDelay():
		// nodeos's own typo, kept: tests match the message.
		return ErrActionValidate(fmt.Sprintf("Cannot set delay longer than max_transacton_delay, which is %d seconds", c.maxTransactionDelay()))
	}
	if err := a.checkAuthorityAccounts(auth); err != nil {
		return err
	}
	acct := c.Account(account)
	if perm != nameOwner && acct.Perms[parent] == nil {
		return errPermissionQuery("Failed to retrieve permission: " + LevelText(antelope.PermissionLevel{Actor: account, Permission: parent}))
	}
	old := acct.Perms[perm]
	if old != nil && old.Parent != parent {
		return ErrActionValidate("Changing parent authority is not currently supported")
	}
	a.trx.Undo.account(c, account)
	acct = c.Account(account)
	lastUsed := a.trx.blockTime // a new permission's usage starts at its creation
	if old != nil {
		lastUsed = old.LastUsed
	}
	acct.Perms[perm] = &Permission{Name: perm, Parent: parent, Auth: auth, LastUsed: lastUsed}
	delta := permissionRAM(auth)
	if old != nil {
		delta -= permissionRAM(old.Auth)
	}
	a.trx.addRAM(a.trace(), account, delta)
	return nil
}

func nativeDeleteAuth(a *applyContext) error {
	n := decodeNative(a)
	account, perm := n.name(), n.name()
	if err := n.finish("deleteauth"); err != nil {
		return err
	}
	if err := a.requireAuth(account); err != nil {
		return err
	}
	switch perm {
	case NameActive:
		return ErrActionValidate("Cannot delete active authority")
	case nameOwner:
		return ErrActionValidate("Cannot delete owner authority")
	}
	c := a.trx.c
	acct := c.Account(account)
	if acct == nil || acct.Perms[perm] == nil {
		return errPermissionQuery("Failed to retrieve permission: " + LevelText(antelope.PermissionLevel{Actor: account, Permission: perm}))
	}
	for k, req := range acct.Links {
		if req == perm {
			return ErrActionValidate(fmt.Sprintf("Cannot delete a linked authority. Unlink the authority first. This authority is linked to %s::%s.", k.Code, k.Action))
		}
	}
	refund := permissionRAM(acct.Perms[perm].Auth)
	a.trx.Undo.account(c, account)
	delete(c.Account(account).Perms, perm)
	a.trx.addRAM(a.trace(), account, -refund)
	return nil
}

func nativeLinkAuth(a *applyContext) error {
	n := decodeNative(a)
	account, code, typ, req := n.name(), n.name(), n.name(), n.name()
	if err := n.finish("linkauth"); err != nil {
		return err
	}
	if req == 0 {
		return ErrActionValidate("Required permission cannot be empty")
	}
	if err := a.requireAuth(account); err != nil {
		return err
	}
	c := a.trx.c
	if c.Account(account) == nil {
		return errUnknownAccount("Failed to retrieve account: " + account.String())
	}
	if c.Account(code) == nil {
		return errUnknownAccount("Failed to retrieve code for account: " + code.String())
	}
	if req != NameEosioAny && c.Account(account).Perms[req] == nil {
		return errPermissionQuery("Failed to retrieve permission: " + req.String())
	}
	k := LinkKey{code, typ}
	cur, linked := c.Account(account).Links[k]
	if linked && cur == req {
		return ErrActionValidate("Attempting to update required authority, but new requirement is same as old")
	}
	a.trx.Undo.account(c, account)
	acct := c.Account(account)
	if acct.Links == nil {
		acct.Links = map[LinkKey]antelope.Name{}
	}
	acct.Links[k] = req
	if !linked { // a changed link is modified in place, billed nothing
		a.trx.addRAM(a.trace(), account, billableLink)
	}
	return nil
}

func nativeUnlinkAuth(a *applyContext) error {
	n := decodeNative(a)
	account, code, typ := n.name(), n.name(), n.name()
	if err := n.finish("unlinkauth"); err != nil {
		return err
	}
	if err := a.requireAuth(account); err != nil {
		return err
	}
	c := a.trx.c
	k := LinkKey{code, typ}
	if c.Account(account) == nil || c.Account(account).Links == nil {
		return ErrActionValidate("Attempting to unlink authority, but no link found")
	}
	if _, ok := c.Account(account).Links[k]; !ok {
		return ErrActionValidate("Attempting to unlink authority, but no link found")
	}
	a.trx.Undo.account(c, account)
	delete(c.Account(account).Links, k)
	a.trx.addRAM(a.trace(), account, -billableLink)
	return nil
}

// packABI reads an ABI given as JSON or packed and returns both forms.
func packABI(abi []byte) (packed, jsonABI []byte, err error) {
	src, err := model.Load(abi)
	if err != nil {
		return nil, nil, err
	}
	packed, err = src.ABI.Pack()
	if err != nil {
		return nil, nil, err
	}
	return packed, src.JSON, nil
}
