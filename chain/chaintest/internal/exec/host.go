package exec

import (
	"fmt"
	"slices"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
)

// applyContext is the wasm.Host of a contract's run: the intrinsics that
// need the chain. (dbapi.go has the table calls.)

var _ wasm.Host = (*applyContext)(nil)

// maxActionReturnValue is nodeos's default max_action_return_value_size.
const maxActionReturnValue = 256

// Print appends to the console output of the action's trace.
func (a *applyContext) Print(s string) { a.trace().Console.WriteString(s) }

// RequireAuth is require_auth.
func (a *applyContext) RequireAuth(actor uint64) error { return a.requireAuth(antelope.Name(actor)) }

// RequireAuth2 is require_auth2.
func (a *applyContext) RequireAuth2(actor, permission uint64) error {
	return a.requireAuth2(antelope.Name(actor), antelope.Name(permission))
}

// HasAuth is has_auth.
func (a *applyContext) HasAuth(actor uint64) bool { return a.hasAuth(antelope.Name(actor)) }

// RequireRecipient is require_recipient.
func (a *applyContext) RequireRecipient(account uint64) error {
	return a.requireRecipient(antelope.Name(account))
}

// IsAccount is is_account.
func (a *applyContext) IsAccount(account uint64) bool {
	return a.trx.c.Account(antelope.Name(account)) != nil
}

// SendInline is send_inline and send_context_free_inline.
func (a *applyContext) SendInline(packed []byte, contextFree bool) error {
	var act antelope.Action
	d := antelope.NewDecoder(packed)
	if err := act.DecodeBinary(d); err != nil {
		return ErrActionValidate("unpacking the inline action: " + err.Error())
	}
	return a.sendInline(act, contextFree)
}

// SetActionReturnValue is set_action_return_value.
func (a *applyContext) SetActionReturnValue(v []byte) error {
	if len(v) > maxActionReturnValue && !a.trx.readOnly {
		return errActionReturnValue(fmt.Sprintf("action return value size must be less or equal to %d bytes", maxActionReturnValue))
	}
	a.trace().ReturnValue = v
	return nil
}

// Now is current_time: the pending block's time, microseconds.
func (a *applyContext) Now() int64 { return a.trx.blockTime.UnixMicro() }

// PublicationTime is publication_time: when the transaction was
// published, which for an input transaction is its block's time.
func (a *applyContext) PublicationTime() int64 { return a.trx.blockTime.UnixMicro() }

// BlockNum is get_block_num.
func (a *applyContext) BlockNum() uint32 { return a.trx.blockNum }

// Sender is get_sender: the receiver whose code sent this inline action.
func (a *applyContext) Sender() uint64 {
	tr := a.trace()
	if tr.Creator == 0 {
		return 0
	}
	return uint64(a.trx.Traces[tr.Creator-1].Receiver)
}

// Transaction is the transaction being executed.
func (a *applyContext) Transaction() *antelope.SignedTransaction { return a.trx.Tx }

// CodeHash is get_code_hash.
func (a *applyContext) CodeHash(account uint64) (uint64, [32]byte, uint8, uint8) {
	acct := a.trx.c.Account(antelope.Name(account))
	if acct == nil {
		return 0, [32]byte{}, 0, 0
	}
	var hash [32]byte
	if ct := a.trx.c.Contract(antelope.Name(account)); ct != nil && ct.Module != nil {
		hash = ct.CodeHash
	}
	return acct.codeSequence, hash, 0, 0
}

// CheckTransactionAuthorization is check_transaction_authorization.
func (a *applyContext) CheckTransactionAuthorization(trx, keys, perms []byte) (bool, error) {
	var tx antelope.Transaction
	if err := tx.DecodeBinary(antelope.NewDecoder(trx)); err != nil {
		return false, errTransaction("unpacking the transaction: " + err.Error())
	}
	pubs, levels, err := unpackProvided(keys, perms)
	if err != nil {
		return false, err
	}
	c := a.trx.c
	ac := &AuthChecker{Engine: c, Keys: pubs, Used: map[int]bool{}, provided: levels}
	for i, act := range tx.Actions {
		// nodeos answers false for an authorization exception (an
		// irrelevant authority) and lets any other fail the transaction.
		if err := c.CheckDeclaredPermissions(&tx.Actions[i]); err != nil {
			if e, ok := err.(*Exception); ok && e.code == 3090005 {
				return false, nil
			}
			return false, err
		}
		for _, l := range act.Authorization {
			if !c.permissionExists(l) || !ac.Satisfied(l, 0) {
				return false, nil
			}
		}
	}
	return len(ac.unusedKeys()) == 0, nil
}

// CheckPermissionAuthorization is check_permission_authorization.
func (a *applyContext) CheckPermissionAuthorization(actor, permission uint64, keys, perms []byte, _ uint64) (bool, error) {
	pubs, levels, err := unpackProvided(keys, perms)
	if err != nil {
		return false, err
	}
	l := antelope.PermissionLevel{Actor: antelope.Name(actor), Permission: antelope.Name(permission)}
	// nodeos answers false for every authorization_exception: a
	// permission that does not exist (or is empty) is not satisfied, and
	// a provided key the permission did not use is tx_irrelevant_sig.
	ac := &AuthChecker{Engine: a.trx.c, Keys: pubs, Used: map[int]bool{}, provided: levels}
	return ac.Satisfied(l, 0) && len(ac.unusedKeys()) == 0, nil
}

// unpackProvided reads the packed flat_sets of keys and permission levels.
func unpackProvided(keys, perms []byte) ([]antelope.PublicKey, []antelope.PermissionLevel, error) {
	var pubs []antelope.PublicKey
	if len(keys) > 0 {
		d := antelope.NewDecoder(keys)
		n, err := d.Length("keys", 1)
		for i := 0; err == nil && i < n; i++ {
			var k antelope.PublicKey
			// A flat_set: a key given twice is one key.
			if err = k.DecodeBinary(d); err == nil && !slices.ContainsFunc(pubs, k.Equal) {
				pubs = append(pubs, k)
			}
		}
		if err != nil {
			return nil, nil, errTransaction("unpacking the provided keys: " + err.Error())
		}
	}
	var levels []antelope.PermissionLevel
	if len(perms) > 0 {
		d := antelope.NewDecoder(perms)
		n, err := d.Length("permissions", 16)
		for i := 0; err == nil && i < n; i++ {
			var actor, perm uint64
			if actor, err = d.Uint64(); err == nil {
				perm, err = d.Uint64()
			}
			levels = append(levels, antelope.PermissionLevel{Actor: antelope.Name(actor), Permission: antelope.Name(perm)})
		}
		if err != nil {
			return nil, nil, errTransaction("unpacking the provided permissions: " + err.Error())
		}
	}
	return pubs, levels, nil
}

// PermissionLastUsed is get_permission_last_used: the time of the last
// block with a transaction that declared the permission, or of its
// creation.
func (a *applyContext) PermissionLastUsed(actor, permission uint64) (int64, error) {
	l := antelope.PermissionLevel{Actor: antelope.Name(actor), Permission: antelope.Name(permission)}
	if !a.trx.c.permissionExists(l) {
		return 0, errPermissionQuery("Failed to retrieve permission: " + LevelText(l))
	}
	return a.trx.c.Account(l.Actor).Perms[l.Permission].LastUsed.UnixMicro(), nil
}

// AccountCreationTime is get_account_creation_time.
func (a *applyContext) AccountCreationTime(account uint64) (int64, error) {
	acct := a.trx.c.Account(antelope.Name(account))
	if acct == nil {
		return 0, ErrActionValidate(fmt.Sprintf("account '%s' does not exist", antelope.Name(account)))
	}
	return acct.Created.UnixMicro(), nil
}

// Privileged reports whether the receiver is privileged.
func (a *applyContext) Privileged() bool { return a.privileged }

// IsPrivileged is is_privileged.
func (a *applyContext) IsPrivileged(account uint64) (bool, error) {
	acct := a.trx.c.Account(antelope.Name(account))
	if acct == nil {
		return false, errUnknownAccount(fmt.Sprintf("account '%s' does not exist", antelope.Name(account)))
	}
	return acct.Privileged, nil
}

// SetPrivileged is set_privileged.
func (a *applyContext) SetPrivileged(account uint64, on bool) error {
	n := antelope.Name(account)
	if a.trx.c.Account(n) == nil {
		return errUnknownAccount(fmt.Sprintf("account '%s' does not exist", n))
	}
	a.trx.Undo.account(a.trx.c, n)
	a.trx.c.Account(n).Privileged = on
	return nil
}

// SetResourceLimits is set_resource_limits: the RAM quota is enforced
// (ram_usage_exceeded); NET and CPU weights are kept for get_account.
func (a *applyContext) SetResourceLimits(account uint64, ram, net, cpu int64) error {
	n := antelope.Name(account)
	acct := a.trx.c.Account(n)
	if acct == nil {
		return errUnknownAccount(fmt.Sprintf("account '%s' does not exist", n))
	}
	a.trx.Undo.account(a.trx.c, n)
	acct = a.trx.c.Account(n)
	acct.RAMQuota, acct.NETWeight, acct.CPUWeight = ram, net, cpu
	a.trx.validateRAM(n) // checked at the end of the transaction, as nodeos does
	return nil
}

// ResourceLimits is get_resource_limits.
func (a *applyContext) ResourceLimits(account uint64) (int64, int64, int64, error) {
	acct := a.trx.c.Account(antelope.Name(account))
	if acct == nil {
		return 0, 0, 0, errUnknownAccount(fmt.Sprintf("account '%s' does not exist", antelope.Name(account)))
	}
	return acct.RAMQuota, acct.NETWeight, acct.CPUWeight, nil
}

// BlockchainParameters is get_blockchain_parameters_packed.
func (a *applyContext) BlockchainParameters() []byte { return a.trx.c.params }

// SetBlockchainParameters is set_blockchain_parameters_packed: the
// chain_config_v0 is checked for size and kept (chaintest does not apply
// its limits).
func (a *applyContext) SetBlockchainParameters(packed []byte) error {
	if len(packed) < len(defaultParams) {
		return errTransaction("unpacking the blockchain parameters: too short")
	}
	c := a.trx.c
	a.trx.Undo.params(c)
	c.params = append([]byte(nil), packed[:len(defaultParams)]...)
	return nil
}

// SetProposedProducers is set_proposed_producers(_ex): the schedule is
// checked as nodeos checks it and recorded; chaintest has one producer and
// no schedule changes, so it returns -1 (none proposed) only for an empty
// schedule.
func (a *applyContext) SetProposedProducers(format uint64, packed []byte) (int64, error) {
	d := antelope.NewDecoder(packed)
	n, err := d.Length("producers", 9)
	if err != nil {
		return 0, errProducerSchedule("unpacking the producer schedule: " + err.Error())
	}
	if n > 125 {
		return 0, errProducerSchedule("Producer schedule exceeds the maximum producer count for this chain")
	}
	if n == 0 {
		return 0, errProducerSchedule("Producer schedule cannot be empty")
	}
	seen := map[antelope.Name]bool{}
	var names []antelope.Name
	for range n {
		p, err := d.Uint64()
		if err != nil {
			return 0, errProducerSchedule("unpacking the producer schedule: " + err.Error())
		}
		if format == 0 {
			var key antelope.PublicKey
			err = key.DecodeBinary(d)
		} else {
			err = skipBlockSigningAuthority(d)
		}
		if err != nil {
			return 0, errProducerSchedule("unpacking the producer schedule: " + err.Error())
		}
		name := antelope.Name(p)
		if a.trx.c.Account(name) == nil {
			return 0, errProducerSchedule("producer schedule includes a nonexisting account")
		}
		if seen[name] {
			return 0, errProducerSchedule("duplicate producer name in producer schedule")
		}
		seen[name] = true
		names = append(names, name)
	}
	c := a.trx.c
	a.trx.Undo.params(c)
	c.scheduleVersion++
	c.proposed = names
	return int64(c.scheduleVersion), nil
}

// skipBlockSigningAuthority reads a block_signing_authority_v0 variant.
func skipBlockSigningAuthority(d *antelope.Decoder) error {
	if _, err := d.VarUint32(); err != nil {
		return err
	}
	if _, err := d.Uint32(); err != nil {
		return err
	}
	n, err := d.Length("keys", 2)
	for i := 0; err == nil && i < n; i++ {
		var k antelope.PublicKey
		if err = k.DecodeBinary(d); err == nil {
			_, err = d.Uint16()
		}
	}
	return err
}

// ActiveProducers is get_active_producers: eosio, chaintest's producer.
func (a *applyContext) ActiveProducers() []uint64 { return []uint64{uint64(NameEosio)} }

// PreactivateFeature is preactivate_feature: chaintest runs with every
// protocol feature active, so it records the digest (once) only.
func (a *applyContext) PreactivateFeature(digest [32]byte) error {
	c := a.trx.c
	if c.features[digest] {
		return &Exception{code: 3250000, name: "protocol_feature_exception", what: "Protocol feature exception",
			detail: fmt.Sprintf("protocol feature with digest '%x' is already pre-activated", digest)}
	}
	a.trx.Undo.params(c)
	c.features[digest] = true
	return nil
}

// IsFeatureActivated is is_feature_activated: the features chaintest
// behaves as (all of them), and those preactivated.
func (a *applyContext) IsFeatureActivated(digest [32]byte) bool { return true }
