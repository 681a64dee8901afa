package exec

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest/internal/nodeosapi"
)

// Account is an account's record: its permissions and links, RAM, CPU and
// NET, the sequences its receipts count, and when its code was set. The
// store keeps the accounts (store.Accounts) with their block copies;
// execution reads and writes the record's fields one by one.
type Account struct {
	Name  antelope.Name                 // the account
	Perms map[antelope.Name]*Permission // replaced, never changed in place

	Privileged           bool           // setpriv: privileged intrinsics, any authority inline, RAM billed to anyone
	RAMQuota             int64          // -1: unlimited (set_resource_limits sets it)
	RAMUsage             int64          // bytes billed to the account
	NETWeight, CPUWeight int64          // set_resource_limits's weights (-1: none set)
	Res                  ResourceLimits // CPU and NET allowance and usage (resources.go)
	Created              time.Time      // when the account was made
	codeSequence         uint64
	abiSequence          uint64
	recvSequence         uint64                    // actions it received (receipts' recv_sequence)
	authSequence         uint64                    // actions it authorized (receipts' auth_sequence)
	LastCodeUpdate       time.Time                 // when setcode last set its code
	Links                map[LinkKey]antelope.Name // linkauth: (code, action) → required permission
}

// forChange is a copy of a that a transaction may change, its permission
// and link maps copied too (a transaction changes them in place; the
// snapshots of reversible blocks share them).
func (a *Account) forChange() *Account {
	cp := *a
	cp.Perms = maps.Clone(a.Perms)
	cp.Links = maps.Clone(a.Links)
	return &cp
}

// LinkKey is what linkauth links a permission to: a contract's action (0:
// all its actions).
type LinkKey struct {
	Code, Action antelope.Name // the contract and its action (0: all)
}

// NewAccount is an account with owner and active permissions, made at t,
// using the RAM eosio::newaccount bills for them (as nodeos's genesis
// accounts do) with no quota.
func NewAccount(name antelope.Name, owner, active chain.Authority, t time.Time) *Account {
	return &Account{Name: name, Perms: map[antelope.Name]*Permission{
		nameOwner:  {Name: nameOwner, Auth: owner, LastUsed: t},
		NameActive: {Name: NameActive, Parent: nameOwner, Auth: active, LastUsed: t},
	}, RAMQuota: -1, RAMUsage: newAccountRAM(owner, active),
		NETWeight: -1, CPUWeight: -1, Res: ResourceLimits{CPULimit: -1, NETLimit: -1}, Created: t}
}

// EmptyAuthority is an authority nothing satisfies (threshold 1, no keys):
// the permissions of an account made without keys.
func EmptyAuthority() chain.Authority { return chain.Authority{Threshold: 1} }

// Permission is one of an account's permissions: its name, its parent
// (none for owner), its authority and when it was last used.
type Permission struct {
	Name, Parent antelope.Name   // the permission and its parent
	Auth         chain.Authority // what satisfies it
	// LastUsed is nodeos's permission_usage_object: when the permission was
	// created, then the time of each block holding a transaction that
	// declared it (get_permission_last_used).
	LastUsed time.Time
}

var (
	nameOwner  = antelope.MustName("owner")
	NameActive = antelope.MustName("active") // every account's active permission
)

// AuthChecker weighs provided keys against permissions, as nodeos's
// authority_checker: keys by weight, other permissions recursively (to a
// depth of 6), and records which keys were used. Provided permissions
// (an inline action's sender@eosio.code, msig's approvals) satisfy
// themselves, and an account's owner satisfies all its permissions.
type AuthChecker struct {
	Engine   *Engine              // whose accounts it reads
	Keys     []antelope.PublicKey // the keys provided
	Used     map[int]bool         // the indexes in Keys of those used
	provided []antelope.PermissionLevel
}

// Satisfied reports whether level is satisfied by the provided keys and
// permissions, depth its place in the recursion.
func (ac *AuthChecker) Satisfied(level antelope.PermissionLevel, depth int) bool {
	if depth > 6 {
		return false
	}
	for _, p := range ac.provided {
		if p.Actor == level.Actor && (p.Permission == level.Permission || p.Permission == nameOwner) {
			return true
		}
	}
	a := ac.Engine.Account(level.Actor)
	if a == nil {
		return false
	}
	p := a.Perms[level.Permission]
	if p == nil {
		return false
	}
	var weight uint32
	for _, kw := range p.Auth.Keys {
		if i := slices.IndexFunc(ac.Keys, kw.Key.Equal); i >= 0 {
			weight += uint32(kw.Weight)
			ac.Used[i] = true
		}
	}
	for _, pw := range p.Auth.Accounts {
		if weight >= p.Auth.Threshold {
			break
		}
		if ac.Satisfied(pw.Permission, depth+1) {
			weight += uint32(pw.Weight)
		}
	}
	return weight >= p.Auth.Threshold
}

// unusedKeys is the provided keys no satisfied permission used (nodeos's
// tx_irrelevant_sig).
func (ac *AuthChecker) unusedKeys() []antelope.PublicKey {
	var unused []antelope.PublicKey
	for i, k := range ac.Keys {
		if !ac.Used[i] {
			unused = append(unused, k)
		}
	}
	return unused
}

// permissionExists reports a declared authorization the chain can check.
func (c *Engine) permissionExists(level antelope.PermissionLevel) bool {
	a := c.Account(level.Actor)
	return a != nil && a.Perms[level.Permission] != nil
}

// checkAuthorizations is nodeos's check_authorization: every declared
// authorization satisfied by the recovered keys, in ascending order, and
// every key used.
func (c *Engine) checkAuthorizations(tx *antelope.Transaction, keys []antelope.PublicKey) error {
	var levels []antelope.PermissionLevel
	for _, a := range tx.Actions {
		for _, l := range a.Authorization {
			if !slices.Contains(levels, l) {
				levels = append(levels, l)
			}
		}
	}
	if len(levels) == 0 {
		return errNoAuths("transaction must have at least one authorization")
	}
	sort.Slice(levels, func(i, j int) bool {
		if levels[i].Actor != levels[j].Actor {
			return levels[i].Actor < levels[j].Actor
		}
		return levels[i].Permission < levels[j].Permission
	})
	for _, l := range levels {
		if !c.permissionExists(l) {
			return errTransaction(fmt.Sprintf("action declares irrelevant authority '%s'; the permission does not exist", LevelText(l)))
		}
	}
	for i := range tx.Actions {
		if err := c.CheckDeclaredPermissions(&tx.Actions[i]); err != nil {
			return err
		}
	}
	ac := &AuthChecker{Engine: c, Keys: keys, Used: map[int]bool{}}
	for _, l := range levels {
		if !ac.Satisfied(l, 0) {
			return ErrUnsatisfied(fmt.Sprintf("transaction declares authority '%s', but does not have signatures for it under a provided delay of 0 ms, provided permissions [], provided keys %s, and a delay max limit of 3888000000 ms",
				LevelText(l), keysText(keys)))
		}
	}
	if unused := ac.unusedKeys(); len(unused) > 0 {
		return errIrrelevantSig("transaction bears irrelevant signatures from these keys: " + keysText(unused))
	}
	return nil
}

// LevelText prints a permission level as nodeos's messages do: JSON.
func LevelText(l antelope.PermissionLevel) string {
	b, _ := json.Marshal(map[string]string{"actor": l.Actor.String(), "permission": l.Permission.String()})
	return string(b)
}

func keysText(keys []antelope.PublicKey) string {
	s := make([]string, len(keys))
	for i, k := range keys {
		s[i] = `"` + k.String() + `"`
	}
	return "[" + strings.Join(s, ",") + "]"
}

// LinkedAction is a link in get_account's answer (nodeosapi's).
type LinkedAction = nodeosapi.LinkedAction

// LinkedActions is the account's links by required permission (eosio.any
// included), each list ordered by contract and action, never nil.
func (a *Account) LinkedActions() map[antelope.Name][]LinkedAction {
	out := map[antelope.Name][]LinkedAction{NameEosioAny: {}}
	for _, p := range a.Perms {
		out[p.Name] = []LinkedAction{}
	}
	keys := slices.SortedFunc(maps.Keys(a.Links), func(x, y LinkKey) int {
		if x.Code != y.Code {
			return cmp.Compare(x.Code, y.Code)
		}
		return cmp.Compare(x.Action, y.Action)
	})
	for _, k := range keys {
		l := LinkedAction{Account: k.Code}
		if k.Action != 0 {
			act := k.Action
			l.Action = &act
		}
		req := a.Links[k]
		out[req] = append(out[req], l)
	}
	return out
}
