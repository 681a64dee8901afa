package hyperion_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/hyperion"
	"github.com/antelopego/abigen/ship/hyperion/internal/eosiosys"
)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fixtureServer answers get_actions and get_deltas from the fixtures,
// filtered as Hyperion filters (filter=, global_sequence=, code, table),
// and get_currency_stats from stats (nil: 404).
func fixtureServer(t *testing.T, stats map[string]string) *httptest.Server {
	actions, deltas := fixture(t, "get_actions_v4.json"), fixture(t, "get_deltas_v4.json")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		switch r.URL.Path {
		case "/v2/history/get_actions":
			var page map[string]any
			d := json.NewDecoder(bytes.NewReader(actions))
			d.UseNumber()
			d.Decode(&page)
			kept := []any{} // Hyperion answers an empty list, not null
			for _, a := range page["actions"].([]any) {
				act := a.(map[string]any)["act"].(map[string]any)
				gs, _ := strconv.ParseUint(a.(map[string]any)["global_sequence"].(json.Number).String(), 10, 64)
				if f := q.Get("filter"); f != "" && f != act["account"].(string)+":"+act["name"].(string) {
					continue
				}
				if lo, hi, ok := strings.Cut(q.Get("global_sequence"), "-"); ok {
					l, _ := strconv.ParseUint(lo, 10, 64)
					h, _ := strconv.ParseUint(hi, 10, 64)
					if gs < l || gs > h {
						continue
					}
				}
				kept = append(kept, a)
			}
			page["actions"] = kept
			json.NewEncoder(w).Encode(page)
		case "/v2/history/get_deltas":
			// after and before bound block_num, inclusive, as Hyperion's
			// applyTimeFilter does for block numbers; then skip and limit.
			var page map[string]any
			d := json.NewDecoder(bytes.NewReader(deltas))
			d.UseNumber()
			d.Decode(&page)
			kept := []any{}
			for _, x := range page["deltas"].([]any) {
				b, _ := x.(map[string]any)["block_num"].(json.Number).Int64()
				lo, _ := strconv.ParseInt(q.Get("after"), 10, 64)
				hi, err := strconv.ParseInt(q.Get("before"), 10, 64)
				if b < lo || err == nil && b > hi {
					continue
				}
				kept = append(kept, x)
			}
			skip, _ := strconv.Atoi(q.Get("skip"))
			kept = kept[min(skip, len(kept)):]
			if limit, err := strconv.Atoi(q.Get("limit")); err == nil && limit < len(kept) {
				kept = kept[:limit]
			}
			page["deltas"] = kept
			json.NewEncoder(w).Encode(page)
		case "/v1/chain/get_currency_stats":
			var req struct{ Code, Symbol string }
			json.NewDecoder(r.Body).Decode(&req)
			if s, ok := stats[req.Code+" "+req.Symbol]; ok {
				w.Write([]byte(`{"` + req.Symbol + `":{"supply":"` + s + `","max_supply":"` + s + `","issuer":"eosio"}}`))
				return
			}
			w.WriteHeader(500)
			w.Write([]byte(`{"code":500,"message":"Internal Service Error","error":{"code":3060002,"name":"contract_table_query_exception","what":"Contract Table Query Exception","details":[]}}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestFixtureTransfers(t *testing.T) {
	srv := fixtureServer(t, nil)
	h := hyperion.New(srv.URL)
	want := []eosiotoken.Transfer{
		{From: antelope.MustName("alice"), To: antelope.MustName("bob"), Quantity: antelope.MustAsset("1.5000 EOS"), Memo: "for coffee"},
		{From: antelope.MustName("alice"), To: antelope.MustName("bob"), Quantity: antelope.MustAsset("5.0000 EOS"), Memo: "hex"},
	}
	var got []eosiotoken.Transfer
	var receivers []antelope.Name
	for ev, err := range hyperion.Actions(context.Background(), h, eosiotoken.Actions.Transfer, hyperion.ActionFilter{}, hyperion.WithNotifications()) {
		if err != nil {
			t.Fatal(err)
		}
		if !ev.Trace.IsNotification() {
			got = append(got, ev.Data)
			// The packed data is what the generated binding packs.
			if b, _ := ev.Data.MarshalBinary(); !bytes.Equal(b, ev.Trace.Data) {
				t.Errorf("packed %x, want %x", ev.Trace.Data, b)
			}
		}
		receivers = append(receivers, ev.Trace.Receiver)
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("transfers %+v, want %+v", got, want)
	}
	if len(receivers) != 4 || receivers[1] != antelope.MustName("alice") || receivers[2] != antelope.MustName("bob") {
		t.Errorf("receivers %v", receivers)
	}
}

func TestFixtureLossyRewrites(t *testing.T) {
	srv := fixtureServer(t, nil)
	ctx := context.Background()
	eos := antelope.MustSymbol("4,EOS")

	// buyram: without the core symbol, an item error with the raw JSON.
	for ev, err := range hyperion.Actions(ctx, hyperion.New(srv.URL), eosiosys.Actions.Buyram, hyperion.ActionFilter{}) {
		var ie *ship.ItemError
		if !errors.As(err, &ie) || !strings.Contains(string(ie.Raw), `"quant":1.2345`) || ev.Trace == nil {
			t.Fatalf("buyram without a core symbol: %v", err)
		}
	}
	h := hyperion.New(srv.URL, hyperion.WithCoreSymbol(eos))
	n := 0
	for ev, err := range hyperion.Actions(ctx, h, eosiosys.Actions.Buyram, hyperion.ActionFilter{}) {
		if err != nil || ev.Data.Quant != antelope.MustAsset("1.2345 EOS") || ev.Data.Payer != antelope.MustName("alice") {
			t.Fatalf("buyram: %+v %v", ev.Data, err)
		}
		n++
	}
	for ev, err := range hyperion.Actions(ctx, h, eosiosys.Actions.Delegatebw, hyperion.ActionFilter{}) {
		if err != nil || ev.Data.StakeCPUQuantity != antelope.MustAsset("0.2000 EOS") || ev.Data.StakeNetQuantity != antelope.MustAsset("0.1000 EOS") || ev.Data.Transfer {
			t.Fatalf("delegatebw: %+v %v", ev.Data, err)
		}
		n++
	}
	for ev, err := range hyperion.Actions(ctx, h, eosiosys.Actions.Updateauth, hyperion.ActionFilter{}) {
		a := ev.Data.Auth
		if err != nil || a.Threshold != 1 || len(a.Keys) != 1 || a.Accounts == nil || len(a.Accounts) != 0 || len(a.Waits) != 0 {
			t.Fatalf("updateauth: %+v %v", ev.Data, err)
		}
		n++
	}
	for ev, err := range hyperion.Actions(ctx, h, eosiosys.Actions.Newaccount, hyperion.ActionFilter{}) {
		if err != nil || ev.Data.Name != antelope.MustName("carol") || ev.Data.Creator != antelope.MustName("alice") {
			t.Fatalf("newaccount: %+v %v", ev.Data, err)
		}
		n++
	}
	if n != 4 {
		t.Errorf("%d system actions, want 4", n)
	}
}

func TestFixtureAccountsRows(t *testing.T) {
	ctx := context.Background()
	// Without the token's stat, the split balance is an item error; the
	// row Hyperion kept as hex decodes.
	h := hyperion.New(fixtureServer(t, nil).URL)
	var errs, rows int
	for ev, err := range hyperion.Rows(ctx, h, eosiotoken.TableAccounts, hyperion.DeltaFilter{}) {
		var ie *ship.ItemError
		switch {
		case errors.As(err, &ie):
			errs++
			if !strings.Contains(string(ie.Raw), `"amount":12.3456`) {
				t.Errorf("raw %s", ie.Raw)
			}
		case err != nil:
			t.Fatal(err)
		default:
			rows++
			if ev.New.Balance != antelope.MustAsset("12.3456 EOS") || ev.Change.Scope != antelope.MustName("bob") {
				t.Errorf("hex row %+v", ev.New)
			}
		}
	}
	if errs != 1 || rows != 1 {
		t.Fatalf("%d errors, %d rows", errs, rows)
	}
	h = hyperion.New(fixtureServer(t, map[string]string{"eosio.token EOS": "1000000000.0000 EOS"}).URL)
	var got []antelope.Asset
	for ev, err := range hyperion.Rows(ctx, h, eosiotoken.TableAccounts, hyperion.DeltaFilter{}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev.New.Balance)
		if ev.Change.PrimaryKey != 1397703940 || !ev.Change.Present {
			t.Errorf("change %+v", ev.Change)
		}
	}
	if len(got) != 2 || got[0] != antelope.MustAsset("12.3456 EOS") {
		t.Errorf("balances %v", got)
	}
}

func serveBody(t *testing.T, status int, body []byte, header map[string]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestFixtureEndpoints(t *testing.T) {
	ctx := context.Background()
	tx, err := hyperion.New(serveBody(t, 200, fixture(t, "get_transaction.json"), nil).URL).GetTransaction(ctx, antelope.Checksum256{}, 0)
	if err != nil || !tx.Executed || len(tx.Actions) != 1 || tx.LIB != 299999900 || len(tx.Actions[0].Receipts) != 2 || tx.Actions[0].Receipts[1].Receiver != antelope.MustName("bob") {
		t.Errorf("get_transaction %+v %v", tx, err)
	}
	toks, err := hyperion.New(serveBody(t, 200, fixture(t, "get_tokens.json"), nil).URL).GetTokens(ctx, antelope.MustName("alice"))
	if err != nil || len(toks) != 3 {
		t.Fatalf("get_tokens %+v %v", toks, err)
	}
	for i, want := range []string{"12.3456 EOS", "0.0001 TLM", ""} {
		a, err := toks[i].Asset()
		if want == "" {
			if err == nil || toks[i].Error == "" {
				t.Errorf("token %d: %v, %v: a balance without precision", i, a, err)
			}
			continue
		}
		if err != nil || a != antelope.MustAsset(want) {
			t.Errorf("token %d: %v %v, want %s", i, a, err, want)
		}
	}
	health, err := hyperion.New(serveBody(t, 200, fixture(t, "health.json"), nil).URL).Health(ctx)
	if err != nil || health.LastIndexedBlock != 300000100 || health.HeadBlock != 300000120 || health.LastIrreversible != 300000090 ||
		health.Limits["get_actions"] != 1000 || health.Version != "4.0.7" || len(health.Services) != 4 {
		t.Errorf("health %+v %v", health, err)
	}
}

func TestErrorsAsHyperionAnswers(t *testing.T) {
	ctx := context.Background()
	noWait := &httpcore.Transport{Sleep: func(context.Context, time.Duration) error { return nil }, MaxAttempts: 2}
	_, err := hyperion.New(serveBody(t, 400, fixture(t, "error_400.json"), nil).URL, hyperion.WithTransport(noWait)).GetActions(ctx, nil)
	var he *hyperion.Error
	if !errors.As(err, &he) || he.Status != 400 || he.MaxLimit != 1000 || !strings.Contains(he.Message, "limit too big") {
		t.Errorf("400: %v", err)
	}
	// 3.x: the same as a 500, retried, then reported.
	_, err = hyperion.New(serveBody(t, 500, []byte(`{"statusCode":500,"error":"Internal Server Error","message":"limit too big, maximum: 500"}`), nil).URL, hyperion.WithTransport(noWait)).GetActions(ctx, nil)
	if !errors.As(err, &he) || he.Status != 500 || he.MaxLimit != 500 {
		t.Errorf("500: %v", err)
	}
	_, err = hyperion.New(serveBody(t, 429, []byte(`{"statusCode":429,"error":"Too Many Requests","message":"Rate limit exceeded, retry in 1 minute"}`),
		map[string]string{"Retry-After": "60", "X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "0"}).URL, hyperion.WithTransport(noWait)).GetDeltas(ctx, nil)
	if !errors.As(err, &he) || !he.RateLimited() || he.RetryAfter != time.Minute {
		t.Errorf("429: %v", err)
	}
	// get_deltas' bare string.
	_, err = hyperion.New(serveBody(t, 200, []byte(`"invalid limit parameter"`), nil).URL).GetDeltas(ctx, nil)
	if !errors.As(err, &he) || he.Message != "invalid limit parameter" {
		t.Errorf("string answer: %v", err)
	}
}

func TestFixtureAccounts(t *testing.T) {
	ctx := context.Background()
	cr, err := hyperion.New(serveBody(t, 200, fixture(t, "get_creator.json"), nil).URL).GetCreator(ctx, antelope.MustName("carol"))
	if err != nil || cr.Creator != antelope.MustName("alice") || cr.Account != antelope.MustName("carol") || cr.BlockNum != 300000004 || cr.Genesis {
		t.Errorf("get_creator %+v %v", cr, err)
	}
	self := []byte(`{"account":"eosio","creator":"__self__","timestamp":"2018-06-08T08:08:08.500","block_num":1,"trx_id":""}`)
	cr, err = hyperion.New(serveBody(t, 200, self, nil).URL).GetCreator(ctx, antelope.MustName("eosio"))
	if err != nil || !cr.Genesis || cr.Creator != 0 || cr.BlockNum != 1 {
		t.Errorf("get_creator of eosio %+v %v", cr, err)
	}
	accts, err := hyperion.New(serveBody(t, 200, fixture(t, "get_created_accounts.json"), nil).URL).GetCreatedAccounts(ctx, antelope.MustName("alice"), 0, 0)
	if err != nil || len(accts) != 1 || accts[0].Name != antelope.MustName("carol") || accts[0].Timestamp.IsZero() {
		t.Errorf("get_created_accounts %+v %v", accts, err)
	}
}

// Hyperion's deserializer writes integers as numbers or strings
// (@wharfkit/antelope writes 64-bit ones above 32 bits as strings): the
// generated decoders read both.
func TestNumbersAsNumbersOrStrings(t *testing.T) {
	for _, data := range []string{`{"payer":"alice","receiver":"bob","bytes":1024}`, `{"payer":"alice","receiver":"bob","bytes":"1024"}`} {
		var v eosiosys.Buyrambytes
		if err := antelope.UnmarshalJSON([]byte(data), &v); err != nil || v.Bytes != 1024 {
			t.Errorf("%s: %+v %v", data, v, err)
		}
	}
	for _, data := range []string{`{"threshold":1,"keys":[],"accounts":[],"waits":[{"wait_sec":"60","weight":1}]}`, `{"threshold":"1","keys":[],"accounts":[],"waits":[{"wait_sec":60,"weight":"1"}]}`} {
		var v eosiosys.Authority
		if err := antelope.UnmarshalJSON([]byte(data), &v); err != nil || v.Threshold != 1 || v.Waits[0].WaitSec != 60 {
			t.Errorf("%s: %+v %v", data, v, err)
		}
	}
}
