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
	nameCoreVaulta  = antelope.MustName("core.vaulta")
	nameEosioToken  = antelope.MustName("eosio.token")
	nameTransfer    = antelope.MustName("transfer")
	nameNoop        = antelope.MustName("noop")
	nameBuyRAM      = antelope.MustName("buyram")
	nameBuyRAMBytes = antelope.MustName("buyrambytes")
	nameBuyRAMSelf  = antelope.MustName("buyramself")
	nameRAMMarket   = antelope.MustName("rammarket")
)

// check compares the provider's transaction got with the signer's and
// returns the fee the signer pays; a *ProviderError says what is wrong.
func (p *ResourceProvider) check(ctx context.Context, c *Client, req *PayRequest, got *antelope.Transaction) (antelope.Asset, error) {
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
	j := 0
	for _, a := range got.Actions {
		if j < len(orig.Actions) && sameAction(a, orig.Actions[j]) {
			j++
			continue
		}
		added = append(added, a)
	}
	if j < len(orig.Actions) {
		return antelope.Asset{}, tampered("the signer's action %d (%s::%s) is not in its transaction, unchanged and in order",
			j, orig.Actions[j].Account, orig.Actions[j].Name)
	}
	if first := firstAuthorization(got); first.Actor == signer.Actor || len(added) == 0 {
		return antelope.Asset{}, tampered("its transaction is still billed to the signer %s: the provider would not pay", signer.Actor)
	}
	var fees []antelope.Asset
	for _, a := range added {
		fee, err := p.addedCost(ctx, c, a, signer.Actor)
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

// addedCost judges an action the provider added: a noop (nil cost), a fee
// transfer or a RAM purchase for the signer (their cost to the signer, nil
// when someone else pays), or a tampering error.
func (p *ResourceProvider) addedCost(ctx context.Context, c *Client, a antelope.Action, signer antelope.Name) (*antelope.Asset, error) {
	tampered := func(format string, args ...any) error {
		return &ProviderError{Kind: ErrProviderTampered, Reason: fmt.Sprintf("it added %s::%s: ", a.Account, a.Name) + fmt.Sprintf(format, args...)}
	}
	switch {
	case a.Name == nameNoop:
		if len(a.Data) != 0 || len(a.Authorization) == 0 || authorizedBy(a, signer) {
			return nil, tampered("a noop must have no data and be authorized by the provider, not the signer")
		}
		return nil, nil
	case a.Name == nameTransfer && (a.Account == nameEosioToken || a.Account == nameCoreVaulta):
		d := antelope.NewDecoder(a.Data)
		from, _ := d.Uint64()
		_, _ = d.Uint64()
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
		return &qty, nil
	case (a.Account == nameEosio || a.Account == nameCoreVaulta) && (a.Name == nameBuyRAM || a.Name == nameBuyRAMBytes || a.Name == nameBuyRAMSelf):
		payer, receiver, cost, err := p.ramPurchase(ctx, c, a)
		if err != nil {
			return nil, err
		}
		if receiver != signer {
			return nil, tampered("a RAM purchase must be for the signer %s, not %s", signer, receiver)
		}
		if authorizedBy(a, signer) && !onlyBy(a, signer) || payer != signer && authorizedBy(a, signer) {
			return nil, tampered("the signer %s may authorize a RAM purchase only when it pays, alone", signer)
		}
		if payer != signer {
			return nil, nil
		}
		return &cost, nil
	}
	return nil, tampered("an action the protocol does not allow (only a noop, a fee transfer or a RAM purchase for the signer)")
}

// ramPurchase decodes buyram {payer, receiver, quant}, buyramself
// {account, quant} or buyrambytes {payer, receiver, bytes}, and prices
// the last from eosio's rammarket as eosio.system's buyrambytes does.
func (p *ResourceProvider) ramPurchase(ctx context.Context, c *Client, a antelope.Action) (payer, receiver antelope.Name, cost antelope.Asset, err error) {
	bad := &ProviderError{Kind: ErrProviderTampered, Reason: fmt.Sprintf("it added %s::%s with data that does not decode", a.Account, a.Name)}
	d := antelope.NewDecoder(a.Data)
	p64, err := d.Uint64()
	if err != nil {
		return 0, 0, cost, bad
	}
	payer, receiver = antelope.Name(p64), antelope.Name(p64)
	if a.Name != nameBuyRAMSelf {
		r64, err := d.Uint64()
		if err != nil {
			return 0, 0, cost, bad
		}
		receiver = antelope.Name(r64)
	}
	if a.Name != nameBuyRAMBytes {
		if cost.DecodeBinary(d) != nil || d.Finish() != nil || cost.Amount < 0 {
			return 0, 0, cost, bad
		}
		return payer, receiver, cost, nil
	}
	bytes, err := d.Uint32()
	if err != nil || d.Finish() != nil {
		return 0, 0, cost, bad
	}
	cost, err = ramPrice(ctx, c, bytes)
	if err != nil {
		return 0, 0, cost, &ProviderError{Kind: ErrProviderRefused, Reason: fmt.Sprintf("cannot price its RAM purchase of %d bytes", bytes), Err: err}
	}
	return payer, receiver, cost, nil
}

// ramPrice is what eosio.system's buyrambytes charges for bytes: the
// Bancor input for them from the rammarket's reserves
// (exchange_state::get_bancor_input), grossed up by the 0.5 % fee, in the
// same float64 operations, truncated as the contract truncates.
func ramPrice(ctx context.Context, c *Client, bytes uint32) (antelope.Asset, error) {
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
		ob, ib, out := float64(base.Amount), float64(quote.Amount), float64(bytes)
		if ob <= out {
			return antelope.Asset{}, fmt.Errorf("eosio rammarket: %d bytes is more than the market's %d", bytes, base.Amount)
		}
		cost := max(int64((ib*out)/(ob-out)), 0)
		return antelope.Asset{Amount: int64(float64(cost) / 0.995), Symbol: quote.Symbol}, nil
	}
	return antelope.Asset{}, fmt.Errorf("eosio has no rammarket")
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
