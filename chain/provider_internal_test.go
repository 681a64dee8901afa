package chain

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
)

// The resource provider client against a provider this test controls
// byte for byte: the protocol's request, every check on the answer, and
// what counts as a refusal.

var (
	testChainID  = mustChecksum("73e4385a2708e6d7048834fbc1079f2fabb17b3c125b146af438971e90716c4d") // Jungle 4
	signerLevel  = antelope.PermissionLevel{Actor: antelope.MustName("wharfkit1115"), Permission: antelope.MustName("test")}
	providerNoop = antelope.Action{Account: antelope.MustName("greymassnoop"), Name: nameNoop,
		Authorization: []antelope.PermissionLevel{{Actor: antelope.MustName("greymassfuel"), Permission: antelope.MustName("cosign")}}, Data: []byte{}}
	eos = antelope.MustSymbol("4,EOS")
)

func eosUnits(n int64) antelope.Asset { return antelope.Asset{Amount: n, Symbol: eos} }

// signerTransfer is a transfer from the signer.
func signerTransfer(t *testing.T, contract antelope.Name, to string, qty antelope.Asset, memo string) antelope.Action {
	t.Helper()
	data := antelope.AppendUint64(antelope.AppendUint64(nil, uint64(signerLevel.Actor)), uint64(antelope.MustName(to)))
	data, _ = qty.AppendBinary(data)
	data, err := antelope.AppendString(data, memo)
	if err != nil {
		t.Fatal(err)
	}
	return antelope.Action{Account: contract, Name: nameTransfer, Authorization: []antelope.PermissionLevel{signerLevel}, Data: data}
}

// userTx is the signer's transaction: one transfer, with TAPoS.
func userTx(t *testing.T) *antelope.Transaction {
	tx := &antelope.Transaction{Actions: []antelope.Action{signerTransfer(t, nameEosioToken, "teamgreymass", eosUnits(1), "wharfkit is the best <3")},
		ContextFreeActions: []antelope.Action{}, Extensions: []antelope.Extension{}}
	tx.SetExpiration(time.Date(2026, 2, 24, 1, 36, 9, 0, time.UTC))
	tx.RefBlockNum, tx.RefBlockPrefix = 26013, 692310982
	return tx
}

// fuelAnswer is an answer shaped as Greymass Fuel's: the transaction as
// ["transaction", {…}] and the provider's signature of it.
func fuelAnswer(t *testing.T, key antelope.PrivateKey, tx *antelope.Transaction, status int, fee string) []byte {
	t.Helper()
	digest, err := tx.SigningDigest(testChainID)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := key.SignDigest(digest)
	if err != nil {
		t.Fatal(err)
	}
	txJSON, _ := tx.MarshalJSON()
	data := map[string]any{"request": []any{"transaction", json.RawMessage(txJSON)}, "signatures": []string{sig.String()}, "version": nil}
	msg := "Transaction has been signed."
	if fee != "" {
		data["fee"], msg = fee, "Fee required to complete transaction."
		data["costs"] = map[string]string{"cpu": fee, "net": "0.0000 EOS", "ram": "0.0000 EOS"}
	}
	b, _ := json.Marshal(map[string]any{"code": status, "message": msg, "data": data})
	return b
}

// providerServer serves the provider's endpoint with answer, checking the
// request as Fuel reads it, and rammarket for RAM prices.
func providerServer(t *testing.T, answer func(tx *antelope.Transaction) (int, []byte)) *Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/v1/chain/get_table_rows":
			// 64 GB of RAM against 1,000,000 EOS.
			row, _ := antelope.MustAsset("10000000000.0000 RAMCORE").AppendBinary(nil)
			row, _ = antelope.MustAsset("64000000000 RAM").AppendBinary(row)
			row = antelope.AppendFloat64(row, 0.5)
			row, _ = antelope.MustAsset("1000000.0000 EOS").AppendBinary(row)
			row = antelope.AppendFloat64(row, 0.5)
			_ = json.NewEncoder(w).Encode(map[string]any{"rows": []string{hex.EncodeToString(row)}, "more": false, "next_key": ""})
			return
		case providerPath:
		default:
			http.NotFound(w, r)
			return
		}
		var req struct {
			Request string                   `json:"request"`
			Signer  antelope.PermissionLevel `json:"signer"`
		}
		if err := json.Unmarshal(body, &req); err != nil || req.Signer != signerLevel {
			t.Errorf("request %s: %v", body, err)
		}
		esr, err := antelope.ParseESR(req.Request)
		if err != nil || esr.Kind != antelope.ESRKindTransaction || esr.RequiresTapos() || !strings.HasPrefix(req.Request, "esr://") {
			t.Errorf("request %q: %v", req.Request, err)
			http.Error(w, "{}", 400)
			return
		}
		if id, _ := esr.Chain.ChainID(); id != testChainID {
			t.Errorf("request for chain %s", id)
		}
		status, out := answer(&esr.Transaction)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return New(srv.URL, WithTransport(&httpcore.Transport{Sleep: noSleep}))
}

// paid is the signer's transaction with the provider's noop first and
// extra actions after it.
func paid(tx *antelope.Transaction, extra ...antelope.Action) *antelope.Transaction {
	out := *tx
	out.Actions = append(append([]antelope.Action{providerNoop}, extra...), tx.Actions...)
	return &out
}

func ramAction(t *testing.T, contract, name string, fields ...any) antelope.Action {
	t.Helper()
	var data []byte
	for _, f := range fields {
		switch v := f.(type) {
		case antelope.Name:
			data = antelope.AppendUint64(data, uint64(v))
		case uint32:
			data = antelope.AppendUint32(data, v)
		case antelope.Asset:
			data, _ = v.AppendBinary(data)
		}
	}
	return antelope.Action{Account: antelope.MustName(contract), Name: antelope.MustName(name), Authorization: []antelope.PermissionLevel{signerLevel}, Data: data}
}

func TestResourceProviderAnswers(t *testing.T) {
	key, _ := antelope.GeneratePrivateKey(nil)
	me, fuelAcct := signerLevel.Actor, antelope.MustName("greymassfuel")
	fee := func(units int64) antelope.Action {
		return signerTransfer(t, nameEosioToken, "fuel.gm", eosUnits(units), "Fuel Transaction Fee | ref=teamgreymass")
	}
	for _, tc := range []struct {
		name    string
		answer  func(tx *antelope.Transaction) (int, []byte)
		maxFee  antelope.Asset
		want    error  // nil: paid
		fee     int64  // when paid
		because string // in the error
	}{
		{name: "free", answer: func(tx *antelope.Transaction) (int, []byte) { return 200, fuelAnswer(t, key, paid(tx), 200, "") }},
		{name: "fee within the maximum", maxFee: eosUnits(10),
			answer: func(tx *antelope.Transaction) (int, []byte) {
				return 402, fuelAnswer(t, key, paid(tx, fee(10)), 402, "0.0010 EOS")
			}, fee: 10},
		{name: "two fees add up", maxFee: eosUnits(10), want: ErrFeeTooHigh, because: "its fee 0.0011 EOS is more than ResourceProvider.MaxFee 0.0010 EOS",
			answer: func(tx *antelope.Transaction) (int, []byte) {
				return 402, fuelAnswer(t, key, paid(tx, fee(10), fee(1)), 402, "0.0011 EOS")
			}},
		{name: "a fee and no maximum", want: ErrFeeTooHigh, because: "allows no fee",
			answer: func(tx *antelope.Transaction) (int, []byte) {
				return 402, fuelAnswer(t, key, paid(tx, fee(10)), 402, "0.0010 EOS")
			}},
		{name: "a fee in another token", maxFee: antelope.MustAsset("1.0000 SYS"), want: ErrFeeTooHigh, because: "fees in 4,SYS only",
			answer: func(tx *antelope.Transaction) (int, []byte) {
				return 402, fuelAnswer(t, key, paid(tx, fee(10)), 402, "0.0010 EOS")
			}},
		{name: "fee on core.vaulta", maxFee: eosUnits(10), fee: 10, answer: func(tx *antelope.Transaction) (int, []byte) {
			return 402, fuelAnswer(t, key, paid(tx, signerTransfer(t, nameCoreVaulta, "fuel.gm", eosUnits(10), "fee")), 402, "0.0010 EOS")
		}},
		{name: "buyram for the signer", maxFee: eosUnits(1_0000), fee: 1_0000, answer: func(tx *antelope.Transaction) (int, []byte) {
			return 402, fuelAnswer(t, key, paid(tx, ramAction(t, "eosio", "buyram", me, me, eosUnits(1_0000))), 402, "1.0000 EOS")
		}},
		{name: "buyramself", maxFee: eosUnits(1_0000), fee: 5, answer: func(tx *antelope.Transaction) (int, []byte) {
			return 402, fuelAnswer(t, key, paid(tx, ramAction(t, "core.vaulta", "buyramself", me, eosUnits(5))), 402, "0.0005 EOS")
		}},
		{name: "buyrambytes priced from rammarket", maxFee: eosUnits(156), fee: 156, answer: func(tx *antelope.Transaction) (int, []byte) {
			return 402, fuelAnswer(t, key, paid(tx, ramAction(t, "eosio", "buyrambytes", me, me, uint32(1000))), 402, "0.0156 EOS")
		}},
		// The provider buys RAM first (it pays), moving rammarket; the
		// signer's buyrambytes after it costs what the moved market asks:
		// 1,000,000 EOS in doubles the market's EOS and halves its RAM, so
		// 1000 bytes cost about four times the 0.0156 EOS of before.
		{name: "buyrambytes after the provider's buyram, priced as the market moved", maxFee: eosUnits(156), want: ErrFeeTooHigh, because: "more than ResourceProvider.MaxFee 0.0156 EOS",
			answer: func(tx *antelope.Transaction) (int, []byte) {
				first := ramAction(t, "eosio", "buyram", fuelAcct, me, eosUnits(1_000_000_0000))
				first.Authorization = providerNoop.Authorization
				return 402, fuelAnswer(t, key, paid(tx, first, ramAction(t, "eosio", "buyrambytes", me, me, uint32(1000))), 402, "0.0156 EOS")
			}},
		{name: "buyrambytes after the provider's buyram, within the maximum", maxFee: eosUnits(1_0000), fee: 624, // 9,950,000,000 units after the fee buy 31,919,799,498 bytes; then 1000 bytes cost 624
			answer: func(tx *antelope.Transaction) (int, []byte) {
				first := ramAction(t, "eosio", "buyram", fuelAcct, me, eosUnits(1_000_000_0000))
				first.Authorization = providerNoop.Authorization
				return 402, fuelAnswer(t, key, paid(tx, first, ramAction(t, "eosio", "buyrambytes", me, me, uint32(1000))), 402, "0.0624 EOS")
			}},
		{name: "RAM the provider pays for", answer: func(tx *antelope.Transaction) (int, []byte) {
			buy := ramAction(t, "eosio", "buyrambytes", fuelAcct, me, uint32(1000))
			buy.Authorization = providerNoop.Authorization
			return 200, fuelAnswer(t, key, paid(tx, buy), 200, "")
		}},
		{name: "the request as a signing request", answer: func(tx *antelope.Transaction) (int, []byte) {
			p := paid(tx)
			uri, _ := antelope.NewESRTransaction(antelope.ESRChainFor(testChainID), *p).URI()
			var a map[string]any
			_ = json.Unmarshal(fuelAnswer(t, key, p, 200, ""), &a)
			a["data"].(map[string]any)["request"] = uri
			b, _ := json.Marshal(a)
			return 200, b
		}},

		{name: "refused", want: ErrProviderRefused, because: "refused to pay (HTTP 400)",
			answer: func(*antelope.Transaction) (int, []byte) {
				return 400, []byte(`{"code":400,"message":"Not eligible."}`)
			}},
		{name: "a server error, after retries", want: ErrProviderRefused, because: "HTTP 503",
			answer: func(*antelope.Transaction) (int, []byte) { return 503, []byte(`<html>busy</html>`) }},
		{name: "not JSON", want: ErrProviderRefused, because: "unreadable answer",
			answer: func(*antelope.Transaction) (int, []byte) { return 200, []byte(`<html>`) }},
		{name: "no data", want: ErrProviderRefused, because: "unreadable answer",
			answer: func(*antelope.Transaction) (int, []byte) { return 200, []byte(`{"code":200}`) }},
		{name: "an action request", want: ErrProviderRefused, because: "unreadable transaction",
			answer: func(tx *antelope.Transaction) (int, []byte) {
				return 200, []byte(`{"code":200,"data":{"request":["action",{}],"signatures":["x"]}}`)
			}},
		{name: "no signature", want: ErrProviderRefused, because: "no signature", answer: func(tx *antelope.Transaction) (int, []byte) {
			b := fuelAnswer(t, key, paid(tx), 200, "")
			return 200, []byte(strings.Replace(string(b), `"signatures":["SIG_`, `"signatures":[],"x":["SIG_`, 1))
		}},
		{name: "a signature that is not one", want: ErrProviderRefused, because: "unusable signatures", answer: func(tx *antelope.Transaction) (int, []byte) {
			b := fuelAnswer(t, key, paid(tx), 200, "")
			return 200, []byte(strings.Replace(string(b), `"signatures":["SIG_K1_`, `"signatures":["SIG_K1_x`, 1))
		}},

		{name: "expiration changed", want: ErrProviderTampered, because: "header", answer: func(tx *antelope.Transaction) (int, []byte) {
			p := paid(tx)
			p.Expiration += 3600
			return 200, fuelAnswer(t, key, p, 200, "")
		}},
		{name: "delay added", want: ErrProviderTampered, because: "header", answer: func(tx *antelope.Transaction) (int, []byte) {
			p := paid(tx)
			p.DelaySec = 60
			return 200, fuelAnswer(t, key, p, 200, "")
		}},
		{name: "a context-free action added", want: ErrProviderTampered, because: "context-free", answer: func(tx *antelope.Transaction) (int, []byte) {
			p := paid(tx)
			p.ContextFreeActions = []antelope.Action{{Account: antelope.MustName("greymassnoop"), Name: nameNoop, Authorization: []antelope.PermissionLevel{}, Data: []byte{}}}
			return 200, fuelAnswer(t, key, p, 200, "")
		}},
		{name: "an extension added", want: ErrProviderTampered, because: "extensions", answer: func(tx *antelope.Transaction) (int, []byte) {
			p := paid(tx)
			p.Extensions = []antelope.Extension{{Type: 1, Data: []byte{1}}}
			return 200, fuelAnswer(t, key, p, 200, "")
		}},
		{name: "no noop: the signer still pays", want: ErrProviderTampered, because: "still billed to the signer",
			answer: func(tx *antelope.Transaction) (int, []byte) { return 200, fuelAnswer(t, key, tx, 200, "") }},
		{name: "the noop after the signer's action", want: ErrProviderTampered, because: "still billed to the signer",
			answer: func(tx *antelope.Transaction) (int, []byte) {
				p := *tx
				p.Actions = append(append([]antelope.Action{}, tx.Actions...), providerNoop)
				return 200, fuelAnswer(t, key, &p, 200, "")
			}},
		{name: "a noop with data", want: ErrProviderTampered, because: "a noop must have no data", answer: func(tx *antelope.Transaction) (int, []byte) {
			n := providerNoop
			n.Data = []byte{1}
			p := *tx
			p.Actions = append([]antelope.Action{n}, tx.Actions...)
			return 200, fuelAnswer(t, key, &p, 200, "")
		}},
		{name: "RAM for another account", maxFee: eosUnits(1_0000), want: ErrProviderTampered, because: "must be for the signer", answer: func(tx *antelope.Transaction) (int, []byte) {
			return 402, fuelAnswer(t, key, paid(tx, ramAction(t, "eosio", "buyram", me, fuelAcct, eosUnits(1))), 402, "0.0001 EOS")
		}},
		{name: "RAM the signer authorizes for another payer", maxFee: eosUnits(1_0000), want: ErrProviderTampered, because: "only when it pays", answer: func(tx *antelope.Transaction) (int, []byte) {
			return 402, fuelAnswer(t, key, paid(tx, ramAction(t, "eosio", "buyram", fuelAcct, me, eosUnits(1))), 402, "0.0001 EOS")
		}},
		{name: "a transfer to the signer's harm with trailing bytes", maxFee: eosUnits(10), want: ErrProviderTampered, because: "its data is not a transfer",
			answer: func(tx *antelope.Transaction) (int, []byte) {
				f := fee(1)
				f.Data = append(f.Data, 0)
				return 402, fuelAnswer(t, key, paid(tx, f), 402, "0.0001 EOS")
			}},
		{name: "a zero fee transfer", maxFee: eosUnits(10), want: ErrProviderTampered, because: "positive transfer",
			answer: func(tx *antelope.Transaction) (int, []byte) {
				return 402, fuelAnswer(t, key, paid(tx, fee(0)), 402, "0.0000 EOS")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := providerServer(t, tc.answer)
			tx := userTx(t)
			orig, _ := tx.MarshalBinary()
			rp := &ResourceProvider{URL: c.URL(), MaxFee: tc.maxFee, OnRefusal: FailWhenRefused, FeeAccount: antelope.MustName("fuel.gm")}
			pay, err := rp.Pay(t.Context(), c, &PayRequest{ChainID: testChainID, Transaction: tx, Signer: signerLevel})
			if after, _ := tx.MarshalBinary(); string(after) != string(orig) {
				t.Error("Pay changed the request's transaction")
			}
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if pay.Fee.Amount != tc.fee || pay.Payer != providerNoop.Authorization[0] || len(pay.Signatures) != 1 || pay.Transaction.Actions[0].Name != nameNoop {
					t.Errorf("payment %+v", pay)
				}
				return
			}
			var pe *ProviderError
			if !errors.Is(err, tc.want) || !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.because) || pay != nil {
				t.Fatalf("%v, want %v: %s", err, tc.want, tc.because)
			}
			// The policy: a refusal may send the transaction unchanged;
			// tampering never.
			rp.OnRefusal = SendUnchanged
			pay, err = rp.Pay(t.Context(), c, &PayRequest{ChainID: testChainID, Transaction: tx, Signer: signerLevel})
			if tc.want == ErrProviderTampered {
				if !errors.Is(err, ErrProviderTampered) {
					t.Errorf("SendUnchanged: %v", err)
				}
			} else if err != nil || pay == nil || pay.Transaction != nil || !errors.Is(pay.Declined, tc.want) {
				t.Errorf("SendUnchanged: %+v, %v", pay, err)
			}
		})
	}
}

func TestResourceProviderNoAnswer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	c := New(url, WithTransport(&httpcore.Transport{Sleep: noSleep, MaxAttempts: 2}))
	rp := &ResourceProvider{URL: url, OnRefusal: FailWhenRefused}
	_, err := rp.Pay(t.Context(), c, &PayRequest{ChainID: testChainID, Transaction: userTx(t), Signer: signerLevel})
	var pe *ProviderError
	if !errors.Is(err, ErrProviderRefused) || !errors.As(err, &pe) || pe.Status != 0 || !strings.Contains(err.Error(), "no answer") {
		t.Errorf("%v", err)
	}

	// A context that ends is the caller's decision, not a refusal: no
	// policy sends the transaction then.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	rp.OnRefusal = SendUnchanged
	pay, err := rp.Pay(ctx, c, &PayRequest{ChainID: testChainID, Transaction: userTx(t), Signer: signerLevel})
	if !errors.Is(err, context.Canceled) || errors.As(err, &pe) || pay != nil {
		t.Errorf("%+v, %v", pay, err)
	}

	for _, bad := range []string{"", "ftp://x", "http://", "://"} {
		rp := &ResourceProvider{URL: bad}
		if _, err := rp.Pay(t.Context(), c, &PayRequest{ChainID: testChainID, Transaction: userTx(t), Signer: signerLevel}); err == nil || !strings.Contains(err.Error(), "invalid URL") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// A provider's 402 answer holds the whole transaction: for a large one (a
// contract's code, a big action) it is well over 64 KiB, and must be read
// whole — the HTTP core cut error answers' bodies there, so such a fee
// answer was "unreadable" and the provider taken for refusing.
func TestResourceProviderLargeFeeAnswer(t *testing.T) {
	key, _ := antelope.GeneratePrivateKey(nil)
	big := antelope.Action{Account: antelope.MustName("bigcontract"), Name: antelope.MustName("store"),
		Authorization: []antelope.PermissionLevel{signerLevel}, Data: make([]byte, 48<<10)}
	fee := signerTransfer(t, nameEosioToken, "fuel.gm", eosUnits(10), "fee")
	c := providerServer(t, func(tx *antelope.Transaction) (int, []byte) {
		return 402, fuelAnswer(t, key, paid(tx, fee), 402, "0.0010 EOS")
	})
	tx := userTx(t)
	tx.Actions = append(tx.Actions, big)
	rp := &ResourceProvider{URL: c.URL(), MaxFee: eosUnits(10), OnRefusal: FailWhenRefused, FeeAccount: antelope.MustName("fuel.gm")}
	pay, err := rp.Pay(t.Context(), c, &PayRequest{ChainID: testChainID, Transaction: tx, Signer: signerLevel})
	if err != nil {
		t.Fatal(err)
	}
	if pay.Fee.Amount != 10 || len(pay.Transaction.Actions) != 4 || len(pay.Transaction.Actions[3].Data) != 48<<10 {
		t.Errorf("payment %+v", pay)
	}
}
