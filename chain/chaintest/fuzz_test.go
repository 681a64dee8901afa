package chaintest_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// TestTokenWasmActionsThroughClient sends FuzzTokenWasmActions's seeds, and
// random data for each action, the whole way: signed, through
// Client.Transact and the HTTP-shaped in-process transport, the signature
// recovered by the chain, the action run by the wasm. Whatever the bytes,
// the client gets the chain's answer (a refusal, a trap or an assertion is
// an *chain.APIError, never a broken connection), and a refused
// transaction makes no block. The fuzz target itself leaves the signature
// out (fuzz_internal_test.go), which was half of an input's time.
func TestTokenWasmActionsThroughClient(t *testing.T) {
	names := tokenActionNames()
	tok := eosiotoken.Contract{Account: eosioToken}
	type input struct {
		which uint8
		data  []byte
	}
	var inputs []input
	seed := func(a antelope.Action, err error) {
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range names {
			if n == a.Name {
				inputs = append(inputs, input{uint8(i), a.Data})
			}
		}
	}
	seed(tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("1.0000 TKN"), Memo: "x"}, antelope.Active(alice)))
	seed(tok.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("5.0000 TKN")}, antelope.Active(alice)))
	seed(tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("9.000 ABC")}, antelope.Active(alice)))
	seed(tok.Open(eosiotoken.Open{Owner: bob, Symbol: antelope.MustSymbol("4,TKN"), RAMPayer: alice}, antelope.Active(alice)))
	seed(tok.Close(eosiotoken.Close{Owner: alice, Symbol: antelope.MustSymbol("4,TKN")}, antelope.Active(alice)))
	seed(tok.Retire(eosiotoken.Retire{Quantity: antelope.MustAsset("1.0000 TKN")}, antelope.Active(alice)))
	inputs = append(inputs, input{2, []byte{}}, input{6, []byte{1, 2, 3}})
	// Random data, and valid data with random bytes changed, for each action.
	rng := rand.New(rand.NewPCG(34, 31))
	valid := len(inputs)
	for range 40 {
		data := make([]byte, rng.IntN(48))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		inputs = append(inputs, input{uint8(rng.IntN(len(names))), data})
		v := inputs[rng.IntN(valid)]
		changed := slices.Clone(v.data)
		if len(changed) > 0 {
			changed[rng.IntN(len(changed))] = byte(rng.Uint32())
		}
		inputs = append(inputs, input{v.which, changed})
	}
	run := tokenWasmActions(t)
	for _, in := range inputs {
		run(t, in.which, in.data)
	}
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
