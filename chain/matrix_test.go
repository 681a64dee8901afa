package chain_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/chain/httpcore"
)

// TestTransactOutcomeMatrix sends a transfer through every fault — before
// the chain executes it and after, × an answer lost, truncated, a 5xx,
// nodeos's timeout, a refusal of the retry, a duplicate — and holds each
// send to the one rule: executed exactly once and reported so, executed
// zero times and reported refused, or reported unknown with its id. Never
// anything else. Each cell also says which of the three it must be, so a
// change of behaviour shows.
func TestTransactOutcomeMatrix(t *testing.T) {
	type cell struct {
		when, fault string
		// inject sets the fault up and returns the node to send to (""
		// the chain itself).
		inject   func(t *testing.T, c *chaintest.Chain, signed *antelope.SignedTransaction) string
		noStatus bool   // the node has no get_transaction_status, and its blocks cannot be read
		want     string // "executed", "refused" or "unknown"
	}
	on := func(m chaintest.Misbehavior, n int) func(*testing.T, *chaintest.Chain, *antelope.SignedTransaction) string {
		return func(_ *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			c.Misbehave(m, n)
			return ""
		}
	}
	// lostThenLagging: the first send is executed and its answer lost;
	// every retry lands on a node that has not seen the reference block.
	lostThenLagging := func(_ *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
		c.MisbehaveInTurn(chaintest.LoseAfterExecuting, chaintest.RefuseAsLagging, chaintest.RefuseAsLagging, chaintest.RefuseAsLagging)
		return ""
	}
	// submittedElsewhere: another client sent the identical transaction
	// first.
	submittedElsewhere := func(t *testing.T, c *chaintest.Chain, signed *antelope.SignedTransaction) {
		if _, err := c.Client().SendTransaction(t.Context(), signed); err != nil {
			t.Fatal(err)
		}
	}
	cells := []cell{
		{"before", "lost", on(chaintest.DropBeforeExecuting, 1), false, "executed"},
		{"before", "lost, every attempt", on(chaintest.DropBeforeExecuting, -1), false, "unknown"},
		{"before", "truncated (a proxy's page cut short)", func(t *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			sends := 0
			return front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
				if !isSendPath(r.URL.Path) {
					return false
				}
				if sends++; sends > 1 {
					return false
				}
				w.Header().Set("Content-Length", "400")
				w.WriteHeader(http.StatusBadGateway)
				_, _ = w.Write([]byte("<html><body>502 Bad Gat"))
				hangUp(w)
				return true
			})
		}, false, "executed"},
		{"before", "5xx", func(_ *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			c.FailNext(1, http.StatusServiceUnavailable)
			return ""
		}, false, "executed"},
		{"before", "5xx, every attempt", func(_ *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			c.FailNext(100, http.StatusServiceUnavailable)
			return ""
		}, false, "unknown"},
		{"before", "nodeos timeout", on(chaintest.TimeoutBeforeExecuting, 1), false, "executed"},
		{"before", "refused on retry", func(t *testing.T, c *chaintest.Chain, s *antelope.SignedTransaction) string {
			c.Misbehave(chaintest.DropBeforeExecuting, 1)
			c.Misbehave(chaintest.RefuseAsLagging, -1)
			return ""
		}, false, "unknown"},
		{"before", "refused", on(chaintest.RefuseAsLagging, 1), false, "refused"},
		// A duplicate proves nothing: the chain shows the other client's
		// send executed it, once.
		{"before", "duplicate (submitted by another client)", func(t *testing.T, c *chaintest.Chain, s *antelope.SignedTransaction) string {
			submittedElsewhere(t, c, s)
			return ""
		}, false, "executed"},
		{"before", "429, then duplicate (submitted by another client)", func(t *testing.T, c *chaintest.Chain, s *antelope.SignedTransaction) string {
			submittedElsewhere(t, c, s)
			c.FailNext(1, http.StatusTooManyRequests)
			return ""
		}, false, "executed"},
		{"before", "retry_trx unsupported, then duplicate (submitted by another client)", func(t *testing.T, c *chaintest.Chain, s *antelope.SignedTransaction) string {
			submittedElsewhere(t, c, s)
			c.Misbehave(chaintest.RefuseRetryTrx, 1)
			return ""
		}, false, "executed"},

		{"before", "incoming queue full (tx_resource_exhaustion), every attempt; the chain moves on", func(t *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			return front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
				passingTime(c, r, 60)
				if !isSendPath(r.URL.Path) {
					return false
				}
				nodeosAnswer(w, 500, 3040018, "tx_resource_exhaustion", "Transaction would exceed configured incoming-transaction-queue-size-mb 1024")
				return true
			})
		}, false, "refused"},
		{"before", "lost, then duplicate of a queued transaction that expires", func(t *testing.T, c *chaintest.Chain, s *antelope.SignedTransaction) string {
			id, _ := s.ID()
			sends := 0
			return front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
				passingTime(c, r, 60)
				if !isSendPath(r.URL.Path) {
					return false
				}
				if sends++; sends == 1 {
					hangUp(w)
					return true
				}
				nodeosAnswer(w, 409, 3040008, "tx_duplicate", "duplicate transaction "+id.String())
				return true
			})
		}, false, "refused"},
		{"before", "lost, every attempt; get_transaction_status about another transaction", func(t *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			b := c.Head()
			return front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
				switch {
				case isSendPath(r.URL.Path):
					hangUp(w)
					return true
				case r.URL.Path == "/v1/chain/get_transaction_status":
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprintf(w, `{"state":"IRREVERSIBLE","block_number":%d,"block_id":"%s","head_number":%d,"irreversible_number":%d}`, b.Num, b.ID, b.Num, b.Num)
					return true
				}
				return false
			})
		}, false, "unknown"},

		{"after", "retry store full (tx_resource_exhaustion: trx_retry_db track_transaction)", func(t *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			sends := 0
			return front(t, c, func(w http.ResponseWriter, r *http.Request, pass func() []byte) bool {
				if !isSendPath(r.URL.Path) {
					return false
				}
				if sends++; sends > 1 {
					return false
				}
				pass()
				nodeosAnswer(w, 500, 3040018, "tx_resource_exhaustion", "Transaction exceeded  transaction-retry-max-storage-size-gb limit: 1073741824 bytes")
				return true
			})
		}, false, "executed"},
		{"after", "retry store full, every answer", func(t *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			return front(t, c, func(w http.ResponseWriter, r *http.Request, pass func() []byte) bool {
				if !isSendPath(r.URL.Path) {
					return false
				}
				pass()
				nodeosAnswer(w, 500, 3040018, "tx_resource_exhaustion", "Transaction exceeded  transaction-retry-max-storage-size-gb limit: 1073741824 bytes")
				return true
			})
		}, false, "executed"},
		{"after", "lost, every answer; no get_transaction_status: settled by the blocks", func(t *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			return front(t, c, func(w http.ResponseWriter, r *http.Request, pass func() []byte) bool {
				switch {
				case r.URL.Path == "/v1/chain/get_transaction_status":
					nodeosAnswer(w, 500, 3100008, "unsupported_feature", "Transaction Status Interface not enabled.")
					return true
				case isSendPath(r.URL.Path):
					pass()
					hangUp(w)
					return true
				}
				return false
			})
		}, false, "executed"},
		{"before", "lost, every attempt; no get_transaction_status; the chain moves past the expiration", func(t *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			return front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
				passingTime(c, r, 60)
				switch {
				case r.URL.Path == "/v1/chain/get_transaction_status":
					nodeosAnswer(w, 500, 3100008, "unsupported_feature", "Transaction Status Interface not enabled.")
					return true
				case isSendPath(r.URL.Path):
					hangUp(w)
					return true
				}
				return false
			})
		}, false, "refused"},
		{"after", "lost (the retry: duplicate)", func(_ *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			c.LoseNextAnswers(1)
			return ""
		}, false, "executed"},
		{"after", "lost, every answer", func(_ *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			c.LoseNextAnswers(100)
			return ""
		}, false, "unknown"},
		{"after", "truncated (connection cut)", func(_ *testing.T, c *chaintest.Chain, _ *antelope.SignedTransaction) string {
			c.TruncateNext(1)
			return ""
		}, false, "executed"},
		{"after", "truncated (correctly framed)", on(chaintest.CutAfterExecuting, 1), false, "executed"},
		{"after", "truncated (correctly framed), every answer, settled by status", on(chaintest.CutAfterExecuting, -1), false, "executed"},
		{"after", "truncated (correctly framed), every answer", on(chaintest.CutAfterExecuting, -1), true, "unknown"},
		{"after", "5xx", on(chaintest.GatewayErrorAfterExecuting, 1), false, "executed"},
		{"after", "5xx, every answer", on(chaintest.GatewayErrorAfterExecuting, -1), true, "unknown"},
		{"after", "nodeos timeout", on(chaintest.TimeoutAfterExecuting, 1), false, "executed"},
		{"after", "nodeos timeout, every answer", on(chaintest.TimeoutAfterExecuting, -1), true, "unknown"},
		{"after", "refused on retry, settled by status", lostThenLagging, false, "executed"},
		{"after", "refused on retry", lostThenLagging, true, "unknown"},
		{"after", "another transaction's id (the retry: duplicate)", on(chaintest.OtherTransactionID, 1), false, "executed"},
	}
	// Each cell runs over the network and, where the fault is the
	// chain's own, in process (chaintest.WithoutNetwork), where the client
	// takes the trace the chain kept instead of decoding the answer (#34):
	// the outcome must not change.
	for _, inProcess := range []bool{false, true} {
		for _, cl := range cells {
			mode := ""
			if inProcess {
				mode = "in process/"
			}
			t.Run(mode+cl.when+" execution/"+cl.fault, func(t *testing.T) {
				matrixCell(t, inProcess, cl.noStatus, cl.want, cl.inject)
			})
		}
	}
}

// matrixCell runs one cell of TestTransactOutcomeMatrix.
func matrixCell(t *testing.T, inProcess, noStatus bool, want string, inject func(t *testing.T, c *chaintest.Chain, signed *antelope.SignedTransaction) string) {
	var opts []chaintest.Option
	if noStatus {
		if inProcess {
			t.Skip("a node in front of the chain: over the network only")
		}
		opts = append(opts, chaintest.WithoutTransactionStatus())
	}
	if inProcess {
		opts = append(opts, chaintest.WithoutNetwork())
	}
	c, keys := tokenChain(t, opts...)
	signed := signedTransfer(t, c, keys[alice], 1_00000000)
	id, _ := signed.ID()
	start, balance := c.Stats().Executions, bobBalance(t, c)
	u := inject(t, c, signed)
	if inProcess && u != "" {
		t.Skip("a node in front of the chain: over the network only")
	}
	before := c.Stats().Executions // after another client's send
	cli := c.Client()
	if u != "" {
		cli = client(u)
	}
	if noStatus && u == "" {
		cli = client(blocksUnreadable(t, c))
	}
	res, err := cli.SendTransaction(t.Context(), signed)
	for _, m := range []chaintest.Misbehavior{chaintest.DropBeforeExecuting, chaintest.RefuseAsLagging,
		chaintest.CutAfterExecuting, chaintest.GatewayErrorAfterExecuting, chaintest.TimeoutAfterExecuting} {
		c.Misbehave(m, 0)
	}
	c.LoseNextAnswers(0)
	c.FailNext(0, 0)
	execs := c.Stats().Executions - before
	if moved, all := bobBalance(t, c)-balance, c.Stats().Executions-start; moved != int64(all)*1_00000000 {
		t.Fatalf("bob received %d for %d executions", moved, all)
	}

	var uo *chain.UnknownOutcomeError
	var ae *chain.APIError
	var ne *chain.NotExecutedError
	var he *httpcore.HTTPError
	got := ""
	switch {
	case err == nil:
		got = "executed"
		// Executed once: by this send, or by another client's
		// send of the same bytes.
		if all := c.Stats().Executions - start; all != 1 || res == nil || res.ID != id || (len(res.Actions) == 0 && !res.AlreadySubmitted) {
			t.Errorf("reported executed, executed %d times (%d by this send): %+v", all, execs, res)
		}
	case errors.As(err, &uo):
		got = "unknown"
		if uo.ID != id {
			t.Errorf("unknown outcome without the id: %v", err)
		}
		for _, refusal := range []error{chain.ErrBadTAPoS, chain.ErrExpired, chain.ErrDuplicate} {
			if errors.Is(err, refusal) {
				t.Errorf("an unknown outcome matches %v: %v", refusal, err)
			}
		}
	case errors.As(err, &ne), errors.As(err, &ae), errors.As(err, &he):
		got = "refused"
		if execs != 0 {
			t.Errorf("reported refused, executed %d times: %v", execs, err)
		}
	default:
		t.Fatalf("neither executed, refused nor unknown: %v", err)
	}
	if got != want {
		t.Errorf("%s, want %s (executed %d times): %+v, %v", got, want, execs, res, err)
	}
}
