package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship/mirror"
)

// abigen mirror creates the schema, mirrors to --end with progress lines,
// resumes where it stopped, and refuses a database of another ABI.
func TestMirrorCommand(t *testing.T) {
	node := chaintest.New()
	defer node.Close()
	cl := node.Client(chain.WithClock(func() time.Time { return node.Head().Time }))
	token, alice, bob := antelope.MustName("eosio.token"), antelope.MustName("alice"), antelope.MustName("bob")
	keys := map[antelope.Name]antelope.PrivateKey{}
	for _, n := range []antelope.Name{token, alice, bob} {
		keys[n] = node.NewAccount(n)
	}
	start := node.Head().Num + 1
	if err := node.DeployToken(token); err != nil {
		t.Fatal(err)
	}
	tok := eosiotoken.Contract{Account: token}
	send := func(signer antelope.Name, a antelope.Action) {
		if _, err := cl.Transact(context.Background(), keys[signer], a); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000.0000 TLOS")}, antelope.Active(token))
	send(token, a)
	a, _ = tok.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("1000.0000 TLOS")}, antelope.Active(alice))
	send(alice, a)
	transfer := func() {
		a, _ := tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("1.0000 TLOS"), Memo: "hi"}, antelope.Active(alice))
		send(alice, a)
	}
	transfer()

	dir := t.TempDir()
	abiPath := filepath.Join(dir, "token.abi.json")
	if err := os.WriteFile(abiPath, eosiotoken.ABIJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "token.db")
	mirrorTo := func(end uint32) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run([]string{"mirror", "--abi", abiPath, "--account", "eosio.token", "--ship", node.SHiPURL(),
			"--db", "sqlite:" + dbPath, "--actions", "--start", fmt.Sprint(start), "--end", fmt.Sprint(end), "--progress", "0s"},
			nil, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	code, _, stderr := mirrorTo(node.Head().Num + 1)
	if code != exitOK || !strings.Contains(stderr, "blocks/s") || !regexp.MustCompile(`\([1-9]\d* row changes, [1-9]\d* actions\)`).MatchString(stderr) ||
		strings.Contains(stderr, "no row change") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// A misspelt contract account has nothing to mirror: said so, not a
	// silent success.
	var wrongOut bytes.Buffer
	if code := run([]string{"mirror", "--abi", abiPath, "--account", "eosio.tokn", "--ship", node.SHiPURL(),
		"--db", "sqlite:" + filepath.Join(dir, "wrong.db"), "--start", fmt.Sprint(start), "--end", fmt.Sprint(node.Head().Num + 1)},
		nil, io.Discard, &wrongOut); code != exitOK || !strings.Contains(wrongOut.String(), "no row change or action of eosio.tokn in blocks "+fmt.Sprint(start)+" to ") {
		t.Errorf("a wrong account: exit %d\n%s", code, wrongOut.String())
	}
	transfer()
	transfer()
	code, _, stderr = mirrorTo(node.Head().Num + 1)
	if code != exitOK || !strings.Contains(stderr, "resuming after block") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	db, _, err := mirror.OpenDB(context.Background(), "sqlite:"+dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var balance int64
	var transfers int
	if err := db.QueryRow(`SELECT balance_amount FROM accounts WHERE scope = 'bob'`).Scan(&balance); err != nil || balance != 30000 {
		t.Errorf("bob's balance %d (%v)", balance, err)
	}
	if err := db.QueryRow(`SELECT COUNT(*) FROM transfer_action`).Scan(&transfers); err != nil || transfers != 3 {
		t.Errorf("%d transfers (%v)", transfers, err)
	}

	// docs/mirror.md's queries.
	for _, q := range []string{
		`SELECT scope AS owner, balance_amount, balance_symbol FROM accounts ORDER BY owner`,
		`SELECT block_num, trx_id, "from", "to", quantity_amount, quantity_symbol, memo FROM transfer_action ORDER BY block_num, action_ordinal`,
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		rows.Close()
		if n < 2 {
			t.Errorf("%s: %d rows", q, n)
		}
	}

	// A new database filled by 3 readers holds the same.
	var out, errOut bytes.Buffer
	if code := run([]string{"mirror", "--abi", abiPath, "--account", "eosio.token", "--ship", node.SHiPURL(),
		"--db", "sqlite:" + filepath.Join(dir, "three.db"), "--actions", "--start", fmt.Sprint(start), "--end", fmt.Sprint(node.Head().Num + 1),
		"--readers", "3", "--progress", "0s"}, nil, &out, &errOut); code != exitOK || !strings.Contains(errOut.String(), "backfill done") {
		t.Fatalf("--readers 3: exit %d\n%s", code, errOut.String())
	}
	three, _, err := mirror.OpenDB(context.Background(), "sqlite:"+filepath.Join(dir, "three.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer three.Close()
	for _, q := range []string{`SELECT group_concat(scope || ' ' || balance_amount, ',') FROM (SELECT * FROM accounts ORDER BY scope)`,
		`SELECT group_concat(global_sequence || ' ' || hex(_raw), ',') FROM (SELECT * FROM transfer_action ORDER BY block_num)`} {
		var a, b string
		if err := db.QueryRow(q).Scan(&a); err != nil {
			t.Fatal(err)
		}
		if err := three.QueryRow(q).Scan(&b); err != nil {
			t.Fatal(err)
		}
		if a != b || a == "" {
			t.Errorf("%s:\none reader %s\nthree      %s", q, a, b)
		}
	}

	// Another ABI for the same contract and database: refused.
	other := bytes.Replace(eosiotoken.ABIJSON, []byte(`"memo"`), []byte(`"note"`), 1)
	if err := os.WriteFile(abiPath, other, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := mirrorTo(node.Head().Num + 1); code != exitBadABI || !strings.Contains(stderr, "another ABI") {
		t.Errorf("another ABI: exit %d\n%s", code, stderr)
	}

	var stdout, errb bytes.Buffer
	if code := run([]string{"mirror", "--abi", abiPath, "--account", "eosio.token", "--db", "sqlite:" + filepath.Join(dir, "x.db"), "--schema"}, nil, &stdout, &errb); code != exitOK || !strings.Contains(stdout.String(), `CREATE TABLE IF NOT EXISTS "accounts"`) {
		t.Errorf("--schema: exit %d\n%s%s", code, stdout.String(), errb.String())
	}
	if code := run([]string{"mirror", "--abi", abiPath}, nil, &stdout, &errb); code != exitUsage {
		t.Errorf("missing flags: exit %d", code)
	}
}
