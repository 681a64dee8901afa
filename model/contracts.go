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
// An ABI that does not load or resolve is an error naming its account.
func ContractsOf(abis map[antelope.Name][]byte) (Contracts, error) {
	out := make(Contracts, len(abis))
	for account, abi := range abis {
		src, err := Load(abi)
		if err != nil {
			return nil, fmt.Errorf("the ABI of %s: %w", account, err)
		}
		m, err := Resolve(src.ABI)
		if err != nil {
			return nil, fmt.Errorf("the ABI of %s: %w", account, err)
		}
		out[account] = m
	}
	return out, nil
}
