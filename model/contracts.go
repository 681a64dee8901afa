package model

import (
	"fmt"

	"github.com/antelopego/abigen/antelope"
)

// ContractsOf loads and resolves each account's ABI — any form Load reads:
// ABI JSON (a generated package's ABIJSON), a packed ABI, a saved API
// response — into the Contracts that resolving a signing request needs:
//
//	names, err := model.ContractsOf(map[antelope.Name][]byte{tokenAcct: eosiotoken.ABIJSON})
//	res, err := req.Resolve(signer, ctx, names)
//
// An ABI that does not load or resolve is an error naming its account, and so
// is a saved response that names another account.
func ContractsOf(abis map[antelope.Name][]byte) (Contracts, error) {
	out := make(Contracts, len(abis))
	for account, abi := range abis {
		src, err := Load(abi)
		if err != nil {
			return nil, fmt.Errorf("the ABI of %s: %w", account, err)
		}
		if src.Account != "" && src.Account != account.String() {
			// A saved response for another account: its types would encode
			// this account's actions wrong.
			return nil, fmt.Errorf("the ABI of %s: the %s is for %s", account, src.Form, src.Account)
		}
		m, err := Resolve(src.ABI)
		if err != nil {
			return nil, fmt.Errorf("the ABI of %s: %w", account, err)
		}
		out[account] = m
	}
	return out, nil
}
