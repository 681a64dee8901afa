package chaintest_test

import (
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
)

// A fixture row is billed to its payer as the contract's own store would
// bill it, so that the contract erasing it refunds only what was billed:
// SetTableRow billed nothing, and an erase left the payer's ram_usage
// below where it started.
func TestSetTableRowIsBilled(t *testing.T) {
	node := chaintest.New()
	defer node.Close()
	ctx := t.Context()
	c := node.Client()
	alice, kv, rows := antelope.MustName("alice"), antelope.MustName("kv"), antelope.MustName("rows")
	key := node.NewAccount(alice)
	const abi = `{"version":"eosio::abi/1.1","structs":[{"name":"erase","base":"","fields":[{"name":"pk","type":"uint64"}]}],` +
		`"actions":[{"name":"erase","type":"erase","ricardian_contract":""}]}`
	err := node.SetContract(kv, []byte(abi), func(x *chaintest.Context) error {
		pk, err := antelope.NewDecoder(x.Action.Data).Uint64()
		if err != nil {
			return err
		}
		x.Delete(kv, rows, pk)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	usage := func() int64 {
		t.Helper()
		a, err := c.GetAccount(ctx, alice)
		if err != nil {
			t.Fatal(err)
		}
		return int64(a.RAMUsage)
	}
	start := usage()
	// A new table (112) and a row (112 + its 3 bytes), with a secondary
	// key (128) in the same table: CDT names the first index's table after
	// the primary's (its low four bits are the index number, 0).
	node.SetTableRow(kv, kv, rows, 1, []byte{1, 2, 3}, alice, antelope.KeyUint64(9))
	node.Produce()
	if got, want := usage()-start, int64(112+112+3+128); got != want {
		t.Errorf("a fixture row billed %d bytes, want %d", got, want)
	}
	// Replaced by a longer value: the difference.
	node.SetTableRow(kv, kv, rows, 1, []byte{1, 2, 3, 4, 5}, alice, antelope.KeyUint64(9))
	node.Produce()
	if got, want := usage()-start, int64(112+112+5+128); got != want {
		t.Errorf("a replaced fixture row billed %d bytes, want %d", got, want)
	}
	if _, err := c.Transact(ctx, key, antelope.Action{Account: kv, Name: antelope.MustName("erase"),
		Authorization: []antelope.PermissionLevel{antelope.Active(alice)}, Data: antelope.AppendUint64(nil, 1)}); err != nil {
		t.Fatal(err)
	}
	if got := usage(); got != start {
		t.Errorf("after the contract erased the fixture row, ram_usage is %d, want %d as before it", got, start)
	}
}

// A Go handler set over wasm code refunds the code and ABI the deploy
// billed, as setcode and setabi refund what they replace: the account's
// ram_usage stayed 10× the code above where it started.
func TestSetContractRefundsReplacedCode(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("tok")
	usage := func() int64 {
		t.Helper()
		a, err := w.cl.GetAccount(t.Context(), antelope.MustName("tok"))
		if err != nil {
			t.Fatal(err)
		}
		return int64(a.RAMUsage)
	}
	start := usage()
	w.deploy("tok", "eosio.token")
	if usage() <= start {
		t.Fatalf("deploying the wasm billed nothing: %d", usage())
	}
	if err := w.c.SetContract(antelope.MustName("tok"), []byte(`{"version":"eosio::abi/1.1"}`), chaintest.TokenContract); err != nil {
		t.Fatal(err)
	}
	if got := usage(); got != start {
		t.Errorf("after a Go handler replaced the wasm, ram_usage is %d, want %d as before the deploy", got, start)
	}
}
