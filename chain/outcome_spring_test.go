package chain_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/chain/httpcore"
)

// The cases of issue #31, each read in spring's source: what nodeos answers
// and when.

// isNotExecuted checks err says the transaction was not executed and can
// never be (ErrExpired), and is no unknown outcome nor a duplicate.
func isNotExecuted(t *testing.T, err error) {
	t.Helper()
	var uo *chain.UnknownOutcomeError
	if err == nil || errors.As(err, &uo) || !errors.Is(err, chain.ErrExpired) {
		t.Fatalf("want not executed (expired in no block), got %v", err)
	}
	// ErrDuplicate reads "already submitted": a caller that takes it for
	// done would never rebuild a transfer that never ran.
	if errors.Is(err, chain.ErrDuplicate) {
		t.Fatalf("not executed, yet matches ErrDuplicate: %v", err)
	}
}

// body reads r's body and leaves it to be read again.
func body(r *http.Request) []byte {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b
}

// passingTime makes every get_info of the node behind front first produce
// n blocks (n/2 seconds of chain time): the chain moves on while a send is
// settled.
func passingTime(c *chaintest.Chain, r *http.Request, n int) {
	if r.URL.Path == "/v1/chain/get_info" {
		c.ProduceBlocks(n)
	}
}

// With retry_trx, spring executes and relays the transaction first and
// only then registers it with the retry store, which throws
// tx_resource_exhaustion when full (chain_plugin.cpp send_transaction_gen
// → trx_retry_db.cpp track_transaction): executed, whatever the code says.
func TestTransactRetryStoreFull(t *testing.T) {
	c, keys := tokenChain(t)
	signed := signedTransfer(t, c, keys[alice], 3)
	id, _ := signed.ID()
	sends := 0
	srv := front(t, c, func(w http.ResponseWriter, r *http.Request, pass func() []byte) bool {
		if !isSendPath(r.URL.Path) {
			return false
		}
		if sends++; sends == 1 {
			pass() // executed and relayed; then the retry store is full
			nodeosAnswer(w, 500, 3040018, "tx_resource_exhaustion", "Transaction exceeded  transaction-retry-max-storage-size-gb limit: 1073741824 bytes")
			return true
		}
		return false
	})
	var res *chain.TransactResult
	var err error
	if n := executions(c, func() { res, err = client(srv).SendTransaction(t.Context(), signed) }); n != 1 {
		t.Fatalf("executed %d times", n)
	}
	if err != nil || res.ID != id || !res.AlreadySubmitted || res.BlockNum == 0 {
		t.Fatalf("executed once, reported: %+v, %v", res, err)
	}
	if got := bobBalance(t, c); got != 3 {
		t.Errorf("bob has %d", got)
	}

	// The same code before execution (unapplied_transaction_queue.hpp
	// added: the incoming queue is full), on every attempt: it is settled
	// too, and the chain shows the transaction expired in no block.
	signed = signedTransfer(t, c, keys[alice], 4)
	srv = front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
		passingTime(c, r, 60)
		if !isSendPath(r.URL.Path) {
			return false
		}
		nodeosAnswer(w, 500, 3040018, "tx_resource_exhaustion", "Transaction would exceed configured incoming-transaction-queue-size-mb 1024")
		return true
	})
	if n := executions(c, func() { res, err = client(srv).SendTransaction(t.Context(), signed) }); n != 0 {
		t.Fatalf("executed %d times", n)
	}
	if err == nil {
		t.Fatalf("never executed, reported executed: %+v", res)
	}
}

// Spring answers tx_duplicate for a transaction only queued
// (unapplied_transaction_queue.hpp add_incoming: the node lagging, between
// blocks, the block full), which may still expire unexecuted. After a lost
// attempt, a duplicate proves nothing: the chain settles it.
func TestTransactDuplicateOfQueued(t *testing.T) {
	for _, tc := range []struct {
		name     string
		executes bool // the queued transaction is executed later
		noStatus bool
	}{
		{"expires unexecuted", false, false},
		{"expires unexecuted, no get_transaction_status", false, true},
		{"executed later", true, false},
		{"executed later, no get_transaction_status", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []chaintest.Option
			if tc.noStatus {
				opts = append(opts, chaintest.WithoutTransactionStatus())
			}
			c, keys := tokenChain(t, opts...)
			signed := signedTransfer(t, c, keys[alice], 5)
			id, _ := signed.ID()
			var mu sync.Mutex
			sends, blocks, infos := 0, 0, 0
			srv := front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
				mu.Lock()
				defer mu.Unlock()
				switch r.URL.Path {
				case "/v1/chain/get_info":
					if infos++; infos == 2 && tc.executes {
						// The queue's turn comes: it is executed.
						if _, err := c.Client().SendTransaction(t.Context(), signed); err != nil {
							t.Error(err)
						}
					}
					c.ProduceBlocks(10)
					return false
				case "/v1/chain/get_block":
					// Every other read lands on a node 5 blocks behind the
					// others: "not yet" for the newest, not an error.
					var p struct {
						Num uint32 `json:"block_num_or_id"`
					}
					_ = json.Unmarshal(body(r), &p)
					if blocks++; blocks%2 == 0 && p.Num+5 > c.Head().Num {
						nodeosAnswer(w, 400, 3100002, "unknown_block_exception", "Could not find block "+fmt.Sprint(p.Num))
						return true
					}
					return false
				}
				if !isSendPath(r.URL.Path) {
					return false
				}
				if sends++; sends == 1 {
					hangUp(w) // a proxy's 504: lost before the node saw it
					return true
				}
				nodeosAnswer(w, 409, 3040008, "tx_duplicate", "duplicate transaction "+id.String())
				return true
			})
			var res *chain.TransactResult
			var err error
			n := executions(c, func() { res, err = client(srv).SendTransaction(t.Context(), signed) })
			if !tc.executes {
				if n != 0 {
					t.Fatalf("executed %d times", n)
				}
				isNotExecuted(t, err)
				return
			}
			if n != 1 {
				t.Fatalf("executed %d times", n)
			}
			if err != nil || res.ID != id || !res.AlreadySubmitted || res.BlockNum == 0 {
				t.Fatalf("executed once, reported: %+v, %v", res, err)
			}
		})
	}
}

// TAPoS and expiration come from get_info's cache: two identical calls
// within it must still build two transactions, never one id — or the
// second's lost first attempt meets the first's tx_duplicate and both
// report one transfer done.
func TestTransactIdenticalCalls(t *testing.T) {
	c, keys := tokenChain(t)
	cl := c.Client(chain.WithInfoCache(time.Hour))
	seen := map[antelope.Checksum256]bool{}
	for i := range 20 {
		tx, _, err := cl.BuildTransaction(t.Context(), transfer(t, 1))
		if err != nil {
			t.Fatal(err)
		}
		signed, err := cl.Sign(t.Context(), keys[alice], c.ChainID(), tx)
		if err != nil {
			t.Fatal(err)
		}
		sid, _ := signed.ID()
		if seen[sid] {
			t.Fatalf("build %d: the same transaction as an earlier one", i)
		}
		seen[sid] = true
	}
	// Two identical transfers, the second's first answer lost before the
	// node saw it: two transfers made, each reported once.
	sends := 0
	srv := front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
		if !isSendPath(r.URL.Path) {
			return false
		}
		if sends++; sends == 2 {
			hangUp(w)
			return true
		}
		return false
	})
	cl = chain.New(srv, chain.WithTransport(&httpcore.Transport{Sleep: noSleep}), chain.WithInfoCache(time.Hour))
	before := bobBalance(t, c)
	for i := range 2 {
		if _, err := cl.Transact(t.Context(), keys[alice], transfer(t, 10)); err != nil {
			t.Fatalf("transfer %d: %v", i, err)
		}
	}
	if got := bobBalance(t, c) - before; got != 20 {
		t.Errorf("two transfers of 10 reported done, bob received %d", got)
	}
}

// After a lost answer and a gateway's 403 on every retry, nothing reachable
// from the *UnknownOutcomeError may read as a refusal: the 403 is one.
func TestTransactUnknownUnwrapsToNoRefusal(t *testing.T) {
	for _, status := range []int{http.StatusForbidden, http.StatusTooManyRequests, http.StatusBadRequest} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			c, keys := tokenChain(t, chaintest.WithoutTransactionStatus())
			signed := signedTransfer(t, c, keys[alice], 1)
			id, _ := signed.ID()
			sends := 0
			srv := front(t, c, func(w http.ResponseWriter, r *http.Request, pass func() []byte) bool {
				if r.URL.Path == "/v1/chain/get_block" {
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
				w.WriteHeader(status)
				return true
			})
			var err error
			if n := executions(c, func() { _, err = client(srv).SendTransaction(t.Context(), signed) }); n != 1 {
				t.Fatalf("executed %d times", n)
			}
			isUnknown(t, err, id)
			var he *httpcore.HTTPError
			if errors.As(err, &he) && he.Status != 0 {
				t.Errorf("an unknown outcome unwraps to HTTP %d, a refusal: %v", he.Status, err)
			}
		})
	}
}

// get_transaction_status's answer carries no id: one about another
// transaction (a cache, a proxy mixing answers up) must not settle a send
// that executed nothing.
func TestTransactForeignStatus(t *testing.T) {
	for _, sameExpiration := range []bool{true, false} {
		t.Run(fmt.Sprint("same expiration ", sameExpiration), func(t *testing.T) {
			c, keys := tokenChain(t)
			other := signedTransfer(t, c, keys[alice], 7)
			otherRes, err := c.Client().SendTransaction(t.Context(), other)
			if err != nil {
				t.Fatal(err)
			}
			signed := signedTransfer(t, c, keys[alice], 8)
			id, _ := signed.ID()
			exp := other.Expiration
			if !sameExpiration {
				exp = signed.Expiration + 7
			}
			blk := c.Head()
			srv := front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
				switch {
				case isSendPath(r.URL.Path):
					hangUp(w) // lost before the node saw it, every time
					return true
				case r.URL.Path == "/v1/chain/get_transaction_status":
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprintf(w, `{"state":"IRREVERSIBLE","block_number":%d,"block_id":"%s","block_timestamp":"%s","expiration":"%s",`+
						`"head_number":%d,"head_id":"%s","head_timestamp":"%s","irreversible_number":%d,"irreversible_id":"%s",`+
						`"irreversible_timestamp":"%s","earliest_tracked_block_id":"%s","earliest_tracked_block_number":1}`,
						otherRes.BlockNum, blk.ID, otherRes.BlockTime, antelope.TimePointSec(exp).Time().Format("2006-01-02T15:04:05.000"),
						blk.Num, blk.ID, otherRes.BlockTime, blk.Num, blk.ID, otherRes.BlockTime, blk.ID)
					return true
				}
				return false
			})
			var res *chain.TransactResult
			if n := executions(c, func() { res, err = client(srv).SendTransaction(t.Context(), signed) }); n != 0 {
				t.Fatalf("executed %d times", n)
			}
			if err == nil {
				t.Fatalf("nothing executed, reported executed in block %d", res.BlockNum)
			}
			isUnknown(t, err, id)
		})
	}
}

// Without retry_trx nodeos answers expired_tx_exception only before
// executing: a refusal at once, the chain not read. With retry_trx it can
// come after (trx_retry_db.cpp clear_expired): the chain settles it.
func TestTransactExpiredWithAndWithoutRetryTrx(t *testing.T) {
	for _, retry := range []bool{false, true} {
		t.Run(fmt.Sprint("retry_trx ", retry), func(t *testing.T) {
			c, keys := tokenChain(t)
			signed := signedTransfer(t, c, keys[alice], 1)
			c.ProduceBlocks(2*60*2 + 10)
			reads := 0
			srv := front(t, c, func(_ http.ResponseWriter, r *http.Request, _ func() []byte) bool {
				if r.URL.Path == "/v1/chain/get_block" {
					reads++
				}
				return false
			})
			cl := chain.New(srv, chain.WithTransport(&httpcore.Transport{Sleep: noSleep}), chain.WithRetryTrx(retry, 1))
			_, err := cl.SendTransaction(t.Context(), signed)
			var ae *chain.APIError
			if !errors.Is(err, chain.ErrExpired) || !errors.As(err, &ae) || ae.Name != "expired_tx_exception" {
				t.Fatalf("expired: %v", err)
			}
			// Settled by the chain either way: without retry_trx too,
			// nodeos answers expired for bytes an earlier call executed
			// (TestSendTransactionResentAfterExecutedAndExpired).
			if reads == 0 {
				t.Errorf("retry_trx %v: expired taken as a refusal without reading the chain", retry)
			}
		})
	}
}
