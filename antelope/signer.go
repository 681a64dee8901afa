package antelope

import (
	"context"
	"slices"
)

// Signer signs transactions. A PrivateKey is one; so is PrivateKeys. A key
// management service, an HSM or a wallet implements it to sign without the
// secret ever entering the program: PublicKeys may call out, and Sign is
// given the whole transaction (to show or check) as well as its digest.
type Signer interface {
	// PublicKeys lists the keys the signer can sign with. The chain client
	// asks the node which of them a transaction requires.
	PublicKeys(ctx context.Context) ([]PublicKey, error)
	// Sign returns one signature of req.Digest for each key of req.Keys the
	// signer holds (each key it holds when req.Keys is empty).
	Sign(ctx context.Context, req *SigningRequest) ([]Signature, error)
}

// SigningRequest is what a Signer is asked to sign.
type SigningRequest struct {
	ChainID         Checksum256  // the chain the transaction is for
	Transaction     *Transaction // what Digest is the digest of
	ContextFreeData [][]byte     // the context-free data, part of the digest
	// Digest is the signing digest of Transaction on ChainID with
	// ContextFreeData. CheckDigest recomputes it; a signer that does not trust
	// its caller should.
	Digest Checksum256
	// Keys are the keys whose signatures are wanted. Empty: every key.
	Keys []PublicKey
}

// NewSigningRequest computes the digest of trx (with its context-free data,
// if any) on chainID.
func NewSigningRequest(chainID Checksum256, trx *Transaction, cfd [][]byte, keys []PublicKey) (*SigningRequest, error) {
	req := &SigningRequest{ChainID: chainID, Transaction: trx, ContextFreeData: cfd, Keys: keys}
	var err error
	req.Digest, err = trx.signingDigest(chainID, cfd)
	return req, err
}

// CheckDigest recomputes Digest from ChainID, Transaction and
// ContextFreeData, and fails when they disagree: a signature over something
// other than the transaction shown.
func (r *SigningRequest) CheckDigest() error {
	if r.Transaction == nil {
		return valueErr("signing request", "", "no transaction to check the digest against")
	}
	d, err := r.Transaction.signingDigest(r.ChainID, r.ContextFreeData)
	if err != nil {
		return err
	}
	if d != r.Digest {
		return valueErr("signing request", "", "the digest is not the transaction's signing digest")
	}
	return nil
}

// wants reports whether the request asks for key's signature.
func (r *SigningRequest) wants(key PublicKey) bool {
	return len(r.Keys) == 0 || slices.ContainsFunc(r.Keys, key.Equal)
}

// PublicKeys returns the key's public key: a PrivateKey is a Signer.
func (k PrivateKey) PublicKeys(context.Context) ([]PublicKey, error) {
	pub, err := k.PublicKey()
	if err != nil {
		return nil, err
	}
	return []PublicKey{pub}, nil
}

// Sign signs req.Digest when req wants this key. When req carries the
// transaction, the digest is checked against it first.
func (k PrivateKey) Sign(_ context.Context, req *SigningRequest) ([]Signature, error) {
	pub, err := k.PublicKey()
	if err != nil {
		return nil, err
	}
	if !req.wants(pub) {
		return nil, nil
	}
	if req.Transaction != nil {
		if err := req.CheckDigest(); err != nil {
			return nil, err
		}
	}
	sig, err := k.SignDigest(req.Digest)
	if err != nil {
		return nil, err
	}
	return []Signature{sig}, nil
}

// PrivateKeys is a Signer holding several keys: a transaction that needs
// more than one signature, or one key per permission. A key may be listed
// more than once (two accounts whose permissions share a key): it is
// listed and signs once, as nodeos refuses a second signature by the same
// key (tx_duplicate_sig).
type PrivateKeys []PrivateKey

// PublicKeys returns the public key of each key, in order, each once.
func (ks PrivateKeys) PublicKeys(ctx context.Context) ([]PublicKey, error) {
	out := make([]PublicKey, 0, len(ks))
	for _, k := range ks {
		p, err := k.PublicKeys(ctx)
		if err != nil {
			return nil, err
		}
		out = AppendDistinctKeys(out, p...)
	}
	return out, nil
}

// Sign signs with each key that req wants, in order, once per public key.
func (ks PrivateKeys) Sign(ctx context.Context, req *SigningRequest) ([]Signature, error) {
	var out []Signature
	var signed []PublicKey
	for _, k := range ks {
		pub, err := k.PublicKey()
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(signed, pub.Equal) {
			continue
		}
		signed = append(signed, pub)
		s, err := k.Sign(ctx, req)
		if err != nil {
			return nil, err
		}
		out = append(out, s...)
	}
	return out, nil
}

// AppendDistinctKeys appends to list each of keys it does not hold yet
// (compared with Equal), in order.
func AppendDistinctKeys(list []PublicKey, keys ...PublicKey) []PublicKey {
	for _, k := range keys {
		if !slices.ContainsFunc(list, k.Equal) {
			list = append(list, k)
		}
	}
	return list
}
