package antelope

import (
	"crypto/sha256"
	"strconv"
)

// ESR is an EOSIO signing request (EEP-7, "ESR"): what a program asks a
// wallet (Anchor, WAX Cloud Wallet…) to sign, as an esr: URI or QR code.
// Versions 2 and 3 of the protocol, byte for byte as
// @wharfkit/signing-request encodes them.
//
// A request holds one of four kinds of payload (Kind): one action, a list of
// actions, a whole transaction, or an identity request (a login). Actions
// may name the signer before it is known, through the placeholders
// ESRPlaceholderActor and ESRPlaceholderPermission; Resolve fills them in
// and adds TAPoS, giving the transaction the wallet signs.
//
// The zero ESR is not valid: build one with NewESR, NewESRTransaction or
// NewESRIdentity, or decode one with ParseESR.
type ESR struct {
	// Version is the protocol version, 2 or 3. Version 3 adds the identity
	// scope and multi-chain requests; the constructors choose the lowest
	// version that can carry the request, as wharfkit does.
	Version uint8
	Chain   ESRChain // the chain the request is for, or any chain
	Kind    ESRKind  // which of the payload fields below is used
	// Actions is the payload of ESRKindAction (exactly one action) and
	// ESRKindActions (any number). Action data is packed.
	Actions []Action
	// Transaction is the payload of ESRKindTransaction. A zero expiration and
	// TAPoS mean "fill them in when resolving".
	Transaction Transaction
	Identity    ESRIdentity // the payload of ESRKindIdentity
	Flags       ESRFlags    // broadcast, background
	// Callback is the URL the wallet calls after signing (or broadcasting),
	// with {{sig}}, {{tx}}… replaced by the ESRCallback payload's fields.
	// Empty: no callback.
	Callback string
	Info     []ESRInfo // metadata key/value pairs, in order
	// Signature, when set, is the request's own signature: who asked
	// (SignWith, RecoverRequestSigner).
	Signature *ESRSignature
}

// ESRKind says which payload an ESR carries.
type ESRKind uint8

// The payload kinds, in the order of the protocol's variant.
const (
	ESRKindAction      ESRKind = 0 // one action
	ESRKindActions     ESRKind = 1 // a list of actions
	ESRKindTransaction ESRKind = 2 // a full transaction
	ESRKindIdentity    ESRKind = 3 // an identity (login) request
)

// String returns the protocol's name of the kind: "action", "action[]",
// "transaction" or "identity".
func (k ESRKind) String() string {
	switch k {
	case ESRKindAction:
		return "action"
	case ESRKindActions:
		return "action[]"
	case ESRKindTransaction:
		return "transaction"
	case ESRKindIdentity:
		return "identity"
	}
	return "ESRKind(" + strconv.Itoa(int(k)) + ")"
}

// ESRFlags are the request flags.
type ESRFlags uint8

// The request flags.
const (
	// ESRBroadcast asks the wallet to broadcast the signed transaction
	// itself. Never set on an identity request.
	ESRBroadcast ESRFlags = 1 << 0
	// ESRBackground asks the wallet to POST the callback in the background
	// rather than open it (a GET redirect).
	ESRBackground ESRFlags = 1 << 1
)

// ESRIdentity is the payload of an identity request: "prove you control an
// account", the login of ESR wallets.
type ESRIdentity struct {
	// Scope is the name of the service asking (version 3 only; it is part
	// of what the user signs, so a proof for one service cannot be replayed
	// to another). Version 2 has no scope: it must be 0 there.
	Scope Name
	// Permission is the account and permission asked for; nil asks for any
	// (the wallet's choice).
	Permission *PermissionLevel
}

// ESRInfo is one metadata pair of a request. Values are bytes; a string
// value is its UTF-8 bytes, without a length prefix (as wharfkit stores a
// string given without a type).
type ESRInfo struct {
	Key   string // the key, e.g. "chain_ids"
	Value []byte // the value's bytes
}

// ESRSignature is a request's own signature: the account that created the
// request and its signature over ESR.SignatureDigest.
type ESRSignature struct {
	Signer    Name      // the account that signed the request
	Signature Signature // its signature of SignatureDigest
}

// ESRPlaceholderActor is the placeholder name "............1" (uint64 1):
// in action data and authorizations it stands for the signer's account, in
// an authorization's permission for the signer's permission.
const ESRPlaceholderActor Name = 1

// ESRPlaceholderPermission is the placeholder name "............2" (uint64
// 2): it stands for the signer's permission.
const ESRPlaceholderPermission Name = 2

// ESRPlaceholderAuth is the authorization "............1@............2":
// the signer, whoever it turns out to be.
var ESRPlaceholderAuth = PermissionLevel{Actor: ESRPlaceholderActor, Permission: ESRPlaceholderPermission}

// NewESR returns a request for chain to sign actions: kind ESRKindAction for
// one action, ESRKindActions otherwise. The broadcast flag is set. The version
// is 2, or 3 for a multi-chain request. Action data must be packed (a
// generated Contract builds such actions).
func NewESR(chain ESRChain, actions ...Action) *ESR {
	r := &ESR{Version: 2, Chain: chain, Kind: ESRKindActions, Actions: actions, Flags: ESRBroadcast}
	if len(actions) == 1 {
		r.Kind = ESRKindAction
	}
	if chain.IsMultiChain() {
		r.Version = 3
	}
	return r
}

// NewESRTransaction returns a request for chain to sign tx, with the
// broadcast flag set. Leave tx's expiration and TAPoS zero to have the
// wallet fill them in.
func NewESRTransaction(chain ESRChain, tx Transaction) *ESR {
	r := &ESR{Version: 2, Chain: chain, Kind: ESRKindTransaction, Transaction: tx, Flags: ESRBroadcast}
	if chain.IsMultiChain() {
		r.Version = 3
	}
	return r
}

// NewESRIdentity returns an identity (login) request for chain from the
// service scope, for permission (nil: any account). A scope makes it a
// version 3 request; scope 0 gives a version 2 request, which has none.
// Set Callback: it is where the wallet delivers the proof.
func NewESRIdentity(chain ESRChain, scope Name, permission *PermissionLevel) *ESR {
	r := &ESR{Version: 2, Chain: chain, Kind: ESRKindIdentity, Identity: ESRIdentity{Scope: scope, Permission: permission}}
	if scope != 0 || chain.IsMultiChain() {
		r.Version = 3
	}
	return r
}

// Check reports what makes r impossible to encode, or that a wallet would
// refuse: an unknown version or kind, a payload that does not match the
// kind, a broadcast identity request, a scope in a version 2 request.
func (r *ESR) Check() error {
	if r.Version != 2 && r.Version != 3 {
		return valueErr("signing request", "", "version "+strconv.Itoa(int(r.Version))+" is not 2 or 3")
	}
	switch r.Kind {
	case ESRKindAction:
		if len(r.Actions) != 1 {
			return valueErr("signing request", "", "kind action needs exactly one action, have "+strconv.Itoa(len(r.Actions)))
		}
	case ESRKindActions:
	case ESRKindTransaction, ESRKindIdentity:
		if len(r.Actions) != 0 {
			return valueErr("signing request", "", "kind "+r.Kind.String()+" carries no Actions (they belong in the transaction)")
		}
	default:
		return valueErr("signing request", "", "unknown kind "+r.Kind.String())
	}
	if r.Kind == ESRKindIdentity {
		if r.Flags&ESRBroadcast != 0 {
			return valueErr("signing request", "", "an identity request cannot be broadcast")
		}
		if r.Version == 2 && r.Identity.Scope != 0 {
			return valueErr("signing request", "", "a version 2 identity request has no scope: use version 3")
		}
	}
	return nil
}

// IsIdentity reports whether r is an identity request.
func (r *ESR) IsIdentity() bool { return r.Kind == ESRKindIdentity }

// ShouldBroadcast reports whether the wallet is to broadcast the signed
// transaction: the broadcast flag, never for an identity request.
func (r *ESR) ShouldBroadcast() bool { return !r.IsIdentity() && r.Flags&ESRBroadcast != 0 }

// SetCallback sets the callback URL and whether the wallet calls it in the
// background.
func (r *ESR) SetCallback(url string, background bool) {
	r.Callback = url
	if background {
		r.Flags |= ESRBackground
	} else {
		r.Flags &^= ESRBackground
	}
}

// InfoValue returns the value of the first info pair with key.
func (r *ESR) InfoValue(key string) ([]byte, bool) {
	for _, p := range r.Info {
		if p.Key == key {
			return p.Value, true
		}
	}
	return nil, false
}

// SetInfo sets the value of key: the first pair with that key is replaced,
// or a pair is added at the end (as wharfkit's setRawInfoKey does).
func (r *ESR) SetInfo(key string, value []byte) {
	for i := range r.Info {
		if r.Info[i].Key == key {
			r.Info[i].Value = value
			return
		}
	}
	r.Info = append(r.Info, ESRInfo{Key: key, Value: value})
}

// AppendData appends the request data: the signing_request struct, without
// the header byte or the signature.
func (r *ESR) AppendData(b []byte) ([]byte, error) {
	if err := r.Check(); err != nil {
		return b, err
	}
	b = r.Chain.appendBinary(b)
	b = AppendVarUint32(b, uint32(r.Kind))
	var err error
	switch r.Kind {
	case ESRKindAction:
		b, err = r.Actions[0].AppendBinary(b)
	case ESRKindActions:
		if b, err = AppendLength(b, len(r.Actions)); err != nil {
			return b, err
		}
		for i := range r.Actions {
			if b, err = r.Actions[i].AppendBinary(b); err != nil {
				return b, AtIndex(err, i)
			}
		}
	case ESRKindTransaction:
		b, err = r.Transaction.AppendBinary(b)
	case ESRKindIdentity:
		b = r.Identity.appendBinary(b, r.Version)
	}
	if err != nil {
		return b, AtField(err, "req")
	}
	b = append(b, byte(r.Flags))
	if b, err = AppendString(b, r.Callback); err != nil {
		return b, AtField(err, "callback")
	}
	if b, err = AppendLength(b, len(r.Info)); err != nil {
		return b, err
	}
	for i, p := range r.Info {
		if b, err = AppendString(b, p.Key); err == nil {
			b, err = AppendBytes(b, p.Value)
		}
		if err != nil {
			return b, AtIndex(AtField(err, "info"), i)
		}
	}
	return b, nil
}

// Data returns the request data (AppendData).
func (r *ESR) Data() ([]byte, error) { return r.AppendData(nil) }

func (id ESRIdentity) appendBinary(b []byte, version uint8) []byte {
	if version >= 3 {
		b = AppendUint64(b, uint64(id.Scope))
	}
	if id.Permission == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	b, _ = id.Permission.AppendBinary(b) // a permission level cannot fail
	return b
}

func (id *ESRIdentity) decodeBinary(d *Decoder, version uint8) error {
	if version >= 3 {
		v, err := d.Uint64()
		if err != nil {
			return AtField(err, "scope")
		}
		id.Scope = Name(v)
	}
	present, err := d.OptionalFlag()
	if err != nil || !present {
		return AtField(err, "permission")
	}
	id.Permission = new(PermissionLevel)
	return AtField(id.Permission.DecodeBinary(d), "permission")
}

// decodeESRData decodes the request data of a version's request, and the
// request signature when bytes follow it.
func decodeESRData(version uint8, data []byte) (*ESR, error) {
	r := &ESR{Version: version}
	d := Decoder{data: data}
	if err := r.Chain.decodeBinary(&d); err != nil {
		return nil, AtField(err, "chain_id")
	}
	kind, err := d.VariantIndex("request variant", 4)
	if err != nil {
		return nil, AtField(err, "req")
	}
	r.Kind = ESRKind(kind)
	switch r.Kind {
	case ESRKindAction:
		r.Actions = make([]Action, 1)
		err = r.Actions[0].DecodeBinary(&d)
	case ESRKindActions:
		var n int
		if n, err = d.Length("actions", 8+8+1+1); err != nil {
			break
		}
		r.Actions = make([]Action, n)
		for i := range r.Actions {
			if err = r.Actions[i].DecodeBinary(&d); err != nil {
				err = AtIndex(err, i)
				break
			}
		}
	case ESRKindTransaction:
		err = r.Transaction.DecodeBinary(&d)
	case ESRKindIdentity:
		err = r.Identity.decodeBinary(&d, version)
	}
	if err != nil {
		return nil, AtField(err, "req")
	}
	flags, err := d.Uint8()
	if err != nil {
		return nil, AtField(err, "flags")
	}
	r.Flags = ESRFlags(flags)
	if r.Callback, err = d.String(); err != nil {
		return nil, AtField(err, "callback")
	}
	n, err := d.Length("info", 2)
	if err != nil {
		return nil, AtField(err, "info")
	}
	if n > 0 {
		r.Info = make([]ESRInfo, n)
	}
	for i := range r.Info {
		if r.Info[i].Key, err = d.String(); err == nil {
			r.Info[i].Value, err = d.Bytes()
		}
		if err != nil {
			return nil, AtIndex(AtField(err, "info"), i)
		}
	}
	if d.Remaining() > 0 {
		sig := new(ESRSignature)
		signer, err := d.Uint64()
		if err == nil {
			sig.Signer = Name(signer)
			err = sig.Signature.DecodeBinary(&d)
		}
		if err == nil {
			err = d.Finish()
		}
		if err != nil {
			return nil, AtField(err, "signature")
		}
		r.Signature = sig
	}
	if err := r.Check(); err != nil {
		return nil, err
	}
	return r, nil
}

// SignatureDigest is the digest a request signature signs: SHA-256 of the
// version byte, "request" and the request data.
func (r *ESR) SignatureDigest() (Checksum256, error) {
	b, err := r.AppendData(append([]byte{r.Version}, "request"...))
	if err != nil {
		return Checksum256{}, err
	}
	return sha256.Sum256(b), nil
}

// SignWith signs the request as signer (the account whose key is key), so
// that a wallet can show who asked.
func (r *ESR) SignWith(key PrivateKey, signer Name) error {
	digest, err := r.SignatureDigest()
	if err != nil {
		return err
	}
	sig, err := key.SignDigest(digest)
	if err != nil {
		return err
	}
	r.Signature = &ESRSignature{Signer: signer, Signature: sig}
	return nil
}

// RecoverRequestSigner returns the public key that made the request's
// signature; whether it belongs to Signature.Signer's account is for the
// chain to say (its permissions).
func (r *ESR) RecoverRequestSigner() (PublicKey, error) {
	if r.Signature == nil {
		return PublicKey{}, valueErr("signing request", "", "the request is not signed")
	}
	digest, err := r.SignatureDigest()
	if err != nil {
		return PublicKey{}, err
	}
	return r.Signature.Signature.RecoverPublicKey(digest)
}
