package chaintest

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

type account struct {
	name  antelope.Name
	perms map[antelope.Name]*permission // replaced, never changed in place

	privileged           bool
	ramQuota             int64 // -1: unlimited (set_resource_limits sets it)
	ramUsage             int64 // bytes billed to the account
	netWeight, cpuWeight int64
	res                  resourceLimits // CPU and NET allowance and usage (resources.go)
	created              time.Time
	codeSequence         uint64
	abiSequence          uint64
	recvSequence         uint64 // actions it received (receipts' recv_sequence)
	authSequence         uint64 // actions it authorized (receipts' auth_sequence)
	lastCodeUpdate       time.Time
	links                map[linkKey]antelope.Name // linkauth: (code, action) → required permission
}

// forChange is a copy of a that a transaction may change, its permission
// and link maps copied too (a transaction changes them in place; the
// snapshots of reversible blocks share them).
func (a *account) forChange() *account {
	cp := *a
	cp.perms = maps.Clone(a.perms)
	cp.links = maps.Clone(a.links)
	return &cp
}

// linkKey is what linkauth links a permission to: a contract's action (0:
// all its actions).
type linkKey struct {
	code, action antelope.Name
}

// newAccount is an account with owner and active permissions, made at t,
// using the RAM eosio::newaccount bills for them (as nodeos's genesis
// accounts do) with no quota.
func newAccount(name antelope.Name, owner, active chain.Authority, t time.Time) *account {
	return &account{name: name, perms: map[antelope.Name]*permission{
		nameOwner:  {name: nameOwner, auth: owner, lastUsed: t},
		nameActive: {name: nameActive, parent: nameOwner, auth: active, lastUsed: t},
	}, ramQuota: -1, ramUsage: newAccountRAM(owner, active),
		netWeight: -1, cpuWeight: -1, res: resourceLimits{cpuLimit: -1, netLimit: -1}, created: t}
}

// emptyAuthority is an authority nothing satisfies (threshold 1, no keys):
// the permissions of an account made without keys.
func emptyAuthority() chain.Authority { return chain.Authority{Threshold: 1} }

type permission struct {
	name, parent antelope.Name
	auth         chain.Authority
	// lastUsed is nodeos's permission_usage_object: when the permission was
	// created, then the time of each block holding a transaction that
	// declared it (get_permission_last_used).
	lastUsed time.Time
}

var (
	nameOwner  = antelope.MustName("owner")
	nameActive = antelope.MustName("active")
)

// authChecker weighs provided keys against permissions, as nodeos's
// authority_checker: keys by weight, other permissions recursively (to a
// depth of 6), and records which keys were used. Provided permissions
// (an inline action's sender@eosio.code, msig's approvals) satisfy
// themselves, and an account's owner satisfies all its permissions.
type authChecker struct {
	c        *engine
	keys     []antelope.PublicKey
	used     map[int]bool
	provided []antelope.PermissionLevel
}

func (ac *authChecker) satisfied(level antelope.PermissionLevel, depth int) bool {
	if depth > 6 {
		return false
	}
	for _, p := range ac.provided {
		if p.Actor == level.Actor && (p.Permission == level.Permission || p.Permission == nameOwner) {
			return true
		}
	}
	a := ac.c.account(level.Actor)
	if a == nil {
		return false
	}
	p := a.perms[level.Permission]
	if p == nil {
		return false
	}
	var weight uint32
	for _, kw := range p.auth.Keys {
		if i := slices.IndexFunc(ac.keys, kw.Key.Equal); i >= 0 {
			weight += uint32(kw.Weight)
			ac.used[i] = true
		}
	}
	for _, pw := range p.auth.Accounts {
		if weight >= p.auth.Threshold {
			break
		}
		if ac.satisfied(pw.Permission, depth+1) {
			weight += uint32(pw.Weight)
		}
	}
	return weight >= p.auth.Threshold
}

// unusedKeys is the provided keys no satisfied permission used (nodeos's
// tx_irrelevant_sig).
func (ac *authChecker) unusedKeys() []antelope.PublicKey {
	var unused []antelope.PublicKey
	for i, k := range ac.keys {
		if !ac.used[i] {
			unused = append(unused, k)
		}
	}
	return unused
}

// permissionExists reports a declared authorization the chain can check.
func (c *engine) permissionExists(level antelope.PermissionLevel) bool {
	a := c.account(level.Actor)
	return a != nil && a.perms[level.Permission] != nil
}

// checkAuthorizations is nodeos's check_authorization: every declared
// authorization satisfied by the recovered keys, in ascending order, and
// every key used.
func (c *engine) checkAuthorizations(tx *antelope.Transaction, keys []antelope.PublicKey) error {
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
			return errTransaction(fmt.Sprintf("action declares irrelevant authority '%s'; the permission does not exist", levelText(l)))
		}
	}
	for i := range tx.Actions {
		if err := c.checkDeclaredPermissions(&tx.Actions[i]); err != nil {
			return err
		}
	}
	ac := &authChecker{c: c, keys: keys, used: map[int]bool{}}
	for _, l := range levels {
		if !ac.satisfied(l, 0) {
			return errUnsatisfied(fmt.Sprintf("transaction declares authority '%s', but does not have signatures for it under a provided delay of 0 ms, provided permissions [], provided keys %s, and a delay max limit of 3888000000 ms",
				levelText(l), keysText(keys)))
		}
	}
	if unused := ac.unusedKeys(); len(unused) > 0 {
		return errIrrelevantSig("transaction bears irrelevant signatures from these keys: " + keysText(unused))
	}
	return nil
}

func levelText(l antelope.PermissionLevel) string {
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

// linkedAction is a link in get_account's answer (nodeosapi's).
type linkedAction = nodeosapi.LinkedAction

// linkedActions is the account's links by required permission (eosio.any
// included), each list ordered by contract and action, never nil.
func (a *account) linkedActions() map[antelope.Name][]linkedAction {
	out := map[antelope.Name][]linkedAction{nameEosioAny: {}}
	for _, p := range a.perms {
		out[p.name] = []linkedAction{}
	}
	keys := slices.SortedFunc(maps.Keys(a.links), func(x, y linkKey) int {
		if x.code != y.code {
			return cmp.Compare(x.code, y.code)
		}
		return cmp.Compare(x.action, y.action)
	})
	for _, k := range keys {
		l := linkedAction{Account: k.code}
		if k.action != 0 {
			act := k.action
			l.Action = &act
		}
		req := a.links[k]
		out[req] = append(out[req], l)
	}
	return out
}
