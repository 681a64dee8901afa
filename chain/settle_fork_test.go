package chain_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
)

// Behind a balancer, get_info and get_block can be answered by two nodes:
// one whose last irreversible block is past the transaction's block, and
// one still on a minority fork, whose block of the same number (produced
// after skipped slots, so stamped past the expiration) does not hold it.
// Read by number, that block says "expired in no block" about a transfer
// that executed: the caller rebuilds it and the payee is paid twice. A
// block read by number proves the chain's history only when it links to
// the reference block and to a last irreversible block's id.
func TestSettleForkedBlockBehindBalancer(t *testing.T) {
	c, keys := tokenChain(t, chaintest.WithoutTransactionStatus())
	signed := signedTransfer(t, c, keys[alice], 7)
	id, _ := signed.ID()
	expiration := time.Unix(int64(signed.Expiration), 0).UTC()
	var mu sync.Mutex
	sends := 0
	srv := front(t, c, func(w http.ResponseWriter, r *http.Request, pass func() []byte) bool {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/v1/chain/get_info":
			c.ProduceBlocks(10)
			return false
		case "/v1/chain/get_block":
			out := pass()
			var b map[string]any
			if err := json.Unmarshal(out, &b); err != nil {
				return false
			}
			txs, _ := b["transactions"].([]any)
			holds := false
			for _, tx := range txs {
				if m, ok := tx.(map[string]any); ok && m["trx"].(map[string]any)["id"] == id.String() {
					holds = true
				}
			}
			if !holds {
				return false
			}
			// The minority fork's block of this number.
			fid := []byte(b["id"].(string))
			if fid[40] == 'f' {
				fid[40] = 'e'
			} else {
				fid[40] = 'f'
			}
			b["id"] = string(fid)
			b["previous"] = "00000000" + string(fid[8:])
			b["timestamp"] = expiration.Add(500 * time.Millisecond).Format("2006-01-02T15:04:05.000")
			b["transactions"] = []any{}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(b)
			return true
		}
		if !isSendPath(r.URL.Path) {
			return false
		}
		if sends++; sends == 1 {
			pass() // executed; the answer is lost
			hangUp(w)
			return true
		}
		nodeosAnswer(w, 409, 3040008, "tx_duplicate", "duplicate transaction "+id.String())
		return true
	})
	var res *chain.TransactResult
	var err error
	if n := executions(c, func() { res, err = client(srv).SendTransaction(t.Context(), signed) }); n != 1 {
		t.Fatalf("executed %d times", n)
	}
	var uo *chain.UnknownOutcomeError
	var ne *chain.NotExecutedError
	switch {
	case errors.As(err, &ne) || errors.Is(err, chain.ErrExpired):
		t.Fatalf("executed once, reported expired in no block (a forked block read by number): %v", err)
	case err == nil && res.ID != id:
		t.Fatalf("reported another transaction: %+v", res)
	case err != nil && !errors.As(err, &uo):
		t.Fatalf("executed once, reported: %v", err)
	}
}
