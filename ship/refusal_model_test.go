package ship_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
)

// A model of handshake refusals over a stream's life: each handshake
// answers with the next status of a random script (0: the endpoint
// serves), and the connection drops at random blocks. The stream ends
// with the first Permanent refusal iff one comes before the first served
// handshake; otherwise (any refusal after a session is retried) it
// delivers every block once, in order, whatever the refusals and drops.
func TestRefusalScheduleModel(t *testing.T) {
	statuses := []int{0, 0, 0, 404, 403, 401, 200, 302, 408, 429, 500, 502, 503}
	r := rand.New(rand.NewPCG(404, 503))
	ended, retriedAfter := 0, 0 // what the rounds exercised
	for round := range 150 {
		script := make([]int, 1+r.IntN(12))
		for i := range script {
			script[i] = statuses[r.IntN(len(statuses))]
		}
		drops := map[uint32]bool{}
		for range r.IntN(4) {
			drops[1+r.Uint32N(14)] = true
		}
		name := fmt.Sprintf("round %d: script %v, drops %v", round, script, drops)

		chain := shiptest.NewChain()
		chain.ProduceEmpty(15)
		h := shiptest.NewHandler(chain)
		var mu sync.Mutex
		next := 0
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			mu.Lock()
			status := 0
			if next < len(script) {
				status = script[next]
			}
			next++
			mu.Unlock()
			if status != 0 {
				w.WriteHeader(status) // a 302 without Location: not followed
				return
			}
			h.ServeHTTP(w, req)
		}))

		wantEnd := 0 // the status that ends the stream, if any
		for _, s := range script {
			if s == 0 {
				break
			}
			if (&ship.HandshakeError{StatusCode: s}).Permanent() {
				wantEnd = s
				break
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a guard only
		var got []uint32
		var last error
		c := ship.NewClient(wsURL(srv), ship.WithBackoff(0, 0), ship.WithStallTimeout(2*time.Second), ship.WithWindow(1))
		for ev, err := range c.Stream(ctx, ship.Request{Start: 1, End: 16}) {
			if err != nil {
				last = err
				continue
			}
			if ev.Undo != nil {
				t.Fatalf("%s: an Undo on a chain without forks", name)
			}
			got = append(got, ev.Block.Num)
			if drops[ev.Block.Num] {
				delete(drops, ev.Block.Num)
				h.DropConnections()
			}
		}
		cancel()
		h.Close()
		srv.Close()
		served := false
		for _, s := range script[:min(next, len(script))] {
			served = served || s == 0
			if served && (&ship.HandshakeError{StatusCode: s}).Permanent() {
				retriedAfter++
			}
		}
		var refused *ship.HandshakeError
		switch {
		case wantEnd != 0:
			if len(got) != 0 || !errors.As(last, &refused) || refused.StatusCode != wantEnd {
				t.Fatalf("%s: blocks %v, %v; want the stream ended by %d", name, got, last, wantEnd)
			}
			ended++
		case last != nil:
			t.Fatalf("%s: %v", name, last)
		default:
			for i, n := range got {
				if n != uint32(i+1) || len(got) != 15 {
					t.Fatalf("%s: blocks %v, want 1 to 15 once each", name, got)
				}
			}
		}
	}
	if ended == 0 || retriedAfter == 0 {
		t.Fatalf("%d streams ended by a refusal, %d lasting refusals retried after a session: the schedule misses a case", ended, retriedAfter)
	}
	t.Logf("%d streams ended by a refusal, %d lasting refusals retried after a session", ended, retriedAfter)
}
