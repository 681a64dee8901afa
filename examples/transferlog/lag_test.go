package main

import (
	"bytes"
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

// Hyperion's last indexed block runs ahead of what get_actions finds: the
// per-answer number is set when a block is deserialized (master.ts,
// consumed_block), health's is the newest block document, and action
// documents come through their own queues and are searchable only after
// the index's 1 s refresh. A handoff at that number must not lose the
// transfers of its last blocks: here get_actions does not yet see the
// last two indexed blocks, with finality right behind the head as under
// Savanna.
func TestHandoffAheadOfSearchableActions(t *testing.T) {
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
			t.Fatal(err)
		}
		return res.BlockNum
	}
	send(tok, must(eosiotoken.Default.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000.0000 SYS")}, antelope.Active(tok))))
	send(alice, must(eosiotoken.Default.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("100.0000 SYS")}, antelope.Active(alice))))
	for node.Head().Num < 400 { // a chain longer than any margin
		node.Produce()
	}
	var want []string
	for i := 1; i <= 6; i++ {
		q := antelope.MustAsset(fmt.Sprintf("%d.0000 SYS", i))
		send(alice, must(eosiotoken.Default.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: q, Memo: fmt.Sprint(i)}, antelope.Active(alice))))
		want = append(want, fmt.Sprintf(`"%d"`, i))
	}
	if err := node.SetLastIrreversible(node.Head().Num); err != nil {
		t.Fatal(err)
	}
	head := node.Head().Num
	api := node.Hyperion()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v2/history/get_actions" {
			api.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, r)
		var page map[string]any
		d := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
		d.UseNumber()
		if err := d.Decode(&page); err != nil {
			t.Error(err)
		}
		if acts, ok := page["actions"].([]any); ok {
			kept := []any{}
			for _, a := range acts {
				b, _ := a.(map[string]any)["block_num"].(json.Number).Int64()
				if uint32(b) <= head-2 { // the last two blocks' actions are not searchable yet
					kept = append(kept, a)
				}
			}
			page["actions"] = kept
		}
		json.NewEncoder(w).Encode(page)
	}))
	defer srv.Close()
	// With the default margin and with one a little above the lag, history
	// giving the older transfers.
	for _, margin := range []string{"", "5"} {
		args := []string{"--hyperion", srv.URL, "--ship", node.SHiPURL(), "--account", "bob", "--until", fmt.Sprint(head + 1)}
		if margin != "" {
			args = append(args, "--index-margin", margin)
		}
		var out bytes.Buffer
		n, err := run(ctx, args, nil, &out)
		if err != nil {
			t.Fatal(err)
		}
		if margin != "" && n.history == 0 {
			t.Errorf("margin %s: nothing from history", margin)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != len(want) {
			t.Fatalf("margin %q: the chain has %d transfers to bob; printed:\n%s", margin, len(want), out.String())
		}
		for i, l := range lines {
			if !strings.HasSuffix(l, want[i]) {
				t.Errorf("margin %q: line %d: %q, want …%s", margin, i, l, want[i])
			}
		}
	}
}
