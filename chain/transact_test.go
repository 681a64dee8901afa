package chain_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/chain/state"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

var (
	alice      = antelope.MustName("alice")
	bob        = antelope.MustName("bob")
	eosioToken = antelope.MustName("eosio.token")
	waxSym     = antelope.MustSymbol("8,WAX")
	token      = eosiotoken.Contract{Account: eosioToken}
)

func wax(amount int64) antelope.Asset { return antelope.Asset{Amount: amount, Symbol: waxSym} }

// tokenChain: eosio.token deployed, 1,000 WAX issued to alice, bob exists.
func tokenChain(t *testing.T, opts ...chaintest.Option) (*chaintest.Chain, map[antelope.Name]antelope.PrivateKey) {
	t.Helper()
	c := chaintest.New(opts...)
	t.Cleanup(c.Close)
	keys := map[antelope.Name]antelope.PrivateKey{}
	for _, n := range []antelope.Name{eosioToken, alice, bob} {
		keys[n] = c.NewAccount(n)
	}
	if err := c.DeployToken(eosioToken); err != nil {
		t.Fatal(err)
	}
	cl := c.Client()
	create, _ := token.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: wax(1_000_000_00000000)}, antelope.Active(eosioToken))
	issue, _ := token.Issue(eosiotoken.Issue{To: alice, Quantity: wax(1000_00000000)}, antelope.Active(alice))
	if _, err := cl.Transact(t.Context(), keys[eosioToken], create); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Transact(t.Context(), keys[alice], issue); err != nil {
		t.Fatal(err)
	}
	return c, keys
}

func transfer(t *testing.T, amount int64) antelope.Action {
	t.Helper()
	a, err := token.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(amount), Memo: "t"}, antelope.Active(alice))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func bobBalance(t *testing.T, c *chaintest.Chain) int64 {
	t.Helper()
	bal, err := c.Client().GetCurrencyBalance(t.Context(), eosioToken, bob, "WAX")
	if err != nil {
		t.Fatal(err)
	}
	if len(bal) == 0 {
		return 0
	}
	return bal[0].Amount
}

// TestTransactFaults is the fault matrix of a send: whatever happens to the
// answers, the transfer is executed exactly once.
func TestTransactFaults(t *testing.T) {
	for _, f := range []struct {
		name      string
		inject    func(c *chaintest.Chain)
		submitted bool // the result says a lost attempt executed it
		unknown   bool // the result is an UnknownOutcomeError
	}{
		{"no fault", func(*chaintest.Chain) {}, false, false},
		{"proxy 502 twice", func(c *chaintest.Chain) { c.FailNext(2, http.StatusBadGateway) }, false, false},
		{"429 with Retry-After", func(c *chaintest.Chain) { c.FailNext(1, http.StatusTooManyRequests) }, false, false},
		{"answer lost after execution", func(c *chaintest.Chain) { c.LoseNextAnswers(1) }, true, false},
		{"answer truncated after execution", func(c *chaintest.Chain) { c.TruncateNext(1) }, true, false},
		{"answers lost twice", func(c *chaintest.Chain) { c.LoseNextAnswers(2) }, true, false},
		{"every answer lost", func(c *chaintest.Chain) { c.LoseNextAnswers(100) }, false, true},
	} {
		t.Run(f.name, func(t *testing.T) {
			c, keys := tokenChain(t)
			var mu sync.Mutex
			var slept []time.Duration
			cl := chain.New(c.URL(), chain.WithTransport(&httpcore.Transport{Sleep: func(ctx context.Context, d time.Duration) error {
				mu.Lock()
				slept = append(slept, d)
				mu.Unlock()
				return nil
			}}))
			// TAPoS first, so the fault strikes the send.
			if _, err := cl.GetInfo(t.Context()); err != nil {
				t.Fatal(err)
			}
			before := c.Stats().Executions
			f.inject(c)
			res, err := cl.Transact(t.Context(), keys[alice], transfer(t, 1_00000000))
			c.LoseNextAnswers(0)
			var uo *chain.UnknownOutcomeError
			switch {
			case f.unknown:
				if !errors.As(err, &uo) || uo.ID == (antelope.Checksum256{}) {
					t.Fatalf("want an UnknownOutcomeError, got %v", err)
				}
			case err != nil:
				t.Fatal(err)
			case res.AlreadySubmitted != f.submitted:
				t.Errorf("AlreadySubmitted = %v after %d attempts", res.AlreadySubmitted, res.Attempts)
			}
			if got := c.Stats().Executions - before; got != 1 {
				t.Errorf("the transfer was executed %d times", got)
			}
			if got := bobBalance(t, c); got != 1_00000000 {
				t.Errorf("bob has %d", got)
			}
			if f.name == "429 with Retry-After" && (len(slept) != 1 || slept[0] != 2*time.Second) {
				t.Errorf("waited %v, want the server's 2s", slept)
			}
		})
	}
}

// TestTransactDuplicate: sending the same signed bytes again is refused
// with tx_duplicate and executes nothing.
func TestTransactDuplicate(t *testing.T) {
	c, keys := tokenChain(t)
	cl := c.Client()
	tx, chainID, err := cl.BuildTransaction(t.Context(), transfer(t, 5))
	if err != nil {
		t.Fatal(err)
	}
	signed, err := cl.Sign(t.Context(), keys[alice], chainID, tx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.SendTransaction(t.Context(), signed); err != nil {
		t.Fatal(err)
	}
	// tx_duplicate proves nothing (spring answers it for a transaction
	// only queued too): the chain shows it executed, once.
	res, err := cl.SendTransaction(t.Context(), signed)
	if err != nil || !res.AlreadySubmitted || res.BlockNum == 0 {
		t.Fatalf("second send: %+v, %v", res, err)
	}
	if got := bobBalance(t, c); got != 5 {
		t.Errorf("bob has %d", got)
	}
}

// TestTransactRefusals: each refusal comes back as nodeos words it, with
// its exception name and code, and matches its errors.Is target.
func TestTransactRefusals(t *testing.T) {
	c, keys := tokenChain(t)
	cl := c.Client()
	send := func(tx *antelope.Transaction, key antelope.PrivateKey) error {
		signed, err := cl.Sign(t.Context(), key, c.ChainID(), tx)
		if err != nil {
			return err
		}
		_, err = cl.SendTransaction(t.Context(), signed)
		return err
	}
	build := func() *antelope.Transaction {
		tx, _, err := cl.BuildTransaction(t.Context(), transfer(t, 1))
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}
	check := func(what string, err error, target error, name string, code int64) {
		t.Helper()
		var ae *chain.APIError
		if !errors.Is(err, target) || !errors.As(err, &ae) || ae.Name != name || ae.Code != code {
			t.Errorf("%s: %v; want %s (%d)", what, err, name, code)
		}
	}
	// Signed by bob's key for alice's authority.
	check("wrong key", send(build(), keys[bob]), chain.ErrMissingAuthority, "unsatisfied_authorization", 3090003)
	// No signature at all.
	tx := build()
	_, err := cl.SendTransaction(t.Context(), &antelope.SignedTransaction{Transaction: *tx})
	check("no signature", err, chain.ErrMissingAuthority, "unsatisfied_authorization", 3090003)
	// Expired: the chain moves on past the expiration before it is sent.
	tx = build()
	c.ProduceBlocks(2*60*2 + 10)
	check("expired", send(tx, keys[alice]), chain.ErrExpired, "expired_tx_exception", 3040005)
	// Too far in the future.
	tx = build()
	tx.SetExpiration(c.Head().Time.Add(2 * time.Hour))
	check("too far", send(tx, keys[alice]), chain.ErrExpirationTooFar, "tx_exp_too_far_exception", 3040006)
	// A reference block of another fork.
	tx = build()
	tx.RefBlockPrefix ^= 1
	check("bad TAPoS", send(tx, keys[alice]), chain.ErrBadTAPoS, "invalid_ref_block_exception", 3040007)
	// The contract requires the sender's authority.
	steal, _ := token.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(1)}, antelope.Active(bob))
	_, err = cl.Transact(t.Context(), keys[bob], steal)
	check("missing authority", err, chain.ErrMissingAuthority, "missing_auth_exception", 3090004)
	if got := bobBalance(t, c); got != 0 {
		t.Errorf("a refused transaction moved %d", got)
	}
}

// TestSendFallback: a node without send_transaction2 (older nodeos) gets
// send_transaction, one without that push_transaction, and the transfer is
// executed once.
func TestSendFallback(t *testing.T) {
	c, keys := tokenChain(t)
	for _, missing := range [][]string{{"send_transaction2"}, {"send_transaction2", "send_transaction"}} {
		target, _ := url.Parse(c.URL())
		proxy := httputil.NewSingleHostReverseProxy(target)
		var mu sync.Mutex
		var paths []string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			paths = append(paths, r.URL.Path)
			mu.Unlock()
			for _, m := range missing {
				if r.URL.Path == "/v1/chain/"+m {
					http.Error(w, `{"code":404,"message":"Not Found","error":{"code":0,"name":"exception","what":"unspecified","details":[{"message":"Unknown Endpoint"}]}}`, 404)
					return
				}
			}
			proxy.ServeHTTP(w, r)
		}))
		before := c.Stats().Executions
		res, err := chain.New(srv.URL).Transact(t.Context(), keys[alice], transfer(t, 1))
		srv.Close()
		if err != nil || res.BlockNum == 0 {
			t.Fatalf("without %v: %v", missing, err)
		}
		if got := c.Stats().Executions - before; got != 1 {
			t.Errorf("without %v: executed %d times", missing, got)
		}
		want := "/v1/chain/send_transaction"
		if len(missing) == 2 {
			want = "/v1/chain/push_transaction"
		}
		if paths[len(paths)-1] != want {
			t.Errorf("without %v: last request %s", missing, paths[len(paths)-1])
		}
	}
}

// TestReadFaults: reads retry 5xx and truncated bodies, give up on a slow
// node at the caller's deadline, and refuse an oversized answer.
func TestReadFaults(t *testing.T) {
	c, _ := tokenChain(t)
	cl := c.Client()
	c.FailNext(2, http.StatusServiceUnavailable)
	if _, err := cl.GetInfo(t.Context()); err != nil {
		t.Errorf("after two 503s: %v", err)
	}
	c.TruncateNext(1)
	if _, err := cl.GetInfo(t.Context()); err != nil {
		t.Errorf("after a truncated answer: %v", err)
	}
	c.Delay(300 * time.Millisecond)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	_, err := cl.GetInfo(ctx)
	cancel()
	c.Delay(0)
	if err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Errorf("slow node: %v", err)
	}
	small := chain.New(c.URL(), chain.WithTransport(&httpcore.Transport{MaxResponseSize: 64}))
	if _, err := small.GetInfo(t.Context()); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized answer: %v", err)
	}
	before := c.Stats().Requests
	c.FailNext(100, http.StatusBadGateway)
	_, err = cl.GetInfo(t.Context())
	c.FailNext(0, 0)
	if err == nil || c.Stats().Requests-before != 4 {
		t.Errorf("a dead node: %v after %d requests", err, c.Stats().Requests-before)
	}
}

// A read-only action's return value, and a dry run that changes nothing.
func TestReadOnlyAndCompute(t *testing.T) {
	c, keys := tokenChain(t)
	calc := antelope.MustName("calc")
	const abi = `{"version":"eosio::abi/1.2","structs":[{"name":"add","base":"","fields":[{"name":"a","type":"uint64"},{"name":"b","type":"uint64"}]}],` +
		`"actions":[{"name":"add","type":"add","ricardian_contract":""}],"action_results":[{"name":"add","result_type":"uint64"}]}`
	err := c.SetContract(calc, []byte(abi), func(ctx *chaintest.Context) error {
		d := antelope.NewDecoder(ctx.Action.Data)
		a, _ := d.Uint64()
		b, _ := d.Uint64()
		return ctx.Return(uint64Value(a + b))
	})
	if err != nil {
		t.Fatal(err)
	}
	cl := c.Client()
	act := antelope.Action{Account: calc, Name: antelope.MustName("add"), Authorization: []antelope.PermissionLevel{},
		Data: antelope.AppendUint64(antelope.AppendUint64(nil, 40), 2)}
	res, err := cl.SendReadOnly(t.Context(), act)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := antelope.NewDecoder(res.Actions[0].ReturnValue).Uint64(); err != nil || v != 42 {
		t.Errorf("return value %x: %d, %v", res.Actions[0].ReturnValue, v, err)
	}
	before := c.Head().Num
	res, err = cl.ComputeTransaction(t.Context(), keys[alice], transfer(t, 7))
	if err != nil || len(res.Actions) != 3 {
		t.Fatalf("compute: %+v, %v", res, err)
	}
	if bobBalance(t, c) != 0 || c.Head().Num != before {
		t.Error("compute_transaction changed the chain")
	}
	// A dry run reports the contract's refusal as a send would.
	_, err = cl.ComputeTransaction(t.Context(), nil, transfer(t, 1_000_000_00000000))
	if !errors.Is(err, chain.ErrAssert) {
		t.Errorf("compute overdraw: %v", err)
	}
}

type uint64Value uint64

func (v uint64Value) AppendBinary(b []byte) ([]byte, error) {
	return antelope.AppendUint64(b, uint64(v)), nil
}

// The state service: a revoked token is replaced once, a block above the
// head is refused, scopes and single rows are served at a block.
func TestStateService(t *testing.T) {
	c, keys := tokenChain(t)
	cl := c.Client()
	res, err := cl.Transact(t.Context(), keys[alice], transfer(t, 3_00000000))
	if err != nil {
		t.Fatal(err)
	}
	st := c.State()
	accounts := antelope.MustName("accounts")
	scopes, err := st.ScopeList(t.Context(), eosioToken, accounts)
	if err != nil || len(scopes) != 2 {
		t.Fatalf("scopes %v, %v", scopes, err)
	}
	c.RevokeTokens()
	row, found, err := st.At(res.BlockNum).Row(t.Context(), eosioToken, bob, accounts, uint64(waxSym.Code))
	if err != nil || !found {
		t.Fatalf("row after a revoked token: %v %v", found, err)
	}
	var a eosiotoken.Account
	if err := a.UnmarshalBinary(row.Data); err != nil || a.Balance.Amount != 3_00000000 || row.Payer != alice {
		t.Errorf("bob's row: %+v payer %s, %v", a, row.Payer, err)
	}
	if _, found, _ := st.At(res.BlockNum-1).Row(t.Context(), eosioToken, bob, accounts, uint64(waxSym.Code)); found {
		t.Error("bob had a row before the transfer")
	}
	_, err = st.At(c.Head().Num+100).Table(t.Context(), eosioToken, bob, accounts)
	var he *httpcore.HTTPError
	if !errors.As(err, &he) || he.Code != "app_block_num_higher_than_head_block_error" {
		t.Errorf("a future block: %v", err)
	}
	byScope, err := st.TablesByScopes(t.Context(), eosioToken, accounts, []antelope.Name{alice, bob})
	if err != nil || len(byScope[alice]) != 1 || len(byScope[bob]) != 1 {
		t.Errorf("tables by scopes: %v %v", byScope, err)
	}
	// A secondary index is the nodeos client's job.
	for _, err := range st.TableRows(t.Context(), antelope.TableQuery{Code: eosioToken, Scope: bob, Table: accounts, Index: 2, KeyType: antelope.IndexI64}) {
		if err == nil || !strings.Contains(err.Error(), "primary key only") {
			t.Errorf("secondary index on the state service: %v", err)
		}
	}
	// A wrong API key is an ErrAuth.
	bad := state.New(c.URL(), &state.Auth{AuthURL: c.AuthURL(), APIKey: "wrong"})
	if _, err := bad.ScopeList(t.Context(), eosioToken, accounts); !errors.Is(err, state.ErrAuth) {
		t.Errorf("wrong key: %v", err)
	}
}

// A node without transaction retry (transaction-retry-max-storage-size-gb
// is 0) refuses retry_trx before executing anything: the client sends again
// without it, once, and remembers.
func TestRetryTrxNotOffered(t *testing.T) {
	c, keys := tokenChain(t)
	target, _ := url.Parse(c.URL())
	proxy := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	var withRetry, without int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chain/send_transaction2" {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			mu.Lock()
			retry := strings.Contains(string(body), `"retry_trx":true`)
			if retry {
				withRetry++
			} else {
				without++
			}
			mu.Unlock()
			if retry {
				w.WriteHeader(500)
				_, _ = w.Write([]byte(`{"code":500,"message":"Internal Service Error","error":{"code":3170000,"name":"unsupported_feature","what":"Unsupported feature","details":[{"message":"Transaction retry not enabled on node. transaction-retry-max-storage-size-gb is 0"}]}}`))
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	defer srv.Close()
	cl := chain.New(srv.URL)
	before := c.Stats().Executions
	for i := range 2 {
		c.Produce()
		if _, err := cl.Transact(t.Context(), keys[alice], transfer(t, int64(1+i))); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.Stats().Executions - before; got != 2 || withRetry != 1 || without != 2 {
		t.Errorf("executed %d, sent with retry_trx %d times, without %d", got, withRetry, without)
	}
}
