package chaintest_test

import (
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// Adversarial tests of a fork: what the live chain answers that a fork
// must not take silently.

// A contract whose code was cleared (setcode with no code) after the fork
// block had code at it: the fork must not run it as an account with no
// code — its actions would then succeed doing nothing.
func TestForkRefusesCodeClearedAfterForkBlock(t *testing.T) {
	w := newWasmTester(t, chaintest.WithManualFinality())
	w.accounts("gone", "alice", "bob")
	w.deploy("gone", "eosio.token")
	l := &liveChain{wasmTester: w}
	if _, err := pushToken(w, "gone", "gone", "create", eosiotoken.Create{Issuer: antelope.MustName("alice"), MaximumSupply: asset(t, "1000.0000 TOK")}); err != nil {
		t.Fatal(err)
	}
	l.forkBlock = w.c.Produce().Num
	w.c.Produce()
	if err := w.c.DeployWASM(antelope.MustName("gone"), nil, nil); err != nil {
		t.Fatal(err)
	}
	past := l.forkOf(t, l.stateFork(t, ""))
	_, err := pushToken(past, "gone", "alice", "issue", eosiotoken.Issue{To: antelope.MustName("alice"), Quantity: asset(t, "1.0000 TOK"), Memo: "m"})
	wantForkError(t, err, "the code of gone was set at")
	if n := past.c.NewerCode(); len(n) != 1 || n[0].Account != antelope.MustName("gone") {
		t.Fatalf("NewerCode() = %+v", n)
	}
}
