package exec

import (
	"fmt"

	"github.com/antelopego/abigen/antelope"
)

// The half of nodeos's check_authorization (authorization_manager.cpp)
// that asks whether a declared authorization is the right permission for
// the action, before any key is weighed: linkauth's minimum permissions,
// and the rules of the native actions that manage permissions.

var (
	nameUpdateAuth  = antelope.MustName("updateauth")
	nameDeleteAuth  = antelope.MustName("deleteauth")
	nameLinkAuth    = antelope.MustName("linkauth")
	nameUnlinkAuth  = antelope.MustName("unlinkauth")
	nameCancelDelay = antelope.MustName("canceldelay")
)

// permissionActionNames names eosio's permission-managing actions as
// nodeos's authority messages name them.
var permissionActionNames = map[antelope.Name]string{nameUpdateAuth: "updateauth action", nameDeleteAuth: "deleteauth action",
	nameLinkAuth: "link action", nameUnlinkAuth: "unlink action", nameCancelDelay: "canceldelay action"}

// isPermissionAction reports eosio's permission-managing actions: they have
// their own rules for who may declare them, and cannot be linked.
func isPermissionAction(code, action antelope.Name) bool {
	_, ok := permissionActionNames[action]
	return ok && code == NameEosio
}

func errIrrelevantAuth(detail string) *Exception {
	return &Exception{code: 3090005, name: "irrelevant_auth_exception", what: "Irrelevant authority included", detail: detail}
}

// linkedPermission is nodeos's lookup_linked_permission: the permission
// actor linked to code::action, else to every action of code.
func (c *Engine) linkedPermission(actor, code, action antelope.Name) (antelope.Name, bool) {
	a := c.Account(actor)
	if a == nil {
		return 0, false
	}
	if p, ok := a.Links[LinkKey{code, action}]; ok {
		return p, true
	}
	p, ok := a.Links[LinkKey{code, 0}]
	return p, ok
}

// minimumPermission is nodeos's lookup_minimum_permission: the linked
// permission, or active when there is none; anyPermission when the link
// is to eosio.any (every permission of the actor will do).
func (c *Engine) minimumPermission(actor, code, action antelope.Name) (perm antelope.Name, anyPermission bool) {
	p, ok := c.linkedPermission(actor, code, action)
	if !ok {
		return NameActive, false
	}
	return p, p == NameEosioAny
}

// permissionSatisfies is nodeos's permission_object::satisfies: declared
// is min itself or one of min's ancestors (owner satisfies everything,
// active everything below it), in the same account.
func (c *Engine) permissionSatisfies(actor, declared, min antelope.Name) bool {
	a := c.Account(actor)
	if a == nil {
		return false
	}
	// Parents form a tree rooted at owner; the bound only guards a
	// corrupted map from looping.
	for p, n := min, 0; n <= len(a.Perms); n++ {
		if p == declared {
			return true
		}
		perm := a.Perms[p]
		if perm == nil || perm.Parent == 0 {
			return false
		}
		p = perm.Parent
	}
	return false
}

// CheckDeclaredPermissions refuses an action whose declared authorization
// is not the permission the action needs: below the minimum permission
// linked to it (active when nothing is linked), or, for eosio's
// permission-managing actions, not the account's own authority over the
// permission touched. Keys are weighed after this, elsewhere.
func (c *Engine) CheckDeclaredPermissions(act *antelope.Action) error {
	if isPermissionAction(act.Account, act.Name) {
		return c.checkNativeDeclaredPermission(act)
	}
	for _, l := range act.Authorization {
		min, anyPermission := c.minimumPermission(l.Actor, act.Account, act.Name)
		if anyPermission {
			continue
		}
		if !c.permissionSatisfies(l.Actor, l.Permission, min) {
			return errIrrelevantAuth(fmt.Sprintf("action declares irrelevant authority '%s'; minimum authority is %s",
				LevelText(l), LevelText(antelope.PermissionLevel{Actor: l.Actor, Permission: min})))
		}
	}
	return nil
}

// checkNativeDeclaredPermission is nodeos's check_updateauth_authorization,
// check_deleteauth_authorization, check_linkauth_authorization and
// check_unlinkauth_authorization: one declared authorization, by the
// account concerned, satisfying the permission the action touches.
func (c *Engine) checkNativeDeclaredPermission(act *antelope.Action) error {
	n := &nativeDecoder{d: antelope.NewDecoder(act.Data)}
	what := permissionActionNames[act.Name]
	if act.Name == nameCancelDelay {
		return nil // refused when it runs: chaintest has no delayed transactions
	}
	if len(act.Authorization) != 1 {
		return errIrrelevantAuth(what + " should only have one declared authorization")
	}
	auth := act.Authorization[0]
	account := n.name()
	if n.err != nil {
		return nil // a payload that does not decode is refused when the action runs
	}
	var min antelope.Name
	switch act.Name {
	case nameUpdateAuth:
		if auth.Actor != account {
			return errIrrelevantAuth("the owner of the affected permission needs to be the actor of the declared authorization")
		}
		perm, parent := n.name(), n.name()
		if n.err != nil {
			return nil
		}
		min = perm
		if a := c.Account(account); a == nil || a.Perms[perm] == nil { // a new permission: its parent's authority
			min = parent
			if a == nil || a.Perms[parent] == nil {
				return errPermissionQuery("Failed to retrieve permission: " + LevelText(antelope.PermissionLevel{Actor: account, Permission: parent}))
			}
		}
	case nameDeleteAuth:
		if auth.Actor != account {
			return errIrrelevantAuth("the owner of the permission to delete needs to be the actor of the declared authorization")
		}
		min = n.name()
		if n.err != nil {
			return nil
		}
		if a := c.Account(account); a == nil || a.Perms[min] == nil {
			return errPermissionQuery("Failed to retrieve permission: " + LevelText(antelope.PermissionLevel{Actor: account, Permission: min}))
		}
	case nameLinkAuth:
		if auth.Actor != account {
			return errIrrelevantAuth("the owner of the linked permission needs to be the actor of the declared authorization")
		}
		code, typ := n.name(), n.name()
		if n.err != nil {
			return nil
		}
		if isPermissionAction(code, typ) {
			return ErrActionValidate(fmt.Sprintf("Cannot link eosio::%s to a minimum permission", typ))
		}
		var anyPermission bool
		if min, anyPermission = c.minimumPermission(account, code, typ); anyPermission {
			return nil
		}
	case nameUnlinkAuth:
		if auth.Actor != account {
			return errIrrelevantAuth("the owner of the linked permission needs to be the actor of the declared authorization")
		}
		code, typ := n.name(), n.name()
		if n.err != nil {
			return nil
		}
		linked, ok := c.linkedPermission(account, code, typ)
		if !ok {
			return errTransaction(fmt.Sprintf("cannot unlink non-existent permission link of account '%s' for actions matching '%s::%s'", account, code, typ))
		}
		if linked == NameEosioAny {
			return nil
		}
		min = linked
	}
	if !c.permissionSatisfies(account, auth.Permission, min) {
		return errIrrelevantAuth(fmt.Sprintf("%s declares irrelevant authority '%s'; minimum authority is %s",
			what, LevelText(auth), LevelText(antelope.PermissionLevel{Actor: account, Permission: min})))
	}
	return nil
}
