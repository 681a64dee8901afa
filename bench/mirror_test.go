package bench

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/mirror"
)

// ship/mirror: dense token blocks (20 transfers each, to 20 of 100
// accounts: about 21 row changes and 20 actions a block) from chaintest's
// state-history endpoint into SQLite, and into PostgreSQL when
// ABIGEN_TEST_POSTGRES names one, against the stream alone (the same
// blocks, rows and actions decoded with the generated types, nothing
// written); and a backfill of them with 1, 2 and 4 readers. Reported:
// blocks/s and rows/s (row changes plus actions).

const mirrorBlocks = 100

type tokenBlocks struct {
	node       *chaintest.Chain
	start, end uint32
	items      int // row changes and actions in [start, end)
}

var (
	denseOnce  sync.Once
	denseChain *tokenBlocks
)

func denseTokenBlocks(b *testing.B) *tokenBlocks {
	denseOnce.Do(func() {
		node := chaintest.New(chaintest.WithoutNetwork())
		token, alice := antelope.MustName("eosio.token"), antelope.MustName("alice")
		keys := antelope.PrivateKeys{node.NewAccount(alice)}
		tokenKey := node.NewAccount(token)
		var payees []antelope.Name
		for i := range 100 {
			n := antelope.MustName(fmt.Sprintf("payee%d", 11111+i%5+(i/5)%5*10+(i/25)*100))
			payees = append(payees, n)
			node.NewAccount(n)
		}
		if err := node.DeployToken(token); err != nil {
			b.Fatal(err)
		}
		tok := eosiotoken.Contract{Account: token}
		cl := node.Client()
		ctx := context.Background()
		create, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000000000.0000 TKN")}, antelope.Active(token))
		issue, _ := tok.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("1000000000.0000 TKN")}, antelope.Active(alice))
		if _, err := cl.Transact(ctx, antelope.PrivateKeys{tokenKey}, create); err != nil {
			b.Fatal(err)
		}
		if _, err := cl.Transact(ctx, keys, issue); err != nil {
			b.Fatal(err)
		}
		tb := &tokenBlocks{node: node, start: node.Head().Num + 1}
		for i := range mirrorBlocks {
			acts := make([]antelope.Action, 20)
			for j := range acts {
				acts[j], _ = tok.Transfer(eosiotoken.Transfer{From: alice, To: payees[(i*20+j)%len(payees)],
					Quantity: antelope.MustAsset("0.0001 TKN"), Memo: fmt.Sprint(i, j)}, antelope.Active(alice))
			}
			if _, err := cl.Transact(ctx, keys, acts...); err != nil {
				b.Fatal(err)
			}
		}
		tb.end = node.Head().Num + 1
		for ev, err := range node.SHiPClient().Stream(ctx, ship.Request{Start: tb.start, End: tb.end}) {
			if err != nil {
				b.Fatal(err)
			}
			for _, err := range ev.Block.Rows(ship.OfContract(token)) {
				if err != nil {
					b.Fatal(err)
				}
				tb.items++
			}
			for _, err := range ev.Block.Actions(ship.OfContract(token)) {
				if err != nil {
					b.Fatal(err)
				}
				tb.items++
			}
		}
		denseChain = tb
	})
	if denseChain == nil {
		b.Fatal("the chain could not be made")
	}
	return denseChain
}

// mirrorDatabases are the databases the benchmarks write: a new one each
// call.
func mirrorDatabases(b *testing.B) map[string]func() (*sql.DB, mirror.Dialect) {
	dbs := map[string]func() (*sql.DB, mirror.Dialect){
		"sqlite": func() (*sql.DB, mirror.Dialect) {
			return openMirrorDB(b, "sqlite:"+filepath.Join(b.TempDir(), "bench.db"))
		},
	}
	if dsn := os.Getenv("ABIGEN_TEST_POSTGRES"); dsn != "" {
		n := 0
		dbs["postgres"] = func() (*sql.DB, mirror.Dialect) {
			n++
			schema := fmt.Sprintf("mirrorbench_%d_%d", os.Getpid(), n)
			admin, _ := openMirrorDB(b, dsn)
			if _, err := admin.Exec(`DROP SCHEMA IF EXISTS ` + schema + ` CASCADE; CREATE SCHEMA ` + schema); err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { admin.Exec(`DROP SCHEMA IF EXISTS ` + schema + ` CASCADE`) })
			return openMirrorDB(b, dsn+"?search_path="+schema)
		}
	}
	return dbs
}

func openMirrorDB(b *testing.B, dsn string) (*sql.DB, mirror.Dialect) {
	db, d, err := mirror.OpenDB(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db, d
}

func reportBlocks(b *testing.B, tb *tokenBlocks, elapsed time.Duration, runs int) {
	blocks := float64(tb.end-tb.start) * float64(runs)
	b.ReportMetric(blocks/elapsed.Seconds(), "blocks/s")
	b.ReportMetric(float64(tb.items)*float64(runs)/elapsed.Seconds(), "rows/s")
}

func BenchmarkMirror(b *testing.B) {
	tb := denseTokenBlocks(b)
	token := antelope.MustName("eosio.token")
	b.Run("stream", func(b *testing.B) {
		runs := 0
		start := time.Now()
		for b.Loop() {
			runs++
			for ev, err := range tb.node.SHiPClient().Stream(b.Context(), ship.Request{Start: tb.start, End: tb.end, Fetch: ship.FetchTraces | ship.FetchDeltas}) {
				if err != nil {
					b.Fatal(err)
				}
				for _, err := range ship.Rows(ev.Block, eosiotoken.TableAccounts.In(token)) {
					if err != nil {
						b.Fatal(err)
					}
				}
				for _, err := range ship.Actions(ev.Block, eosiotoken.Actions.Transfer.In(token)) {
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		reportBlocks(b, tb, time.Since(start), runs)
	})
	for name, open := range mirrorDatabases(b) {
		b.Run(name, func(b *testing.B) {
			runs := 0
			var elapsed time.Duration
			for b.Loop() {
				b.StopTimer()
				db, d := open()
				m, err := mirror.Open(b.Context(), db, d, eosiotoken.ABIJSON, mirror.Options{Contract: token, Actions: true})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				runs++
				start := time.Now()
				if err := m.Run(b.Context(), tb.node.SHiPClient(), ship.Request{Start: tb.start, End: tb.end}, nil); err != nil {
					b.Fatal(err)
				}
				elapsed += time.Since(start)
			}
			reportBlocks(b, tb, elapsed, runs)
		})
	}
}

func BenchmarkMirrorBackfill(b *testing.B) {
	tb := denseTokenBlocks(b)
	token := antelope.MustName("eosio.token")
	for name, open := range mirrorDatabases(b) {
		for _, readers := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("%s/readers=%d", name, readers), func(b *testing.B) {
				runs := 0
				var elapsed time.Duration
				for b.Loop() {
					b.StopTimer()
					db, d := open()
					m, err := mirror.Open(b.Context(), db, d, eosiotoken.ABIJSON, mirror.Options{Contract: token, Actions: true})
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					runs++
					start := time.Now()
					if err := m.Backfill(b.Context(), tb.node.SHiPClient(), tb.start, tb.end, readers, nil); err != nil {
						b.Fatal(err)
					}
					elapsed += time.Since(start)
				}
				reportBlocks(b, tb, elapsed, runs)
			})
		}
	}
}
