package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// The program against a test chain: transfers before and after the last
// final block, read once each — the old ones from Hyperion, the new ones
// from state history — in global-sequence order.
func TestBackfillThenFollow(t *testing.T) {
	node := chaintest.New(chaintest.WithManualFinality())
	defer node.Close()
	alice, bob, tok := antelope.MustName("alice"), antelope.MustName("bob"), antelope.MustName("eosio.token")
	keys := map[antelope.Name]antelope.PrivateKey{alice: node.NewAccount(alice), bob: node.NewAccount(bob), tok: node.NewAccount(tok)}
	if err := node.DeployToken(tok); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	send := func(signer antelope.Name, a antelope.Action) uint32 {
		t.Helper()
		res, err := node.Client().Transact(ctx, keys[signer], a)
		if err != nil {
			t.Fatal(err)
		}
		return res.BlockNum
	}
	send(tok, must(eosiotoken.Default.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000.0000 SYS")}, antelope.Active(tok))))
	send(alice, must(eosiotoken.Default.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("100.0000 SYS")}, antelope.Active(alice))))
	var want []string
	pay := func(from, to antelope.Name, i int) uint32 {
		q := antelope.MustAsset(fmt.Sprintf("%d.0000 SYS", i))
		b := send(from, must(eosiotoken.Default.Transfer(eosiotoken.Transfer{From: from, To: to, Quantity: q, Memo: fmt.Sprint(i)}, antelope.Active(from))))
		want = append(want, fmt.Sprintf("%s -> %s %s \"%d\"", from, to, q, i))
		return b
	}
	for i := 1; i <= 4; i++ {
		pay(alice, bob, i)
	}
	final := node.Head().Num
	if err := node.SetLastIrreversible(final); err != nil {
		t.Fatal(err)
	}
	pay(bob, alice, 5) // after the last final block: from state history
	pay(alice, bob, 6)

	srv := httptest.NewServer(node.Hyperion())
	defer srv.Close()
	var out bytes.Buffer
	n, err := run(ctx, []string{"--hyperion", srv.URL, "--ship", node.SHiPURL(), "--account", "bob", "--index-margin", "0", "--until", fmt.Sprint(node.Head().Num + 1)}, nil, &out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(want) || n.history != 4 || n.live != 2 {
		t.Fatalf("%d from history, %d live:\n%s", n.history, n.live, out.String())
	}
	for i, l := range lines {
		if !strings.HasSuffix(l, want[i]) {
			t.Errorf("line %d: %q, want …%s", i, l, want[i])
		}
	}
}

func must(a antelope.Action, err error) antelope.Action {
	if err != nil {
		panic(err)
	}
	return a
}

// lineWriter calls at(n) after the n-th line written.
type lineWriter struct {
	buf bytes.Buffer
	n   int
	at  func(n int)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	for range bytes.Count(p, []byte("\n")) {
		w.n++
		w.at(w.n)
	}
	return len(p), nil
}

// A fork during the live part undoes the transfer it printed, and the
// replacing branch's transfer follows.
func TestLiveFork(t *testing.T) {
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
	second := pay(2) // live, then undone
	until := second + 10
	srv := httptest.NewServer(node.Hyperion())
	defer srv.Close()
	w := &lineWriter{at: func(n int) {
		if n == 2 { // the live transfer is printed: the chain forks under it
			if err := node.Rollback(second - 1); err != nil {
				panic(err)
			}
			pay(3)
			for node.Head().Num < until {
				node.Produce()
			}
		}
	}}
	n, err := run(ctx, []string{"--hyperion", srv.URL, "--ship", node.SHiPURL(), "--account", "bob", "--index-margin", "0", "--until", fmt.Sprint(until)}, nil, w)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(w.buf.String()), "\n")
	if len(lines) != 4 || !strings.HasSuffix(lines[0], `"1"`) || !strings.HasSuffix(lines[1], `"2"`) ||
		!strings.HasPrefix(lines[2], fmt.Sprintf("undone: block %d", second)) || !strings.HasSuffix(lines[3], `"3"`) || n.history != 1 || n.live != 1 {
		t.Fatalf("%+v\n%s", n, w.buf.String())
	}
}
