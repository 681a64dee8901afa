package chain_test

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// A chain made WithoutNetwork keeps the trace of each transaction it
// answers, decoded, and the client takes it instead of decoding the
// answer (internal/inproc). What it takes must be exactly what decoding
// the answer gives: random transactions of eosio.token's wasm (transfers,
// with their notifications) and of a Go contract printing consoles (HTML,
// control characters, invalid UTF-8) and returning values, each answer
// decoded both ways. An answer changed on the way is decoded, never taken.
func TestInProcessTraceIsTheDecodedOne(t *testing.T) {
	ctx := context.Background()
	c := chaintest.New(chaintest.WithoutNetwork())
	defer c.Close()
	alice, bob, token, echo := antelope.MustName("alice"), antelope.MustName("bob"), antelope.MustName("eosio.token"), antelope.MustName("echo")
	keys := antelope.PrivateKeys{c.NewAccount(alice)}
	c.NewAccount(bob)
	tokenKey := c.NewAccount(token)
	code, err := os.ReadFile("chaintest/testdata/wasm/eosio.token.wasm")
	if err != nil {
		t.Fatal(err)
	}
	abi, err := os.ReadFile("chaintest/testdata/wasm/eosio.token.abi")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.DeployWASM(token, code, abi); err != nil {
		t.Fatal(err)
	}
	consoles := []string{"", "plain", "<b>&amp;</b>", "\x00\x1f\"\\", "\u2028 é 😀", "bad \xff utf8"}
	if err := c.SetContract(echo, []byte(`{"version":"eosio::abi/1.2"}`), func(x *chaintest.Context) error {
		x.Print(consoles[int(x.Action.Data[0])%len(consoles)])
		if x.Action.Data[1]&1 == 1 {
			x.RequireRecipient(bob)
		}
		return x.Return(antelope.Bytes(x.Action.Data[2:]))
	}); err != nil {
		t.Fatal(err)
	}
	cl := c.Client()
	tok := eosiotoken.Contract{Account: token}
	create, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000000.0000 TKN")}, antelope.Active(token))
	if _, err := cl.Transact(ctx, tokenKey, create); err != nil {
		t.Fatal(err)
	}
	issue, _ := tok.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("1000000.0000 TKN")}, antelope.Active(alice))
	if _, err := cl.Transact(ctx, keys, issue); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(34, 2))
	kept := 0
	const n = 60
	for i := range n {
		var acts []antelope.Action
		for range 1 + rng.IntN(4) {
			if rng.IntN(2) == 0 {
				a, _ := tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("0.0001 TKN"),
					Memo: strings.Repeat("m", rng.IntN(20))}, antelope.Active(alice))
				acts = append(acts, a)
				continue
			}
			data := []byte{byte(rng.IntN(256)), byte(rng.IntN(2))}
			data = append(data, make([]byte, rng.IntN(5))...)
			acts = append(acts, antelope.Action{Account: echo, Name: antelope.MustName("say"),
				Authorization: []antelope.PermissionLevel{antelope.Active(alice)}, Data: data})
		}
		body, id := sendRaw(t, c, cl, keys, acts)
		want, werr := chain.DecodeTrace(body, id)
		if werr != nil {
			t.Fatalf("transaction %d: %v", i, werr)
		}
		changed := rng.IntN(4) == 0
		if changed { // a fault's rewrite: valid JSON, other bytes
			body = bytes.Replace(body, []byte(`"scheduled":false`), []byte(`"scheduled": false`), 1)
			want, _ = chain.DecodeTrace(body, id)
		}
		got, err := chain.DecodeAnswer(cl, body, id)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("transaction %d (answer changed: %v): the kept trace\n%+v (%v)\nis not the decoded one\n%+v", i, changed, got, err, want)
		}
		if again, _ := chain.DecodeAnswer(cl, body, id); !reflect.DeepEqual(again, want) {
			t.Fatalf("transaction %d, decoded again: %+v", i, again)
		}
		if !changed && &got.Processed[0] != &want.Processed[0] {
			kept++
		}
	}
	if kept < n/2 {
		t.Fatalf("only %d of %d answers' traces were taken: the test proves little", kept, n)
	}
}

// sendRaw sends actions signed by keys with send_transaction over the
// chain's own HTTP client and returns the answer as it arrived.
func sendRaw(t *testing.T, c *chaintest.Chain, cl *chain.Client, keys antelope.Signer, acts []antelope.Action) ([]byte, antelope.Checksum256) {
	t.Helper()
	ctx := context.Background()
	tx, chainID, err := cl.BuildTransaction(ctx, acts...)
	if err != nil {
		t.Fatal(err)
	}
	signed, err := cl.Sign(ctx, keys, chainID, tx)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := signed.ID()
	packed, err := signed.Pack(antelope.CompressionNone)
	if err != nil {
		t.Fatal(err)
	}
	pj, _ := packed.MarshalJSON()
	resp, err := c.HTTPClient().Post(c.URL()+"/v1/chain/send_transaction", "application/json", bytes.NewReader(pj))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("send_transaction: %d %s %v", resp.StatusCode, body, err)
	}
	return body, id
}
