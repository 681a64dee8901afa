package hyperion_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship/hyperion"
)

var transfers = hyperion.ActionFilter{Contract: antelope.MustName("eosio.token"), Action: antelope.MustName("transfer")}

func sequences(t *testing.T, h *hyperion.Client, f hyperion.ActionFilter) []uint64 {
	t.Helper()
	var out []uint64
	for a, err := range h.Actions(context.Background(), f) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, a.GlobalSequence)
	}
	return out
}

// TestActionsWhileTheIndexGrows: transfers made while a reader pages
// through get_actions are neither dropped nor repeated: ascending, the
// reader sees exactly a prefix of the final history (and reaches the new
// ones); descending, exactly the history as of its first page.
func TestActionsWhileTheIndexGrows(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	tc := newTokenChain(t, 3)
	tc.randomTransfers(t, r, 8)
	// The node refuses more than 3 a page: the client takes its maximum.
	srv := httptest.NewServer(tc.node.Hyperion(chaintest.HyperionLimits(3, 3)))
	defer srv.Close()
	h := hyperion.New(srv.URL, hyperion.WithPageSize(100))
	ctx := context.Background()

	initial := sequences(t, h, transfers)
	var asc []uint64
	for a, err := range h.Actions(ctx, transfers) {
		if err != nil {
			t.Fatal(err)
		}
		asc = append(asc, a.GlobalSequence)
		if len(asc)%2 == 0 && len(asc) < 30 {
			tc.randomTransfers(t, r, 2) // the index grows under the reader
		}
	}
	final := sequences(t, h, transfers)
	if len(asc) <= len(initial) || !slices.Equal(asc, final[:len(asc)]) {
		t.Fatalf("ascending while growing: %v\nfinal history: %v", asc, final)
	}

	desc := hyperion.ActionFilter{Contract: transfers.Contract, Action: transfers.Action, Order: hyperion.Desc}
	var got []uint64
	for a, err := range h.Actions(ctx, desc) {
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 {
			final = sequences(t, h, transfers) // the history as the first page saw it
		}
		got = append(got, a.GlobalSequence)
		if len(got)%2 == 0 {
			tc.randomTransfers(t, r, 1)
		}
	}
	slices.Reverse(final)
	if !slices.Equal(got, final) {
		t.Fatalf("descending while growing: %v\nwant %v", got, final)
	}
}

// TestRowsWhileTheIndexGrows: the same for get_deltas, which Hyperion
// sorts by block only: pages of 2 rows cut blocks of 2 or more rows.
func TestRowsWhileTheIndexGrows(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	tc := newTokenChain(t, 4)
	tc.randomTransfers(t, r, 6)
	srv := httptest.NewServer(tc.node.Hyperion())
	defer srv.Close()
	h := hyperion.New(srv.URL, hyperion.WithPageSize(2))
	ctx := context.Background()
	type key struct {
		block uint32
		scope antelope.Name
		pk    uint64
	}
	read := func(grow bool) []key {
		var out []key
		for ev, err := range hyperion.Rows(ctx, h, eosiotoken.TableAccounts, hyperion.DeltaFilter{}) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, key{ev.Change.Block.Num, ev.Change.Scope, ev.Change.PrimaryKey})
			if grow && len(out)%3 == 0 && len(out) < 30 {
				tc.randomTransfers(t, r, 1)
			}
		}
		return out
	}
	initial := read(false)
	got := read(true)
	final := read(false)
	if len(got) <= len(initial) || !slices.Equal(got, final[:len(got)]) {
		t.Fatalf("rows while growing: %v\nfinal: %v", got, final)
	}
	// Newest first, in pages of 2: the same rows, blocks never rising.
	var desc []key
	for ev, err := range hyperion.Rows(ctx, h, eosiotoken.TableAccounts, hyperion.DeltaFilter{Order: hyperion.Desc}) {
		if err != nil {
			t.Fatal(err)
		}
		k := key{ev.Change.Block.Num, ev.Change.Scope, ev.Change.PrimaryKey}
		if n := len(desc); n > 0 && desc[n-1].block < k.block {
			t.Fatalf("block %d after %d, newest first", k.block, desc[n-1].block)
		}
		desc = append(desc, k)
	}
	byKey := func(a, b key) int {
		return cmp.Or(cmp.Compare(a.block, b.block), cmp.Compare(a.scope, b.scope), cmp.Compare(a.pk, b.pk))
	}
	slices.SortFunc(desc, byKey)
	slices.SortFunc(final, byKey)
	if !slices.Equal(desc, final) {
		t.Fatalf("newest first: %v\nwant %v", desc, final)
	}
}

// hostile serves get_actions or get_deltas with answer(request number,
// query).
func hostile(t *testing.T, answer func(n int, q url.Values) string) *hyperion.Client {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		w.Write([]byte(answer(n, r.URL.Query())))
	}))
	t.Cleanup(srv.Close)
	return hyperion.New(srv.URL, hyperion.WithPageSize(2))
}

func actionJSON(gs uint64, block uint32, contract string) string {
	return fmt.Sprintf(`{"@timestamp":"2024-05-01T12:00:00.000","block_num":%d,"block_id":"%064x","trx_id":"%064x","act":{"account":"%s","name":"transfer","authorization":[],"data":{}},"receipts":[{"receiver":"%s","global_sequence":%d,"recv_sequence":1}],"global_sequence":%d}`,
		block, block, gs, contract, contract, gs, gs)
}

func actionsPage(acts ...string) string { return `{"actions":[` + strings.Join(acts, ",") + `]}` }

func deltaJSON(block uint32, scope string) string {
	return fmt.Sprintf(`{"timestamp":"2024-05-01T12:00:00.000","present":1,"code":"eosio.token","scope":"%s","table":"accounts","primary_key":"1","payer":"%s","block_num":%d,"block_id":"%064x","data":{"balance":"1.0000 EOS"}}`, scope, scope, block, block)
}

func deltasPage(ds ...string) string { return `{"deltas":[` + strings.Join(ds, ",") + `]}` }

// TestHostileNodes: a node that breaks paging ends the sequence with an
// error instead of looping, repeating or skipping.
func TestHostileNodes(t *testing.T) {
	ctx := context.Background()
	tok := "eosio.token"
	cases := map[string]func(n int, q url.Values) string{
		"same page forever": func(int, url.Values) string {
			return actionsPage(actionJSON(10, 1, tok), actionJSON(11, 1, tok))
		},
		"cursor backwards": func(n int, _ url.Values) string {
			if n == 1 {
				return actionsPage(actionJSON(10, 1, tok), actionJSON(11, 1, tok))
			}
			return actionsPage(actionJSON(5, 1, tok), actionJSON(6, 1, tok))
		},
		"more than asked": func(int, url.Values) string {
			return actionsPage(actionJSON(10, 1, tok), actionJSON(11, 1, tok), actionJSON(12, 1, tok))
		},
		"out of order": func(int, url.Values) string {
			return actionsPage(actionJSON(11, 1, tok), actionJSON(10, 1, tok))
		},
		"another contract": func(int, url.Values) string {
			return actionsPage(actionJSON(10, 1, "evil"))
		},
	}
	for name, answer := range cases {
		t.Run(name, func(t *testing.T) {
			var err error
			n := 0
			for _, err = range hostile(t, answer).Actions(ctx, transfers) {
				if n++; err != nil || n > 100 {
					break
				}
			}
			var me *hyperion.MisbehaviorError
			if !errors.As(err, &me) {
				t.Fatalf("after %d items: %v", n, err)
			}
		})
	}
	deltaCases := map[string]func(n int, q url.Values) string{
		"same rows forever": func(int, url.Values) string {
			return deltasPage(deltaJSON(7, "alice"), deltaJSON(7, "bob"))
		},
		"blocks backwards": func(n int, q url.Values) string {
			if n == 1 {
				return deltasPage(deltaJSON(7, "alice"), deltaJSON(8, "bob"))
			}
			return deltasPage(deltaJSON(3, "carol"), deltaJSON(4, "dave"))
		},
		"another table": func(int, url.Values) string {
			return strings.Replace(deltasPage(deltaJSON(7, "alice")), `"accounts"`, `"stat"`, 1)
		},
	}
	for name, answer := range deltaCases {
		t.Run(name, func(t *testing.T) {
			var err error
			n := 0
			for _, err = range hostile(t, answer).Deltas(ctx, hyperion.DeltaFilter{Code: antelope.MustName("eosio.token"), Table: antelope.MustName("accounts")}) {
				if n++; err != nil || n > 100 {
					break
				}
			}
			var me *hyperion.MisbehaviorError
			if !errors.As(err, &me) {
				t.Fatalf("after %d items: %v", n, err)
			}
		})
	}
	t.Run("huge answer", func(t *testing.T) {
		big := actionsPage(actionJSON(10, 1, tok)) + strings.Repeat(" ", hyperion.MaxResponseSize)
		var err error
		for _, err = range hostile(t, func(int, url.Values) string { return big }).Actions(ctx, transfers) {
			break
		}
		var he *hyperion.Error
		if !errors.As(err, &he) || !strings.Contains(err.Error(), "larger than") {
			t.Fatalf("%v", err)
		}
	})
}

// TestNotificationCopies: Hyperion 4.x's copies of an action stored once
// per notified account, with all its receipts or with their own, give each
// receipt once.
func TestNotificationCopies(t *testing.T) {
	doc := func(gs int, receipts string) string {
		return fmt.Sprintf(`{"@timestamp":"2024-05-01T12:00:00.000","block_num":7,"block_id":"%064x","trx_id":"%064x","act":{"account":"eosio.token","name":"transfer","authorization":[],"data":{"from":"alice","to":"bob","quantity":"1.0000 EOS","memo":""}},"receipts":[%s],"global_sequence":%d}`, 7, 1, receipts, gs)
	}
	contract := `{"receiver":"eosio.token","global_sequence":10,"recv_sequence":1}`
	alice := `{"receiver":"alice","global_sequence":11,"recv_sequence":1}`
	bob := `{"receiver":"bob","global_sequence":12,"recv_sequence":1}`
	all := contract + "," + alice + "," + bob
	for name, page := range map[string]string{
		"copies with every receipt": actionsPage(doc(10, all), doc(11, all), doc(12, all)),
		"copies with their own":     actionsPage(doc(10, contract), doc(11, alice), doc(12, bob)),
	} {
		for _, notif := range []bool{false, true} {
			h := hostile(t, func(n int, q url.Values) string {
				if n > 1 {
					return actionsPage()
				}
				return page
			})
			h = hyperion.New(h.URL(), hyperion.WithPageSize(10))
			var opts []hyperion.ItemOption
			if notif {
				opts = append(opts, hyperion.WithNotifications())
			}
			var seqs []uint64
			for ev, err := range hyperion.Actions(context.Background(), h, eosiotoken.Actions.Transfer, hyperion.ActionFilter{}, opts...) {
				if err != nil {
					t.Fatal(err)
				}
				seqs = append(seqs, ev.Trace.GlobalSequence)
			}
			want := []uint64{10}
			if notif {
				want = []uint64{10, 11, 12}
			}
			if !slices.Equal(seqs, want) {
				t.Errorf("%s, notifications %v: %v, want %v", name, notif, seqs, want)
			}
		}
	}
}

// TestDeltasPagingModel: random blocks of 0 to 5 rows, read in random page
// sizes in both orders from a server with get_deltas' semantics (by block,
// skip and limit): every row exactly once, in block order.
func TestDeltasPagingModel(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	runs := 60
	if testing.Short() {
		runs = 15
	}
	for run := range runs {
		var all []string // rows as JSON, by block
		var blocks []uint32
		for b := uint32(1); b <= uint32(2+r.IntN(12)); b++ {
			for i := range r.IntN(6) {
				all = append(all, deltaJSON(b, fmt.Sprintf("user%c", 'a'+i)))
				blocks = append(blocks, b)
			}
		}
		size := 1 + r.IntN(4)
		for _, order := range []hyperion.Order{hyperion.Asc, hyperion.Desc} {
			h := hostile(t, func(_ int, q url.Values) string {
				after, _ := strconv.Atoi(q.Get("after"))
				before, _ := strconv.Atoi(q.Get("before"))
				skip, _ := strconv.Atoi(q.Get("skip"))
				limit, _ := strconv.Atoi(q.Get("limit"))
				var hits []string
				for i, d := range all {
					if int(blocks[i]) >= after && (before == 0 || int(blocks[i]) <= before) {
						hits = append(hits, d)
					}
				}
				if q.Get("sort") == "desc" {
					// Elasticsearch sorts by block only: within a block any order.
					slices.Reverse(hits)
				}
				if skip > len(hits) {
					skip = len(hits)
				}
				return deltasPage(hits[skip:min(len(hits), skip+limit)]...)
			})
			h = hyperion.New(h.URL(), hyperion.WithPageSize(size))
			var got []string
			for d, err := range h.Deltas(context.Background(), hyperion.DeltaFilter{Order: order}) {
				if err != nil {
					t.Fatalf("run %d, page %d, order %d: %v", run, size, order, err)
				}
				got = append(got, fmt.Sprint(d.BlockNum, d.Scope))
			}
			var want []string
			for i, d := range all {
				_ = d
				want = append(want, fmt.Sprint(blocks[i], antelope.MustName(fmt.Sprintf("user%c", 'a'+countBefore(blocks, i)))))
			}
			if order == hyperion.Desc {
				slices.Reverse(want)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("run %d, page %d, order %d:\n got %v\nwant %v", run, size, order, got, want)
			}
		}
	}
}

// countBefore is how many rows of the same block come before row i.
func countBefore(blocks []uint32, i int) int {
	n := 0
	for j := i - 1; j >= 0 && blocks[j] == blocks[i]; j-- {
		n++
	}
	return n
}

// TestActionsPagingModel: a server with get_actions' semantics (sort by
// global sequence, a global_sequence range, limit) whose index grows by a
// random number of actions before each of its first answers; random page
// sizes. Oldest
// first yields a gapless prefix of the final index; newest first, the
// index as of the first answer.
func TestActionsPagingModel(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	runs := 80
	if testing.Short() {
		runs = 20
	}
	for run := range runs {
		var index []uint64
		next := uint64(1)
		grow := func() {
			for range r.IntN(4) {
				next += 1 + uint64(r.IntN(3))
				index = append(index, next)
			}
		}
		for range r.IntN(10) {
			grow()
		}
		var firstAnswer []uint64
		h := hostile(t, func(n int, q url.Values) string {
			if n <= 15 { // then the index stops growing, and the reader catches up
				grow()
			}
			if n == 1 {
				firstAnswer = slices.Clone(index)
			}
			lo, hi, _ := strings.Cut(q.Get("global_sequence"), "-")
			l, _ := strconv.ParseUint(lo, 10, 64)
			u, _ := strconv.ParseUint(hi, 10, 64)
			limit, _ := strconv.Atoi(q.Get("limit"))
			var hits []string
			for _, gs := range index {
				if gs >= l && gs <= u {
					hits = append(hits, actionJSON(gs, uint32(gs/10+1), "eosio.token"))
				}
			}
			if q.Get("sort") == "desc" {
				slices.Reverse(hits)
			}
			return actionsPage(hits[:min(len(hits), limit)]...)
		})
		order := hyperion.Order(run % 2)
		h = hyperion.New(h.URL(), hyperion.WithPageSize(1+r.IntN(5)))
		var got []uint64
		for a, err := range h.Actions(context.Background(), hyperion.ActionFilter{Contract: transfers.Contract, Action: transfers.Action, Order: order}) {
			if err != nil {
				t.Fatalf("run %d: %v", run, err)
			}
			got = append(got, a.GlobalSequence)
		}
		want := index[:min(len(index), len(got))]
		if order == hyperion.Desc {
			want = slices.Clone(firstAnswer)
			slices.Reverse(want)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("run %d, order %d:\n got %v\nwant %v", run, order, got, want)
		}
	}
}
