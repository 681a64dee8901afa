package chaintest_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/protocol"
)

// State history served from the chain's own blocks: what the ship client
// decodes is what the chain executed.

// sent is a transfer the chain executed, as the test sent it.
type sent struct {
	block uint32
	id    antelope.Checksum256
	data  eosiotoken.Transfer
}

// shipTester sends transfers on a token chain and remembers which the
// chain's current branch holds.
type shipTester struct {
	t    *testing.T
	c    *chaintest.Chain
	cl   *chain.Client
	keys map[antelope.Name]antelope.PrivateKey
	sent []sent
	memo int
}

func newShipTester(t *testing.T, impl string, opts ...chaintest.Option) *shipTester {
	c, keys := tokenChainOf(t, impl, opts...)
	// Transactions expire two minutes after the chain's time, which runs
	// ahead of the clock by 500 ms a block.
	cl := c.Client(chain.WithClock(func() time.Time { return c.Head().Time }))
	return &shipTester{t: t, c: c, cl: cl, keys: keys}
}

// transfer sends a transfer (each with a memo of its own, so that no two
// are the same transaction) and returns its block.
func (s *shipTester) transfer(from, to antelope.Name, amount int64) uint32 {
	s.t.Helper()
	s.memo++
	tr := eosiotoken.Transfer{From: from, To: to, Quantity: wax(amount), Memo: fmt.Sprintf("t%d", s.memo)}
	a, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(tr, antelope.Active(from))
	res, err := s.cl.Transact(context.Background(), s.keys[from], a)
	if err != nil {
		s.t.Fatal(err)
	}
	s.sent = append(s.sent, sent{block: res.BlockNum, id: res.ID, data: tr})
	return res.BlockNum
}

// rolledBack forgets the transfers of the blocks above n.
func (s *shipTester) rolledBack(n uint32) {
	s.sent = slices.DeleteFunc(s.sent, func(x sent) bool { return x.block > n })
}

func (s *shipTester) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	s.t.Cleanup(cancel)
	return ctx
}

func TestSHiPServesTheChainsBlocks(t *testing.T) {
	for _, impl := range tokenImpls {
		t.Run(impl+"/http", func(t *testing.T) { shipServesBlocks(t, impl) })
		t.Run(impl+"/in-process", func(t *testing.T) { shipServesBlocks(t, impl, chaintest.WithoutNetwork()) })
	}
}

func shipServesBlocks(t *testing.T, impl string, opts ...chaintest.Option) {
	s := newShipTester(t, impl, opts...)
	s.transfer(alice, bob, 5_00000000)
	s.transfer(bob, alice, 1_00000000)
	s.transfer(alice, bob, 2_50000000)
	end := s.c.Head().Num + 1

	var got []sent
	balances := map[antelope.Name]antelope.Asset{}
	var lastSeq uint64
	recv, auth := map[antelope.Name]uint64{}, map[antelope.Name]uint64{}
	for ev, err := range s.c.SHiPClient().Stream(s.ctx(), ship.Request{Start: 1, End: end}) {
		if err != nil {
			t.Fatal(err)
		}
		b := ev.Block
		want := s.c.Head()
		if b.Num == want.Num && b.ID != want.ID {
			t.Errorf("head %d: id %v, want %v", b.Num, b.ID, want.ID)
		}
		decodeWhole(t, b)
		for a, err := range ship.Actions(b, eosiotoken.Actions.Transfer) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, sent{block: b.Num, id: a.Trace.TransactionID, data: a.Data})
		}
		// Every action's receipt, notifications included, in execution
		// order: the chain's global sequence, the receiver's and each
		// authorizer's own, with no gap from the first block on.
		for a, err := range b.Actions(ship.WithNotifications()) {
			if err != nil {
				t.Fatal(err)
			}
			if a.GlobalSequence != lastSeq+1 || a.RecvSequence != recv[a.Receiver]+1 {
				t.Errorf("block %d: %s at %s: global sequence %d after %d, recv sequence %d after %d", b.Num, a.Name, a.Receiver,
					a.GlobalSequence, lastSeq, a.RecvSequence, recv[a.Receiver])
			}
			lastSeq, recv[a.Receiver] = a.GlobalSequence, a.RecvSequence
			for n, seq := range a.AuthSequence() {
				if seq != auth[n]+1 {
					t.Errorf("block %d: %s: %s's auth sequence %d after %d", b.Num, a.Name, n, seq, auth[n])
				}
				auth[n] = seq
			}
			if want := map[string]uint32{"go": 0, "wasm": 1}[impl]; a.Contract == eosioToken && (a.CodeSequence != want || a.ABISequence != want) {
				t.Errorf("block %d: code sequence %d, ABI sequence %d", b.Num, a.CodeSequence, a.ABISequence)
			}
			if a.IsNotification() != (a.Receiver != eosioToken) || a.HasReceipt != true {
				t.Errorf("block %d: %s at %s", b.Num, a.Name, a.Receiver)
			}
		}
		for r, err := range ship.Rows(b, eosiotoken.TableAccounts) {
			if err != nil {
				t.Fatal(err)
			}
			if r.New != nil {
				balances[r.Change.Scope] = r.New.Balance
			} else {
				delete(balances, r.Change.Scope)
			}
		}
	}
	if !slices.Equal(got, s.sent) {
		t.Errorf("transfers streamed:\n%v\nexecuted:\n%v", got, s.sent)
	}
	if balances[alice] != wax(993_50000000) || balances[bob] != wax(6_50000000) || len(balances) != 2 {
		t.Errorf("balances %v", balances)
	}
}

// decodeWhole decodes a block's parts with ship/protocol's types, which
// must read every byte.
func decodeWhole(t *testing.T, b *ship.Block) {
	t.Helper()
	var sb protocol.SignedBlock
	if err := antelope.UnmarshalBinary(b.SignedBlock, &sb); err != nil {
		t.Fatalf("block %d: signed block: %v", b.Num, err)
	}
	if sb.Previous != b.Previous || sb.Timestamp != b.Timestamp {
		t.Errorf("block %d: header %v %v", b.Num, sb.Previous, sb.Timestamp)
	}
	d := antelope.NewDecoder(b.Traces)
	n, err := d.VarUint32()
	for i := uint32(0); err == nil && i < n; i++ {
		var tt protocol.TransactionTrace
		err = tt.DecodeBinary(d)
	}
	if err == nil {
		err = d.Finish()
	}
	if err != nil {
		t.Fatalf("block %d: traces: %v", b.Num, err)
	}
	d = antelope.NewDecoder(b.Deltas)
	n, err = d.VarUint32()
	for i := uint32(0); err == nil && i < n; i++ {
		var td protocol.TableDelta
		if err = td.DecodeBinary(d); err == nil {
			for _, r := range td.Value.(*protocol.TableDeltaV0).Rows {
				if _, err = protocol.DecodeTableRow(td.Value.(*protocol.TableDeltaV0).Name, r.Data); err != nil {
					break
				}
			}
		}
	}
	if err == nil {
		err = d.Finish()
	}
	if err != nil {
		t.Fatalf("block %d: deltas: %v", b.Num, err)
	}
}

// The traces have the shape spring gives them, as in a real capture (a
// WAX testnet block, ship/testdata): transaction_trace_v0 with its partial
// transaction and no RAM delta, exception or failed deferred trace;
// action_trace_v1 with an action_receipt_v0.
func TestSHiPTraceShapeAsNodeos(t *testing.T) {
	msg, err := os.ReadFile("../../ship/testdata/waxdev-25077-return_value-result.bin")
	if err != nil {
		t.Fatal(err)
	}
	var res protocol.Result
	if err := antelope.UnmarshalBinary(msg, &res); err != nil {
		t.Fatal(err)
	}
	want := traceShapes(t, *res.Value.(*protocol.GetBlocksResultV0).Traces)

	s := newShipTester(t, "wasm", chaintest.WithoutNetwork())
	n := s.transfer(alice, bob, 1)
	b, _ := s.c.BlockSource().Block(n)
	if got := traceShapes(t, b.Traces); !slices.Equal(got, want) {
		t.Errorf("chaintest's traces:\n%q\na capture's:\n%q", got, want)
	}
}

// traceShapes describes which variants and optional fields a
// transaction_trace[] holds, each distinct description once, sorted.
func traceShapes(t *testing.T, traces []byte) []string {
	t.Helper()
	d := antelope.NewDecoder(traces)
	n, err := d.VarUint32()
	if err != nil {
		t.Fatal(err)
	}
	present := func(ok bool) string { return map[bool]string{true: "set", false: "null"}[ok] }
	seen := map[string]bool{}
	for range n {
		var tt protocol.TransactionTrace
		if err := tt.DecodeBinary(d); err != nil {
			t.Fatal(err)
		}
		v := tt.Value.(*protocol.TransactionTraceV0)
		partial := "null"
		if v.Partial != nil {
			partial = fmt.Sprintf("%T", v.Partial.Value)
		}
		seen[fmt.Sprintf("transaction %T status %d partial %s ram_delta %s except %s error_code %s failed_dtrx %s", v, v.Status,
			partial, present(v.AccountRAMDelta != nil), present(v.Except != nil), present(v.ErrorCode != nil),
			present(v.FailedDtrxTrace != nil))] = true
		for _, at := range v.ActionTraces {
			a, ok := at.Value.(*protocol.ActionTraceV1)
			receipt := "null"
			if ok && a.Receipt != nil {
				receipt = fmt.Sprintf("%T", a.Receipt.Value)
			}
			seen[fmt.Sprintf("action %T receipt %s except %s error_code %s", at.Value, receipt,
				present(ok && a.Except != nil), present(ok && a.ErrorCode != nil))] = true
		}
	}
	var out []string
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Closing the chain ends its readers' connections (and Close does not wait
// for them): a stream then fails to reconnect and ends with an error.
func TestSHiPClose(t *testing.T) {
	for _, opts := range [][]chaintest.Option{nil, {chaintest.WithoutNetwork()}} {
		c := chaintest.New(opts...)
		c.ProduceBlocks(3)
		done := make(chan error, 1)
		go func() {
			for ev, err := range c.SHiPClient(ship.WithMaxReconnects(3)).Stream(context.Background(), ship.Request{Start: 1}) {
				if err != nil {
					done <- err
					return
				}
				if ev.Block.Num == 2 {
					c.Close()
				}
			}
			done <- nil
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Error("the stream ended without an error")
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the stream did not end")
		}
	}
}

// An action's whole context as the stream gives it: a notification and an
// inline action as traces of their own (receiver, ordinals, creator
// ordinals, execution order), authorization, console output that is not
// UTF-8, a return value, the transaction's id and status.
func TestSHiPActionContext(t *testing.T) {
	c := chaintest.New(chaintest.WithoutNetwork())
	t.Cleanup(c.Close)
	echo := antelope.MustName("echo")
	key := c.NewAccount(echo)
	c.NewAccount(alice)
	const abi = `{"version":"eosio::abi/1.2","structs":[{"name":"hello","base":"","fields":[{"name":"who","type":"name"}]},` +
		`{"name":"log","base":"","fields":[]}],"actions":[{"name":"hello","type":"hello","ricardian_contract":""},` +
		`{"name":"log","type":"log","ricardian_contract":""}],"action_results":[{"name":"hello","result_type":"uint64"}]}`
	hello, logName := antelope.MustName("hello"), antelope.MustName("log")
	err := c.SetContract(echo, []byte(abi), func(x *chaintest.Context) error {
		if x.Action.Name == logName {
			x.Print("logged")
			return nil
		}
		var who antelope.Name
		if err := x.Decode(&who); err != nil {
			return err
		}
		x.Print("hi \xff")
		x.RequireRecipient(who)
		if err := x.SendInline(antelope.Action{Account: echo, Name: logName,
			Authorization: []antelope.PermissionLevel{antelope.Active(echo)}, Data: []byte{}}); err != nil {
			return err
		}
		return x.Return(u64(42))
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Client().Transact(context.Background(), key, antelope.Action{Account: echo, Name: hello,
		Authorization: []antelope.PermissionLevel{antelope.Active(echo)}, Data: antelope.AppendUint64(nil, uint64(alice))})
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		name, receiver         antelope.Name
		ordinal, creator       uint32
		console, ret           string
		auth                   []antelope.PermissionLevel
		id                     antelope.Checksum256
		status                 ship.TransactionStatus
		notification, receipts bool
	}
	var got []seen
	for ev, err := range c.SHiPClient().Stream(context.Background(), ship.Request{Start: res.BlockNum, End: res.BlockNum + 1}) {
		if err != nil {
			t.Fatal(err)
		}
		for a, err := range ev.Block.Actions(ship.WithNotifications()) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, seen{a.Name, a.Receiver, a.ActionOrdinal, a.CreatorActionOrdinal, string(a.Console), string(a.ReturnValue),
				a.Authorization(), a.TransactionID, a.TransactionStatus, a.IsNotification(), a.HasReceipt})
		}
	}
	auth := []antelope.PermissionLevel{antelope.Active(echo)}
	want := []seen{
		{hello, echo, 1, 0, "hi \xff", string(antelope.AppendUint64(nil, 42)), auth, res.ID, ship.Executed, false, true},
		{hello, alice, 2, 1, "", "", auth, res.ID, ship.Executed, true, true},
		{logName, echo, 3, 1, "logged", "", auth, res.ID, ship.Executed, false, true},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}

// u64 is a uint64 action result.
type u64 uint64

func (v u64) AppendBinary(b []byte) ([]byte, error) { return antelope.AppendUint64(b, uint64(v)), nil }
