package chain

import (
	"context"
	"errors"
	"fmt"

	"github.com/antelopego/abigen/antelope"
)

// Cosigner is a payer you run: an account of yours (a dapp's) pays its
// users' CPU and NET. TransactWith prepends its noop action, authorized by
// Permission, and Signer signs for it; the user's signer signs the same
// transaction. On a real chain that permission is usually a custom one
// (dapp@paybw) linked to the noop action alone (linkauth), so that its key
// can authorize nothing else.
//
// The payer signs the whole transaction: give it to code that builds only
// transactions you mean to pay for.
type Cosigner struct {
	// Permission is the account that pays and the permission its noop
	// is authorized with, e.g. dapp@paybw (the result's Payment.Payer).
	Permission antelope.PermissionLevel
	Signer     antelope.Signer // holds the key(s) of Permission
	// NoopContract is the contract of the action prepended (with Permission's
	// authorization and no data). Zero: KnownNoop for the chain —
	// boost.wax::noop on WAX, greymassnoop::noop on EOS, Jungle 4 and
	// Telos.
	NoopContract antelope.Name
	NoopAction   antelope.Name // the action's name; zero: "noop"
}

// Known chain ids, for KnownNoop.
var (
	chainEOS     = antelope.ESRChainAliases[1]
	chainTelos   = antelope.ESRChainAliases[2]
	chainWAX     = antelope.ESRChainAliases[10]
	chainJungle4 = mustChecksum("73e4385a2708e6d7048834fbc1079f2fabb17b3c125b146af438971e90716c4d")
)

func mustChecksum(s string) antelope.Checksum256 {
	c, err := antelope.ParseChecksum256(s)
	if err != nil {
		panic(err)
	}
	return c
}

// KnownNoop returns the no-op action payers use on a chain, by its id:
// boost.wax::noop on WAX mainnet, greymassnoop::noop (Greymass Fuel's) on
// EOS, Jungle 4 and Telos; ok is false for any other chain.
func KnownNoop(chainID antelope.Checksum256) (contract, action antelope.Name, ok bool) {
	switch chainID {
	case chainWAX:
		return antelope.MustName("boost.wax"), nameNoop, true
	case chainEOS, chainJungle4, chainTelos:
		return antelope.MustName("greymassnoop"), nameNoop, true
	}
	return 0, 0, false
}

// Pay prepends the noop, authorized by Permission, to req's transaction
// and signs it with Signer: the keys of Permission that get_required_keys names
// for the noop, each once.
func (s *Cosigner) Pay(ctx context.Context, c *Client, req *PayRequest) (*Payment, error) {
	if s.Signer == nil || s.Permission.Actor == 0 || s.Permission.Permission == 0 {
		return nil, errors.New("cosigner: Permission and Signer must be set")
	}
	contract, action := s.NoopContract, s.NoopAction
	if contract == 0 {
		known, knownAction, ok := KnownNoop(req.ChainID)
		if !ok {
			return nil, fmt.Errorf("cosigner: no known noop action on chain %s: set Cosigner.NoopContract (chaintest.DeployNoop deploys one)", req.ChainID)
		}
		contract = known
		if action == 0 {
			action = knownAction
		}
	}
	if action == 0 {
		action = nameNoop
	}
	noop := antelope.Action{Account: contract, Name: action, Authorization: []antelope.PermissionLevel{s.Permission}, Data: []byte{}}
	tx := *req.Transaction
	tx.Actions = append([]antelope.Action{noop}, req.Transaction.Actions...)
	scope := tx
	scope.Actions = tx.Actions[:1]
	signed, err := c.signAs(ctx, s.Signer, req.ChainID, &tx, &scope)
	if err != nil {
		return nil, fmt.Errorf("cosigner %s: %w", permissionText(s.Permission), err)
	}
	return &Payment{Payer: s.Permission, Transaction: &tx, Signatures: signed.Signatures}, nil
}

// permissionText is actor@permission.
func permissionText(l antelope.PermissionLevel) string {
	return l.Actor.String() + "@" + l.Permission.String()
}
