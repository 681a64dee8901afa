package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// The program end to end against a test chain: list, send, list again, and
// a refusal in the contract's words.
func TestTokenwatch(t *testing.T) {
	node := chaintest.New()
	defer node.Close()
	alice, bob, tok := antelope.MustName("alice"), antelope.MustName("bob"), antelope.MustName("eosio.token")
	aliceKey := node.NewAccount(alice)
	node.NewAccount(bob)
	tokKey := node.NewAccount(tok)
	if err := node.DeployToken(tok); err != nil {
		t.Fatal(err)
	}
	create, _ := eosiotoken.Default.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000000.0000 SYS")}, antelope.Active(tok))
	issue, _ := eosiotoken.Default.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("50.0000 SYS")}, antelope.Active(alice))
	c := node.Client()
	if _, err := c.Transact(t.Context(), tokKey, create); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Transact(t.Context(), aliceKey, issue); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == "TOKENWATCH_KEY" {
			return aliceKey.RevealString()
		}
		return ""
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"--url", node.URL(), "--account", "bob"}, env, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "bob holds no token of eosio.token\n" {
		t.Errorf("bob before: %q", got)
	}
	out.Reset()
	err := run(context.Background(), []string{"--url", node.URL(), "--account", "alice", "--to", "bob", "--amount", "1.5000 SYS", "--memo", "hi"}, env, &out)
	if err != nil || !strings.Contains(out.String(), "sent 1.5000 SYS to bob") || !strings.HasSuffix(out.String(), "48.5000 SYS\n") {
		t.Fatalf("send: %v\n%s", err, out.String())
	}
	if strings.Contains(out.String(), aliceKey.RevealString()) {
		t.Error("the key was printed")
	}
	err = run(context.Background(), []string{"--url", node.URL(), "--account", "bob", "--to", "alice", "--amount", "9.0000 SYS"}, func(string) string { return aliceKey.RevealString() }, &out)
	if err == nil || !strings.Contains(err.Error(), "unsatisfied_authorization") {
		t.Errorf("bob sending with alice's key: %v", err)
	}
	out.Reset()
	node.Produce()
	err = run(context.Background(), []string{"--url", node.URL(), "--account", "alice", "--to", "bob", "--amount", "100.0000 SYS"}, env, &out)
	if err == nil || err.Error() != "the token contract refused: overdrawn balance" {
		t.Errorf("overdraw: %v", err)
	}
	if err := run(context.Background(), []string{"--account", "alice"}, env, &out); err == nil {
		t.Error("no --url accepted")
	}
}
