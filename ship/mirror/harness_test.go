package mirror

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
)

// postgresEnv names the PostgreSQL the tests run on as well as SQLite
// (.ci/run sets it); without it they run on SQLite only.
const postgresEnv = "ABIGEN_TEST_POSTGRES"

var (
	token = antelope.MustName("eosio.token")
	alice = antelope.MustName("alice")
	bob   = antelope.MustName("bob")
	carol = antelope.MustName("carol")
	dave  = antelope.MustName("dave")
	// payees receive WAX in turn: blocks of two branches pay different
	// ones, so a fork leaves rows the new branch never touches.
	payees = []antelope.Name{antelope.MustName("erin"), antelope.MustName("frank"), antelope.MustName("grace"), antelope.MustName("heidi"), antelope.MustName("ivan")}
)

// database is one kind of database the tests run on.
type database struct {
	name string
	dsn  func(t *testing.T) string // a new empty database
}

// open opens a new empty database.
func (d database) open(t *testing.T) (*sql.DB, Dialect) {
	t.Helper()
	return openDSN(t, d.dsn(t))
}

// databases are SQLite, and PostgreSQL when postgresEnv is set; each open
// gives an empty database (a PostgreSQL schema of its own).
func databases() []database {
	dbs := []database{{"sqlite", sqliteDSN}}
	if os.Getenv(postgresEnv) != "" {
		dbs = append(dbs, database{"postgres", postgresDSN})
	}
	return dbs
}

func sqliteDSN(t *testing.T) string {
	return "sqlite:" + t.TempDir() + "/mirror.db"
}

var pgSchemas atomic.Int64

func postgresDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv(postgresEnv)
	admin, _ := openDSN(t, dsn)
	schema := fmt.Sprintf("mirrortest_%d_%d", os.Getpid(), pgSchemas.Add(1))
	if _, err := admin.Exec(`DROP SCHEMA IF EXISTS ` + schema + ` CASCADE; CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec(`DROP SCHEMA IF EXISTS ` + schema + ` CASCADE`) })
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	// Commits need not reach the disk before they return: a lost commit
	// is lost with its cursor, which the mirror's guarantees allow for.
	return dsn + sep + "search_path=" + schema + "&synchronous_commit=off"
}

func openDSN(t *testing.T, dsn string) (*sql.DB, Dialect) {
	t.Helper()
	db, d, err := OpenDB(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, d
}

// tokenChain is a chaintest chain with reversible blocks running the real
// eosio.token.wasm, with WAX and TLOS issued to alice.
type tokenChain struct {
	t     *testing.T
	node  *chaintest.Chain
	cl    *chain.Client
	keys  map[antelope.Name]antelope.PrivateKey
	start uint32 // the first block: the contract's deployment
	memo  int
}

func newTokenChain(t *testing.T) *tokenChain {
	t.Helper()
	node := chaintest.New(chaintest.WithManualFinality())
	t.Cleanup(node.Close)
	tc := &tokenChain{t: t, node: node, cl: node.Client(chain.WithClock(func() time.Time { return node.Head().Time })),
		keys: map[antelope.Name]antelope.PrivateKey{}}
	for _, n := range append([]antelope.Name{token, alice, bob, carol, dave}, payees...) {
		tc.keys[n] = node.NewAccount(n)
	}
	tc.start = node.Head().Num + 1
	wasm, err := os.ReadFile("testdata/eosio.token.wasm")
	if err != nil {
		t.Fatal(err)
	}
	if err := node.DeployWASM(token, wasm, tokenABI(t)); err != nil {
		t.Fatal(err)
	}
	tok := eosiotoken.Contract{Account: token}
	for _, max := range []string{"1000000.00000000 WAX", "1000000.0000 TLOS"} {
		a, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset(max)}, antelope.Active(token))
		tc.send(token, a)
		q := antelope.MustAsset(max)
		q.Amount /= 2
		a, _ = tok.Issue(eosiotoken.Issue{To: alice, Quantity: q}, antelope.Active(alice))
		tc.send(alice, a)
	}
	return tc
}

func (tc *tokenChain) send(signer antelope.Name, actions ...antelope.Action) {
	tc.t.Helper()
	if _, err := tc.cl.Transact(context.Background(), tc.keys[signer], actions...); err != nil {
		tc.t.Fatal(err)
	}
}

// block produces one block of transfers, chosen by k: alice pays bob,
// and carol; bob pays back; dave's balance row is erased and created again.
func (tc *tokenChain) block(k int) {
	tc.t.Helper()
	tc.memo++
	tok := eosiotoken.Contract{Account: token}
	tr := func(from, to antelope.Name, q string) antelope.Action {
		a, _ := tok.Transfer(eosiotoken.Transfer{From: from, To: to, Quantity: antelope.MustAsset(q),
			Memo: fmt.Sprintf("memo %d", tc.memo)}, antelope.Active(from))
		return a
	}
	switch k % 5 {
	case 0:
		tc.send(alice, tr(alice, bob, fmt.Sprintf("%d.00000000 WAX", k%7+1)), tr(alice, carol, "0.0001 TLOS"))
	case 1:
		tc.send(alice, tr(alice, carol, fmt.Sprintf("0.%04d TLOS", k%11+1)))
	case 2:
		tc.send(alice, tr(alice, payees[k%len(payees)], "0.50000000 WAX"))
	case 3:
		// bob pays back when he can; the fork may have taken his WAX.
		if !tc.try(bob, tr(bob, alice, "1.00000000 WAX")) {
			tc.send(alice, tr(alice, bob, "2.00000000 WAX"))
		}
	case 4:
		// dave returns his one unit and closes the row, or gets one: a row
		// erased and created again, block after block.
		c, _ := tok.Close(eosiotoken.Close{Owner: dave, Symbol: antelope.MustSymbol("4,TLOS")}, antelope.Active(dave))
		if !tc.try(dave, tr(dave, alice, "0.0001 TLOS"), c) {
			tc.send(alice, tr(alice, dave, "0.0001 TLOS"))
		}
	}
}

// try sends a transaction that the contract may refuse, and reports
// whether it went through.
func (tc *tokenChain) try(signer antelope.Name, actions ...antelope.Action) bool {
	_, err := tc.cl.Transact(context.Background(), tc.keys[signer], actions...)
	return err == nil
}

// tokenABI is the ABI eosio.token.wasm was published with, as deployed.
func tokenABI(t testing.TB) []byte {
	abi, err := os.ReadFile("testdata/eosio.token.abi")
	if err != nil {
		t.Fatal(err)
	}
	return abi
}

// mirrorOf opens a mirror of eosio.token with its actions.
func mirrorOf(t *testing.T, db *sql.DB, d Dialect, finalOnly bool) *Mirror {
	t.Helper()
	m, err := Open(context.Background(), db, d, tokenABI(t), Options{Contract: token, Actions: true, FinalOnly: finalOnly})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkTables compares every mirrored table, scope by scope, with the
// chain's get_table_rows: the same rows (bytes and payer), and columns that
// are the rows' bytes decoded.
func checkTables(t *testing.T, tc *tokenChain, m *Mirror) {
	t.Helper()
	ctx := context.Background()
	for _, tbl := range m.schema.Tables {
		name, code := antelope.MustName(tbl.ABIName), m.opts.Contract
		want := map[string][]string{}
		for s, err := range tc.cl.Scopes(ctx, chain.ScopeQuery{Code: code, Table: name}) {
			if err != nil {
				t.Fatal(err)
			}
			for r, err := range tc.cl.TableRows(ctx, antelope.TableQuery{Code: code, Scope: s.Scope, Table: name}) {
				if err != nil {
					t.Fatal(err)
				}
				want[s.Scope.String()] = append(want[s.Scope.String()], r.Payer.String()+" "+hex.EncodeToString(r.Data))
			}
		}
		got := map[string][]string{}
		rows, err := m.db.Query(`SELECT "scope", "payer", "_raw" FROM ` + quote(tbl.SQLName))
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var scope, payer string
			var raw []byte
			if err := rows.Scan(&scope, &payer, &raw); err != nil {
				t.Fatal(err)
			}
			got[scope] = append(got[scope], payer+" "+hex.EncodeToString(raw))
		}
		rows.Close()
		for _, v := range got {
			slices.Sort(v)
		}
		for _, v := range want {
			slices.Sort(v)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("table %s:\nmirror %v\nchain  %v", tbl.ABIName, got, want)
		}
		checkColumns(t, m, tbl)
	}
}

// checkColumns reads every row of a table back and compares its columns
// with its _raw decoded: what the database stored is what it was given.
func checkColumns(t *testing.T, m *Mirror, tbl *Table) {
	t.Helper()
	rows, err := m.db.Query(`SELECT * FROM ` + quote(tbl.SQLName))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		got := make([]any, len(tbl.Columns))
		ptrs := make([]any, len(got))
		for i := range got {
			ptrs[i] = &got[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		want := make([]any, len(tbl.Columns)-tbl.meta-1)
		raw := got[len(got)-1].([]byte)
		if err := tbl.shape.decode(raw, want); err != nil {
			t.Fatal(err)
		}
		for i, w := range want {
			if g := normalize(got[tbl.meta+i]); g != normalize(w) {
				t.Errorf("%s column %s: stored %q, the bytes say %q", tbl.ABIName, tbl.Columns[tbl.meta+i].Name, g, normalize(w))
			}
		}
	}
}

// normalize prints a value as scanned from either database the same way:
// PostgreSQL gives numerics, JSON and text as strings or []byte.
func normalize(v any) string {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case nil:
		return "NULL"
	case bool: // SQLite has no booleans: 1 and 0
		if x {
			return "1"
		}
		return "0"
	}
	return fmt.Sprint(v)
}

// actionsOf lists an action table: global sequence, block and data, by
// global sequence.
func actionsOf(t *testing.T, m *Mirror, action string) []string {
	t.Helper()
	var tbl *Table
	for _, a := range m.schema.Actions {
		if a.ABIName == action {
			tbl = a
		}
	}
	rows, err := m.db.Query(`SELECT "global_sequence", "block_num", "trx_id", "_raw" FROM ` + quote(tbl.SQLName))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var gs, trx string
		var num int64
		var raw []byte
		if err := rows.Scan(&gs, &num, &trx, &raw); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%020s %d %s %x", gs, num, trx, raw))
	}
	slices.Sort(out)
	return out
}

// chainTransfers lists the transfers on the chain's current branch from
// the start, read with ship's typed Actions: independent of the mirror.
func chainTransfers(t *testing.T, tc *tokenChain) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stream := tc.node.SHiPClient().Stream(ctx, ship.Request{Start: tc.start, End: tc.node.Head().Num + 1, Fetch: ship.FetchTraces})
	var out []string
	for ev, err := range ship.Actions(stream, eosiotoken.Actions.Transfer) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%020d %d %s %x", ev.Trace.GlobalSequence, ev.Trace.Block.Num, hex.EncodeToString(ev.Trace.TransactionID[:]), ev.Trace.Data))
	}
	slices.Sort(out)
	return out
}
