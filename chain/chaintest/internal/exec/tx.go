package exec

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// maxTrxLifetime is nodeos's default max_transaction_lifetime.
const maxTrxLifetime = 3600 * time.Second

// Check applies nodeos's checks before execution: expiration, TAPoS,
// duplicates, and (unless dry) the signatures against the authorizations.
func (c *Engine) Check(signed *antelope.SignedTransaction, packed *antelope.PackedTransaction, id antelope.Checksum256, pending time.Time, dry bool) error {
	exp := signed.Expiration.Time()
	if exp.Before(pending) {
		return errExpired(fmt.Sprintf("expired transaction %s, expiration %s, block time %s", id, timeSecText(exp), timeText(pending)))
	}
	if exp.After(pending.Add(maxTrxLifetime)) {
		return errTooFar(fmt.Sprintf("Transaction expiration is too far in the future relative to the reference time of %s, expiration %s, and max expiration %s",
			timeText(pending), timeSecText(exp), timeText(pending.Add(maxTrxLifetime))))
	}
	if !c.above.TAPoS(signed.RefBlockNum, signed.RefBlockPrefix) {
		return ErrRefBlock(fmt.Sprintf("Transaction's reference block did not match. Is this transaction from a different fork? (ref_block_num %d, ref_block_prefix %d)", signed.RefBlockNum, signed.RefBlockPrefix))
	}
	if c.above.Executed(id) && !dry {
		return errDuplicate("duplicate transaction " + id.String())
	}
	if dry {
		return nil
	}
	digest, err := packed.SigningDigest(c.ChainID)
	if err != nil {
		return ErrPackedTx(err.Error())
	}
	var keys []antelope.PublicKey
	for _, s := range signed.Signatures {
		k, err := s.RecoverPublicKey(digest)
		if err != nil {
			return errTransaction("signature " + s.String() + ": " + err.Error())
		}
		if slices.ContainsFunc(keys, k.Equal) {
			return errDuplicateSig("transaction includes more than one signature signed using the same key associated with public key: " + k.String())
		}
		keys = append(keys, k)
	}
	return c.checkAuthorizations(&signed.Transaction, keys)
}

// CheckKnownKeys is Check for a transaction whose signers' keys are known,
// without signatures to recover: every check but the recovery, which costs
// as much as the rest of a one-action transaction. chaintest's fuzz target
// of a contract's actions uses it, to explore what the actions do at
// thousands of inputs a second; Check and its recovery are tested on their
// own.
func (c *Engine) CheckKnownKeys(signed *antelope.SignedTransaction, id antelope.Checksum256, pending time.Time, keys []antelope.PublicKey) error {
	if err := c.Check(signed, nil, id, pending, true); err != nil {
		return err
	}
	if c.above.Executed(id) {
		return errDuplicate("duplicate transaction " + id.String())
	}
	return c.checkAuthorizations(&signed.Transaction, keys)
}

// Execute runs the transaction's actions (apply.go) within the chain's
// deadline, billing its NET and CPU (resources.go). A failed run, or a dry
// one, changes nothing: the tables go back to their snapshot and accounts,
// contracts and parameters to the undo log.
func (c *Engine) Execute(signed *antelope.SignedTransaction, packed *antelope.PackedTransaction, id antelope.Checksum256, blockNum uint32, blockTime time.Time, readOnly, dry bool) (*TrxContext, error) {
	for {
		fetched := c.forkFetches()
		trx, err := c.executeOnce(signed, packed, id, blockNum, blockTime, readOnly, dry)
		// On a fork, a failed run that fetched from the live chain spent
		// network time within its deadline, and may have failed for it
		// (tx_cpu_usage_exceeded): what it fetched stays, so it runs
		// again, until a run fetches nothing. A fork failure is final.
		var ex *Exception
		if err == nil || c.forkFetches() == fetched || (errors.As(err, &ex) && ex.code == ForkExceptionCode) {
			return trx, err
		}
	}
}

// executeOnce is one run of execute.
func (c *Engine) executeOnce(signed *antelope.SignedTransaction, packed *antelope.PackedTransaction, id antelope.Checksum256, blockNum uint32, blockTime time.Time, readOnly, dry bool) (*TrxContext, error) {
	ctx, cancel := context.WithTimeout(context.Background(), c.deadline)
	defer cancel()
	trx := &TrxContext{c: c, Tx: signed, ID: id, blockNum: blockNum, blockTime: blockTime, ctx: ctx, readOnly: readOnly}
	snap := c.DB.Snapshot()
	c.TxSnap = snap
	defer func() { c.TxSnap = nil }()
	c.takeForkFailure()
	err := trx.chargeNET(packed)
	if err == nil {
		err = trx.run()
	}
	if err == nil {
		err = trx.chargeCPU()
	}
	if err == nil {
		trx.markPermissionsUsed()
	}
	if ferr := c.takeForkFailure(); ferr != nil {
		err = errFork(ferr) // what ran saw a state the fork could not fill: its outcome is not the live chain's
	}
	if err != nil || dry {
		c.DB.Restore(snap)
		trx.Undo.rollback(c)
	}
	return trx, err
}

// markPermissionsUsed is what nodeos's transaction_context::finalize does
// for a transaction sent to it: every authorization its actions declare
// was used at the time of its block (inline actions' authorizations are
// not counted, nor a read-only transaction's).
func (t *TrxContext) markPermissionsUsed() {
	if t.readOnly {
		return
	}
	c := t.c
	for _, act := range t.Tx.Actions {
		for _, l := range act.Authorization {
			if !c.permissionExists(l) {
				continue
			}
			t.Undo.account(c, l.Actor) // the map is the transaction's copy now
			perms := c.Account(l.Actor).Perms
			p := *perms[l.Permission]
			p.LastUsed = t.blockTime
			perms[l.Permission] = &p
		}
	}
}

// ErrHandlerPanic is a Go handler's panic as nodeos reports a contract that
// traps: wasm_execution_error, with the panic value, and the stack where it
// panicked as a second detail.
func ErrHandlerPanic(receiver, action antelope.Name, value any, stack []byte) *Exception {
	return &Exception{code: 3070002, name: "wasm_execution_error", what: "Runtime Error Processing WASM",
		detail: fmt.Sprintf("the Go handler of %s panicked on action %s: %v", receiver, action, value), more: []string{string(stack)}}
}

// timeText prints a time as nodeos does: milliseconds, no zone.
func timeText(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000") }

func timeSecText(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000") }
