package hyperion_test

import (
	"context"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship/hyperion"
)

// TestDeltasUnderASilentCap: Hyperion's get_deltas (3.x and 4.x,
// src/api/routes/v2-history/get_deltas/get_deltas.ts) answers a limit above
// its api.limits.get_deltas with that many rows and no error, so a short
// page is not the end: every row must still come, in both orders, for any
// page size above or below the cap.
func TestDeltasUnderASilentCap(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	tc := newTokenChain(t, 4)
	tc.randomTransfers(t, r, 10)
	_, want := fromSHiP(t, tc.node)
	for _, cap := range []int{1, 2, 3, 7} {
		srv := httptest.NewServer(tc.node.Hyperion(chaintest.HyperionLimits(1000, cap)))
		for _, size := range []int{1, 2, 3, 5, 100} {
			h := hyperion.New(srv.URL, hyperion.WithPageSize(size))
			for _, order := range []hyperion.Order{hyperion.Asc, hyperion.Desc} {
				var got []row
				for ev, err := range hyperion.Rows(context.Background(), h, eosiotoken.TableAccounts, hyperion.DeltaFilter{Order: order}) {
					if err != nil {
						t.Fatalf("cap %d, page %d, order %v: %v", cap, size, order, err)
					}
					got = append(got, rowOf(ev))
				}
				if order == hyperion.Desc {
					slices.Reverse(got)
					got = byBlockThenKey(got)
				}
				w := want
				if order == hyperion.Desc {
					w = byBlockThenKey(slices.Clone(want))
				}
				if !slices.Equal(got, w) {
					t.Errorf("cap %d, page %d, order %v: %d rows, want %d", cap, size, order, len(got), len(w))
				}
			}
		}
		srv.Close()
	}
}

// byBlockThenKey orders rows by block, then scope and key: the order within
// a block is the node's, not one to compare.
func byBlockThenKey(rs []row) []row {
	slices.SortStableFunc(rs, func(a, b row) int {
		switch {
		case a.Block != b.Block:
			return int(a.Block) - int(b.Block)
		case a.Scope != b.Scope:
			if a.Scope < b.Scope {
				return -1
			}
			return 1
		case a.PK != b.PK:
			if a.PK < b.PK {
				return -1
			}
			return 1
		}
		return 0
	})
	return rs
}
