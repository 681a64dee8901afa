package chaintest

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

// check applies nodeos's checks before execution: expiration, TAPoS,
// duplicates, and (unless dry) the signatures against the authorizations.
func (c *engine) check(signed *antelope.SignedTransaction, packed *antelope.PackedTransaction, id antelope.Checksum256, pending time.Time, dry bool) error {
	exp := signed.Expiration.Time()
	if exp.Before(pending) {
		return errExpired(fmt.Sprintf("expired transaction %s, expiration %s, block time %s", id, timeSecText(exp), timeText(pending)))
	}
	if exp.After(pending.Add(maxTrxLifetime)) {
		return errTooFar(fmt.Sprintf("Transaction expiration is too far in the future relative to the reference time of %s, expiration %s, and max expiration %s",
			timeText(pending), timeSecText(exp), timeText(pending.Add(maxTrxLifetime))))
	}
	if !c.above.tapos(signed.RefBlockNum, signed.RefBlockPrefix) {
		return errRefBlock(fmt.Sprintf("Transaction's reference block did not match. Is this transaction from a different fork? (ref_block_num %d, ref_block_prefix %d)", signed.RefBlockNum, signed.RefBlockPrefix))
	}
	if c.above.executed(id) && !dry {
		return errDuplicate("duplicate transaction " + id.String())
	}
	if dry {
		return nil
	}
	digest, err := packed.SigningDigest(c.chainID)
	if err != nil {
		return errPackedTx(err.Error())
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

// execute runs the transaction's actions (apply.go) within the chain's
// deadline, billing its NET and CPU (resources.go). A failed run, or a dry
// one, changes nothing: the tables go back to their snapshot and accounts,
// contracts and parameters to the undo log.
func (c *engine) execute(signed *antelope.SignedTransaction, packed *antelope.PackedTransaction, id antelope.Checksum256, blockNum uint32, blockTime time.Time, readOnly, dry bool) (*trxContext, error) {
	for {
		fetched := c.forkFetches()
		trx, err := c.executeOnce(signed, packed, id, blockNum, blockTime, readOnly, dry)
		// On a fork, a failed run that fetched from the live chain spent
		// network time within its deadline, and may have failed for it
		// (tx_cpu_usage_exceeded): what it fetched stays, so it runs
		// again, until a run fetches nothing. A fork failure is final.
		var ex *exception
		if err == nil || c.forkFetches() == fetched || (errors.As(err, &ex) && ex.code == forkExceptionCode) {
			return trx, err
		}
	}
}

// executeOnce is one run of execute.
func (c *engine) executeOnce(signed *antelope.SignedTransaction, packed *antelope.PackedTransaction, id antelope.Checksum256, blockNum uint32, blockTime time.Time, readOnly, dry bool) (*trxContext, error) {
	ctx, cancel := context.WithTimeout(context.Background(), c.deadline)
	defer cancel()
	trx := &trxContext{c: c, tx: signed, id: id, blockNum: blockNum, blockTime: blockTime, ctx: ctx, readOnly: readOnly}
	snap := c.db.Snapshot()
	c.txSnap = snap
	defer func() { c.txSnap = nil }()
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
		c.db.Restore(snap)
		trx.undo.rollback(c)
	}
	return trx, err
}

// markPermissionsUsed is what nodeos's transaction_context::finalize does
// for a transaction sent to it: every authorization its actions declare
// was used at the time of its block (inline actions' authorizations are
// not counted, nor a read-only transaction's).
func (t *trxContext) markPermissionsUsed() {
	if t.readOnly {
		return
	}
	c := t.c
	for _, act := range t.tx.Actions {
		for _, l := range act.Authorization {
			if !c.permissionExists(l) {
				continue
			}
			t.undo.account(c, l.Actor) // the map is the transaction's copy now
			perms := c.account(l.Actor).perms
			p := *perms[l.Permission]
			p.lastUsed = t.blockTime
			perms[l.Permission] = &p
		}
	}
}

// errHandlerPanic is a Go handler's panic as nodeos reports a contract that
// traps: wasm_execution_error, with the panic value, and the stack where it
// panicked as a second detail.
func errHandlerPanic(receiver, action antelope.Name, value any, stack []byte) *exception {
	return &exception{code: 3070002, name: "wasm_execution_error", what: "Runtime Error Processing WASM",
		detail: fmt.Sprintf("the Go handler of %s panicked on action %s: %v", receiver, action, value), more: []string{string(stack)}}
}

// timeText prints a time as nodeos does: milliseconds, no zone.
func timeText(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000") }

func timeSecText(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000") }
