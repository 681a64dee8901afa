package ship_test

import (
	"strings"
	"testing"

	"github.com/antelopego/abigen/abicodec"
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/model"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
)

// Dynamic decoding with the ABI in force: the contract renames a field in
// block 2 (an account delta), and each block's transfer decodes with the
// ABI it had then.
func TestDynamicDecodingWithABIInForce(t *testing.T) {
	packed := func(abiJSON string) []byte {
		src, err := model.Load([]byte(abiJSON))
		if err != nil {
			t.Fatal(err)
		}
		b, err := src.ABI.Pack()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	v1 := packed(string(eosiotoken.ABIJSON))
	v2 := packed(strings.ReplaceAll(string(eosiotoken.ABIJSON), `"name": "memo"`, `"name": "note"`))
	tx, _ := transferTx(t, token, alice, bob, "1.0000 WAX", "hello")
	chain := shiptest.NewChain()
	chain.Produce(shiptest.BlockData{Transactions: []shiptest.Transaction{tx}})
	chain.Produce(shiptest.BlockData{Transactions: []shiptest.Transaction{tx}, ABIs: []shiptest.ABIChange{{Account: token, ABI: v2}}})
	chain.Produce(shiptest.BlockData{Transactions: []shiptest.Transaction{tx}})
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	var got []string
	for ev, err := range fastClient(srv.URL).Stream(testContext(t), ship.Request{Start: 1, End: 4, ABIs: map[antelope.Name][]byte{token: v1}}) {
		if err != nil {
			t.Fatal(err)
		}
		for a, err := range ev.Block.Actions(ship.OfContract(token)) {
			if err != nil {
				t.Fatal(err)
			}
			abi, ok := a.ABI()
			if !ok {
				t.Fatal("no ABI in force")
			}
			c, err := abicodec.New(abi)
			if err != nil {
				t.Fatal(err)
			}
			js, err := c.ActionJSON(a.Name, a.Data)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(js))
		}
	}
	if len(got) != 3 || !strings.Contains(got[0], `"memo":"hello"`) || !strings.Contains(got[1], `"memo":"hello"`) || !strings.Contains(got[2], `"note":"hello"`) {
		t.Errorf("%q", got)
	}
}
