package chain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/antelopego/abigen/antelope"
)

// Paying for resources. Under ONLY_BILL_FIRST_AUTHORIZER (active on every
// public chain) a transaction's CPU and NET are billed to the first
// authorizer of its first action. A payer puts an action of its own first
// — a noop authorized by itself — and signs too: then it pays, and the
// signer's account needs no CPU or NET. Cosigner is a payer you run (your
// dapp's account); ResourceProvider asks a service (Greymass Fuel, the
// wharfkit resource provider) to be one, for free or for a fee.

// TransactOptions changes how TransactWith sends a transaction.
type TransactOptions struct {
	// Payer pays the transaction's CPU and NET in place of the signer's
	// account: a *Cosigner or a *ResourceProvider. nil: the first
	// authorizer of the first action pays, as with Transact.
	Payer Payer
}

// Payer pays a transaction's CPU and NET. Before the signer signs,
// TransactWith gives it the transaction; it answers the transaction the
// signer is to sign instead — with its own action first, so that it is
// billed — and its signatures of it.
type Payer interface {
	// Pay returns how req's transaction is paid for. It must not change
	// req.Transaction. A Payment with no Transaction sends req's
	// transaction unchanged (the signer pays); an error stops TransactWith
	// before anything is signed or sent.
	Pay(ctx context.Context, c *Client, req *PayRequest) (*Payment, error)
}

// PayRequest is what a Payer is asked to pay for.
type PayRequest struct {
	ChainID     antelope.Checksum256  // the chain the transaction is for
	Transaction *antelope.Transaction // built by the client: TAPoS and expiration set, unsigned
	// Signer is the first authorization of the first action: the
	// account that would be billed, and that signs.
	Signer antelope.PermissionLevel
}

// Payment is how a transaction's CPU and NET are paid for.
type Payment struct {
	// Payer is the first authorization of Transaction: who is billed.
	Payer antelope.PermissionLevel
	// Transaction is what the signer signs: the signer's transaction with
	// the payer's action first (and, from a resource provider, a fee).
	Transaction *antelope.Transaction
	// Signatures are the payer's, of Transaction; the signer's are merged
	// with them.
	Signatures []antelope.Signature
	// Fee is what the signer pays for it: a resource provider's fee
	// transfers and the RAM it buys for the signer. Zero when free.
	Fee antelope.Asset
	// Declined says why the payer did not pay, when its policy was then to
	// send the transaction unchanged (ResourceProvider's SendUnchanged,
	// chosen explicitly): the signer's account was billed, and TransactWith
	// returned no error for it. The other fields are zero.
	Declined error
}

// TransactWith is Transact with options: with opts.Payer, the payer is
// asked to pay before anything is signed, the signer signs the transaction
// the payer answered (asking get_required_keys about its own
// authorizations only), and the payer's signatures and the signer's are
// merged in nodeos's order — sorted by public key, as nodeos lists the
// keys a transaction requires — each key once. The result's Payment says
// who paid and the fee.
//
// It never executes a transaction twice, cosigned or not: the payer is
// asked once, and a send whose answer is lost is retried with the same
// signed bytes (see Transact). A refusal for lack of CPU or NET is a
// *ResourceError naming the account that was billed and what to do.
func (c *Client) TransactWith(ctx context.Context, signer antelope.Signer, opts TransactOptions, actions ...antelope.Action) (*TransactResult, error) {
	tx, chainID, err := c.BuildTransaction(ctx, actions...)
	if err != nil {
		return nil, err
	}
	var pay *Payment
	toSign, scope := tx, tx
	if opts.Payer != nil {
		req := &PayRequest{ChainID: chainID, Transaction: tx, Signer: firstAuthorization(tx)}
		if pay, err = opts.Payer.Pay(ctx, c, req); err != nil {
			return nil, err
		}
		if pay != nil && pay.Transaction != nil {
			toSign, scope = pay.Transaction, signerScope(pay)
		}
	}
	signed, err := c.signAs(ctx, signer, chainID, toSign, scope)
	if err != nil {
		return nil, err
	}
	if pay != nil && len(pay.Signatures) > 0 {
		digest, err := toSign.SigningDigest(chainID)
		if err != nil {
			return nil, err
		}
		signed.Signatures = mergeSignatures(digest, pay.Signatures, signed.Signatures)
	}
	res, err := c.SendTransaction(ctx, signed)
	if res != nil {
		res.Payment = pay
	}
	err = resourceError(&signed.Transaction, err)
	var re *ResourceError
	if pay != nil && pay.Declined != nil && errors.As(err, &re) {
		re.Declined = pay.Declined
	}
	return res, err
}

// firstAuthorization is the first authorization of the first action that
// has one (nodeos's first_authorizer): the account billed for CPU and NET.
func firstAuthorization(tx *antelope.Transaction) antelope.PermissionLevel {
	for _, a := range tx.Actions {
		if len(a.Authorization) > 0 {
			return a.Authorization[0]
		}
	}
	return antelope.PermissionLevel{}
}

// signerScope is the part of a paid transaction the signer's keys are for:
// the actions not authorized by the payer alone.
func signerScope(pay *Payment) *antelope.Transaction {
	scope := *pay.Transaction
	scope.Actions = nil
	for _, a := range pay.Transaction.Actions {
		if slices.ContainsFunc(a.Authorization, func(l antelope.PermissionLevel) bool { return l.Actor != pay.Payer.Actor }) {
			scope.Actions = append(scope.Actions, a)
		}
	}
	if len(scope.Actions) == 0 {
		return pay.Transaction
	}
	return &scope
}

// mergeSignatures joins signature lists for one digest: each key once (a
// second signature by the same key is tx_duplicate_sig), sorted by key as
// nodeos orders public keys (type, then key bytes: its flat_set of required
// keys), so that the same signers give the same bytes whoever signed
// first. A signature whose key cannot be recovered is kept, last, for the
// node to judge.
func mergeSignatures(digest antelope.Checksum256, lists ...[]antelope.Signature) []antelope.Signature {
	type keyed struct {
		sig antelope.Signature
		key *antelope.PublicKey
	}
	var all []keyed
	for _, l := range lists {
		for _, s := range l {
			k, err := s.RecoverPublicKey(digest)
			if err != nil {
				all = append(all, keyed{sig: s})
				continue
			}
			if slices.ContainsFunc(all, func(o keyed) bool { return o.key != nil && o.key.Equal(k) }) {
				continue
			}
			all = append(all, keyed{sig: s, key: &k})
		}
	}
	slices.SortStableFunc(all, func(a, b keyed) int {
		switch {
		case a.key == nil || b.key == nil:
			return boolCompare(a.key == nil, b.key == nil)
		case a.key.Type != b.key.Type:
			return int(a.key.Type) - int(b.key.Type)
		}
		return bytes.Compare(a.key.Data, b.key.Data)
	})
	out := make([]antelope.Signature, len(all))
	for i, k := range all {
		out[i] = k.sig
	}
	return out
}

// boolCompare orders false before true.
func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// ResourceError is nodeos refusing a transaction because the account
// billed for it has not enough CPU or NET (tx_cpu_usage_exceeded and the
// like: errors.Is(err, ErrCPU) or ErrNET still holds). Account is that
// account: the first authorizer of the first action, under
// ONLY_BILL_FIRST_AUTHORIZER.
type ResourceError struct {
	Resource string        // "CPU" or "NET"
	Account  antelope.Name // the account billed
	Err      *APIError     // nodeos's answer
	// Declined is why the payer TransactWith asked did not pay (it was
	// then sent unchanged, billed to Account); nil otherwise.
	Declined error
}

// Error names the account and says what to do.
func (e *ResourceError) Error() string {
	msg := fmt.Sprintf("not enough %s: account %s is billed for this transaction (the first authorizer of its first action) "+
		"and has not enough %s left; power it up (eosio::powerup, package powerup) or stake to it, "+
		"or have another account pay (TransactWith with a chain.Cosigner or chain.ResourceProvider)",
		e.Resource, e.Account, e.Resource)
	if e.Declined != nil {
		msg += " — the payer asked did not pay: " + e.Declined.Error()
	}
	return msg + ": " + e.Err.Error()
}

// Unwrap returns nodeos's answer, which matches ErrCPU or ErrNET.
func (e *ResourceError) Unwrap() error { return e.Err }

// resourceError makes nodeos's refusal for lack of CPU or NET a
// *ResourceError naming the account billed for tx. Refusals that no
// resources would cure — a full block, a transaction longer than the
// node's or the chain's own limit — stay as they are.
func resourceError(tx *antelope.Transaction, err error) error {
	ae, ok := err.(*APIError)
	if !ok {
		return err
	}
	var resource string
	switch {
	case errors.Is(ae, ErrCPU):
		resource = "CPU"
	case errors.Is(ae, ErrNET):
		resource = "NET"
	default:
		return err
	}
	switch ae.Name {
	case "block_cpu_usage_exceeded", "block_net_usage_exceeded", "deadline_exception":
		return err
	}
	for _, d := range ae.Details {
		for _, notTheAccount := range []string{"max-transaction-time", "max_transaction_cpu_usage", "max_cpu_usage_ms", "speculative executed adjusted"} {
			if strings.Contains(d.Message, notTheAccount) {
				return err
			}
		}
	}
	return &ResourceError{Resource: resource, Account: firstAuthorization(tx).Actor, Err: ae}
}
