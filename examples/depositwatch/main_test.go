package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship/shiptest"
)

var (
	token = antelope.MustName("eosio.token")
	fake  = antelope.MustName("fake.token")
	alice = antelope.MustName("alice")
	bob   = antelope.MustName("bob")
	xfer  = antelope.MustName("transfer")
)

// transfer is a transfer with eosio.token's two notifications.
func transfer(t *testing.T, contract, from, to antelope.Name, quantity string) shiptest.Transaction {
	data, _ := (&eosiotoken.Transfer{From: from, To: to, Quantity: antelope.MustAsset(quantity), Memo: "order 7"}).MarshalBinary()
	auth := []antelope.PermissionLevel{antelope.Active(from)}
	return shiptest.Transaction{Actions: []shiptest.Action{
		{Contract: contract, Name: xfer, Data: data, Authorization: auth},
		{Contract: contract, Name: xfer, Receiver: from, Data: data, Authorization: auth},
		{Contract: contract, Name: xfer, Receiver: to, Data: data, Authorization: auth}}}
}

// blockData is what block i holds: deposits to bob in WAX and TLOS, a
// transfer from bob, a fake token's transfer to bob.
func blockData(t *testing.T, i int) shiptest.BlockData {
	var txs []shiptest.Transaction
	if i%2 == 0 {
		txs = append(txs, transfer(t, token, alice, bob, "1.00000000 WAX"))
	}
	if i%3 == 0 {
		txs = append(txs, transfer(t, token, alice, bob, "0.0100 TLOS"))
	}
	if i%5 == 0 {
		txs = append(txs, transfer(t, token, bob, alice, "0.50000000 WAX"), transfer(t, fake, alice, bob, "9.00000000 WAX"))
	}
	return shiptest.BlockData{Transactions: txs}
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
// forks in between, depositwatch ends with the balances of an
// uninterrupted run over the final chain.
func TestKilledAndRestarted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills a binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "depositwatch")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const blocks = 400
	chain := shiptest.NewChain()
	for i := 1; i <= blocks; i++ {
		chain.Produce(blockData(t, i))
	}
	chain.SetLastIrreversible(10)
	srv := shiptest.NewServer(chain)
	defer srv.Close()

	rng := rand.New(rand.NewPCG(7, 7))
	statePath := filepath.Join(dir, "deposits.json")
	args := []string{"--url", srv.URL, "--account", "bob", "--state", statePath, "--start", "1", "--end", "401"}
	kills, forks := 0, 0
	for run := 0; ; run++ {
		if run > 200 {
			t.Fatal("no end")
		}
		cmd := exec.Command(bin, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
		if run < 40 {
			select {
			case err = <-done:
			case <-time.After(time.Duration(5000+rng.IntN(40000)) * time.Microsecond):
				cmd.Process.Kill()
				<-done
				kills++
				err = errKilled
			}
		} else {
			err = <-done
		}
		if err == nil {
			break
		}
		if err != errKilled {
			t.Fatalf("run %d: %v\n%s", run, err, stderr.String())
		}
		// Meanwhile the chain forks, replacing blocks the consumer may have
		// credited (just below its cursor, above the last irreversible
		// block), and finality moves on.
		last := uint32(0)
		if _, err := os.Stat(statePath); err == nil {
			last = readState(t, statePath).Cursor.Last().Num
		}
		if head, lib := chain.Heads(); run%2 == 0 && last > lib+1 {
			at := max(lib+1, last-3) + uint32(rng.IntN(3))
			at = min(at, head-1)
			forks++
			chain.ForkWith(at, func() []shiptest.BlockData {
				var d []shiptest.BlockData
				for i := at + 1; i <= head; i++ {
					d = append(d, blockData(t, int(i)+run)) // different contents on the new branch
				}
				return d
			}()...)
			chain.SetLastIrreversible(min(lib+2, at))
		}
	}
	if kills < 10 || forks < 5 {
		t.Errorf("only %d kills landed, %d forks below the cursor", kills, forks)
	}
	got := readState(t, statePath)

	// The uninterrupted run, over the final chain.
	fresh := filepath.Join(dir, "fresh.json")
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, []string{"--url", srv.URL, "--account", "bob", "--state", fresh, "--start", "1", "--end", "401"}, &out); err != nil {
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
}

var errKilled = os.ErrProcessDone

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
