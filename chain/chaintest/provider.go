package chaintest

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest/internal/exec"
)

// providerPath is where a resource provider answers, beside the chain API,
// as Greymass serves Fuel.
const providerPath = "/v1/resource_provider/request_transaction"

// noopABI is the ABI of a contract with one action, noop, that does
// nothing: greymassnoop's and boost.wax's.
const noopABI = `{"version":"eosio::abi/1.1","types":[],"structs":[{"name":"noop","base":"","fields":[]}],` +
	`"actions":[{"name":"noop","type":"noop","ricardian_contract":""}],"tables":[],"ricardian_clauses":[],"variants":[]}`

var nameNoop = antelope.MustName("noop")

// DeployNoop deploys at account (created if need be) a contract whose one
// action, noop, does nothing — what greymassnoop is on EOS and boost.wax on
// WAX: the action a payer prepends, authorized by itself, to be the first
// authorizer and pay the transaction's CPU and NET.
func (c *Chain) DeployNoop(account antelope.Name) error {
	return c.SetContract(account, []byte(noopABI), func(*Context) error { return nil })
}

// ResourceProvider is a fake resource provider, as Greymass Fuel and
// wharfkit's resource provider plugin speak the protocol, served by the
// chain at /v1/resource_provider/request_transaction (chain.ResourceProvider
// is its client; give it the chain's URL). Asked to cosign a transaction —
// a signing request and the signer — it prepends its noop
// (greymassnoop::noop, authorized by its payer's "cosign" permission),
// signs, and answers the changed transaction with its signature: for free
// (HTTP 200), for a fee (402: a transfer from the signer to the payer,
// placed after the noop as Fuel does, or a RAM purchase for the signer),
// or refuses (400). Tamper makes it change the signer's actions, as a
// hostile provider would, for tests of the client's checks.
//
// It checks the request as Fuel does: a transaction with TAPoS for this
// chain, whose first authorizer is the signer. It is safe for concurrent
// use.
type ResourceProvider struct {
	chain *Chain
	payer antelope.PermissionLevel
	key   antelope.PrivateKey
	noop  antelope.Name

	mu       sync.Mutex
	mode     providerMode
	fee      antelope.ExtendedAsset
	ramBytes uint32
	tamper   func([]antelope.Action) []antelope.Action
	requests int
}

type providerMode int

const (
	providerFree providerMode = iota
	providerFee
	providerRAM
	providerRefuse
	providerTamper
)

// NewResourceProvider creates the provider's accounts — payer, with a new
// key for its permission "cosign", and the noop contract greymassnoop
// (DeployNoop) — and serves the provider on the chain, replacing any other.
// It cosigns for free until told otherwise. The payer's CPU and NET are
// unlimited (SetResources can change that).
func (c *Chain) NewResourceProvider(payer antelope.Name) (*ResourceProvider, error) {
	key, err := antelope.GeneratePrivateKey(nil)
	if err != nil {
		return nil, fmt.Errorf("chaintest: generating a key: %w", err)
	}
	pub, _ := key.PublicKey()
	c.mu.Lock()
	exists := c.engine.Account(payer) != nil
	c.mu.Unlock()
	if !exists {
		c.NewAccount(payer)
	}
	cosign := antelope.PermissionLevel{Actor: payer, Permission: antelope.MustName("cosign")}
	if err := c.SetPermission(payer, cosign.Permission, exec.NameActive, chain.Authority{Threshold: 1, Keys: []chain.KeyWeight{{Key: pub, Weight: 1}}}); err != nil {
		return nil, err
	}
	noop := antelope.MustName("greymassnoop")
	if err := c.DeployNoop(noop); err != nil {
		return nil, err
	}
	// As Greymass Fuel's: the cosign key can authorize the noop and
	// nothing else.
	if err := c.LinkPermission(payer, noop, antelope.MustName("noop"), cosign.Permission); err != nil {
		return nil, err
	}
	p := &ResourceProvider{chain: c, payer: cosign, key: key, noop: noop}
	c.mu.Lock()
	c.provider = p
	c.mu.Unlock()
	return p, nil
}

// Payer is the permission that authorizes the provider's noop and pays:
// payer@cosign.
func (p *ResourceProvider) Payer() antelope.PermissionLevel { return p.payer }

// Free makes the provider cosign for free (HTTP 200), its default.
func (p *ResourceProvider) Free() { p.set(providerFree, func() {}) }

// ChargeFee makes the provider cosign for a fee (HTTP 402): a transfer of
// fee.Quantity on the token contract fee.Contract from the signer to the
// payer, authorized by the signer, after the noop.
func (p *ResourceProvider) ChargeFee(fee antelope.ExtendedAsset) {
	p.set(providerFee, func() { p.fee = fee })
}

// ChargeRAM makes the provider cosign only with a RAM purchase (HTTP 402):
// eosio::buyrambytes of bytes for the signer, paid and authorized by the
// signer, after the noop.
func (p *ResourceProvider) ChargeRAM(bytes uint32) {
	p.set(providerRAM, func() { p.ramBytes = bytes })
}

// Refuse makes the provider refuse every request (HTTP 400).
func (p *ResourceProvider) Refuse() { p.set(providerRefuse, func() {}) }

// Tamper makes the provider cosign a transaction whose actions after its
// noop are f of the signer's (HTTP 200): what a hostile provider does, and
// what a client must refuse before it signs. A nil f redirects the first
// eosio.token transfer to the payer (or, if there is none, changes the
// first action's last data byte).
func (p *ResourceProvider) Tamper(f func(actions []antelope.Action) []antelope.Action) {
	if f == nil {
		f = p.redirectTransfer
	}
	p.set(providerTamper, func() { p.tamper = f })
}

func (p *ResourceProvider) set(m providerMode, f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode = m
	f()
}

// Requests counts the requests the provider answered.
func (p *ResourceProvider) Requests() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests
}

// providerAnswer is the body of an answer: {"code","message","data"}.
type providerAnswer struct {
	Code    int           `json:"code"`
	Message string        `json:"message"`
	Data    *providerData `json:"data,omitempty"`
}

type providerData struct {
	Request    [2]any               `json:"request"` // ["transaction", {…}]
	Signatures []antelope.Signature `json:"signatures"`
	Version    any                  `json:"version"`
	Fee        *antelope.Asset      `json:"fee,omitempty"`
	Costs      map[string]string    `json:"costs,omitempty"`
}

// serveProvider answers a request to the chain's resource provider.
func (c *Chain) serveProvider(body []byte) (int, any) {
	c.mu.Lock()
	p := c.provider
	c.mu.Unlock()
	if p == nil {
		return nodeosError(404, "Not Found", 0, "exception", "unspecified", "Unknown Endpoint")
	}
	return p.answer(body)
}

func (p *ResourceProvider) answer(body []byte) (int, any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests++
	refuse := func(msg string) (int, any) { return 400, providerAnswer{Code: 400, Message: msg} }
	var req struct {
		Request string                   `json:"request"`
		Signer  antelope.PermissionLevel `json:"signer"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return refuse("Invalid request: " + err.Error())
	}
	esr, err := antelope.ParseESR(req.Request)
	if err != nil {
		return refuse("Invalid signing request: " + err.Error())
	}
	if esr.Kind != antelope.ESRKindTransaction || esr.RequiresTapos() {
		return refuse("The signing request must be a transaction with TAPoS.")
	}
	if id, err := esr.Chain.ChainID(); err != nil || id != p.chain.engine.ChainID {
		return refuse("The signing request is not for this chain.")
	}
	tx := esr.Transaction
	if exec.FirstAuthorizer(&tx) != req.Signer.Actor || req.Signer.Actor == 0 {
		return refuse("The first authorizer of the transaction must be the signer.")
	}
	if p.mode == providerRefuse {
		return refuse("This transaction is not eligible for resource provider assistance.")
	}
	noop := antelope.Action{Account: p.noop, Name: nameNoop, Authorization: []antelope.PermissionLevel{p.payer}, Data: []byte{}}
	out := tx
	out.Actions = []antelope.Action{noop}
	status, data := 200, &providerData{}
	switch p.mode {
	case providerFee:
		fee, err := transferAction(p.fee.Contract, req.Signer, p.payer.Actor, p.fee.Quantity, "Fuel Transaction Fee")
		if err != nil {
			return refuse(err.Error())
		}
		out.Actions = append(out.Actions, fee)
		status, data.Fee = 402, &p.fee.Quantity
		zero := antelope.Asset{Symbol: p.fee.Quantity.Symbol}
		data.Costs = map[string]string{"cpu": p.fee.Quantity.String(), "net": zero.String(), "ram": zero.String()}
	case providerRAM:
		buy := antelope.AppendUint64(antelope.AppendUint64(nil, uint64(req.Signer.Actor)), uint64(req.Signer.Actor))
		buy = antelope.AppendUint32(buy, p.ramBytes)
		out.Actions = append(out.Actions, antelope.Action{Account: exec.NameEosio, Name: antelope.MustName("buyrambytes"),
			Authorization: []antelope.PermissionLevel{req.Signer}, Data: buy})
		status = 402
	}
	if p.mode == providerTamper {
		out.Actions = append(out.Actions, p.tamper(cloneActions(tx.Actions))...)
	} else {
		out.Actions = append(out.Actions, tx.Actions...)
	}
	digest, err := out.SigningDigest(p.chain.engine.ChainID)
	if err != nil {
		return refuse("Invalid transaction: " + err.Error())
	}
	sig, err := p.key.SignDigest(digest)
	if err != nil {
		return 500, providerAnswer{Code: 500, Message: err.Error()}
	}
	txJSON, err := out.MarshalJSON()
	if err != nil {
		return refuse("Invalid transaction: " + err.Error())
	}
	data.Request = [2]any{"transaction", json.RawMessage(txJSON)}
	data.Signatures = []antelope.Signature{sig}
	msg := "Transaction has been signed by the resource provider."
	if status == 402 {
		msg = "Fee required to complete transaction."
	}
	return status, providerAnswer{Code: status, Message: msg, Data: data}
}

// transferAction is contract::transfer {from, to, quantity, memo},
// authorized by from.
func transferAction(contract antelope.Name, from antelope.PermissionLevel, to antelope.Name, quantity antelope.Asset, memo string) (antelope.Action, error) {
	data := antelope.AppendUint64(antelope.AppendUint64(nil, uint64(from.Actor)), uint64(to))
	data, err := quantity.AppendBinary(data)
	if err != nil {
		return antelope.Action{}, err
	}
	if data, err = antelope.AppendString(data, memo); err != nil {
		return antelope.Action{}, err
	}
	return antelope.Action{Account: contract, Name: antelope.MustName("transfer"), Authorization: []antelope.PermissionLevel{from}, Data: data}, nil
}

func cloneActions(actions []antelope.Action) []antelope.Action {
	out := make([]antelope.Action, len(actions))
	for i, a := range actions {
		a.Authorization = append([]antelope.PermissionLevel(nil), a.Authorization...)
		a.Data = append([]byte(nil), a.Data...)
		out[i] = a
	}
	return out
}

// redirectTransfer is Tamper's default: the first eosio.token transfer now
// pays the provider's payer.
func (p *ResourceProvider) redirectTransfer(actions []antelope.Action) []antelope.Action {
	for i, a := range actions {
		if a.Account == antelope.MustName("eosio.token") && a.Name == antelope.MustName("transfer") && len(a.Data) >= 16 {
			copy(actions[i].Data[8:16], antelope.AppendUint64(nil, uint64(p.payer.Actor)))
			return actions
		}
	}
	if len(actions) > 0 && len(actions[0].Data) > 0 {
		actions[0].Data[len(actions[0].Data)-1] ^= 1
	}
	return actions
}
