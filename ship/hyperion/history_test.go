package hyperion_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/hyperion"
)

// tokenChain is a chain running eosio.token with a few holders.
type tokenChain struct {
	node   *chaintest.Chain
	keys   map[antelope.Name]antelope.PrivateKey
	users  []antelope.Name
	token  eosiotoken.Contract
	issuer antelope.Name
}

func newTokenChain(t testing.TB, users int) *tokenChain {
	t.Helper()
	node := chaintest.New(chaintest.WithManualFinality())
	t.Cleanup(node.Close)
	tc := &tokenChain{node: node, keys: map[antelope.Name]antelope.PrivateKey{}, token: eosiotoken.Contract{Account: antelope.MustName("eosio.token")}}
	tc.keys[tc.token.Account] = node.NewAccount(tc.token.Account)
	if err := node.DeployToken(tc.token.Account); err != nil {
		t.Fatal(err)
	}
	for i := range users {
		n := antelope.MustName(fmt.Sprintf("user%c", 'a'+i))
		tc.keys[n] = node.NewAccount(n)
		tc.users = append(tc.users, n)
	}
	tc.issuer = tc.users[0]
	tc.send(t, tc.token.Account, must(tc.token.Create(eosiotoken.Create{Issuer: tc.issuer, MaximumSupply: antelope.MustAsset("1000000.0000 TOK")}, antelope.Active(tc.token.Account))))
	tc.send(t, tc.issuer, must(tc.token.Issue(eosiotoken.Issue{To: tc.issuer, Quantity: antelope.MustAsset("100000.0000 TOK")}, antelope.Active(tc.issuer))))
	for _, u := range tc.users[1:] {
		tc.transfer(t, tc.issuer, u, 1000_0000)
	}
	return tc
}

func must(a antelope.Action, err error) antelope.Action {
	if err != nil {
		panic(err)
	}
	return a
}

func (tc *tokenChain) send(t testing.TB, signer antelope.Name, a antelope.Action) uint32 {
	t.Helper()
	res, err := tc.node.Client().Transact(context.Background(), tc.keys[signer], a)
	if err != nil {
		t.Fatal(err)
	}
	return res.BlockNum
}

func (tc *tokenChain) transfer(t testing.TB, from, to antelope.Name, units int64) uint32 {
	t.Helper()
	q := antelope.Asset{Amount: units, Symbol: antelope.MustSymbol("4,TOK")}
	return tc.send(t, from, must(tc.token.Transfer(eosiotoken.Transfer{From: from, To: to, Quantity: q, Memo: fmt.Sprint("m", units)}, antelope.Active(from))))
}

// randomTransfers sends n transfers between random holders.
func (tc *tokenChain) randomTransfers(t testing.TB, r *rand.Rand, n int) {
	for range n {
		from, to := tc.users[r.IntN(len(tc.users))], tc.users[r.IntN(len(tc.users))]
		if from == to {
			continue
		}
		tc.transfer(t, from, to, 1+r.Int64N(500))
	}
}

// item is what both sources must agree on for an action.
type item struct {
	Block                   uint32
	BlockID, Trx            antelope.Checksum256
	Time                    antelope.BlockTimestamp
	Receiver                antelope.Name
	Seq, RecvSeq            uint64
	Ordinal, CreatorOrdinal uint32
	Data                    eosiotoken.Transfer
	Packed                  string
	Auth, AuthSeq           string // Authorization() and AuthSequence(), printed
}

func itemOf(ev ship.ActionEvent[eosiotoken.Transfer]) item {
	t := ev.Trace
	return item{Block: t.Block.Num, BlockID: t.Block.ID, Trx: t.TransactionID, Time: t.Block.Timestamp, Receiver: t.Receiver,
		Seq: t.GlobalSequence, RecvSeq: t.RecvSequence, Ordinal: t.ActionOrdinal, CreatorOrdinal: t.CreatorActionOrdinal,
		Data: ev.Data, Packed: string(t.Data), Auth: fmt.Sprint(t.Authorization()), AuthSeq: fmt.Sprint(t.AuthSequence())}
}

type row struct {
	Block        uint32
	Scope, Payer antelope.Name
	PK           uint64
	Present      bool
	Balance      antelope.Asset
	Packed       string
}

func rowOf(ev ship.RowEvent[eosiotoken.Account]) row {
	c := ev.Change
	r := row{Block: c.Block.Num, Scope: c.Scope, Payer: c.Payer, PK: c.PrimaryKey, Present: c.Present, Packed: string(c.Value)}
	if ev.New != nil {
		r.Balance = ev.New.Balance
	} else if ev.Old != nil {
		r.Balance = ev.Old.Balance
	}
	return r
}

// fromSHiP is what one handler makes of the chain's state history.
func fromSHiP(t *testing.T, node *chaintest.Chain, opts ...ship.ItemOption) ([]item, []row) {
	t.Helper()
	var items []item
	var rows []row
	ctx := context.Background()
	end := node.Head().Num + 1
	for ev, err := range node.SHiPClient().Stream(ctx, ship.Request{Start: 1, End: end}) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Undo != nil {
			t.Fatal("an undo in a stream begun after the fork")
		}
		for a, err := range ship.Actions(ev.Block, eosiotoken.Actions.Transfer, opts...) {
			if err != nil {
				t.Fatal(err)
			}
			it := itemOf(a)
			if a.Trace.IsNotification() { // Hyperion keeps no ordinals of notifications
				it.Ordinal, it.CreatorOrdinal = 0, 0
			}
			items = append(items, it)
		}
		for r, err := range ship.Rows(ev.Block, eosiotoken.TableAccounts) {
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, rowOf(r))
		}
	}
	return items, rows
}

// fromHistory is what the same handler makes of the Hyperion API.
func fromHistory(t *testing.T, h *hyperion.Client, opts ...hyperion.ItemOption) ([]item, []row) {
	t.Helper()
	var items []item
	var rows []row
	ctx := context.Background()
	for a, err := range hyperion.Actions(ctx, h, eosiotoken.Actions.Transfer, hyperion.ActionFilter{}, opts...) {
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, itemOf(a))
	}
	for r, err := range hyperion.Rows(ctx, h, eosiotoken.TableAccounts, hyperion.DeltaFilter{}) {
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, rowOf(r))
	}
	return items, rows
}

// TestHistoryEqualsStream: every typed transfer and accounts row that the
// Hyperion API of a chain gives equals what its state history gave the
// same handler, with and without notifications, after a fork that the
// index had already seen.
func TestHistoryEqualsStream(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tc := newTokenChain(t, 4)
	tc.randomTransfers(t, r, 12)
	srv := httptest.NewServer(tc.node.Hyperion())
	defer srv.Close()
	h := hyperion.New(srv.URL, hyperion.WithPageSize(5))

	before, _ := fromHistory(t, h)
	forkAt := tc.node.Head().Num - 4
	if err := tc.node.Rollback(forkAt); err != nil {
		t.Fatal(err)
	}
	tc.randomTransfers(t, r, 6)

	for _, notif := range []bool{false, true} {
		var so []ship.ItemOption
		var ho []hyperion.ItemOption
		if notif {
			so, ho = []ship.ItemOption{ship.WithNotifications()}, []hyperion.ItemOption{hyperion.WithNotifications()}
		}
		wantItems, wantRows := fromSHiP(t, tc.node, so...)
		gotItems, gotRows := fromHistory(t, h, ho...)
		if len(wantItems) < 10 {
			t.Fatalf("only %d transfers", len(wantItems))
		}
		if !slices.Equal(gotItems, wantItems) {
			t.Errorf("notifications %v: history gives %d transfers, the stream %d", notif, len(gotItems), len(wantItems))
			for i := range min(len(gotItems), len(wantItems)) {
				if gotItems[i] != wantItems[i] {
					t.Errorf("first difference at %d:\n got %+v\nwant %+v", i, gotItems[i], wantItems[i])
					break
				}
			}
		}
		if !slices.Equal(gotRows, wantRows) {
			t.Errorf("history gives %d rows, the stream %d", len(gotRows), len(wantRows))
			for i := range min(len(gotRows), len(wantRows)) {
				if gotRows[i] != wantRows[i] {
					t.Errorf("first difference at %d:\n got %+v\nwant %+v", i, gotRows[i], wantRows[i])
					break
				}
			}
		}
	}
	// Filters: one holder's rows, by scope and by primary key.
	_, all := fromSHiP(t, tc.node)
	who := tc.users[1]
	var want []row
	for _, r := range all {
		if r.Scope == who {
			want = append(want, r)
		}
	}
	for _, f := range []hyperion.DeltaFilter{{Scope: who}, {Scope: who, PrimaryKey: uint64(antelope.MustSymbolCode("TOK")), HasPrimaryKey: true}} {
		var got []row
		for ev, err := range hyperion.Rows(context.Background(), h, eosiotoken.TableAccounts, f) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, rowOf(ev))
		}
		if len(want) < 2 || !slices.Equal(got, want) {
			t.Errorf("rows of %s (%+v): %d, want %d", who, f, len(got), len(want))
		}
	}
	// The undone transfers are gone: some of before's are not in the index.
	after, _ := fromHistory(t, h)
	gone := 0
	for _, b := range before {
		if b.Block > forkAt && !slices.Contains(after, b) {
			gone++
		}
	}
	if gone == 0 {
		t.Error("no transfer of the undone blocks disappeared")
	}
}
