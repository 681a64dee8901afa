package chaintest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
)

// The fake resource provider speaks the protocol as Greymass Fuel does:
// checked here on the wire, the client's side in package chain.

func askProvider(t *testing.T, c *chaintest.Chain, request string, signer antelope.PermissionLevel) (int, map[string]json.RawMessage) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"request": request, "signer": signer})
	resp, err := c.HTTPClient().Post(c.URL()+"/v1/resource_provider/request_transaction", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var out map[string]json.RawMessage
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return resp.StatusCode, out
}

func providerRequest(t *testing.T, c *chaintest.Chain, tx antelope.Transaction) string {
	t.Helper()
	uri, err := antelope.NewESRTransaction(antelope.ESRChainFor(c.ChainID()), tx).URI()
	if err != nil {
		t.Fatal(err)
	}
	return uri
}

func TestFakeResourceProviderProtocol(t *testing.T) {
	c, _ := tokenChain(t, chaintest.WithoutNetwork())
	tx := antelope.Transaction{Actions: []antelope.Action{aliceTransfer(t, 1)}}
	tx.SetReferenceBlock(c.Head().ID)
	tx.SetExpiration(c.Head().Time.Add(time.Minute))
	signer := antelope.Active(alice)

	if status, _ := askProvider(t, c, providerRequest(t, c, tx), signer); status != 404 {
		t.Errorf("no provider yet: HTTP %d", status)
	}
	fp, err := c.NewResourceProvider(antelope.MustName("greymassfuel"))
	if err != nil {
		t.Fatal(err)
	}
	answer := func(status int, out map[string]json.RawMessage) antelope.Transaction {
		t.Helper()
		var data struct {
			Request    []json.RawMessage    `json:"request"`
			Signatures []antelope.Signature `json:"signatures"`
			Fee        *antelope.Asset      `json:"fee"`
		}
		if err := json.Unmarshal(out["data"], &data); err != nil || len(data.Request) != 2 || string(data.Request[0]) != `"transaction"` || len(data.Signatures) != 1 {
			t.Fatalf("HTTP %d: %s", status, out["data"])
		}
		var got antelope.Transaction
		if err := got.UnmarshalJSON(data.Request[1]); err != nil {
			t.Fatal(err)
		}
		digest, _ := got.SigningDigest(c.ChainID())
		key, err := data.Signatures[0].RecoverPublicKey(digest)
		if err != nil {
			t.Fatal(err)
		}
		if got.TransactionHeader != tx.TransactionHeader || got.Actions[0].Authorization[0] != fp.Payer() || got.Actions[0].Name != antelope.MustName("noop") {
			t.Errorf("answered %+v", got)
		}
		acct, err := c.Client().GetAccount(t.Context(), fp.Payer().Actor)
		if err != nil {
			t.Fatal(err)
		}
		signed := false
		for _, p := range acct.Permissions {
			signed = signed || p.PermName == fp.Payer().Permission && p.RequiredAuth.Keys[0].Key.Equal(key)
		}
		if !signed {
			t.Errorf("the provider's signature is not by its %s key", fp.Payer().Permission)
		}
		return got
	}
	status, out := askProvider(t, c, providerRequest(t, c, tx), signer)
	if status != 200 || string(out["code"]) != "200" {
		t.Fatalf("free: HTTP %d %s", status, out)
	}
	if got := answer(status, out); len(got.Actions) != 2 {
		t.Errorf("free: %d actions", len(got.Actions))
	}

	fp.ChargeFee(antelope.ExtendedAsset{Quantity: wax(1000), Contract: eosioToken})
	status, out = askProvider(t, c, providerRequest(t, c, tx), signer)
	if status != 402 || string(out["code"]) != "402" {
		t.Fatalf("fee: HTTP %d %s", status, out)
	}
	got := answer(status, out)
	if len(got.Actions) != 3 || got.Actions[1].Name != antelope.MustName("transfer") || got.Actions[1].Authorization[0] != signer {
		t.Errorf("fee: %+v", got.Actions)
	}

	fp.Free()
	for name, req := range map[string]struct {
		uri    string
		signer antelope.PermissionLevel
	}{
		"not a signing request": {"hello", signer},
		"without TAPoS":         {providerRequest(t, c, antelope.Transaction{Actions: tx.Actions}), signer},
		"another chain": {func() string {
			u, _ := antelope.NewESRTransaction(antelope.ESRChainFor(antelope.Checksum256{1}), tx).URI()
			return u
		}(), signer},
		"another signer": {providerRequest(t, c, tx), antelope.Active(bob)},
	} {
		if status, out := askProvider(t, c, req.uri, req.signer); status != 400 || out["data"] != nil {
			t.Errorf("%s: HTTP %d %s", name, status, out)
		}
	}
	fp.Refuse()
	if status, _ := askProvider(t, c, providerRequest(t, c, tx), signer); status != 400 {
		t.Errorf("refusing: HTTP %d", status)
	}
	if fp.Requests() != 7 { // the 404 before it existed is not its
		t.Errorf("%d requests counted", fp.Requests())
	}
}
