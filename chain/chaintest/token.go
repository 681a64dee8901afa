package chaintest

import (
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// TokenContract is eosio.token written on the generated bindings: create,
// issue, transfer, open, close and retire move supply and balances, and
// fail with the reference contract's own messages ("overdrawn balance",
// "token with symbol already exists"…). Deploy it with DeployToken.
func TokenContract(ctx *Context) error {
	switch ctx.Action.Name {
	case eosiotoken.ActionCreate:
		return tokenCreate(ctx)
	case eosiotoken.ActionIssue:
		return tokenIssue(ctx)
	case eosiotoken.ActionRetire:
		return tokenRetire(ctx)
	case eosiotoken.ActionTransfer:
		return tokenTransfer(ctx)
	case eosiotoken.ActionOpen:
		return tokenOpen(ctx)
	case eosiotoken.ActionClose:
		return tokenClose(ctx)
	}
	return nil // eosio.token has no other action; unknown actions do nothing
}

// DeployToken deploys TokenContract with eosio.token's ABI at account.
func (c *Chain) DeployToken(account antelope.Name) error {
	return c.SetContract(account, eosiotoken.ABIJSON, TokenContract)
}

var (
	tableStat     = antelope.MustName("stat")
	tableAccounts = antelope.MustName("accounts")
)

func tokenStats(ctx *Context, code antelope.SymbolCode) (eosiotoken.CurrencyStats, bool, error) {
	st, _, found, err := GetRow(ctx, eosiotoken.TableStat, antelope.Name(code), uint64(code))
	return st, found, err
}

func tokenCreate(ctx *Context) error {
	var a eosiotoken.Create
	if err := ctx.Decode(&a); err != nil {
		return err
	}
	if err := ctx.RequireAuth(ctx.Receiver); err != nil {
		return err
	}
	sym := a.MaximumSupply.Symbol
	if err := ctx.Assert(a.MaximumSupply.Amount > 0, "max-supply must be positive"); err != nil {
		return err
	}
	_, exists, err := tokenStats(ctx, sym.Code)
	if err != nil {
		return err
	}
	if err := ctx.Assert(!exists, "token with symbol already exists"); err != nil {
		return err
	}
	st := eosiotoken.CurrencyStats{Supply: antelope.Asset{Symbol: sym}, MaxSupply: a.MaximumSupply, Issuer: a.Issuer}
	return ctx.SetValue(antelope.Name(sym.Code), tableStat, uint64(sym.Code), &st, ctx.Receiver)
}

func tokenIssue(ctx *Context) error {
	var a eosiotoken.Issue
	if err := ctx.Decode(&a); err != nil {
		return err
	}
	sym := a.Quantity.Symbol
	if err := ctx.Assert(len(a.Memo) <= 256, "memo has more than 256 bytes"); err != nil {
		return err
	}
	st, exists, err := tokenStats(ctx, sym.Code)
	if err != nil {
		return err
	}
	if err := ctx.Assert(exists, "token with symbol does not exist, create token before issue"); err != nil {
		return err
	}
	if err := ctx.Assert(a.To == st.Issuer, "tokens can only be issued to issuer account"); err != nil {
		return err
	}
	if err := ctx.RequireAuth(st.Issuer); err != nil {
		return err
	}
	if err := ctx.Assert(a.Quantity.Amount > 0, "must issue positive quantity"); err != nil {
		return err
	}
	if err := ctx.Assert(sym == st.Supply.Symbol, "symbol precision mismatch"); err != nil {
		return err
	}
	if err := ctx.Assert(a.Quantity.Amount <= st.MaxSupply.Amount-st.Supply.Amount, "quantity exceeds available supply"); err != nil {
		return err
	}
	st.Supply.Amount += a.Quantity.Amount
	if err := ctx.SetValue(antelope.Name(sym.Code), tableStat, uint64(sym.Code), &st, 0); err != nil {
		return err
	}
	return addBalance(ctx, st.Issuer, a.Quantity, st.Issuer)
}

func tokenRetire(ctx *Context) error {
	var a eosiotoken.Retire
	if err := ctx.Decode(&a); err != nil {
		return err
	}
	sym := a.Quantity.Symbol
	if err := ctx.Assert(len(a.Memo) <= 256, "memo has more than 256 bytes"); err != nil {
		return err
	}
	st, exists, err := tokenStats(ctx, sym.Code)
	if err != nil {
		return err
	}
	if err := ctx.Assert(exists, "token with symbol does not exist"); err != nil {
		return err
	}
	if err := ctx.RequireAuth(st.Issuer); err != nil {
		return err
	}
	if err := ctx.Assert(a.Quantity.Amount > 0, "must retire positive quantity"); err != nil {
		return err
	}
	if err := ctx.Assert(sym == st.Supply.Symbol, "symbol precision mismatch"); err != nil {
		return err
	}
	st.Supply.Amount -= a.Quantity.Amount
	if err := ctx.SetValue(antelope.Name(sym.Code), tableStat, uint64(sym.Code), &st, 0); err != nil {
		return err
	}
	return subBalance(ctx, st.Issuer, a.Quantity)
}

func tokenTransfer(ctx *Context) error {
	var a eosiotoken.Transfer
	if err := ctx.Decode(&a); err != nil {
		return err
	}
	if ctx.Receiver != ctx.Code() {
		return nil // a notification: eosio.token does nothing more
	}
	if err := ctx.Assert(a.From != a.To, "cannot transfer to self"); err != nil {
		return err
	}
	if err := ctx.RequireAuth(a.From); err != nil {
		return err
	}
	if err := ctx.Assert(ctx.IsAccount(a.To), "to account does not exist"); err != nil {
		return err
	}
	st, exists, err := tokenStats(ctx, a.Quantity.Symbol.Code)
	if err != nil {
		return err
	}
	if err := ctx.Assert(exists, "unable to find key"); err != nil {
		return err
	}
	ctx.RequireRecipient(a.From)
	ctx.RequireRecipient(a.To)
	if err := ctx.Assert(a.Quantity.Amount > 0, "must transfer positive quantity"); err != nil {
		return err
	}
	if err := ctx.Assert(a.Quantity.Symbol == st.Supply.Symbol, "symbol precision mismatch"); err != nil {
		return err
	}
	if err := ctx.Assert(len(a.Memo) <= 256, "memo has more than 256 bytes"); err != nil {
		return err
	}
	payer := a.From
	if ctx.HasAuth(a.To) {
		payer = a.To
	}
	if err := subBalance(ctx, a.From, a.Quantity); err != nil {
		return err
	}
	return addBalance(ctx, a.To, a.Quantity, payer)
}

func subBalance(ctx *Context, owner antelope.Name, value antelope.Asset) error {
	acct, _, found, err := GetRow(ctx, eosiotoken.TableAccounts, owner, uint64(value.Symbol.Code))
	if err != nil {
		return err
	}
	if err := ctx.Assert(found, "no balance object found"); err != nil {
		return err
	}
	if err := ctx.Assert(acct.Balance.Amount >= value.Amount, "overdrawn balance"); err != nil {
		return err
	}
	acct.Balance.Amount -= value.Amount
	// modify(from, owner, …): the owner pays for the row from now on.
	return ctx.SetValue(owner, tableAccounts, uint64(value.Symbol.Code), &acct, owner)
}

func addBalance(ctx *Context, owner antelope.Name, value antelope.Asset, ramPayer antelope.Name) error {
	acct, payer, found, err := GetRow(ctx, eosiotoken.TableAccounts, owner, uint64(value.Symbol.Code))
	if err != nil {
		return err
	}
	if found {
		acct.Balance.Amount += value.Amount
		ramPayer = payer
	} else {
		acct = eosiotoken.Account{Balance: value}
	}
	return ctx.SetValue(owner, tableAccounts, uint64(value.Symbol.Code), &acct, ramPayer)
}

func tokenOpen(ctx *Context) error {
	var a eosiotoken.Open
	if err := ctx.Decode(&a); err != nil {
		return err
	}
	if err := ctx.RequireAuth(a.RAMPayer); err != nil {
		return err
	}
	if err := ctx.Assert(ctx.IsAccount(a.Owner), "owner account does not exist"); err != nil {
		return err
	}
	st, exists, err := tokenStats(ctx, a.Symbol.Code)
	if err != nil {
		return err
	}
	if err := ctx.Assert(exists, "symbol does not exist"); err != nil {
		return err
	}
	if err := ctx.Assert(st.Supply.Symbol == a.Symbol, "symbol precision mismatch"); err != nil {
		return err
	}
	if _, _, found := ctx.Get(a.Owner, tableAccounts, uint64(a.Symbol.Code)); found {
		return nil
	}
	acct := eosiotoken.Account{Balance: antelope.Asset{Symbol: a.Symbol}}
	return ctx.SetValue(a.Owner, tableAccounts, uint64(a.Symbol.Code), &acct, a.RAMPayer)
}

func tokenClose(ctx *Context) error {
	var a eosiotoken.Close
	if err := ctx.Decode(&a); err != nil {
		return err
	}
	if err := ctx.RequireAuth(a.Owner); err != nil {
		return err
	}
	acct, _, found, err := GetRow(ctx, eosiotoken.TableAccounts, a.Owner, uint64(a.Symbol.Code))
	if err != nil {
		return err
	}
	if err := ctx.Assert(found, "Balance row already deleted or never existed. Action won't have any effect."); err != nil {
		return err
	}
	if err := ctx.Assert(acct.Balance.Amount == 0, "Cannot close because the balance is not zero."); err != nil {
		return err
	}
	ctx.Delete(a.Owner, tableAccounts, uint64(a.Symbol.Code))
	return nil
}
