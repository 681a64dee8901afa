package chaintest_test

import (
	"errors"
	"flag"
	"runtime"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// FuzzTokenWasmActions feeds random action data to the real eosio.token
// wasm, for each of its actions and an unknown one: whatever the bytes,
// chaintest answers (a refusal, a trap or an assertion is a failed
// transaction, never a panic, a hang or a broken connection), and a failed
// transaction changes nothing.
//
// Each input is a whole transaction through Client.Transact, its
// signature recovered by the chain and its action run by the wasm in
// wazero. The three accounts share one key, so that is one signature made
// and one recovered, not three made and six recovered (three by the
// client, to drop duplicates; three by the chain), which were two thirds
// of an input's time and held the target at 250 a second on CI (#31).
//
// It runs at 700 to 900 a second on two cores that other work keeps partly
// busy (400 to 600 before its workers ran on one P each, below), not
// thousands, for two reasons measured in a fuzzing build's worker: an input costs 0.4 ms of CPU — the signature made and
// recovered nearly half (a new one per input: each transaction is on a new
// head and is new), get_info, the send's JSON and the trace a quarter, the
// wasm a twentieth — all of it the path under test, from the client's
// action to the chain's answer; and Go's fuzzing engine hands each worker
// the coverage map (113 KB for this binary, which links wazero, net/http
// and the chain) as JSON with every 100 ms batch of inputs, which costs
// the worker and the coordinator a third of their time. scripts/fuzz.sh
// gives it a floor of its own.
func FuzzTokenWasmActions(f *testing.F) {
	names := tokenActionNames()
	tok := eosiotoken.Contract{Account: eosioToken}
	seed := func(a antelope.Action, err error) {
		if err == nil {
			for i, n := range names {
				if n == a.Name {
					f.Add(uint8(i), a.Data)
				}
			}
		}
	}
	seed(tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("1.0000 TKN"), Memo: "x"}, antelope.Active(alice)))
	seed(tok.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("5.0000 TKN")}, antelope.Active(alice)))
	seed(tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("9.000 ABC")}, antelope.Active(alice)))
	seed(tok.Open(eosiotoken.Open{Owner: bob, Symbol: antelope.MustSymbol("4,TKN"), RAMPayer: alice}, antelope.Active(alice)))
	seed(tok.Close(eosiotoken.Close{Owner: alice, Symbol: antelope.MustSymbol("4,TKN")}, antelope.Active(alice)))
	seed(tok.Retire(eosiotoken.Retire{Quantity: antelope.MustAsset("1.0000 TKN")}, antelope.Active(alice)))
	f.Add(uint8(2), []byte{})
	f.Add(uint8(6), []byte{1, 2, 3})
	if w := flag.Lookup("test.fuzzworker"); w != nil && w.Value.String() == "true" {
		// A fuzzing worker is one of -parallel processes, one a core: on
		// one P, each request's hand-off between the client's goroutine
		// and the in-process chain's is a goroutine switch, not a wake-up
		// of another thread, which on two busy cores waits for the OS
		// (400-670 a second with two Ps, 800-890 with one, on two cores
		// other work kept busy).
		runtime.GOMAXPROCS(1)
	}
	f.Fuzz(tokenWasmActions(f))
}

// TestTokenWasmActionsRepeated runs one input many times, as the fuzzer
// does (minimizing, or mutating into the same bytes): a refused
// transaction makes no block, so each run built the same transaction,
// and the client rightly refused to build a 61st identical one in flight,
// which the target took for chaintest not answering (#31).
func TestTokenWasmActionsRepeated(t *testing.T) {
	run := tokenWasmActions(t)
	for range 100 {
		run(t, 1, []byte{0, 0, 0xa7, 0xa7})
	}
}

func tokenActionNames() []antelope.Name {
	return []antelope.Name{eosiotoken.ActionCreate, eosiotoken.ActionIssue, eosiotoken.ActionTransfer,
		eosiotoken.ActionOpen, eosiotoken.ActionClose, eosiotoken.ActionRetire, antelope.MustName("nosuchaction")}
}

// tokenWasmActions deploys eosio.token on a new chain and returns the
// check FuzzTokenWasmActions runs on one input.
func tokenWasmActions(tb testing.TB) func(t *testing.T, which uint8, data []byte) {
	names := tokenActionNames()
	tok := eosiotoken.Contract{Account: eosioToken}
	c := chaintest.New(chaintest.WithoutNetwork())
	tb.Cleanup(c.Close)
	// One key for the three accounts: a transaction then carries one
	// signature, not three, and is signed and recovered once, not three
	// times by the client and three by the chain — which was two thirds of
	// an input's time. What the fuzzer explores is the action's data in the
	// wasm; every authorization is still declared and checked.
	key := c.NewAccount(eosioToken)
	pub, _ := key.PublicKey()
	c.CreateAccount(alice, pub)
	c.CreateAccount(bob, pub)
	keys := antelope.PrivateKeys{key}
	if err := c.DeployWASM(eosioToken, contractFile(tb, "eosio.token", "wasm"), contractFile(tb, "eosio.token", "abi")); err != nil {
		tb.Fatal(err)
	}
	cl := c.Client()
	create, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000000.0000 TKN")}, antelope.Active(eosioToken))
	issue, _ := tok.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("1000.0000 TKN")}, antelope.Active(alice))
	if _, err := cl.Transact(tb.Context(), keys, create, issue); err != nil {
		tb.Fatal(err)
	}
	auth := []antelope.PermissionLevel{antelope.Active(eosioToken), antelope.Active(alice), antelope.Active(bob)}
	return func(t *testing.T, which uint8, data []byte) {
		a := antelope.Action{Account: eosioToken, Name: names[int(which)%len(names)], Authorization: auth, Data: data}
		c.Produce() // a new head, so no two inputs build the same transaction
		before := c.Head().Num
		_, err := cl.Transact(t.Context(), keys, a)
		var ae *chain.APIError
		switch {
		case err == nil:
		case errors.As(err, &ae):
			if c.Head().Num != before {
				t.Fatalf("a refused transaction made a block: %v", err)
			}
		default:
			t.Fatalf("not an answer of the chain: %v", err)
		}
	}
}
