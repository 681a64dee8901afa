package hyperion_test

import (
	"context"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/antelopego/abigen/ship/hyperion"
)

// TestActionsShortPageIsNotTheEnd: Hyperion's get_actions asks
// Elasticsearch with a timeout (api.query_timeout, 10 s by default,
// get_actions.ts), and a search that times out answers 200 with the hits
// found so far; Hyperion drops timed_out from its answer. A page shorter
// than the limit is then not the last: every action must still come, in
// both orders, when random pages come back cut short.
func TestActionsShortPageIsNotTheEnd(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for run := range 40 {
		var index []uint64
		next := uint64(1)
		for range 1 + r.IntN(30) {
			next += 1 + uint64(r.IntN(3))
			index = append(index, next)
		}
		h := hostile(t, func(n int, q url.Values) string {
			lo, hi, _ := strings.Cut(q.Get("global_sequence"), "-")
			l, _ := strconv.ParseUint(lo, 10, 64)
			u, _ := strconv.ParseUint(hi, 10, 64)
			limit, _ := strconv.Atoi(q.Get("limit"))
			var hits []string
			for _, gs := range index {
				if gs >= l && gs <= u {
					hits = append(hits, actionJSON(gs, uint32(gs/10+1), "eosio.token"))
				}
			}
			if q.Get("sort") == "desc" {
				slices.Reverse(hits)
			}
			hits = hits[:min(len(hits), limit)]
			if len(hits) > 1 && r.IntN(3) == 0 { // timed out: what was found so far
				hits = hits[:1+r.IntN(len(hits)-1)]
			}
			return actionsPage(hits...)
		})
		order := hyperion.Order(run % 2)
		h = hyperion.New(h.URL(), hyperion.WithPageSize(2+r.IntN(5)))
		var got []uint64
		for a, err := range h.Actions(context.Background(), hyperion.ActionFilter{Contract: transfers.Contract, Action: transfers.Action, Order: order}) {
			if err != nil {
				t.Fatalf("run %d: %v", run, err)
			}
			got = append(got, a.GlobalSequence)
		}
		want := slices.Clone(index)
		if order == hyperion.Desc {
			slices.Reverse(want)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("run %d, order %d:\n got %v\nwant %v", run, order, got, want)
		}
	}
}
