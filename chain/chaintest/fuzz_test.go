package chaintest_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
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
	names := chaintest.TokenActionNames()
	inputs := chaintest.TokenWasmActionSeeds()
	// Random data, and valid data with random bytes changed, for each action.
	rng := rand.New(rand.NewPCG(34, 31))
	valid := len(inputs)
	for range 40 {
		data := make([]byte, rng.IntN(48))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		inputs = append(inputs, chaintest.TokenWasmActionSeed{Which: uint8(rng.IntN(len(names))), Data: data})
		v := inputs[rng.IntN(valid)]
		changed := slices.Clone(v.Data)
		if len(changed) > 0 {
			changed[rng.IntN(len(changed))] = byte(rng.Uint32())
		}
		inputs = append(inputs, chaintest.TokenWasmActionSeed{Which: v.Which, Data: changed})
	}
	run := tokenWasmActions(t)
	for _, in := range inputs {
		run(t, in.Which, in.Data)
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

// tokenWasmActions returns the check TestTokenWasmActionsThroughClient
// runs on one input, on FuzzTokenWasmActions's chain, through its client.
func tokenWasmActions(tb testing.TB) func(t *testing.T, which uint8, data []byte) {
	names := chaintest.TokenActionNames()
	c, key := chaintest.NewTokenFuzzChain(tb)
	keys := antelope.PrivateKeys{key}
	cl := c.Client()
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
