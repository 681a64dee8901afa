package chaintest_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// Each misbehavior, over HTTP and in process, as a client without retries
// sees it, and what the chain did meanwhile.
func TestMisbehave(t *testing.T) {
	for _, network := range []bool{true, false} {
		var opts []chaintest.Option
		if !network {
			opts = append(opts, chaintest.WithoutNetwork())
		}
		c, keys := tokenChain(t, opts...)
		cl := c.Client()
		// signedTransfer is a new transaction for each amount.
		signedTransfer := func(amount int64) (*antelope.SignedTransaction, []byte) {
			tr, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(amount)}, antelope.Active(alice))
			tx, chainID, err := cl.BuildTransaction(t.Context(), tr)
			if err != nil {
				t.Fatal(err)
			}
			signed, err := cl.Sign(t.Context(), keys[alice], chainID, tx)
			if err != nil {
				t.Fatal(err)
			}
			packed, _ := signed.Pack(antelope.CompressionNone)
			pj, _ := packed.MarshalJSON()
			return signed, pj
		}
		send := func(path string, body []byte) (int, []byte, error) {
			resp, err := c.HTTPClient().Post(c.URL()+path, "application/json", bytes.NewReader(body))
			if err != nil {
				return 0, nil, err
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			return resp.StatusCode, b, err
		}
		var signed *antelope.SignedTransaction
		for i, m := range []struct {
			m        chaintest.Misbehavior
			executed bool
			check    func(status int, body []byte, err error) bool
		}{
			{chaintest.DropBeforeExecuting, false, func(_ int, _ []byte, err error) bool { return err != nil }},
			{chaintest.TimeoutBeforeExecuting, false, func(s int, b []byte, _ error) bool {
				return s == 500 && strings.Contains(string(b), `"timeout_exception"`)
			}},
			{chaintest.RefuseAsLagging, false, func(s int, b []byte, _ error) bool {
				return s == 500 && strings.Contains(string(b), `"invalid_ref_block_exception"`)
			}},
			{chaintest.TimeoutAfterExecuting, true, func(s int, b []byte, _ error) bool {
				return s == 500 && strings.Contains(string(b), `"timeout_exception"`)
			}},
			{chaintest.GatewayErrorAfterExecuting, true, func(s int, b []byte, _ error) bool {
				return s == 504 && strings.Contains(string(b), "Gateway")
			}},
			{chaintest.CutAfterExecuting, true, func(s int, b []byte, err error) bool {
				return s == 202 && err == nil && len(b) > 0 && !strings.HasSuffix(string(b), "}")
			}},
			{chaintest.OtherTransactionID, true, func(s int, b []byte, _ error) bool {
				id, _ := signed.ID()
				return s == 202 && strings.Contains(string(b), `"transaction_id"`) && !strings.Contains(string(b), id.String())
			}},
		} {
			what := fmt.Sprintf("%v (network %v)", m.m, network)
			var pj []byte
			signed, pj = signedTransfer(int64(i + 1))
			before := c.Stats().Executions
			c.Misbehave(m.m, 1)
			status, body, err := send("/v1/chain/send_transaction", pj)
			if !m.check(status, body, err) {
				t.Errorf("%s: %d %s %v", what, status, body, err)
			}
			want := 0
			if m.executed {
				want = 1
			}
			if got := c.Stats().Executions - before; got != want {
				t.Errorf("%s: executed %d times", what, got)
			}
			// Once: the next send is answered as usual (a duplicate when
			// the first was executed).
			status, body, _ = send("/v1/chain/send_transaction", pj)
			if m.executed && (status != 500 || !strings.Contains(string(body), "tx_duplicate")) || !m.executed && status != 202 {
				t.Errorf("%s, the next send: %d %s", what, status, body)
			}
		}
		_, pj := signedTransfer(100)
		// In turn: the first send passes, the second is refused.
		c.MisbehaveInTurn(chaintest.Pass, chaintest.RefuseAsLagging)
		_, other := signedTransfer(101)
		if s1, b1, _ := send("/v1/chain/send_transaction", other); s1 != 202 {
			t.Errorf("in turn, Pass: %d %s", s1, b1)
		}
		if s2, b2, _ := send("/v1/chain/send_transaction", pj); s2 != 500 || !strings.Contains(string(b2), "invalid_ref_block_exception") {
			t.Errorf("in turn, RefuseAsLagging: %d %s", s2, b2)
		}
		// RefuseRetryTrx refuses retry_trx only.
		c.Misbehave(chaintest.RefuseRetryTrx, -1)
		if status, body, _ := send("/v1/chain/send_transaction2", []byte(`{"retry_trx":true,"transaction":`+string(pj)+`}`)); status != 500 || !strings.Contains(string(body), "unsupported_feature") {
			t.Errorf("RefuseRetryTrx: %d %s", status, body)
		}
		c.Misbehave(chaintest.RefuseRetryTrx, 0)
		// get_transaction_status knows the executed transaction.
		id, _ := signed.ID()
		st, err := cl.GetTransactionStatus(t.Context(), id)
		if err != nil || st.State != chain.TxIrreversible || st.BlockNum == 0 {
			t.Errorf("status: %+v, %v", st, err)
		}
	}
	// A node without it refuses the lookup as nodeos does by default.
	c := chaintest.New(chaintest.WithoutTransactionStatus())
	defer c.Close()
	if _, err := c.Client().GetTransactionStatus(t.Context(), [32]byte{1}); !errors.Is(err, chain.ErrUnsupported) {
		t.Errorf("without transaction status: %v", err)
	}
	if s := chaintest.Misbehavior(99).String(); s != "Misbehavior(99)" {
		t.Error(s)
	}
}
