package hyperion_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship/hyperion"
)

// TestVersions: Hyperion 3 indexes removed rows and refuses a large limit
// with a 500; Hyperion 4 indexes no removal and refuses with a 400. Rows
// equal the stream's either way, less the removals for 4.
func TestVersions(t *testing.T) {
	tc := newTokenChain(t, 3)
	a, b := tc.users[1], tc.users[2]
	tc.transfer(t, a, b, 1000_0000) // a's whole balance
	tc.send(t, a, must(tc.token.Close(eosiotoken.Close{Owner: a, Symbol: antelope.MustSymbol("4,TOK")}, antelope.Active(a))))
	_, streamRows := fromSHiP(t, tc.node)
	removals := 0
	for _, r := range streamRows {
		if !r.Present {
			removals++
		}
	}
	if removals != 1 {
		t.Fatalf("%d removals in the stream", removals)
	}
	noWait := &httpcore.Transport{Sleep: func(context.Context, time.Duration) error { return nil }}
	for _, v3 := range []bool{false, true} {
		opts := []chaintest.HyperionOption{chaintest.HyperionLimits(3, 1000)}
		if v3 {
			opts = append(opts, chaintest.HyperionV3())
		}
		srv := httptest.NewServer(tc.node.Hyperion(opts...))
		h := hyperion.New(srv.URL, hyperion.WithTransport(noWait)) // asks 100: refused, then 3
		_, got := fromHistory(t, h)
		want := streamRows
		if !v3 {
			want = slices.DeleteFunc(slices.Clone(want), func(r row) bool { return !r.Present })
		}
		if !slices.Equal(got, want) {
			t.Errorf("v3 %v: rows\n got %+v\nwant %+v", v3, got, want)
		}
		srv.Close()
	}
}

// TestChaintestEndpoints: get_transaction, get_tokens and health of the
// chain's Hyperion, and an index that lags the head.
func TestChaintestEndpoints(t *testing.T) {
	tc := newTokenChain(t, 3)
	ctx := context.Background()
	res, err := tc.node.Client().Transact(ctx, tc.keys[tc.users[1]], must(tc.token.Transfer(eosiotoken.Transfer{From: tc.users[1], To: tc.users[2], Quantity: antelope.MustAsset("1.2345 TOK")}, antelope.Active(tc.users[1]))))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(tc.node.Hyperion())
	defer srv.Close()
	h := hyperion.New(srv.URL)
	tx, err := h.GetTransaction(ctx, res.ID, res.BlockNum)
	if err != nil || !tx.Executed || len(tx.Actions) != 1 || len(tx.Actions[0].Receipts) != 3 || tx.Actions[0].BlockNum != res.BlockNum {
		t.Fatalf("get_transaction: %+v %v", tx, err)
	}
	toks, err := h.GetTokens(ctx, tc.users[2])
	if err != nil || len(toks) != 1 {
		t.Fatalf("get_tokens: %+v %v", toks, err)
	}
	if a, err := toks[0].Asset(); err != nil || a != antelope.MustAsset("1001.2345 TOK") {
		t.Errorf("balance %v %v", a, err)
	}
	health, err := h.Health(ctx)
	if err != nil || health.LastIndexedBlock != tc.node.Head().Num || health.HeadBlock != tc.node.Head().Num {
		t.Errorf("health %+v %v", health, err)
	}

	lagging := httptest.NewServer(tc.node.Hyperion(chaintest.HyperionLag(2)))
	defer lagging.Close()
	hl := hyperion.New(lagging.URL)
	health, err = hl.Health(ctx)
	if err != nil || health.LastIndexedBlock != tc.node.Head().Num-2 {
		t.Fatalf("lagging health %+v %v", health, err)
	}
	for a, err := range hl.Actions(ctx, hyperion.ActionFilter{}) {
		if err != nil || a.BlockNum > health.LastIndexedBlock {
			t.Fatalf("block %d of an index at %d: %v", a.BlockNum, health.LastIndexedBlock, err)
		}
	}
}

// TestCredentials: an API key in a header or the URL's query is never
// sent to another origin and never shown in an error.
func TestCredentials(t *testing.T) {
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if k := r.Header.Get("X-Api-Key"); k != "" {
			leaked = append(leaked, k)
		}
		if r.URL.RawQuery != "" {
			leaked = append(leaked, r.URL.RawQuery)
		}
		w.Write([]byte(`{"actions":[]}`))
	}))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v2/history/get_actions" && r.URL.Query().Get("apikey") == "" && r.Header.Get("X-Api-Key") == "" {
			t.Error("the credentials did not reach their own origin")
		}
		http.Redirect(w, r, other.URL+"/v2/history/get_actions", http.StatusFound)
	}))
	defer first.Close()
	ctx := context.Background()
	for _, h := range []*hyperion.Client{
		hyperion.New(first.URL, hyperion.WithHeader("X-Api-Key", "header-secret-0451")),
		hyperion.New(first.URL + "/?apikey=query-secret-0452"),
	} {
		_, err := h.GetActions(ctx, nil)
		if err == nil {
			t.Fatal("a redirect to another origin was followed with credentials")
		}
		if strings.Contains(err.Error(), "secret-045") {
			t.Errorf("the error shows a credential: %v", err)
		}
	}
	if len(leaked) > 0 {
		t.Errorf("credentials sent to another origin: %q", leaked)
	}
}

// TestBehindIndex: a range past the last indexed block yields what is
// indexed, then says the rest is not.
func TestBehindIndex(t *testing.T) {
	tc := newTokenChain(t, 3)
	srv := httptest.NewServer(tc.node.Hyperion(chaintest.HyperionLag(2)))
	defer srv.Close()
	h := hyperion.New(srv.URL)
	head := tc.node.Head().Num
	var err error
	n := 0
	for _, err = range h.Actions(context.Background(), hyperion.ActionFilter{ToBlock: head}) {
		if err != nil {
			break
		}
		n++
	}
	var be *hyperion.BehindError
	if !errors.As(err, &be) || be.LastIndexed != head-2 || be.Wanted != head || n == 0 {
		t.Fatalf("after %d actions: %v", n, err)
	}
	for _, err = range h.Deltas(context.Background(), hyperion.DeltaFilter{ToBlock: head}) {
		if err != nil {
			break
		}
	}
	if !errors.As(err, &be) {
		t.Fatalf("deltas: %v", err)
	}
}
