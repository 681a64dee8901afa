package chain_test

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/httpcore"
)

// fabricating is a node that answers every page with rows it has never
// sent (as many as asked for) and a next key, or more, equal to the bound
// asked for: progress by row, none by key. It counts the requests.
func fabricating(t *testing.T, answer func(n int, bound string, limit int) any) (*chain.Client, *atomic.Int64) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Lower string `json:"lower_bound"`
			Limit int    `json:"limit"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		n := int(requests.Add(1))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(answer(n, req.Lower, req.Limit))
	}))
	t.Cleanup(srv.Close)
	return chain.New(srv.URL, chain.WithTransport(&httpcore.Transport{Sleep: noSleep}), chain.WithPageSize(10)), &requests
}

// On the primary index keys are unique: a page of more than one row whose
// next key is the bound cannot come from nodeos. Such pages of new rows
// made the read go on without end, each request asking for more rows.
func TestPagingFabricatedRowsAtTheBound(t *testing.T) {
	row := 0
	cl, requests := fabricating(t, func(n int, bound string, limit int) any {
		rows := []map[string]string{}
		for range limit {
			row++
			b := binary.LittleEndian.AppendUint64(nil, 5)
			b = binary.LittleEndian.AppendUint64(b, uint64(row))
			rows = append(rows, map[string]string{"data": hex.EncodeToString(b), "payer": "alice"})
		}
		if bound == "" {
			bound = "5"
		}
		return map[string]any{"rows": rows, "more": true, "next_key": bound}
	})
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	var rows int
	var last error
	for _, err := range cl.TableRows(ctx, antelope.TableQuery{Code: antelope.MustName("eosio.token"), Scope: antelope.MustName("alice"), Table: antelope.MustName("accounts")}) {
		if err != nil {
			last = err
			break
		}
		if rows++; rows > 10_000 {
			break
		}
	}
	if last == nil || ctx.Err() != nil || requests.Load() > 5 {
		t.Fatalf("read %d rows in %d requests, ended by %v", rows, requests.Load(), last)
	}
}

// The same in get_producers: producers never listed, with more the owner
// asked for, made Producers read without end.
func TestProducersFabricatedAtTheBound(t *testing.T) {
	owner := 0
	cl, requests := fabricating(t, func(n int, bound string, limit int) any {
		rows := []map[string]any{}
		for range limit {
			owner++
			name := "p" + strings.Map(func(r rune) rune { return 'a' + (r-'0')%26 }, fmt.Sprintf("%08d", owner))
			rows = append(rows, map[string]any{"owner": name, "total_votes": "1.0", "producer_key": "", "is_active": 1, "url": "", "unpaid_blocks": 0, "last_claim_time": "2020-01-01T00:00:00.000", "location": 0})
		}
		if bound == "" {
			bound = "pfirst"
		}
		return map[string]any{"rows": rows, "total_producer_vote_weight": "1.0", "more": bound}
	})
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	var listed int
	var last error
	for _, err := range cl.Producers(ctx) {
		if err != nil {
			last = err
			break
		}
		if listed++; listed > 10_000 {
			break
		}
	}
	if last == nil || ctx.Err() != nil || requests.Load() > 5 {
		t.Fatalf("listed %d producers in %d requests, ended by %v", listed, requests.Load(), last)
	}
}
