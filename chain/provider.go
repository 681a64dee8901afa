package chain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
)

// ResourceProvider asks a resource provider to pay a transaction's CPU and
// NET: Greymass Fuel (URL "https://eos.greymass.com", and its Jungle 4,
// Telos and WAX nodes) or any service speaking the protocol of wharfkit's
// resource provider plugin. The transaction goes as a signing request
// (ESR, with TAPoS), with the signer, to
// POST {URL}/v1/resource_provider/request_transaction; the provider answers
// 200 (free) or 402 (for a fee) with the transaction it will pay for — its
// noop first — and its signatures.
//
// What comes back is checked before anything is signed: the header,
// context-free actions and extensions unchanged; the signer's actions all
// there, unchanged, in order; the provider's action first, so that it is
// billed; and nothing added but the known noop contract's noop, first and
// not authorized by the signer (NoopContract), a fee transfer from the
// signer to the provider (eosio.token or core.vaulta; FeeAccount), or a
// RAM purchase for the signer (eosio or core.vaulta buyram, buyrambytes,
// buyramself). Only a fee-required answer (402) may cost the signer
// anything: a free answer (200) with a fee transfer, or RAM the signer
// pays for, is tampering. The fee — the transfers plus the RAM the signer
// pays for, buyrambytes priced from eosio's rammarket as the system
// contract prices it, after every RAM purchase before it in the
// transaction has moved the market — must be within MaxFee. An answer that fails these checks is an
// error matching ErrProviderTampered, whatever OnRefusal says: nothing is
// signed. A refusal (an answer other than 200 or 402, no answer, an answer
// that cannot be read, a fee over MaxFee) follows OnRefusal.
type ResourceProvider struct {
	// URL is the provider's address; the protocol's path is appended.
	URL string
	// MaxFee is the most the signer pays for one transaction, in the
	// chain's core token ("0.0100 EOS"). Zero: free only.
	MaxFee antelope.Asset
	// OnRefusal is what happens when the provider does not pay:
	// FailWhenRefused (the default: an error, nothing sent) or
	// SendUnchanged (billed to the signer; Payment.Declined says so).
	OnRefusal RefusalPolicy
	// Transport is the HTTP core for the provider; nil: the client's.
	Transport *httpcore.Transport
	// NoopContract is the contract of the provider's noop action, the one
	// action a provider may put first (and nowhere else). Zero: KnownNoop
	// for the chain, or greymassnoop (Fuel's) on a chain KnownNoop does
	// not know. Any other contract's "noop" is refused: it could wrap the
	// signer's actions (a sandwich, a conditional abort).
	NoopContract antelope.Name
	// FeeAccount is the account a fee may be paid to. Zero: the account
	// that pays for the transaction (its noop's authorizer). A fee is
	// accepted only in a fee-required (402) answer, and only to it.
	FeeAccount antelope.Name
}

// noopContract is the contract whose noop a provider may put first.
func (p *ResourceProvider) noopContract(chainID antelope.Checksum256) antelope.Name {
	if p.NoopContract != 0 {
		return p.NoopContract
	}
	if contract, _, ok := KnownNoop(chainID); ok {
		return contract
	}
	return nameGreymassNoop
}

// RefusalPolicy is what TransactWith does when a resource provider does not
// pay.
type RefusalPolicy int

const (
	// FailWhenRefused (the default) returns the *ProviderError; nothing is
	// signed or sent. A payer that does not pay is never an err == nil.
	FailWhenRefused RefusalPolicy = iota
	// SendUnchanged signs and sends the transaction as it was, billed to
	// the signer, as wharfkit does: err is nil when it executes, and only
	// the result's Payment.Declined says the provider did not pay — check
	// it. Choose it where the signer can pay and a refusal must not stop
	// the user.
	SendUnchanged
)

// Errors of a resource provider, matched with errors.Is against a
// *ProviderError.
var (
	// ErrProviderRefused: the provider did not pay — it refused, could not
	// be reached, answered what cannot be read, or asked too much
	// (ErrFeeTooHigh).
	ErrProviderRefused = errors.New("the resource provider did not pay")
	// ErrFeeTooHigh: the provider's fee is more than MaxFee (or not in its
	// token); it also matches ErrProviderRefused.
	ErrFeeTooHigh = errors.New("the resource provider's fee is more than the maximum")
	// ErrProviderTampered: the provider answered a transaction that does
	// more than the protocol allows (the signer's actions changed, an
	// action added that is no noop, fee or RAM purchase for the signer…).
	// Nothing was signed.
	ErrProviderTampered = errors.New("the resource provider changed the transaction beyond what the protocol allows")
)

// ProviderError is a resource provider that did not pay, or whose answer
// was refused.
type ProviderError struct {
	URL    string         // the provider's endpoint (no query or user info)
	Status int            // its HTTP status; 0 when it did not answer
	Kind   error          // ErrProviderRefused, ErrFeeTooHigh or ErrProviderTampered
	Reason string         // what happened, in words
	Fee    antelope.Asset // the fee asked, for ErrFeeTooHigh
	Err    error          // the underlying failure, if any
}

// Error says what the provider did.
func (e *ProviderError) Error() string {
	msg := fmt.Sprintf("resource provider %s: %s", e.URL, e.Reason)
	if e.Status != 0 {
		msg += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Is matches Kind; ErrFeeTooHigh also matches ErrProviderRefused.
func (e *ProviderError) Is(target error) bool {
	return target == e.Kind || target == ErrProviderRefused && e.Kind == ErrFeeTooHigh
}

// Unwrap returns the underlying failure.
func (e *ProviderError) Unwrap() error { return e.Err }

// providerPath is the protocol's endpoint.
const providerPath = "/v1/resource_provider/request_transaction"

// Pay asks the provider to pay for req's transaction and checks its
// answer; see ResourceProvider.
func (p *ResourceProvider) Pay(ctx context.Context, c *Client, req *PayRequest) (*Payment, error) {
	pay, err := p.request(ctx, c, req)
	var pe *ProviderError
	if err != nil && errors.As(err, &pe) && pe.Kind != ErrProviderTampered && p.OnRefusal == SendUnchanged {
		return &Payment{Declined: err}, nil
	}
	return pay, err
}

// providerAnswer is the protocol's answer: {"code", "message", "data"}.
type providerAnswer struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    *struct {
		// Request is the transaction to sign: ["transaction", {…}] (or
		// a signing request of kind transaction).
		Request    json.RawMessage `json:"request"`
		Signatures []string        `json:"signatures"`
	} `json:"data"`
}

func (p *ResourceProvider) request(ctx context.Context, c *Client, req *PayRequest) (*Payment, error) {
	endpoint, err := providerURL(p.URL)
	if err != nil {
		return nil, err
	}
	where := httpcore.RedactURL(endpoint)
	refused := func(status int, reason string, err error) error {
		return &ProviderError{URL: where, Status: status, Kind: ErrProviderRefused, Reason: reason, Err: err}
	}
	esr := antelope.NewESRTransaction(antelope.ESRChainFor(req.ChainID), *req.Transaction)
	uri, err := esr.URI()
	if err != nil {
		return nil, fmt.Errorf("resource provider: the signing request: %w", err)
	}
	body, err := json.Marshal(map[string]any{"request": uri, "signer": req.Signer})
	if err != nil {
		return nil, err
	}
	t := p.Transport
	if t == nil {
		t = c.transport
	}
	status := http.StatusOK
	answer, err := t.Do(ctx, "resource provider", func() (*http.Request, error) {
		r, err := http.NewRequest(http.MethodPost, endpoint.String(), bytes.NewReader(body))
		if err == nil {
			r.Header.Set("Content-Type", "application/json")
		}
		return r, err
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("resource provider %s: %w", where, context.Cause(ctx))
		}
		var he *httpcore.HTTPError
		if !errors.As(err, &he) || he.Status != http.StatusPaymentRequired {
			if he != nil && he.Status != 0 {
				return nil, refused(he.Status, "refused to pay", errors.New(he.Message))
			}
			return nil, refused(0, "no answer", err)
		}
		status, answer = he.Status, he.Body
	}
	var a providerAnswer
	if err := json.Unmarshal(answer, &a); err != nil || a.Data == nil {
		if err == nil {
			err = errors.New("no data")
		}
		return nil, refused(status, "unreadable answer", err)
	}
	got, err := answerTransaction(a.Data.Request)
	if err != nil {
		return nil, refused(status, "unreadable transaction", err)
	}
	sigs, err := answerSignatures(a.Data.Signatures, req.ChainID, got)
	if err != nil {
		return nil, refused(status, "unusable signatures", err)
	}
	pay := &Payment{Payer: firstAuthorization(got), Transaction: got, Signatures: sigs}
	if pay.Fee, err = p.check(ctx, c, req, got, status == http.StatusPaymentRequired); err != nil {
		var pe *ProviderError
		if errors.As(err, &pe) {
			pe.URL, pe.Status = where, status
		}
		return nil, err
	}
	return pay, nil
}

// providerURL is the protocol's endpoint at a provider's URL (its query,
// which may carry an API key, kept and kept out of errors).
func providerURL(base string) (*url.URL, error) {
	u, err := httpcore.JoinURL(base, providerPath)
	if err != nil {
		return nil, fmt.Errorf("resource provider: %w", err)
	}
	httpcore.AddURLSecrets(base)
	return u, nil
}

// answerTransaction reads the answer's request: the variant
// ["transaction", {…}] (Fuel's) or a signing request of kind transaction.
func answerTransaction(raw json.RawMessage) (*antelope.Transaction, error) {
	var uri string
	if json.Unmarshal(raw, &uri) == nil {
		esr, err := antelope.ParseESR(uri)
		if err != nil {
			return nil, err
		}
		if esr.Kind != antelope.ESRKindTransaction {
			return nil, fmt.Errorf("a signing request of kind %s, not transaction", esr.Kind)
		}
		return &esr.Transaction, nil
	}
	var pair []json.RawMessage
	if err := json.Unmarshal(raw, &pair); err != nil {
		return nil, err
	}
	var kind string
	if len(pair) != 2 || json.Unmarshal(pair[0], &kind) != nil || kind != "transaction" {
		return nil, errors.New(`not ["transaction", {…}]`)
	}
	var tx antelope.Transaction
	if err := tx.UnmarshalJSON(pair[1]); err != nil {
		return nil, err
	}
	return &tx, nil
}

// answerSignatures parses the provider's signatures, each of which must
// recover a key from the transaction's signing digest.
func answerSignatures(texts []string, chainID antelope.Checksum256, tx *antelope.Transaction) ([]antelope.Signature, error) {
	if len(texts) == 0 {
		return nil, errors.New("no signature")
	}
	digest, err := tx.SigningDigest(chainID)
	if err != nil {
		return nil, err
	}
	sigs := make([]antelope.Signature, len(texts))
	for i, s := range texts {
		if sigs[i], err = antelope.ParseSignature(s); err != nil {
			return nil, err
		}
		if _, err := sigs[i].RecoverPublicKey(digest); err != nil {
			return nil, fmt.Errorf("signature %s: %w", s, err)
		}
	}
	return sigs, nil
}
