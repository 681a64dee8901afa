package antelope

import (
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// What a wallet sends back: the callback payload, and for an identity
// request the identity proof, as @wharfkit/signing-request builds them.

// ESRCallback is the callback a wallet makes after signing a request.
type ESRCallback struct {
	// URL is the request's callback URL with each {{key}} replaced by that
	// payload field ("" for an absent one).
	URL string
	// Background: POST Payload as JSON to URL in the background, rather
	// than open URL.
	Background bool
	Payload    ESRCallbackPayload // what the callback carries
}

// ESRCallbackPayload is the JSON object a wallet sends to a callback: every
// value a string.
type ESRCallbackPayload struct {
	// Signatures are the transaction's signatures: the first is "sig", the
	// next ones "sig0", "sig1"… (so the second signature is sig0, as
	// wharfkit numbers them).
	Signatures     []Signature
	TransactionID  Checksum256     // "tx"
	BlockNum       uint32          // "bn", the block the wallet broadcast in; 0: absent
	Signer         PermissionLevel // "sa" and "sp"
	RefBlockNum    uint16          // "rbn"
	RefBlockPrefix uint32          // "rid"
	Expiration     TimePointSec    // "ex"
	Request        string          // "req", the request as a URI
	ChainID        Checksum256     // "cid"
}

// Fields returns the payload as its JSON object's key/value pairs.
func (p *ESRCallbackPayload) Fields() map[string]string {
	m := map[string]string{
		"tx":  p.TransactionID.String(),
		"rbn": strconv.FormatUint(uint64(p.RefBlockNum), 10),
		"rid": strconv.FormatUint(uint64(p.RefBlockPrefix), 10),
		"ex":  p.Expiration.String(),
		"req": p.Request,
		"sa":  p.Signer.Actor.String(),
		"sp":  p.Signer.Permission.String(),
		"cid": p.ChainID.String(),
	}
	for i, s := range p.Signatures {
		if i == 0 {
			m["sig"] = s.String()
		} else {
			m["sig"+strconv.Itoa(i-1)] = s.String()
		}
	}
	if p.BlockNum != 0 {
		m["bn"] = strconv.FormatUint(uint64(p.BlockNum), 10)
	}
	return m
}

// MarshalJSON returns the payload's JSON object.
func (p *ESRCallbackPayload) MarshalJSON() ([]byte, error) { return json.Marshal(p.Fields()) }

// UnmarshalJSON reads a callback payload (what a background callback
// receives). A payload without "cid" (older wallets) leaves ChainID zero:
// the request's chain.
func (p *ESRCallbackPayload) UnmarshalJSON(data []byte) error {
	var m map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		return valueErr("callback payload", "", err.Error())
	}
	var v ESRCallbackPayload
	var err error
	field := func(key string, parse func(string) error) {
		if s, ok := m[key]; ok && err == nil {
			if e := parse(s); e != nil {
				err = AtField(e, key)
			}
		} else if !ok && err == nil && key != "bn" && key != "cid" {
			err = valueErr("callback payload", "", "no "+strconv.Quote(key))
		}
	}
	field("sig", func(s string) error { sig, e := ParseSignature(s); v.Signatures = append(v.Signatures, sig); return e })
	for i := 0; err == nil; i++ {
		s, ok := m["sig"+strconv.Itoa(i)]
		if !ok {
			break
		}
		sig, e := ParseSignature(s)
		if e != nil {
			return AtField(e, "sig"+strconv.Itoa(i))
		}
		v.Signatures = append(v.Signatures, sig)
	}
	field("tx", func(s string) (e error) { v.TransactionID, e = ParseChecksum256(s); return })
	field("bn", func(s string) error { n, e := strconv.ParseUint(s, 10, 32); v.BlockNum = uint32(n); return e })
	field("sa", func(s string) (e error) { v.Signer.Actor, e = ParseName(s); return })
	field("sp", func(s string) (e error) { v.Signer.Permission, e = ParseName(s); return })
	field("rbn", func(s string) error { n, e := strconv.ParseUint(s, 10, 16); v.RefBlockNum = uint16(n); return e })
	field("rid", func(s string) error { n, e := strconv.ParseUint(s, 10, 32); v.RefBlockPrefix = uint32(n); return e })
	field("ex", func(s string) (e error) { v.Expiration, e = ParseTimePointSec(s); return })
	field("req", func(s string) error { v.Request = s; return nil })
	field("cid", func(s string) (e error) { v.ChainID, e = ParseChecksum256(s); return })
	if err != nil {
		return err
	}
	*p = v
	return nil
}

var callbackKey = regexp.MustCompile(`{{([a-z0-9]+)}}`)

// Callback returns the callback for the transaction's signatures (at least
// one) and, when the wallet broadcast it, the block it went in (0: not
// broadcast); nil when the request has no callback.
func (t *ResolvedESR) Callback(sigs []Signature, blockNum uint32) (*ESRCallback, error) {
	if t.Request.Callback == "" {
		return nil, nil
	}
	if len(sigs) == 0 {
		return nil, valueErr("signing request", "", "a callback needs at least one signature")
	}
	id, err := t.Transaction.ID()
	if err != nil {
		return nil, err
	}
	uri, err := t.Request.URI()
	if err != nil {
		return nil, err
	}
	p := ESRCallbackPayload{
		Signatures: sigs, TransactionID: id, BlockNum: blockNum, Signer: t.Signer,
		RefBlockNum: t.Transaction.RefBlockNum, RefBlockPrefix: t.Transaction.RefBlockPrefix,
		Expiration: t.Transaction.Expiration, Request: uri, ChainID: t.ChainID,
	}
	fields := p.Fields()
	url := callbackKey.ReplaceAllStringFunc(t.Request.Callback, func(m string) string {
		return fields[m[2:len(m)-2]]
	})
	return &ESRCallback{URL: url, Background: t.Request.Flags&ESRBackground != 0, Payload: p}, nil
}

// ResolveCallback recreates the resolved request a callback payload
// answers: the request it carries, resolved for its signer with its TAPoS
// and chain. Its transaction's id must be the payload's, which proves the
// payload describes what was signed; check the signatures against the
// signer's keys with SigningDigest and Signature.RecoverPublicKey.
func ResolveCallback(p *ESRCallbackPayload, names ActionNameRewriter) (*ResolvedESR, error) {
	req, err := ParseESR(p.Request)
	if err != nil {
		return nil, err
	}
	ctx := ESRContext{RefBlockNum: p.RefBlockNum, RefBlockPrefix: p.RefBlockPrefix, Expiration: p.Expiration, ChainID: p.ChainID}
	res, err := req.Resolve(p.Signer, ctx, names)
	if err != nil {
		return nil, err
	}
	id, err := res.Transaction.ID()
	if err != nil {
		return nil, err
	}
	if id != p.TransactionID {
		return nil, valueErr("callback payload", p.TransactionID.String(), "the request resolves to transaction "+id.String())
	}
	return res, nil
}

// IdentityProof is a wallet's answer to a version 3 identity request: a
// signature, by the signer's key, of a transaction that cannot execute
// (its only action is identity on account "") and names the chain, the
// service's scope and an expiration. Its text form is the header value
// "EOSIO <base64>".
type IdentityProof struct {
	ChainID    Checksum256     // the chain the identity is on
	Scope      Name            // the service that asked (the request's scope)
	Expiration TimePointSec    // the proof is void from this time on
	Signer     PermissionLevel // the account and permission proven
	Signature  Signature       // the signature of Transaction on ChainID
}

// IdentityProof returns the proof made by sig, the signer's signature of an
// identity request's transaction.
func (t *ResolvedESR) IdentityProof(sig Signature) (*IdentityProof, error) {
	if !t.Request.IsIdentity() {
		return nil, valueErr("signing request", "", "not an identity request")
	}
	return &IdentityProof{ChainID: t.ChainID, Scope: t.Request.Identity.Scope, Expiration: t.Transaction.Expiration,
		Signer: t.Signer, Signature: sig}, nil
}

// IdentityProofFromCallback returns the proof in a callback payload answering
// a version 3 identity request.
func IdentityProofFromCallback(p *ESRCallbackPayload) (*IdentityProof, error) {
	req, err := ParseESR(p.Request)
	if err != nil {
		return nil, err
	}
	if req.Version < 3 || !req.IsIdentity() {
		return nil, valueErr("callback payload", "", "not an answer to a version 3 identity request")
	}
	if len(p.Signatures) == 0 {
		return nil, valueErr("callback payload", "", "no signature")
	}
	chain := p.ChainID
	if chain == (Checksum256{}) {
		if chain, err = req.Chain.ChainID(); err != nil {
			return nil, err
		}
	}
	return &IdentityProof{ChainID: chain, Scope: req.Identity.Scope, Expiration: p.Expiration, Signer: p.Signer, Signature: p.Signatures[0]}, nil
}

// Transaction returns the transaction the proof's signature signs.
func (p *IdentityProof) Transaction() Transaction {
	data := AppendUint64(nil, uint64(p.Scope))
	data = append(data, 1)
	data, _ = p.Signer.AppendBinary(data) // a permission level cannot fail
	return Transaction{
		TransactionHeader: TransactionHeader{Expiration: p.Expiration},
		Actions:           []Action{{Name: nameIdentity, Authorization: []PermissionLevel{p.Signer}, Data: data}},
	}
}

// SigningDigest returns the digest the proof's signature signs: the
// signing digest of Transaction on ChainID. A verifier that holds the
// account's keys (or a KMS that verifies) checks the signature against it.
func (p *IdentityProof) SigningDigest() (Checksum256, error) {
	tx := p.Transaction()
	return tx.SigningDigest(p.ChainID)
}

// RecoverKey returns the public key that made the proof's signature.
func (p *IdentityProof) RecoverKey() (PublicKey, error) {
	digest, err := p.SigningDigest()
	if err != nil {
		return PublicKey{}, err
	}
	return p.Signature.RecoverPublicKey(digest)
}

// Check returns the key that signed the proof when it has not expired at
// now. The caller then checks that the key can sign for Signer: it must be
// one of the keys of that account's permission on the chain (with enough
// weight), which only the chain knows.
func (p *IdentityProof) Check(now time.Time) (PublicKey, error) {
	if !now.Before(time.Unix(int64(p.Expiration), 0)) {
		return PublicKey{}, valueErr("identity proof", p.Expiration.String(), "expired")
	}
	return p.RecoverKey()
}

// AppendBinary appends the proof's binary form.
func (p *IdentityProof) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, p.ChainID[:]...)
	b = AppendUint64(b, uint64(p.Scope))
	b = AppendUint32(b, uint32(p.Expiration))
	b, _ = p.Signer.AppendBinary(b) // a permission level cannot fail
	return p.Signature.AppendBinary(b)
}

// DecodeBinary reads the proof's binary form.
func (p *IdentityProof) DecodeBinary(d *Decoder) error {
	var v IdentityProof
	raw, err := d.Raw("chain_id", 32)
	if err != nil {
		return err
	}
	v.ChainID = Checksum256(raw)
	scope, err := d.Uint64()
	if err != nil {
		return AtField(err, "scope")
	}
	v.Scope = Name(scope)
	exp, err := d.Uint32()
	if err != nil {
		return AtField(err, "expiration")
	}
	v.Expiration = TimePointSec(exp)
	if err := v.Signer.DecodeBinary(d); err != nil {
		return AtField(err, "signer")
	}
	if err := v.Signature.DecodeBinary(d); err != nil {
		return AtField(err, "signature")
	}
	*p = v
	return nil
}

// String returns the proof as the value of an Authorization header:
// "EOSIO " and the binary form in base64 (standard letters, no padding).
func (p *IdentityProof) String() string {
	b, err := p.AppendBinary(nil)
	if err != nil {
		return "invalid identity proof: " + err.Error()
	}
	return "EOSIO " + base64.RawStdEncoding.EncodeToString(b)
}

// ParseIdentityProof reads the "EOSIO <base64>" form (either base64
// alphabet, with or without padding).
func ParseIdentityProof(s string) (*IdentityProof, error) {
	scheme, text, ok := strings.Cut(s, " ")
	if !ok || scheme != "EOSIO" || strings.Contains(text, " ") {
		return nil, valueErr("identity proof", s, `expected "EOSIO <base64>"`)
	}
	text = strings.NewReplacer("-", "+", "_", "/").Replace(strings.TrimRight(text, "="))
	b, err := base64.RawStdEncoding.DecodeString(text)
	if err != nil {
		return nil, valueErr("identity proof", s, "not base64: "+err.Error())
	}
	p := new(IdentityProof)
	d := Decoder{data: b}
	if err := p.DecodeBinary(&d); err != nil {
		return nil, err
	}
	if err := d.Finish(); err != nil {
		return nil, err
	}
	return p, nil
}
