package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// When its node does not answer, Hyperion's /v2/health reports the
// NodeosRPC service as an Error without service_data (health.ts,
// checkNodeos): there is no last irreversible block to hand over at. The
// program must refuse then, not take history to the index's end: a
// transfer it printed from a block a fork then undid would stay printed,
// and the stream's replacement, reusing its global sequence, be skipped.
func TestHandoffWithoutAFinalBlock(t *testing.T) {
	node := chaintest.New(chaintest.WithManualFinality())
	defer node.Close()
	alice, bob, tok := antelope.MustName("alice"), antelope.MustName("bob"), antelope.MustName("eosio.token")
	keys := map[antelope.Name]antelope.PrivateKey{alice: node.NewAccount(alice), bob: node.NewAccount(bob), tok: node.NewAccount(tok)}
	if err := node.DeployToken(tok); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	send := func(signer antelope.Name, a antelope.Action) uint32 {
		res, err := node.Client().Transact(ctx, keys[signer], a)
		if err != nil {
			panic(err)
		}
		return res.BlockNum
	}
	pay := func(i int) uint32 {
		q := antelope.MustAsset(fmt.Sprintf("%d.0000 SYS", i))
		return send(alice, must(eosiotoken.Default.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: q, Memo: fmt.Sprint(i)}, antelope.Active(alice))))
	}
	send(tok, must(eosiotoken.Default.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000.0000 SYS")}, antelope.Active(tok))))
	send(alice, must(eosiotoken.Default.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("100.0000 SYS")}, antelope.Active(alice))))
	pay(1)
	if err := node.SetLastIrreversible(node.Head().Num); err != nil {
		t.Fatal(err)
	}
	second := pay(2) // not final: a fork undoes it
	until := second + 10
	api := node.Hyperion()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v2/health" {
			rec := httptest.NewRecorder()
			api.ServeHTTP(rec, r)
			var h map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &h); err != nil {
				t.Error(err)
			}
			found := false
			for _, s := range h["health"].([]any) {
				if s := s.(map[string]any); s["service"] == "NodeosRPC" {
					// The node is down: its entry is an Error without data.
					s["status"] = "Error"
					delete(s, "service_data")
					found = true
				}
			}
			if !found {
				t.Error("no NodeosRPC entry in the health answer")
			}
			json.NewEncoder(w).Encode(h)
			return
		}
		api.ServeHTTP(w, r)
	}))
	defer srv.Close()
	w := &lineWriter{at: func(n int) {
		if n == 2 { // transfer 2 is printed: the chain forks under it
			if err := node.Rollback(second - 1); err != nil {
				panic(err)
			}
			pay(3)
			for node.Head().Num < until {
				node.Produce()
			}
		}
	}}
	_, err := run(ctx, []string{"--hyperion", srv.URL, "--ship", node.SHiPURL(), "--account", "bob", "--until", fmt.Sprint(until)}, nil, w)
	if err != nil {
		return // refused: nothing printed can be wrong
	}
	// Otherwise what it printed must be what the chain has: 1 and 3, or 2
	// undone.
	out := w.buf.String()
	printed2 := strings.Contains(out, `"2"`)
	if printed2 && !strings.Contains(out, "undone") || !strings.Contains(out, `"3"`) {
		t.Fatalf("the chain has transfers 1 and 3; the program printed:\n%s", out)
	}
}
