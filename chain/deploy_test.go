package chain_test

import (
	"os"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/model"
)

// An ABI that cleos set is packed with its variants and action_results
// lists even when they are empty (fc packs abi_def's may_not_exist fields
// always), other tools with the variants only: the same ABI in other bytes.
// Deploy sends no setabi for it — nodeos reads those bytes as the same
// ABI — and sends one for an ABI that differs.
func TestDeploySkipsTheSameABIPackedByAnotherTool(t *testing.T) {
	abiJSON, err := os.ReadFile("../testdata/abis/eosio.token.abi.json")
	if err != nil {
		t.Fatal(err)
	}
	src, err := model.Load(abiJSON)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := src.ABI.Pack()
	if err != nil {
		t.Fatal(err)
	}
	acct := antelope.MustName("tokenacct")
	for name, onChain := range map[string][]byte{
		"cleos (variants and action_results)": append(append([]byte(nil), ours...), 0, 0),
		"variants only":                       append(append([]byte(nil), ours...), 0),
	} {
		t.Run(name, func(t *testing.T) {
			c := chaintest.New()
			t.Cleanup(c.Close)
			key := c.NewAccount(acct)
			cl := c.Client()
			if _, err := cl.Transact(t.Context(), key, chain.SetabiAction(acct, onChain, antelope.Active(acct))); err != nil {
				t.Fatal(err)
			}
			res, err := cl.Deploy(t.Context(), key, acct, nil, abiJSON)
			if err != nil || res.ABISent || res.Transaction != nil {
				t.Fatalf("the same ABI deployed again: %+v, %v", res, err)
			}
			// The packed ABI given as such is the same ABI too.
			if res, err = cl.Deploy(t.Context(), key, acct, nil, onChain); err != nil || res.ABISent {
				t.Fatalf("the same packed ABI deployed again: %+v, %v", res, err)
			}
			// Another ABI is sent.
			other := []byte(`{"version":"eosio::abi/1.1","structs":[{"name":"nop","base":"","fields":[]}],"actions":[{"name":"nop","type":"nop","ricardian_contract":""}]}`)
			if res, err = cl.Deploy(t.Context(), key, acct, nil, other); err != nil || !res.ABISent || res.Transaction == nil {
				t.Fatalf("another ABI: %+v, %v", res, err)
			}
		})
	}
}
