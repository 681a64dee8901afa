package chain_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
)

// Each test here is a case of issue #20: a send whose answer leaves the
// outcome open must never be reported as a refusal, nor a refusal as a
// success.

// signedTransfer builds and signs a transfer of amount on c without sending
// it, so that faults injected afterwards strike the send itself.
func signedTransfer(t *testing.T, c *chaintest.Chain, key antelope.PrivateKey, amount int64) *antelope.SignedTransaction {
	t.Helper()
	cl := c.Client()
	tx, chainID, err := cl.BuildTransaction(t.Context(), transfer(t, amount))
	if err != nil {
		t.Fatal(err)
	}
	signed, err := cl.Sign(t.Context(), key, chainID, tx)
	if err != nil {
		t.Fatal(err)
	}
	return signed
}

// isUnknown checks err is an *UnknownOutcomeError for id that does not
// pass for a refusal.
func isUnknown(t *testing.T, err error, id antelope.Checksum256) *chain.UnknownOutcomeError {
	t.Helper()
	var uo *chain.UnknownOutcomeError
	if !errors.As(err, &uo) || uo.ID != id {
		t.Fatalf("want an UnknownOutcomeError for %s, got %v", id, err)
	}
	var ae *chain.APIError
	for _, refusal := range []error{chain.ErrBadTAPoS, chain.ErrExpired, chain.ErrDuplicate, chain.ErrAssert, chain.ErrCPU} {
		if errors.Is(err, refusal) {
			t.Errorf("an unknown outcome matches %v: a caller would rebuild and pay twice: %v", refusal, err)
		}
	}
	if errors.As(err, &ae) {
		t.Errorf("an unknown outcome unwraps to a nodeos refusal: %v", err)
	}
	return uo
}

// executions runs send and returns how many transactions the chain
// executed meanwhile.
func executions(c *chaintest.Chain, send func()) int {
	before := c.Stats().Executions
	send()
	return c.Stats().Executions - before
}

// nodeos executes the transfer, then times out writing the answer: its
// timeout_exception proves nothing, the retry finds the transaction
// already submitted.
func TestTransactTimeoutAfterExecuting(t *testing.T) {
	c, keys := tokenChain(t)
	signed := signedTransfer(t, c, keys[alice], 1)
	c.Misbehave(chaintest.TimeoutAfterExecuting, 1)
	var res *chain.TransactResult
	var err error
	if n := executions(c, func() { res, err = c.Client().SendTransaction(t.Context(), signed) }); n != 1 {
		t.Fatalf("executed %d times", n)
	}
	if err != nil || !res.AlreadySubmitted {
		t.Fatalf("a timeout after executing: %+v, %v", res, err)
	}
	// Every attempt timed out: unknown, never "not executed".
	c.ProduceBlocks(2)
	signed = signedTransfer(t, c, keys[alice], 2)
	c.Misbehave(chaintest.TimeoutAfterExecuting, -1)
	defer c.Misbehave(chaintest.TimeoutAfterExecuting, 0)
	if n := executions(c, func() { res, err = c.Client().SendTransaction(t.Context(), signed) }); n != 1 {
		t.Fatalf("executed %d times", n)
	}
	var ae *chain.APIError
	if errors.As(err, &ae) {
		t.Fatalf("nodeos's timeout after executing is reported as a refusal: %v", err)
	}
	// get_transaction_status settles it.
	if err != nil || !res.AlreadySubmitted || res.Status == nil || res.Status.State != chain.TxIrreversible || res.BlockNum == 0 {
		t.Fatalf("settled by get_transaction_status: %+v, %v", res, err)
	}
}

// A lost answer, then every retry refused by a lagging node (or expired):
// the refusal of a retry proves nothing about the lost attempt.
func TestTransactRefusedOnRetry(t *testing.T) {
	c, keys := tokenChain(t, chaintest.WithoutTransactionStatus())
	signed := signedTransfer(t, c, keys[alice], 1)
	id, _ := signed.ID()
	// The first send executes and its answer is lost; every retry lands on
	// a lagging node.
	var sends int
	srv := front(t, c, func(w http.ResponseWriter, r *http.Request, pass func() []byte) bool {
		if r.URL.Path == "/v1/chain/get_block" { // the blocks cannot settle it either
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
		if !isSendPath(r.URL.Path) {
			return false
		}
		if sends++; sends == 1 {
			pass()
			hangUp(w)
			return true
		}
		nodeosAnswer(w, 500, 3040007, "invalid_ref_block_exception", "Transaction's reference block did not match.")
		return true
	})
	var err error
	if n := executions(c, func() { _, err = client(srv).SendTransaction(t.Context(), signed) }); n != 1 {
		t.Fatalf("executed %d times", n)
	}
	uo := isUnknown(t, err, id)
	if !errors.Is(uo.StatusErr, chain.ErrUnsupported) || !strings.Contains(err.Error(), "invalid_ref_block_exception") {
		t.Errorf("the error says what happened: %v", err)
	}

	// Expired on the retry: also unknown, and not ErrExpired.
	signed = signedTransfer(t, c, keys[alice], 2)
	id, _ = signed.ID()
	sends = 0
	srv = front(t, c, func(w http.ResponseWriter, r *http.Request, pass func() []byte) bool {
		if r.URL.Path == "/v1/chain/get_block" {
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
		if !isSendPath(r.URL.Path) {
			return false
		}
		if sends++; sends == 1 {
			pass() // executed, and the answer is lost
			hangUp(w)
			return true
		}
		nodeosAnswer(w, 500, 3040005, "expired_tx_exception", "expired transaction "+id.String())
		return true
	})
	if n := executions(c, func() { _, err = client(srv).SendTransaction(t.Context(), signed) }); n != 1 {
		t.Fatalf("executed %d times", n)
	}
	isUnknown(t, err, id)
	if sends != 2 {
		t.Errorf("sent %d times: an expired retry is not worth another", sends)
	}
}

// Two clients send the identical transfer. The second's first attempt is
// refused before anything runs (retry_trx unsupported, no
// send_transaction2, a 429): its tx_duplicate proves nothing, and the chain
// shows the transfer executed once (by the first client): AlreadySubmitted,
// with the block, and nothing executed by this send.
func TestTransactDuplicateAfterRefusal(t *testing.T) {
	for _, f := range []struct {
		name   string
		inject func(c *chaintest.Chain) string // returns the URL to send to
	}{
		{"retry_trx unsupported", func(c *chaintest.Chain) string { c.Misbehave(chaintest.RefuseRetryTrx, 1); return c.URL() }},
		{"429", func(c *chaintest.Chain) string { c.FailNext(1, http.StatusTooManyRequests); return c.URL() }},
		{"no send_transaction2", func(c *chaintest.Chain) string {
			return front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
				if r.URL.Path != "/v1/chain/send_transaction2" {
					return false
				}
				nodeosAnswer(w, 404, 0, "exception", "Unknown Endpoint")
				return true
			})
		}},
	} {
		t.Run(f.name, func(t *testing.T) {
			c, keys := tokenChain(t)
			signed := signedTransfer(t, c, keys[alice], 1)
			if _, err := c.Client().SendTransaction(t.Context(), signed); err != nil {
				t.Fatal(err)
			}
			u := f.inject(c)
			var res *chain.TransactResult
			var err error
			if n := executions(c, func() { res, err = client(u).SendTransaction(t.Context(), signed) }); n != 0 {
				t.Fatalf("executed %d times", n)
			}
			if err != nil || !res.AlreadySubmitted || res.BlockNum == 0 {
				t.Fatalf("the transfer was executed once, by the first client: %+v, %v", res, err)
			}
		})
	}
}

// nodeos executes, then answers 200 with a body that cannot be read
// (correctly framed, cut in half) or names another transaction: the
// outcome is open, the same bytes go again and find it submitted.
func TestTransactUnreadableAnswer(t *testing.T) {
	for _, m := range []chaintest.Misbehavior{chaintest.CutAfterExecuting, chaintest.OtherTransactionID} {
		t.Run(m.String(), func(t *testing.T) {
			c, keys := tokenChain(t, chaintest.WithoutTransactionStatus())
			signed := signedTransfer(t, c, keys[alice], 1)
			c.Misbehave(m, 1)
			var res *chain.TransactResult
			var err error
			if n := executions(c, func() { res, err = c.Client().SendTransaction(t.Context(), signed) }); n != 1 {
				t.Fatalf("executed %d times", n)
			}
			if err != nil || !res.AlreadySubmitted || res.Attempts != 2 {
				t.Fatalf("%+v, %v", res, err)
			}
			if m != chaintest.CutAfterExecuting {
				return
			}
			// Every answer so: unknown, with the id.
			c.ProduceBlocks(2)
			signed = signedTransfer(t, c, keys[alice], 2)
			id, _ := signed.ID()
			c.Misbehave(m, -1)
			defer c.Misbehave(m, 0)
			if n := executions(c, func() { _, err = client(blocksUnreadable(t, c)).SendTransaction(t.Context(), signed) }); n != 1 {
				t.Fatalf("executed %d times", n)
			}
			isUnknown(t, err, id)
		})
	}
}

// An outcome the answers leave open is looked up with
// get_transaction_status before giving up; the error says what was found.
func TestTransactSettledByStatus(t *testing.T) {
	c, keys := tokenChain(t)
	// Every answer to the sends lost, the first executed: the lookup finds
	// it in a block.
	signed := signedTransfer(t, c, keys[alice], 1)
	id, _ := signed.ID()
	c.LoseNextAnswers(4)
	var res *chain.TransactResult
	var err error
	if n := executions(c, func() { res, err = c.Client().SendTransaction(t.Context(), signed) }); n != 1 {
		t.Fatalf("executed %d times", n)
	}
	if err != nil || !res.AlreadySubmitted || res.Status == nil || !res.Status.Executed() || res.BlockNum != res.Status.BlockNum || res.ID != id {
		t.Fatalf("settled: %+v, %v", res, err)
	}
	// Every request dropped before the chain sees it: the node does not
	// know it, which proves nothing (another node may) — unknown, and so
	// reported.
	signed = signedTransfer(t, c, keys[alice], 2)
	id, _ = signed.ID()
	c.Misbehave(chaintest.DropBeforeExecuting, -1)
	if n := executions(c, func() { _, err = c.Client().SendTransaction(t.Context(), signed) }); n != 0 {
		t.Fatalf("executed %d times", n)
	}
	c.Misbehave(chaintest.DropBeforeExecuting, 0)
	uo := isUnknown(t, err, id)
	if uo.Status == nil || uo.Status.State != chain.TxUnknown || !strings.Contains(err.Error(), "get_transaction_status: UNKNOWN") {
		t.Errorf("the error says what the lookup found: %v", err)
	}
	// The same signed bytes, sent again once the node is well, execute once.
	if n := executions(c, func() { _, err = c.Client().SendTransaction(t.Context(), uo.Transaction) }); n != 1 || err != nil {
		t.Errorf("resent: executed %d times, %v", n, err)
	}
	// A node without the lookup: unknown, and the error says so.
	c2, keys2 := tokenChain(t, chaintest.WithoutTransactionStatus())
	signed = signedTransfer(t, c2, keys2[alice], 1)
	id, _ = signed.ID()
	c2.LoseNextAnswers(4)
	_, err = client(blocksUnreadable(t, c2)).SendTransaction(t.Context(), signed)
	uo = isUnknown(t, err, id)
	if uo.Status != nil || !errors.Is(uo.StatusErr, chain.ErrUnsupported) || !strings.Contains(err.Error(), "not settled by get_transaction_status") {
		t.Errorf("without the lookup: %v", err)
	}
	// A caller's deadline while the answer is awaited: unknown, not looked
	// up. The deadline strikes once the chain has executed the send (a
	// deadline of 50 ms struck before the send, on a loaded machine: "not
	// sent", rightly, and the test failed).
	signed = signedTransfer(t, c, keys[alice], 3)
	id, _ = signed.ID()
	deadline := newStruckDeadline()
	awaited := front(t, c, func(w http.ResponseWriter, r *http.Request, pass func() []byte) bool {
		if !isSendPath(r.URL.Path) {
			return false
		}
		pass()
		deadline.strike()
		<-r.Context().Done() // the caller hangs up: no answer
		return true
	})
	if n := executions(c, func() { _, err = client(awaited).SendTransaction(deadline, signed) }); n != 1 {
		t.Fatalf("executed %d times", n)
	}
	uo = isUnknown(t, err, id)
	if !errors.Is(err, context.DeadlineExceeded) || uo.StatusErr == nil {
		t.Errorf("at the deadline: %v", err)
	}
}

// struckDeadline is a context whose deadline strikes when the test says
// (strike), at a step of the exchange, not after a time that a loaded
// machine may spend before the exchange even starts. Its parent is
// Background: context.Cause then reports its own DeadlineExceeded.
type struckDeadline struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func newStruckDeadline() *struckDeadline {
	return &struckDeadline{Context: context.Background(), done: make(chan struct{})}
}

func (d *struckDeadline) strike() { d.once.Do(func() { close(d.done) }) }

func (d *struckDeadline) Done() <-chan struct{} { return d.done }

func (d *struckDeadline) Err() error {
	select {
	case <-d.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// A send whose expiration is too far for retry_trx is sent without it;
// the next send asks for retry_trx again.
func TestRetryTrxTooFarIsPerSend(t *testing.T) {
	c, keys := tokenChain(t)
	var mu sync.Mutex
	var asked []bool
	srv := front(t, c, func(w http.ResponseWriter, r *http.Request, pass func() []byte) bool {
		if r.URL.Path != "/v1/chain/send_transaction2" {
			return false
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		retry := bytes.Contains(body, []byte(`"retry_trx":true`))
		mu.Lock()
		asked = append(asked, retry)
		first := len(asked) == 1
		mu.Unlock()
		if retry && first {
			nodeosAnswer(w, 500, 3040006, "tx_exp_too_far_exception", "retry transaction expiration is too far in the future")
			return true
		}
		return false
	})
	cl := client(srv)
	for i := range 2 {
		c.Produce()
		if _, err := cl.Transact(t.Context(), keys[alice], transfer(t, int64(1+i))); err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(asked) != "[true false true]" {
		t.Errorf("retry_trx asked %v: one send's expiration turned it off for the client", asked)
	}
}

// ProvesNotExecuted: only an exception raised while checking or executing a
// transaction proves it was not executed.
func TestProvesNotExecuted(t *testing.T) {
	for _, e := range []struct {
		name string
		code int64
		want bool
	}{
		{"eosio_assert_message_exception", 3050003, true},
		{"missing_auth_exception", 3090004, true},
		{"unsatisfied_authorization", 3090003, true},
		{"invalid_ref_block_exception", 3040007, true},
		{"expired_tx_exception", 3040005, false},   // trx_retry_db clear_expired: after execution too
		{"tx_duplicate", 3040008, false},           // a queued transaction may still run
		{"tx_resource_exhaustion", 3040018, false}, // trx_retry_db track_transaction: after execution
		{"out_of_range_exception", 8, true},        // a contract's fc exception, while executing
		{"parse_error_exception", 4, true},
		{"tx_cpu_usage_exceeded", 3080004, true},
		{"leeway_deadline_exception", 3081001, true},
		{"ram_usage_exceeded", 3080001, true},
		{"wasm_execution_error", 3070002, true},
		{"unsupported_feature", 3100008, true},
		{"timeout_exception", 2, false},
		{"abi_serialization_deadline_exception", 3015010, false},
		{"exception", 0, false},
		{"unhandled_exception", 1, false},
		{"producer_exception", 3170000, false},
		{"some_new_exception", 3990001, false},
		{"timeout_exception", 3040005, false}, // a name that proves nothing, whatever its code
	} {
		if got := chain.ProvesNotExecuted(&chain.APIError{Name: e.name, Code: e.code}); got != e.want {
			t.Errorf("%s (%d): %v", e.name, e.code, got)
		}
	}
}

// front is an httptest server in front of chain c: handle answers a
// request itself (returning true), or leaves it to the chain (false).
// pass forwards the request to the chain and returns the chain's answer,
// for a handler that answers after the chain acted.
func front(t *testing.T, c *chaintest.Chain, handle func(w http.ResponseWriter, r *http.Request, pass func() []byte) bool) string {
	t.Helper()
	target, _ := url.Parse(c.URL())
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		reset := func() {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		reset()
		pass := func() []byte {
			reset()
			rec := httptest.NewRecorder()
			proxy.ServeHTTP(rec, r)
			return rec.Body.Bytes()
		}
		if handle(w, r, pass) {
			return
		}
		reset()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// blocksUnreadable is a node in front of c that answers every get_block
// with a proxy's 503: the chain's blocks cannot be read to settle a send.
func blocksUnreadable(t *testing.T, c *chaintest.Chain) string {
	return front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
		if r.URL.Path != "/v1/chain/get_block" {
			return false
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		return true
	})
}

func isSendPath(p string) bool {
	return p == "/v1/chain/send_transaction2" || p == "/v1/chain/send_transaction" || p == "/v1/chain/push_transaction"
}

// client is a client of the node at u with no backoff sleeps.
func client(u string) *chain.Client {
	return chain.New(u, chain.WithTransport(&httpcore.Transport{Sleep: noSleep}))
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}

// nodeosAnswer writes nodeos's error envelope.
func nodeosAnswer(w http.ResponseWriter, status int, code int64, name, detail string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"code":%d,"message":"Internal Service Error","error":{"code":%d,"name":%q,"what":"","details":[{"message":%q,"file":"x","line_number":1,"method":"x"}]}}`,
		status, code, name, detail)
}

func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }
