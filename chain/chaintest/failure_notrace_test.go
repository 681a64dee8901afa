package chaintest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
)

// A failed transaction leaves no trace, whatever failed it: no block, no
// receipt in state history, no status, no CPU, NET or RAM billed, no row
// — even the rows and RAM of the actions that ran before the one that
// failed (eosio.token's wasm transfer and a Go contract's write) — and
// the next transaction goes through.

// trapWasm is a contract whose apply traps at once (unreachable).
var trapWasm = []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	0x01, 0x07, 0x01, 0x60, 0x03, 0x7e, 0x7e, 0x7e, 0x00, // type (i64, i64, i64) -> ()
	0x03, 0x02, 0x01, 0x00, // function 0: type 0
	0x05, 0x03, 0x01, 0x00, 0x01, // memory: 1 page
	0x07, 0x09, 0x01, 0x05, 'a', 'p', 'p', 'l', 'y', 0x00, 0x00, // export apply
	0x0a, 0x05, 0x01, 0x03, 0x00, 0x00, 0x0b} // unreachable end

// failerABI is a Go contract's: each action fails its own way.
const failerABI = `{"version":"eosio::abi/1.1","structs":[{"name":"none","base":"","fields":[]}],
 "actions":[{"name":"panic","type":"none","ricardian_contract":""},{"name":"assert","type":"none","ricardian_contract":""},
  {"name":"sleep","type":"none","ricardian_contract":""},{"name":"stealram","type":"none","ricardian_contract":""}],
 "tables":[{"name":"failer","index_type":"i64","key_names":["id"],"key_types":["uint64"],"type":"none"}]}`

var (
	failer  = antelope.MustName("failer")
	trapper = antelope.MustName("trapper")
	looper  = antelope.MustName("looper")
)

const failDeadline = 100 * time.Millisecond

func failerContract(x *chaintest.Context) error {
	switch x.Action.Name.String() {
	case "panic":
		panic("the handler gave up")
	case "assert":
		return x.Assert(false, "the handler refuses")
	case "sleep":
		time.Sleep(failDeadline + 50*time.Millisecond)
	case "stealram":
		// A row billed to bob, who did not authorize the action.
		return x.Set(failer, failer, 1, []byte{1}, bob)
	}
	return nil
}

// failTester is a chain with the real eosio.token, the kv contract, and
// the failing contracts.
type failTester struct {
	*shipTester
	failed []antelope.Checksum256 // the ids of the failed transactions
	good   []antelope.Checksum256 // and of those executed
}

func newFailTester(t *testing.T) *failTester {
	s := newShipTester(t, "wasm", chaintest.WithoutNetwork(), chaintest.WithDeadline(failDeadline))
	s.c.NewAccount(kv)
	must(t, s.c.SetContract(kv, []byte(kvABI), kvContract))
	s.c.NewAccount(failer)
	must(t, s.c.SetContract(failer, []byte(failerABI), failerContract))
	s.c.NewAccount(trapper)
	must(t, s.c.DeployWASM(trapper, trapWasm, nil))
	s.c.NewAccount(looper)
	must(t, s.c.DeployWASM(looper, loopForever, nil))
	return &failTester{shipTester: s}
}

// writes are the actions a failing transaction runs before the one that
// fails: a wasm transfer (rows and RAM) and a Go contract's new row (RAM
// billed to kv).
func (f *failTester) writes(key uint64) []antelope.Action {
	f.t.Helper()
	tr, err := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(1), Memo: fmt.Sprint(key)}, antelope.Active(alice))
	if err != nil {
		f.t.Fatal(err)
	}
	set := antelope.Action{Account: kv, Name: antelope.MustName("set"), Authorization: []antelope.PermissionLevel{antelope.Active(alice)},
		Data: antelope.AppendUint64(antelope.AppendUint64(nil, key), key)}
	return []antelope.Action{tr, set}
}

// send signs and sends the actions as alice.
func (f *failTester) send(actions ...antelope.Action) (antelope.Checksum256, error) {
	f.t.Helper()
	ctx := f.t.Context()
	tx, _, err := f.cl.BuildTransaction(ctx, actions...)
	if err != nil {
		f.t.Fatal(err)
	}
	signed, err := f.cl.Sign(ctx, f.keys[alice], f.c.ChainID(), tx)
	if err != nil {
		f.t.Fatal(err)
	}
	id, err := signed.ID()
	if err != nil {
		f.t.Fatal(err)
	}
	_, err = f.cl.SendTransaction(ctx, signed)
	return id, err
}

// snapshot is what a failed transaction must leave as it was.
type snapshot struct {
	head       chaintest.Block
	executions int
	resources  map[antelope.Name]chaintest.Resources
	ram        map[antelope.Name]int64
	balances   map[antelope.Name]int64
	kvRows     string
	failerRows string
}

func (f *failTester) snapshot() snapshot {
	f.t.Helper()
	s := snapshot{head: f.c.Head(), executions: f.c.Stats().Executions, resources: map[antelope.Name]chaintest.Resources{},
		ram: map[antelope.Name]int64{}, balances: map[antelope.Name]int64{}}
	for _, n := range []antelope.Name{alice, bob, kv, failer, eosioToken} {
		s.resources[n] = resources(f.t, f.c, n)
		acct, err := f.cl.GetAccount(f.t.Context(), n)
		if err != nil {
			f.t.Fatal(err)
		}
		s.ram[n] = int64(acct.RAMUsage)
	}
	for _, n := range []antelope.Name{alice, bob} {
		s.balances[n] = balance(f.t, f.cl, n)
	}
	s.kvRows, s.failerRows = f.rows(kv, kvRows), f.rows(failer, failer)
	return s
}

// rows is a table's rows as get_table_rows gives them.
func (f *failTester) rows(code, table antelope.Name) string {
	f.t.Helper()
	page, err := f.cl.GetTableRows(f.t.Context(), antelope.TableQuery{Code: code, Scope: code, Table: table}, 100)
	if err != nil {
		f.t.Fatal(err)
	}
	out, _ := json.Marshal(page.Rows)
	return string(out)
}

func TestFailedTransactionLeavesNoTrace(t *testing.T) {
	f := newFailTester(t)
	kinds := []struct {
		name   string
		setup  func() // before the transaction (limits)
		last   *antelope.Action
		err    error  // errors.Is
		exName string // the exception's name
	}{
		{name: "Go handler panic", last: &antelope.Action{Account: failer, Name: antelope.MustName("panic")}, exName: "wasm_execution_error"},
		{name: "Go handler assert", last: &antelope.Action{Account: failer, Name: antelope.MustName("assert")}, err: chain.ErrAssert},
		{name: "Go handler past the deadline", last: &antelope.Action{Account: failer, Name: antelope.MustName("sleep")}, err: chain.ErrCPU},
		{name: "RAM billed without authority", last: &antelope.Action{Account: failer, Name: antelope.MustName("stealram")}, exName: "unauthorized_ram_usage_increase"},
		{name: "wasm trap", last: &antelope.Action{Account: trapper, Name: antelope.MustName("go")}, exName: "wasm_execution_error"},
		{name: "wasm assert", last: f.overdraw(), err: chain.ErrAssert},
		{name: "wasm past the deadline", last: &antelope.Action{Account: looper, Name: antelope.MustName("spin")}, err: chain.ErrCPU},
		{name: "CPU refused", setup: func() { must(t, f.c.SetResources(alice, 50, -1)) }, err: chain.ErrCPU},
		{name: "NET refused", setup: func() { must(t, f.c.SetResources(alice, -1, 16)) }, err: chain.ErrNET},
	}
	// One chain for all (a subtest may not fail the parent's helpers):
	// each failure is checked by its name.
	for i, k := range kinds {
		func() {
			if k.setup != nil {
				k.setup()
				defer func() { must(t, f.c.SetResources(alice, -1, -1)) }()
			}
			before := f.snapshot()
			acts := f.writes(uint64(100 + i))
			if k.last != nil {
				last := *k.last
				if last.Authorization == nil {
					last.Authorization = []antelope.PermissionLevel{antelope.Active(alice)}
				}
				acts = append(acts, last)
			}
			id, err := f.send(acts...)
			var ae *chain.APIError
			switch {
			case err == nil:
				t.Fatalf("%s: the transaction went through", k.name)
			case k.err != nil && !errors.Is(err, k.err), k.exName != "" && (!errors.As(err, &ae) || ae.Name != k.exName):
				t.Fatalf("%s: got %v, want %v %s", k.name, err, k.err, k.exName)
			}
			f.failed = append(f.failed, id)
			after := f.snapshot()
			if fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("%s: the failed transaction changed the chain:\nbefore %+v\nafter  %+v", k.name, before, after)
			}
			if st, err := f.cl.GetTransactionStatus(t.Context(), id); err != nil || st.State != chain.TxUnknown {
				t.Errorf("%s: status of the failed transaction: %+v, %v", k.name, st, err)
			}
			if k.setup != nil {
				must(t, f.c.SetResources(alice, -1, -1))
			}
			// The next transaction goes through, and writes what the
			// failed one could not.
			id, err = f.send(f.writes(uint64(200 + i))...) // other actions: the same ones at the same head would be the refused transaction again
			if err != nil {
				t.Fatalf("%s: the next transaction: %v", k.name, err)
			}
			f.good = append(f.good, id)
			if got := balance(t, f.cl, bob); got != before.balances[bob]+1 {
				t.Errorf("%s: bob has %d after the next transfer, had %d", k.name, got, before.balances[bob])
			}
		}()
	}
	f.checkHistory()
}

// overdraw is a transfer of more than alice has: eosio.token's assert.
func (f *failTester) overdraw() *antelope.Action {
	a, err := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(1 << 60), Memo: "too much"}, antelope.Active(alice))
	if err != nil {
		f.t.Fatal(err)
	}
	return &a
}

// checkHistory streams the whole chain: the executed transactions are
// there, each once, and no failed one.
func (f *failTester) checkHistory() {
	t := f.t
	t.Helper()
	seen := map[antelope.Checksum256]int{}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for ev, err := range f.c.SHiPClient().Stream(ctx, ship.Request{Start: 1, End: f.c.Head().Num + 1}) {
		if err != nil {
			t.Fatal(err)
		}
		for a, err := range ev.Block.Actions() {
			if err != nil {
				t.Fatal(err)
			}
			seen[a.TransactionID]++
		}
	}
	for _, id := range f.failed {
		if seen[id] != 0 {
			t.Errorf("failed transaction %s: %d actions in state history", id, seen[id])
		}
	}
	for _, id := range f.good {
		if seen[id] != 2 {
			t.Errorf("executed transaction %s: %d actions in state history, want 2", id, seen[id])
		}
	}
}
