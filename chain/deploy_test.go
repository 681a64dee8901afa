package chain_test

import (
	"net/http"
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

// Deploy asks get_code_hash and get_raw_abi whether the account already
// has the code and ABI: an answer about another account (a cache that
// ignores the POST body, a proxy mixing answers up) that has them must not
// make it skip them and report success with nothing deployed.
func TestDeployRefusesAForeignAnswer(t *testing.T) {
	wasm, err := os.ReadFile("chaintest/testdata/wasm/eosio.token.wasm")
	if err != nil {
		t.Fatal(err)
	}
	abi, err := os.ReadFile("chaintest/testdata/wasm/eosio.token.abi")
	if err != nil {
		t.Fatal(err)
	}
	c := chaintest.New()
	t.Cleanup(c.Close)
	deployed, fresh := antelope.MustName("deployed"), antelope.MustName("fresh")
	key := c.NewAccount(deployed)
	freshKey := c.NewAccount(fresh)
	if _, err := c.Client().Deploy(t.Context(), key, deployed, wasm, abi); err != nil {
		t.Fatal(err)
	}
	// Every code and ABI lookup is answered with deployed's.
	srv := front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
		switch r.URL.Path {
		case "/v1/chain/get_code_hash", "/v1/chain/get_raw_abi", "/v1/chain/get_raw_code_and_abi":
			body, err := c.Client().Call(r.Context(), r.URL.Path, map[string]string{"account_name": "deployed"})
			if err != nil {
				t.Error(err)
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
			return true
		}
		return false
	})
	cl := client(srv)
	if _, err := cl.GetCodeHash(t.Context(), fresh); err == nil {
		t.Error("get_code_hash about another account accepted")
	}
	if _, _, err := cl.GetRawABI(t.Context(), fresh); err == nil {
		t.Error("get_raw_abi about another account accepted")
	}
	if _, _, err := cl.GetRawCodeAndABI(t.Context(), fresh); err == nil {
		t.Error("get_raw_code_and_abi about another account accepted")
	}
	res, err := cl.Deploy(t.Context(), freshKey, fresh, wasm, abi)
	if err == nil {
		t.Errorf("deployed nothing, reported %+v", res)
	}
	if h, err := c.Client().GetCodeHash(t.Context(), fresh); err != nil || h != (antelope.Checksum256{}) {
		t.Errorf("fresh's code: %s, %v", h, err)
	}
}
