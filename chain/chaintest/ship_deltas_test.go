package chaintest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/antelopego/abigen/abicodec"
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/protocol"
)

// kvABI is a contract with one table, "rows" {key, val}, indexed by val
// (idx64), and actions that set, erase, or set and erase within the same
// action, a row.
const kvABI = `{"version":"eosio::abi/1.1","structs":[
 {"name":"row","base":"","fields":[{"name":"key","type":"uint64"},{"name":"val","type":"uint64"}]},
 {"name":"set","base":"","fields":[{"name":"key","type":"uint64"},{"name":"val","type":"uint64"}]},
 {"name":"del","base":"","fields":[{"name":"key","type":"uint64"}]},
 {"name":"flash","base":"","fields":[{"name":"key","type":"uint64"}]}],
 "actions":[{"name":"set","type":"set","ricardian_contract":""},{"name":"del","type":"del","ricardian_contract":""},
  {"name":"flash","type":"flash","ricardian_contract":""}],
 "tables":[{"name":"rows","index_type":"i64","key_names":["key","val"],"key_types":["uint64","uint64"],"type":"row"}]}`

var (
	kv     = antelope.MustName("kv")
	kvRows = antelope.MustName("rows")
)

func kvContract(x *chaintest.Context) error {
	d := antelope.NewDecoder(x.Action.Data)
	key, _ := d.Uint64()
	switch x.Action.Name.String() {
	case "set":
		val, _ := d.Uint64()
		row := antelope.AppendUint64(antelope.AppendUint64(nil, key), val)
		return x.Set(kv, kvRows, key, row, kv, antelope.KeyUint64(val))
	case "del":
		x.Delete(kv, kvRows, key)
	case "flash":
		if err := x.Set(kv, kvRows, key, antelope.AppendUint64(antelope.AppendUint64(nil, key), 0), kv, antelope.KeyUint64(0)); err != nil {
			return err
		}
		x.Delete(kv, kvRows, key)
	}
	return nil
}

// deltaRow is a delta row decoded, for comparing.
type deltaRow struct {
	table   string
	present bool
	row     any
}

func (r deltaRow) String() string {
	js, _ := json.Marshal(r.row)
	return fmt.Sprintf("%s %v %s", r.table, r.present, js)
}

// streamDeltas streams blocks [start, end) and decodes their deltas, by
// block.
func streamDeltas(t *testing.T, c *chaintest.Chain, start, end uint32) map[uint32][]deltaRow {
	t.Helper()
	blocks := map[uint32][]deltaRow{}
	for ev, err := range c.SHiPClient().Stream(context.Background(), ship.Request{Start: start, End: end}) {
		if err != nil {
			t.Fatal(err)
		}
		blocks[ev.Block.Num] = nil
		for d, err := range ev.Block.TableDeltas() {
			if err != nil {
				t.Fatal(err)
			}
			v, err := protocol.DecodeTableRow(d.Table, d.Data)
			if err != nil {
				t.Fatal(err)
			}
			blocks[ev.Block.Num] = append(blocks[ev.Block.Num], deltaRow{d.Table, d.Present, v})
		}
	}
	return blocks
}

// Table deltas as nodeos's undo session gives them: a created row, a
// modified one with its new value, a removed one with its old value, a
// row created and erased in one block not at all; the table and the
// secondary index objects alike; and the account delta of an ABI.
func TestSHiPDeltas(t *testing.T) {
	c := chaintest.New(chaintest.WithoutNetwork())
	t.Cleanup(c.Close)
	key := c.NewAccount(kv)
	if err := c.SetContract(kv, []byte(kvABI), kvContract); err != nil {
		t.Fatal(err)
	}
	deployed := c.Head().Num
	cl := c.Client()
	send := func(name string, args ...uint64) uint32 {
		t.Helper()
		var data []byte
		for _, a := range args {
			data = antelope.AppendUint64(data, a)
		}
		res, err := cl.Transact(context.Background(), key, antelope.Action{Account: kv, Name: antelope.MustName(name),
			Authorization: []antelope.PermissionLevel{antelope.Active(kv)}, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		return res.BlockNum
	}
	created := send("set", 1, 10)
	modified := send("set", 1, 11)
	flashed := send("flash", 2)
	removed := send("del", 1)

	// From the first block the endpoint serves (Start 0: the client asks
	// its status), block 1.
	blocks := streamDeltas(t, c, 0, removed+1)
	if _, ok := blocks[1]; !ok {
		t.Fatal("the stream did not start at block 1")
	}
	row := func(key, val uint64) []byte { return antelope.AppendUint64(antelope.AppendUint64(nil, key), val) }
	table := &protocol.ContractTable{Value: &protocol.ContractTableV0{Code: kv, Scope: kv, Table: kvRows, Payer: kv}}
	want := map[uint32][]deltaRow{
		created: {{"contract_table", true, table},
			{"contract_row", true, &protocol.ContractRow{Value: &protocol.ContractRowV0{Code: kv, Scope: kv, Table: kvRows, PrimaryKey: 1, Payer: kv, Value: row(1, 10)}}},
			{"contract_index64", true, &protocol.ContractIndex64{Value: &protocol.ContractIndex64V0{Code: kv, Scope: kv, Table: kvRows, PrimaryKey: 1, Payer: kv, SecondaryKey: 10}}}},
		modified: {
			{"contract_row", true, &protocol.ContractRow{Value: &protocol.ContractRowV0{Code: kv, Scope: kv, Table: kvRows, PrimaryKey: 1, Payer: kv, Value: row(1, 11)}}},
			{"contract_index64", true, &protocol.ContractIndex64{Value: &protocol.ContractIndex64V0{Code: kv, Scope: kv, Table: kvRows, PrimaryKey: 1, Payer: kv, SecondaryKey: 11}}}},
		removed: {{"contract_table", false, table},
			{"contract_row", false, &protocol.ContractRow{Value: &protocol.ContractRowV0{Code: kv, Scope: kv, Table: kvRows, PrimaryKey: 1, Payer: kv, Value: row(1, 11)}}},
			{"contract_index64", false, &protocol.ContractIndex64{Value: &protocol.ContractIndex64V0{Code: kv, Scope: kv, Table: kvRows, PrimaryKey: 1, Payer: kv, SecondaryKey: 11}}}},
	}
	for _, n := range []uint32{created, modified, flashed, removed} {
		if got, w := fmt.Sprint(blocks[n]), fmt.Sprint(want[n]); got != w {
			t.Errorf("block %d:\n got %s\nwant %s", n, got, w)
		}
	}
	// The first block holds the whole state of the genesis (the account
	// eosio); the deploy block the contract's account and ABI.
	if got := fmt.Sprint(blocks[1]); !strings.Contains(got, "account true") || len(blocks[1]) != 1 {
		t.Errorf("block 1: %s", got)
	}
	abi, _, err := cl.GetRawABI(context.Background(), kv)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, d := range blocks[deployed] {
		if a, ok := d.row.(*protocol.Account); ok && a.Value.(*protocol.AccountV0).Name == kv {
			found = bytes.Equal(a.Value.(*protocol.AccountV0).ABI, abi) && d.present
		}
	}
	if !found {
		t.Errorf("deploy block %d: no account delta with kv's ABI: %s", deployed, blocks[deployed])
	}
}

// A setabi in the middle of a stream changes the ABI in force: each
// transfer decodes with the ABI its contract had when it ran (the real
// eosio.token, redeployed by chain.Client.Deploy with a field renamed).
func TestSHiPSetABIMidStream(t *testing.T) {
	s := newShipTester(t, "wasm", chaintest.WithoutNetwork())
	ctx := context.Background()
	onChain := func() []byte {
		abi, _, err := s.cl.GetRawABI(ctx, eosioToken)
		if err != nil {
			t.Fatal(err)
		}
		return abi
	}
	initial := map[antelope.Name][]byte{eosioToken: onChain()}
	start := s.c.Head().Num + 1
	s.transfer(alice, bob, 1)
	renamed := bytes.ReplaceAll(contractFile(t, "eosio.token", "abi"), []byte(`"name": "memo"`), []byte(`"name": "note"`))
	if bytes.Equal(renamed, contractFile(t, "eosio.token", "abi")) {
		t.Fatal("no memo field to rename")
	}
	if _, err := s.cl.Deploy(ctx, s.keys[eosioToken], eosioToken, nil, renamed); err != nil {
		t.Fatal(err)
	}
	setabiBlock, newABI := s.c.Head().Num, onChain()
	s.transfer(alice, bob, 2)
	end := s.c.Head().Num + 1

	var got []string
	for ev, err := range s.c.SHiPClient().Stream(s.ctx(), ship.Request{Start: start, End: end, ABIs: initial}) {
		if err != nil {
			t.Fatal(err)
		}
		for a, err := range ev.Block.Actions(ship.OfContract(eosioToken), ship.Named(eosiotoken.ActionTransfer)) {
			if err != nil {
				t.Fatal(err)
			}
			abi, ok := a.ABI()
			if !ok {
				t.Fatal("no ABI in force")
			}
			codec, err := abicodec.New(abi)
			if err != nil {
				t.Fatal(err)
			}
			js, err := codec.ActionJSON(a.Name, a.Data)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(js))
		}
		if abi, _ := ev.Block.ABI(eosioToken); ev.Block.Num > setabiBlock && !bytes.Equal(abi, newABI) {
			t.Errorf("block %d: the ABI in force is not the new one", ev.Block.Num)
		}
	}
	if len(got) != 2 || !strings.Contains(got[0], `"memo":"t1"`) || !strings.Contains(got[1], `"note":"t2"`) {
		t.Errorf("%q", got)
	}
}

// Secondary index objects of the five types, as state history packs them:
// the keys as nodeos holds them (idx256 as two big-endian 128-bit words,
// which for a checksum256 key are its bytes).
func TestSHiPIndexDeltas(t *testing.T) {
	c := chaintest.New(chaintest.WithoutNetwork())
	t.Cleanup(c.Close)
	code, tbl := antelope.MustName("code"), antelope.MustName("tbl")
	// Uint128{Hi: 1, Lo: 2} is 2^64+2; a float128 key's 16 bytes as stored.
	sum := antelope.Checksum256{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}
	f128 := antelope.Float128{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0x3f} // 1.0
	c.SetTableRow(code, code, tbl, 7, []byte{7}, code, antelope.KeyUint64(70), antelope.KeyUint128(antelope.Uint128{Hi: 1, Lo: 2}),
		antelope.KeySHA256(sum), antelope.KeyFloat64(-2.5), antelope.KeyFloat128(f128))
	n := c.Produce().Num
	var got []string
	for _, r := range streamDeltas(t, c, n, n+1)[n] {
		got = append(got, r.String())
	}
	index := func(i uint64) string { return antelope.Name(uint64(tbl) | i).String() }
	want := []string{
		`contract_table true ["contract_table_v0",{"code":"code","scope":"code","table":"tbl","payer":"code"}]`,
		`contract_table true ["contract_table_v0",{"code":"code","scope":"code","table":"` + index(1) + `","payer":"code"}]`,
		`contract_table true ["contract_table_v0",{"code":"code","scope":"code","table":"` + index(2) + `","payer":"code"}]`,
		`contract_table true ["contract_table_v0",{"code":"code","scope":"code","table":"` + index(3) + `","payer":"code"}]`,
		`contract_table true ["contract_table_v0",{"code":"code","scope":"code","table":"` + index(4) + `","payer":"code"}]`,
		`contract_row true ["contract_row_v0",{"code":"code","scope":"code","table":"tbl","primary_key":7,"payer":"code","value":"07"}]`,
		`contract_index64 true ["contract_index64_v0",{"code":"code","scope":"code","table":"tbl","primary_key":7,"payer":"code","secondary_key":70}]`,
		`contract_index128 true ["contract_index128_v0",{"code":"code","scope":"code","table":"` + index(1) + `","primary_key":7,"payer":"code","secondary_key":"18446744073709551618"}]`,
		`contract_index256 true ["contract_index256_v0",{"code":"code","scope":"code","table":"` + index(2) + `","primary_key":7,"payer":"code","secondary_key":"` + sum.String() + `"}]`,
		`contract_index_double true ["contract_index_double_v0",{"code":"code","scope":"code","table":"` + index(3) + `","primary_key":7,"payer":"code","secondary_key":"-2.50000000000000000"}]`,
		`contract_index_long_double true ["contract_index_long_double_v0",{"code":"code","scope":"code","table":"` + index(4) + `","primary_key":7,"payer":"code","secondary_key":"0x` + fmt.Sprintf("%x", f128[:]) + `"}]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
