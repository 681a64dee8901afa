package hyperion

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
)

// What Hyperion's indexer modules (src/indexer/modules/action_data/*.ts,
// and the '*:accounts' delta handler of src/indexer/workers/deserializer.ts)
// do to data, and how much of it comes back exactly. Each rewrite moves
// data into an "@name" object that the API merges back (mergeActionMeta,
// mergeDeltaMeta: lodash merge, the stored data winning).

var (
	nameEosio       = antelope.MustName("eosio")
	nameBuyram      = antelope.MustName("buyram")
	nameDelegatebw  = antelope.MustName("delegatebw")
	nameUndelegate  = antelope.MustName("undelegatebw")
	nameUpdateauth  = antelope.MustName("updateauth")
	nameNewaccount  = antelope.MustName("newaccount")
	tableAccounts   = antelope.MustName("accounts")
	maxExactAmount  = int64(1) << 52
	coreAssetFields = map[antelope.Name][]string{
		nameBuyram:     {"quant"},
		nameDelegatebw: {"stake_net_quantity", "stake_cpu_quantity"},
		nameUndelegate: {"unstake_net_quantity", "unstake_cpu_quantity"},
	}
)

// exactAsset turns the decimal text of a float that Hyperion computed with
// parseFloat from an asset of symbol s back into that asset, when only one
// amount at s's precision gives that float: the amount must be below 2^52
// units, where consecutive amounts are further apart than a float's
// spacing, and formatting it must give the same float again.
func exactAsset(text string, s antelope.Symbol) (antelope.Asset, error) {
	fail := func(why string) (antelope.Asset, error) {
		return antelope.Asset{}, fmt.Errorf("the float %s is not exactly an amount of %s: %s", text, s, why)
	}
	if !s.Valid() {
		return fail("not a valid symbol")
	}
	x, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return fail("not a number")
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return fail("not a number")
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s.Precision)), nil)))
	// Round to the nearest unit.
	n := new(big.Int).Quo(r.Num(), r.Denom())
	rem := new(big.Rat).Sub(r, new(big.Rat).SetInt(n))
	half := big.NewRat(1, 2)
	if rem.Cmp(half) >= 0 {
		n.Add(n, big.NewInt(1))
	} else if rem.Cmp(new(big.Rat).Neg(half)) <= 0 {
		n.Sub(n, big.NewInt(1))
	}
	if !n.IsInt64() || n.Int64() >= maxExactAmount || n.Int64() <= -maxExactAmount {
		return fail("too large for a float to tell amounts apart")
	}
	a := antelope.Asset{Amount: n.Int64(), Symbol: s}
	back, err := strconv.ParseFloat(strings.Fields(a.String())[0], 64)
	if err != nil || back != x {
		return fail("no amount at its precision gives that float")
	}
	return a, nil
}

// repairAction undoes Hyperion's rewrite of an action's data where that
// can be done exactly; an error says why it cannot.
func (c *Client) repairAction(contract, name antelope.Name, data []byte) ([]byte, error) {
	if contract != nameEosio {
		return data, nil
	}
	fields, isCore := coreAssetFields[name]
	if !isCore && name != nameUpdateauth && name != nameNewaccount {
		return data, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return data, nil // not an object: the decoder says what is wrong
	}
	changed := false
	switch {
	case isCore:
		for _, f := range fields {
			v, ok := obj[f]
			if !ok || len(v) == 0 || v[0] == '"' {
				continue
			}
			if !c.coreSymbol.Valid() || c.coreSymbol.Code == 0 {
				return nil, fmt.Errorf("hyperion keeps eosio::%s's %s as a float without its symbol (%s): WithCoreSymbol recovers it", name, f, v)
			}
			a, err := exactAsset(string(v), c.coreSymbol)
			if err != nil {
				return nil, fmt.Errorf("eosio::%s's %s: %w", name, f, err)
			}
			obj[f], _ = json.Marshal(a.String())
			changed = true
		}
	case name == nameUpdateauth:
		var auth map[string]json.RawMessage
		if raw, ok := obj["auth"]; ok && json.Unmarshal(raw, &auth) == nil && auth != nil {
			for _, f := range []string{"keys", "accounts", "waits"} {
				if _, ok := auth[f]; !ok {
					auth[f] = json.RawMessage("[]")
					changed = true
				}
			}
			obj["auth"], _ = json.Marshal(auth)
		}
	case name == nameNewaccount:
		if v, ok := obj["newact"]; ok {
			if _, has := obj["name"]; !has {
				obj["name"] = v
				changed = true
			}
		}
	}
	if !changed {
		return data, nil
	}
	return json.Marshal(obj)
}

// repairRow undoes the accounts-table rewrite: {amount, symbol} back to
// balance, with the token's precision.
func (c *Client) repairRow(ctx context.Context, code, table antelope.Name, data []byte) ([]byte, error) {
	if table != tableAccounts {
		return data, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return data, nil
	}
	amount, okA := obj["amount"]
	symbol, okS := obj["symbol"]
	if _, has := obj["balance"]; has || !okA || !okS {
		return data, nil
	}
	var sym string
	if err := json.Unmarshal(symbol, &sym); err != nil {
		return nil, fmt.Errorf("an accounts row's symbol %s is not a string", symbol)
	}
	sc, err := antelope.ParseSymbolCode(sym)
	if err != nil {
		return nil, fmt.Errorf("an accounts row's symbol: %w", err)
	}
	p, err := c.precisionOf(ctx, code, sc)
	if err != nil {
		return nil, fmt.Errorf("hyperion keeps an accounts row's balance as {amount, symbol} without its precision, which could not be had: %w", err)
	}
	a, err := exactAsset(string(amount), antelope.Symbol{Precision: p, Code: sc})
	if err != nil {
		return nil, fmt.Errorf("an accounts row's balance: %w", err)
	}
	delete(obj, "amount")
	delete(obj, "symbol")
	obj["balance"], _ = json.Marshal(a.String())
	return json.Marshal(obj)
}
