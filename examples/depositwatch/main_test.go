package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

var (
	token = antelope.MustName("eosio.token")
	fake  = antelope.MustName("fake.token")
	alice = antelope.MustName("alice")
	bob   = antelope.MustName("bob")
	carol = antelope.MustName("carol")
)

// tokenChain is a chaintest chain with reversible blocks, eosio.token (WAX
// and TLOS) and a fake token that mints WAX too, alice holding both.
type tokenChain struct {
	t    *testing.T
	node *chaintest.Chain
	cl   *chain.Client
	keys map[antelope.Name]antelope.PrivateKey
	memo int
}

func newTokenChain(t *testing.T) *tokenChain {
	node := chaintest.New(chaintest.WithManualFinality())
	t.Cleanup(node.Close)
	// Transactions expire two minutes after the chain's time, which runs
	// ahead of the clock by 500 ms a block.
	tc := &tokenChain{t: t, node: node, cl: node.Client(chain.WithClock(func() time.Time { return node.Head().Time })),
		keys: map[antelope.Name]antelope.PrivateKey{}}
	for _, n := range []antelope.Name{token, fake, alice, bob, carol} {
		tc.keys[n] = node.NewAccount(n)
	}
	for _, contract := range []antelope.Name{token, fake} {
		if err := node.DeployToken(contract); err != nil {
			t.Fatal(err)
		}
		tok := eosiotoken.Contract{Account: contract}
		for _, max := range []string{"1000000.00000000 WAX", "1000000.0000 TLOS"} {
			a, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset(max)}, antelope.Active(contract))
			tc.send(contract, a)
			q := antelope.MustAsset(max)
			q.Amount /= 2
			a, _ = tok.Issue(eosiotoken.Issue{To: alice, Quantity: q}, antelope.Active(alice))
			tc.send(alice, a)
		}
	}
	return tc
}

func (tc *tokenChain) send(signer antelope.Name, actions ...antelope.Action) {
	tc.t.Helper()
	if _, err := tc.cl.Transact(context.Background(), tc.keys[signer], actions...); err != nil {
		tc.t.Fatal(err)
	}
}

func (tc *tokenChain) transfer(contract, from, to antelope.Name, quantity string) antelope.Action {
	tc.memo++
	a, _ := eosiotoken.Contract{Account: contract}.Transfer(eosiotoken.Transfer{From: from, To: to,
		Quantity: antelope.MustAsset(quantity), Memo: fmt.Sprintf("order %d", tc.memo)}, antelope.Active(from))
	return a
}

// block produces block i's transaction (variant v): deposits to bob in WAX
// and TLOS, a transfer to carol, a fake token's transfer to bob — one to
// three of them in one transaction.
func (tc *tokenChain) block(i, v int) {
	tc.t.Helper()
	var acts []antelope.Action
	k := i + v
	if k%2 == 0 {
		acts = append(acts, tc.transfer(token, alice, bob, fmt.Sprintf("%d.00000000 WAX", k%7+1)))
	}
	if k%3 == 0 {
		acts = append(acts, tc.transfer(token, alice, bob, fmt.Sprintf("0.%04d TLOS", k%11+1)))
	}
	if k%5 == 0 {
		acts = append(acts, tc.transfer(fake, alice, bob, "9.00000000 WAX"))
	}
	if len(acts) == 0 || k%7 == 0 {
		acts = append(acts, tc.transfer(token, alice, carol, "0.50000000 WAX"))
	}
	tc.send(alice, acts...)
}

func readState(t *testing.T, path string) state {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// Killed with SIGKILL at random points and started again, while the chain
// (chaintest, running the transfers) forks in between, depositwatch ends
// with the balances of an uninterrupted run over the final chain.
func TestKilledAndRestarted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills a binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "depositwatch")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tc := newTokenChain(t)
	start := tc.node.Head().Num + 1
	const blocks = 150
	for i := range blocks {
		tc.block(i, 0)
	}
	head := tc.node.Head().Num
	if err := tc.node.SetLastIrreversible(start); err != nil {
		t.Fatal(err)
	}

	rng := rand.New(rand.NewPCG(7, 7))
	statePath := filepath.Join(dir, "deposits.json")
	end := fmt.Sprint(head + 1)
	args := []string{"--url", tc.node.SHiPURL(), "--account", "bob", "--state", statePath, "--start", fmt.Sprint(start), "--end", end}
	kills, forks := 0, 0
	for run := 1; ; run++ {
		if run > 200 {
			t.Fatal("no end")
		}
		cmd := exec.Command(bin, args...)
		if run < 40 {
			// A kill at an exact point of an early event: applied in
			// memory only, the temporary state file written but not
			// renamed, or saved but not acknowledged to the node.
			point := []string{"handled", "saving", "saved"}[rng.IntN(3)]
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d:%s", crashEnv, 1+rng.IntN(8), point))
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL {
			kills++
			err = errKilled
		}
		if err == nil {
			break
		}
		if err != errKilled {
			t.Fatalf("run %d: %v\n%s", run, err, stderr.String())
		}
		// Meanwhile the chain forks, replacing blocks the consumer may have
		// credited (just below its cursor, above the last irreversible
		// block) by other transfers, and finality moves on.
		last := uint32(0)
		if _, err := os.Stat(statePath); err == nil {
			last = readState(t, statePath).Cursor.Last().Num
		}
		if lib := tc.node.LastIrreversible().Num; run%2 == 0 && last > lib+1 {
			at := min(max(lib+1, last-3)+uint32(rng.IntN(3)), head-1)
			if err := tc.node.Rollback(at); err != nil {
				t.Fatal(err)
			}
			for i := at + 1; i <= head; i++ {
				tc.block(int(i), run) // different transfers on the new branch
			}
			forks++
			if err := tc.node.SetLastIrreversible(min(lib+2, at)); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d kills, %d forks below the cursor", kills, forks)
	if kills < 10 || forks < 5 {
		t.Errorf("only %d kills landed, %d forks below the cursor", kills, forks)
	}
	got := readState(t, statePath)

	// The uninterrupted run, over the final chain, and the chain itself.
	fresh := filepath.Join(dir, "fresh.json")
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, []string{"--url", tc.node.SHiPURL(), "--account", "bob", "--state", fresh, "--start", fmt.Sprint(start), "--end", end}, &out); err != nil {
		t.Fatal(err)
	}
	want := readState(t, fresh)
	if len(want.Balances) != 2 || !equalBalances(got.Balances, want.Balances) {
		t.Errorf("after %d kills: %v; uninterrupted: %v", kills, got.Balances, want.Balances)
	}
	if got.Cursor.Last() != want.Cursor.Last() {
		t.Errorf("cursor %v, uninterrupted %v", got.Cursor.Last(), want.Cursor.Last())
	}
	if !strings.Contains(out.String(), "balance: ") {
		t.Errorf("output: %s", out.String())
	}
	// bob received nothing else: his balances on the chain are the deposits.
	for sym, b := range want.Balances {
		rows, err := tc.cl.GetCurrencyBalance(ctx, token, bob, b.Symbol.Code.String())
		if err != nil || len(rows) != 1 || rows[0] != b {
			t.Errorf("%s: credited %v, the chain has %v (%v)", sym, b, rows, err)
		}
	}
}

var errKilled = errors.New("killed")

func equalBalances(a, b map[string]antelope.Asset) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
