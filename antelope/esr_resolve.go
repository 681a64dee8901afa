package antelope

import (
	"slices"
	"time"
)

// Resolving a signing request: the signer fills in the placeholders, the
// reference block fills in TAPoS, and the result is the transaction the
// wallet signs, byte for byte as @wharfkit/signing-request resolves it.

// ActionNameRewriter rewrites the name-typed values inside an action's
// packed data, which only the contract's ABI can locate: ESR resolution
// uses it to replace the placeholder names in action data. model.Contracts
// implements it; model.ContractsOf builds one from ABI bytes, such as a
// generated package's ABIJSON.
type ActionNameRewriter interface {
	// RewriteNames returns data (the packed data of account's action) with
	// every value v of ABI type name replaced by rewrite(v), the rest
	// unchanged. It fails when it does not know the action, or when data
	// is not a valid encoding of the action's type.
	RewriteNames(account, action Name, data []byte, rewrite func(Name) Name) ([]byte, error)
}

// ESRContext is what resolving a request needs besides the signer: TAPoS
// (the reference block and the expiration) for a request that has none,
// and the chain chosen for a multi-chain request.
type ESRContext struct {
	// RefBlockNum and RefBlockPrefix name the reference block (see
	// TaposFromBlockID).
	RefBlockNum    uint16 // ref_block_num
	RefBlockPrefix uint32 // ref_block_prefix
	// Expiration is when the transaction expires; it must be set for any
	// request without TAPoS, and for a version 3 identity request.
	Expiration TimePointSec
	// ChainID is the chain a multi-chain request is resolved for; ignored
	// otherwise.
	ChainID Checksum256
}

// ESRContextAt returns the context of a reference block: TAPoS from its id,
// and an expiration expireSeconds after its time, rounded to the nearest
// second (half up), as wharfkit derives it from a block's timestamp.
func ESRContextAt(blockID Checksum256, blockTime time.Time, expireSeconds uint32) ESRContext {
	num, prefix := TaposFromBlockID(blockID)
	ms := blockTime.UnixMilli()
	return ESRContext{RefBlockNum: num, RefBlockPrefix: prefix, Expiration: TimePointSec(uint32((ms+500)/1000) + expireSeconds)}
}

// ResolvedESR is a request resolved for one signer on one chain: the
// transaction to sign.
type ResolvedESR struct {
	Request     *ESR            // the request resolved
	Signer      PermissionLevel // who signs
	ChainID     Checksum256     // the chain it was resolved for
	Transaction Transaction     // placeholders replaced, TAPoS set
}

// RawActions returns the request's actions with their placeholders: the
// payload of an action or actions request, the transaction's actions, or
// the identity action of an identity request.
func (r *ESR) RawActions() []Action {
	switch r.Kind {
	case ESRKindAction, ESRKindActions:
		return r.Actions
	case ESRKindTransaction:
		return r.Transaction.Actions
	case ESRKindIdentity:
		return []Action{r.identityAction()}
	}
	return nil
}

// identityAction is the action an identity request asks to sign: account
// "" (0), name "identity", data the request's identity type with the
// placeholder permission where none is asked for.
func (r *ESR) identityAction() Action {
	perm := ESRPlaceholderAuth
	if r.Identity.Permission != nil {
		perm = *r.Identity.Permission
	}
	var data []byte
	if r.Version >= 3 {
		data = AppendUint64(data, uint64(r.Identity.Scope))
	}
	data = append(data, 1)
	data, _ = perm.AppendBinary(data) // a permission level cannot fail
	return Action{Name: nameIdentity, Authorization: []PermissionLevel{perm}, Data: data}
}

// nameIdentity is the name "identity".
var nameIdentity = func() Name { n, _ := ParseName("identity"); return n }()

// isIdentityAction reports whether a is an identity action (account 0,
// name identity), which resolves with the request's identity type.
func isIdentityAction(a *Action) bool { return a.Account == 0 && a.Name == nameIdentity }

// RawTransaction returns the transaction the request describes before
// resolution: the request's own for ESRKindTransaction, else RawActions with a
// zero header.
func (r *ESR) RawTransaction() Transaction {
	if r.Kind == ESRKindTransaction {
		return r.Transaction
	}
	return Transaction{Actions: r.RawActions()}
}

// RequiresTapos reports whether resolving needs a reference block: any
// request but an identity one whose transaction has no expiration or TAPoS.
func (r *ESR) RequiresTapos() bool {
	if r.IsIdentity() {
		return false
	}
	h := r.RawTransaction().TransactionHeader
	return !hasTapos(h)
}

func hasTapos(h TransactionHeader) bool {
	return h.Expiration != 0 || h.RefBlockNum != 0 || h.RefBlockPrefix != 0
}

// ResolveChainID returns the chain the request is resolved for: its own,
// or, for a multi-chain request, ctxChain, which must be among ChainIDs
// when the request lists them.
func (r *ESR) ResolveChainID(ctxChain Checksum256) (Checksum256, error) {
	if !r.Chain.IsMultiChain() {
		return r.Chain.ChainID()
	}
	if ctxChain == (Checksum256{}) {
		return Checksum256{}, valueErr("signing request", "", "a multi-chain request needs the chosen chain id (ESRContext.ChainID)")
	}
	ids, err := r.ChainIDs()
	if err != nil {
		return Checksum256{}, err
	}
	if ids == nil {
		return ctxChain, nil
	}
	for _, c := range ids {
		if id, err := c.ChainID(); err == nil && id == ctxChain {
			return ctxChain, nil
		}
	}
	return Checksum256{}, valueErr("signing request", ctxChain.String(), "the chain is not among the request's chain_ids")
}

// Resolve returns the transaction the request asks signer to sign: every
// placeholder in the actions' authorizations and data replaced by signer,
// and TAPoS from ctx where the request has none (a version 3 identity
// request takes ctx's expiration). names locates the name values in
// action data (identity actions need none); it may be nil only when every
// action is an identity action. Context-free actions are kept as they are,
// as wharfkit keeps them.
func (r *ESR) Resolve(signer PermissionLevel, ctx ESRContext, names ActionNameRewriter) (*ResolvedESR, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	tx := r.RawTransaction()
	switch {
	case !r.IsIdentity() && !hasTapos(tx.TransactionHeader):
		if ctx.Expiration == 0 {
			return nil, valueErr("signing request", "", "the request has no TAPoS: resolving needs a reference block and an expiration (ESRContext)")
		}
		tx.Expiration, tx.RefBlockNum, tx.RefBlockPrefix = ctx.Expiration, ctx.RefBlockNum, ctx.RefBlockPrefix
	case r.IsIdentity() && r.Version > 2:
		if ctx.Expiration == 0 {
			return nil, valueErr("signing request", "", "a version 3 identity request needs an expiration (ESRContext.Expiration)")
		}
		tx.Expiration = ctx.Expiration
	}
	rewrite := func(n Name) Name {
		switch n {
		case ESRPlaceholderActor:
			return signer.Actor
		case ESRPlaceholderPermission:
			return signer.Permission
		}
		return n
	}
	actions := make([]Action, len(tx.Actions))
	for i, a := range tx.Actions {
		var data []byte
		var err error
		switch {
		case isIdentityAction(&a):
			data, err = rewriteIdentityNames(a.Data, r.Version, rewrite)
		case names == nil:
			err = valueErr("signing request", "", "resolving "+a.Account.String()+"::"+a.Name.String()+" needs the contract's ABI to find placeholders in its data (an ActionNameRewriter)")
		default:
			data, err = names.RewriteNames(a.Account, a.Name, slices.Clone(a.Data), rewrite)
		}
		if err != nil {
			return nil, AtIndex(AtField(err, "actions"), i)
		}
		auth := make([]PermissionLevel, len(a.Authorization))
		for j, p := range a.Authorization {
			if p.Actor == ESRPlaceholderActor {
				p.Actor = signer.Actor
			}
			// The actor placeholder in a permission stands for the signer's
			// permission too (older requests used it there).
			if p.Permission == ESRPlaceholderPermission || p.Permission == ESRPlaceholderActor {
				p.Permission = signer.Permission
			}
			auth[j] = p
		}
		actions[i] = Action{Account: a.Account, Name: a.Name, Authorization: auth, Data: data}
	}
	tx.Actions = actions
	chainID, err := r.ResolveChainID(ctx.ChainID)
	if err != nil {
		return nil, err
	}
	return &ResolvedESR{Request: r, Signer: signer, ChainID: chainID, Transaction: tx}, nil
}

// rewriteIdentityNames rewrites the names of an identity action's data, the
// request version's identity struct: {scope name (v3), permission
// permission_level?}.
func rewriteIdentityNames(data []byte, version uint8, rewrite func(Name) Name) ([]byte, error) {
	var id ESRIdentity
	d := Decoder{data: data}
	err := id.decodeBinary(&d, version)
	if err == nil {
		err = d.Finish()
	}
	if err != nil {
		return nil, AtField(err, "identity")
	}
	id.Scope = rewrite(id.Scope)
	if id.Permission != nil {
		id.Permission.Actor = rewrite(id.Permission.Actor)
		id.Permission.Permission = rewrite(id.Permission.Permission)
	}
	return id.appendBinary(nil, version), nil
}

// SigningDigest is the digest the signer signs.
func (t *ResolvedESR) SigningDigest() (Checksum256, error) {
	return t.Transaction.SigningDigest(t.ChainID)
}

// SigningRequest returns what a Signer is asked to sign for this request
// (keys: the keys wanted, nil for every key the signer holds).
func (t *ResolvedESR) SigningRequest(keys []PublicKey) (*SigningRequest, error) {
	return NewSigningRequest(t.ChainID, &t.Transaction, nil, keys)
}
