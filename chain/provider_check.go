package chain

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/antelopego/abigen/antelope"
)

// The checks a client makes on a resource provider's answer before it
// signs: what may have been added to the signer's transaction, and what
// it costs the signer.

var (
	nameCoreVaulta   = antelope.MustName("core.vaulta")
	nameEosioToken   = antelope.MustName("eosio.token")
	nameTransfer     = antelope.MustName("transfer")
	nameNoop         = antelope.MustName("noop")
	nameBuyRAM       = antelope.MustName("buyram")
	nameBuyRAMBytes  = antelope.MustName("buyrambytes")
	nameBuyRAMSelf   = antelope.MustName("buyramself")
	nameRAMMarket    = antelope.MustName("rammarket")
	nameGreymassNoop = antelope.MustName("greymassnoop")
)

// check compares the provider's transaction got with the signer's and
// returns the fee the signer pays; a *ProviderError says what is wrong.
// feeRequired says the provider answered 402: only then may the signer
// pay anything.
func (p *ResourceProvider) check(ctx context.Context, c *Client, req *PayRequest, got *antelope.Transaction, feeRequired bool) (antelope.Asset, error) {
	orig, signer := req.Transaction, req.Signer
	tampered := func(format string, args ...any) error {
		return &ProviderError{Kind: ErrProviderTampered, Reason: fmt.Sprintf(format, args...)}
	}
	if got.TransactionHeader != orig.TransactionHeader {
		return antelope.Asset{}, tampered("it changed the transaction's header (expiration, TAPoS, limits or delay)")
	}
	if !slices.EqualFunc(got.ContextFreeActions, orig.ContextFreeActions, sameAction) ||
		!slices.EqualFunc(got.Extensions, orig.Extensions, func(a, b antelope.Extension) bool { return a.Type == b.Type && bytes.Equal(a.Data, b.Data) }) {
		return antelope.Asset{}, tampered("it changed the transaction's context-free actions or extensions")
	}
	// The signer's actions, in order, unchanged; anything else was added.
	var added []antelope.Action
	var addedAt []int
	j := 0
	for i, a := range got.Actions {
		if j < len(orig.Actions) && sameAction(a, orig.Actions[j]) {
			j++
			continue
		}
		added, addedAt = append(added, a), append(addedAt, i)
	}
	if j < len(orig.Actions) {
		return antelope.Asset{}, tampered("the signer's action %d (%s::%s) is not in its transaction, unchanged and in order",
			j, orig.Actions[j].Account, orig.Actions[j].Name)
	}
	if first := firstAuthorization(got); first.Actor == signer.Actor || len(added) == 0 {
		return antelope.Asset{}, tampered("its transaction is still billed to the signer %s: the provider would not pay", signer.Actor)
	}
	chk := checkAdded{p: p, c: c, signer: signer.Actor, payer: firstAuthorization(got).Actor,
		noop: p.noopContract(req.ChainID), feeRequired: feeRequired}
	var fees []antelope.Asset
	for k, a := range added {
		fee, err := chk.cost(ctx, a, addedAt[k], got.Actions[:addedAt[k]])
		if err != nil {
			return antelope.Asset{}, err
		}
		if fee != nil {
			fees = append(fees, *fee)
		}
	}
	return p.totalFee(fees)
}

// sameAction reports two actions equal in every byte.
func sameAction(a, b antelope.Action) bool {
	return a.Account == b.Account && a.Name == b.Name && slices.Equal(a.Authorization, b.Authorization) && bytes.Equal(a.Data, b.Data)
}

// authorizedBy reports whether actor authorizes a.
func authorizedBy(a antelope.Action, actor antelope.Name) bool {
	return slices.ContainsFunc(a.Authorization, func(l antelope.PermissionLevel) bool { return l.Actor == actor })
}

// onlyBy reports whether a is authorized, by actor alone.
func onlyBy(a antelope.Action, actor antelope.Name) bool {
	return len(a.Authorization) > 0 && !slices.ContainsFunc(a.Authorization, func(l antelope.PermissionLevel) bool { return l.Actor != actor })
}

// checkAdded judges the actions a provider added to the signer's
// transaction.
type checkAdded struct {
	p             *ResourceProvider
	c             *Client
	signer, payer antelope.Name // the signer; the account billed (the noop's authorizer)
	noop          antelope.Name // the noop contract
	feeRequired   bool          // a 402 answer: the signer may pay
}

// cost judges a, which the provider added at position at, after before
// (the transaction's actions before it): the known noop first (nil cost),
// a fee transfer to the provider or a RAM purchase for the signer (their
// cost to the signer, nil when someone else pays), or a tampering error.
func (j *checkAdded) cost(ctx context.Context, a antelope.Action, at int, before []antelope.Action) (*antelope.Asset, error) {
	signer := j.signer
	tampered := func(format string, args ...any) error {
		return &ProviderError{Kind: ErrProviderTampered, Reason: fmt.Sprintf("it added %s::%s: ", a.Account, a.Name) + fmt.Sprintf(format, args...)}
	}
	free := func() error {
		return tampered("an answer that says the transaction is free (HTTP 200) may not charge the signer: a fee comes only with HTTP 402")
	}
	switch {
	case a.Name == nameNoop:
		if a.Account != j.noop || at != 0 {
			return nil, tampered("the only noop allowed is %s::noop, first (another contract's, or one elsewhere, could wrap the signer's actions)", j.noop)
		}
		if len(a.Data) != 0 || len(a.Authorization) == 0 || authorizedBy(a, signer) {
			return nil, tampered("a noop must have no data and be authorized by the provider, not the signer")
		}
		return nil, nil
	case a.Name == nameTransfer && (a.Account == nameEosioToken || a.Account == nameCoreVaulta):
		d := antelope.NewDecoder(a.Data)
		from, _ := d.Uint64()
		to, _ := d.Uint64()
		var qty antelope.Asset
		err := qty.DecodeBinary(d)
		if err == nil {
			_, err = d.String()
		}
		if err != nil || d.Finish() != nil {
			return nil, tampered("its data is not a transfer {from, to, quantity, memo}")
		}
		if antelope.Name(from) != signer || !onlyBy(a, signer) || qty.Amount <= 0 {
			return nil, tampered("a fee must be a positive transfer from the signer %s, authorized by it alone", signer)
		}
		if !j.feeRequired {
			return nil, free()
		}
		feeAccount := j.p.FeeAccount
		if feeAccount == 0 {
			feeAccount = j.payer
		}
		if antelope.Name(to) != feeAccount {
			return nil, tampered("a fee must be paid to the provider's account %s (ResourceProvider.FeeAccount), not %s", feeAccount, antelope.Name(to))
		}
		return &qty, nil
	case (a.Account == nameEosio || a.Account == nameCoreVaulta) && (a.Name == nameBuyRAM || a.Name == nameBuyRAMBytes || a.Name == nameBuyRAMSelf):
		buy, err := decodeRAMPurchase(a)
		if err != nil {
			return nil, err
		}
		// Who gets the RAM and who pays are checked before anything is
		// priced: a purchase for another account is tampering, whether
		// or not it can be priced.
		if buy.receiver != signer {
			return nil, tampered("a RAM purchase must be for the signer %s, not %s", signer, buy.receiver)
		}
		if authorizedBy(a, signer) && !onlyBy(a, signer) || buy.payer != signer && authorizedBy(a, signer) {
			return nil, tampered("the signer %s may authorize a RAM purchase only when it pays, alone", signer)
		}
		if buy.payer != signer {
			return nil, nil
		}
		if !j.feeRequired {
			return nil, free()
		}
		if a.Name != nameBuyRAMBytes {
			return &buy.quant, nil
		}
		cost, err := ramPrice(ctx, j.c, buy.bytes, ramBefore(before))
		if err != nil {
			return nil, &ProviderError{Kind: ErrProviderRefused, Reason: fmt.Sprintf("cannot price its RAM purchase of %d bytes", buy.bytes), Err: err}
		}
		return &cost, nil
	}
	return nil, tampered("an action the protocol does not allow (only a noop, a fee transfer or a RAM purchase for the signer)")
}

// ramBuy is a RAM purchase: buyram {payer, receiver, quant}, buyramself
// {account, quant} or buyrambytes {payer, receiver, bytes}.
type ramBuy struct {
	payer, receiver antelope.Name
	quant           antelope.Asset // buyram, buyramself
	bytes           uint32         // buyrambytes
}

// decodeRAMPurchase decodes a RAM purchase action.
func decodeRAMPurchase(a antelope.Action) (ramBuy, error) {
	bad := &ProviderError{Kind: ErrProviderTampered, Reason: fmt.Sprintf("it added %s::%s with data that does not decode", a.Account, a.Name)}
	var b ramBuy
	d := antelope.NewDecoder(a.Data)
	p64, err := d.Uint64()
	if err != nil {
		return b, bad
	}
	b.payer, b.receiver = antelope.Name(p64), antelope.Name(p64)
	if a.Name != nameBuyRAMSelf {
		r64, err := d.Uint64()
		if err != nil {
			return b, bad
		}
		b.receiver = antelope.Name(r64)
	}
	if a.Name != nameBuyRAMBytes {
		if b.quant.DecodeBinary(d) != nil || d.Finish() != nil || b.quant.Amount < 0 {
			return b, bad
		}
		return b, nil
	}
	if b.bytes, err = d.Uint32(); err != nil || d.Finish() != nil {
		return b, bad
	}
	return b, nil
}

// ramBefore is the RAM purchases among actions (those before a priced
// one), which move eosio's rammarket before it runs.
func ramBefore(actions []antelope.Action) []ramBuy {
	var out []ramBuy
	for _, a := range actions {
		if (a.Account == nameEosio || a.Account == nameCoreVaulta) && (a.Name == nameBuyRAM || a.Name == nameBuyRAMBytes || a.Name == nameBuyRAMSelf) {
			if b, err := decodeRAMPurchase(a); err == nil {
				out = append(out, b)
			}
		}
	}
	return out
}

// ramPrice is what eosio.system's buyrambytes charges for bytes once the
// RAM purchases before it in the transaction (earlier) have run: each
// moves eosio's rammarket as buyram does (exchange_state::direct_convert
// of the quantity less its 0.5 % fee), and then the Bancor input for
// bytes (exchange_state::get_bancor_input) grossed up by the fee, in the
// same float64 operations, truncated as the contract truncates. A
// provider-paid buyram before the signer's buyrambytes raises the
// signer's price: priced from the market as it is now, the signer paid
// 1.8983 against a 1.5703 estimate. Other transactions in the same block
// can still move the market; nothing in this transaction can.
func ramPrice(ctx context.Context, c *Client, bytes uint32, earlier []ramBuy) (antelope.Asset, error) {
	q := antelope.TableQuery{Code: nameEosio, Scope: nameEosio, Table: nameRAMMarket, Limit: 1}
	for row, err := range c.TableRows(ctx, q) {
		if err != nil {
			return antelope.Asset{}, err
		}
		// exchange_state: supply, base {balance, weight}, quote {balance, weight}.
		d := antelope.NewDecoder(row.Data)
		var supply, base, quote antelope.Asset
		err := supply.DecodeBinary(d)
		if err == nil {
			err = base.DecodeBinary(d)
		}
		if err == nil {
			_, err = d.Float64()
		}
		if err == nil {
			err = quote.DecodeBinary(d)
		}
		if err != nil {
			return antelope.Asset{}, fmt.Errorf("eosio rammarket: %w", err)
		}
		m := ramMarket{ram: base.Amount, core: quote.Amount}
		for _, b := range earlier {
			quant := b.quant.Amount
			if b.bytes > 0 {
				if quant, err = m.bytesCost(b.bytes); err != nil {
					return antelope.Asset{}, err
				}
			}
			m.buy(quant)
		}
		cost, err := m.bytesCost(bytes)
		if err != nil {
			return antelope.Asset{}, err
		}
		return antelope.Asset{Amount: cost, Symbol: quote.Symbol}, nil
	}
	return antelope.Asset{}, fmt.Errorf("eosio has no rammarket")
}

// ramMarket is eosio's rammarket reserves: RAM bytes (base) and core
// token units (quote).
type ramMarket struct{ ram, core int64 }

// bytesCost is buyrambytes's price of n bytes, its fee included.
func (m *ramMarket) bytesCost(n uint32) (int64, error) {
	ob, ib, out := float64(m.ram), float64(m.core), float64(n)
	if ob <= out {
		return 0, fmt.Errorf("eosio rammarket: %d bytes is more than the market's %d", n, m.ram)
	}
	cost := max(int64((ib*out)/(ob-out)), 0)
	return int64(float64(cost) / 0.995), nil
}

// buy moves the market as buyram of quant units does: the 0.5 % fee
// (rounded up) goes to eosio.ramfee, the rest buys bytes.
func (m *ramMarket) buy(quant int64) {
	after := quant - (quant+199)/200
	if after <= 0 {
		return
	}
	out := max(int64(float64(after)*float64(m.ram)/(float64(m.core)+float64(after))), 0)
	m.core += after
	m.ram -= out
}

// totalFee adds the fees up and holds them to MaxFee.
func (p *ResourceProvider) totalFee(fees []antelope.Asset) (antelope.Asset, error) {
	total := antelope.Asset{Symbol: p.MaxFee.Symbol}
	for _, f := range fees {
		if f.Amount == 0 {
			continue
		}
		if f.Symbol != p.MaxFee.Symbol {
			allowed := "no fee"
			if p.MaxFee.Symbol != (antelope.Symbol{}) {
				allowed = "fees in " + p.MaxFee.Symbol.String() + " only"
			}
			return total, &ProviderError{Kind: ErrFeeTooHigh, Fee: f, Reason: fmt.Sprintf("it asks %s, and ResourceProvider.MaxFee allows %s", f, allowed)}
		}
		if total.Amount += f.Amount; total.Amount < 0 { // past 2^63: absurd
			total.Amount = math.MaxInt64
		}
	}
	if total.Amount > p.MaxFee.Amount {
		return total, &ProviderError{Kind: ErrFeeTooHigh, Fee: total, Reason: fmt.Sprintf("its fee %s is more than ResourceProvider.MaxFee %s", total, p.MaxFee)}
	}
	return total, nil
}
