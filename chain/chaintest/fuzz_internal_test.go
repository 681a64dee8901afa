package chaintest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// FuzzTokenWasmActions feeds random action data to the real eosio.token
// wasm, for each of its actions and an unknown one: whatever the bytes,
// the chain answers send_transaction2 as nodeos does (a refusal, a trap or
// an assertion is a failed transaction with an exception in valid JSON,
// never a panic or a hang), and a failed transaction makes no block and
// counts as no execution.
//
// Each input is a whole transaction through the chain's send path after
// its body is read — nodeos's checks, authorization, the action in the
// wasm under wazero, billing, the trace and the answer — with one step
// left out: the signature. The signers' key is given (Engine's
// CheckKnownKeys), not recovered from a signature made for the input;
// a signature made and recovered is new for every input and was half of
// an input's time, holding the target under a thousand a second when
// what it explores is the action's data. TestTokenWasmActionsThroughClient
// and TestTokenWasmActionsRepeated send the same inputs the whole way,
// signed, through Client.Transact and HTTP's shape.
func FuzzTokenWasmActions(f *testing.F) {
	for _, s := range TokenWasmActionSeeds() {
		f.Add(s.Which, s.Data)
	}
	f.Fuzz(tokenWasmActionsKnownKeys(f))
}

// The exported names of this file are for chaintest_test (the test
// binary only): TestTokenWasmActionsThroughClient sends the same seeds
// the whole way, on the same chain.

// TokenWasmActionSeed is one seed input of FuzzTokenWasmActions: which of
// TokenActionNames, and the action's data.
type TokenWasmActionSeed struct {
	Which uint8
	Data  []byte
}

// TokenWasmActionSeeds are FuzzTokenWasmActions's seeds: each of
// eosio.token's actions with valid data, an empty body and an unknown
// action.
func TokenWasmActionSeeds() []TokenWasmActionSeed {
	alice, bob := antelope.MustName("alice"), antelope.MustName("bob")
	tok := eosiotoken.Contract{Account: antelope.MustName("eosio.token")}
	var seeds []TokenWasmActionSeed
	add := func(a antelope.Action, err error) {
		if err != nil {
			panic(err)
		}
		for i, n := range TokenActionNames() {
			if n == a.Name {
				seeds = append(seeds, TokenWasmActionSeed{uint8(i), a.Data})
			}
		}
	}
	add(tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("1.0000 TKN"), Memo: "x"}, antelope.Active(alice)))
	add(tok.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("5.0000 TKN")}, antelope.Active(alice)))
	add(tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("9.000 ABC")}, antelope.Active(alice)))
	add(tok.Open(eosiotoken.Open{Owner: bob, Symbol: antelope.MustSymbol("4,TKN"), RAMPayer: alice}, antelope.Active(alice)))
	add(tok.Close(eosiotoken.Close{Owner: alice, Symbol: antelope.MustSymbol("4,TKN")}, antelope.Active(alice)))
	add(tok.Retire(eosiotoken.Retire{Quantity: antelope.MustAsset("1.0000 TKN")}, antelope.Active(alice)))
	return append(seeds, TokenWasmActionSeed{2, []byte{}}, TokenWasmActionSeed{6, []byte{1, 2, 3}})
}

// TokenActionNames are the actions FuzzTokenWasmActions's first argument
// chooses from: eosio.token's six and one it does not have.
func TokenActionNames() []antelope.Name {
	return []antelope.Name{eosiotoken.ActionCreate, eosiotoken.ActionIssue, eosiotoken.ActionTransfer,
		eosiotoken.ActionOpen, eosiotoken.ActionClose, eosiotoken.ActionRetire, antelope.MustName("nosuchaction")}
}

// NewTokenFuzzChain is FuzzTokenWasmActions's chain: eosio.token's wasm
// deployed, alice and bob created with eosio.token's key (one key: a
// transaction carries one signature, whoever authorizes it), and 1,000 TKN
// of 1,000,000 issued to alice.
func NewTokenFuzzChain(tb testing.TB) (*Chain, antelope.PrivateKey) {
	token, alice, bob := antelope.MustName("eosio.token"), antelope.MustName("alice"), antelope.MustName("bob")
	c := New(WithoutNetwork())
	tb.Cleanup(c.Close)
	key := c.NewAccount(token)
	pub, _ := key.PublicKey()
	c.CreateAccount(alice, pub)
	c.CreateAccount(bob, pub)
	code, err := os.ReadFile(filepath.Join("testdata", "wasm", "eosio.token.wasm"))
	if err != nil {
		tb.Fatal(err)
	}
	abi, err := os.ReadFile(filepath.Join("testdata", "wasm", "eosio.token.abi"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := c.DeployWASM(token, code, abi); err != nil {
		tb.Fatal(err)
	}
	tok := eosiotoken.Contract{Account: token}
	create, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000000.0000 TKN")}, antelope.Active(token))
	issue, _ := tok.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("1000.0000 TKN")}, antelope.Active(alice))
	if status, answer := sendKnownKeys(tb, c, []antelope.PublicKey{pub}, create, issue); !executed(tb, status, answer) {
		tb.Fatalf("create and issue: %d %s", status, answer)
	}
	return c, key
}

// tokenWasmActionsKnownKeys returns the check FuzzTokenWasmActions runs on
// one input, on a NewTokenFuzzChain.
func tokenWasmActionsKnownKeys(tb testing.TB) func(t *testing.T, which uint8, data []byte) {
	token, alice, bob := antelope.MustName("eosio.token"), antelope.MustName("alice"), antelope.MustName("bob")
	c, key := NewTokenFuzzChain(tb)
	pub, _ := key.PublicKey()
	keys := []antelope.PublicKey{pub}
	names := TokenActionNames()
	auth := []antelope.PermissionLevel{antelope.Active(token), antelope.Active(alice), antelope.Active(bob)}
	return func(t *testing.T, which uint8, data []byte) {
		a := antelope.Action{Account: token, Name: names[int(which)%len(names)], Authorization: auth, Data: data}
		before, executions := c.Head().Num, c.Stats().Executions
		status, answer := sendKnownKeys(t, c, keys, a)
		switch {
		case executed(t, status, answer):
			if c.Stats().Executions != executions+1 || c.Head().Num != before+1 {
				t.Fatalf("an executed transaction made no block or was not counted: %s", answer)
			}
		case status == 202 || status >= 400:
			if c.Head().Num != before || c.Stats().Executions != executions {
				t.Fatalf("a refused transaction made a block or counted: %d %s", status, answer)
			}
		default:
			t.Fatalf("status %d: %s", status, answer)
		}
	}
}

// executed tells whether send_transaction2's answer is an executed
// transaction: it answers a failure with its trace (202, an except in
// processed), as nodeos does by default, or with an error.
func executed(tb testing.TB, status int, answer []byte) bool {
	tb.Helper()
	if status != 202 {
		return false
	}
	var trace struct {
		Processed *struct {
			Except json.RawMessage `json:"except"`
		} `json:"processed"`
	}
	if err := json.Unmarshal(answer, &trace); err != nil || trace.Processed == nil {
		tb.Fatalf("202 without a trace (%v): %s", err, answer)
	}
	return len(trace.Processed.Except) == 0 || string(trace.Processed.Except) == "null"
}

// sendKnownKeys sends a transaction of acts, on the head, to c's
// send_transaction2 path with the signers' keys given (no signature), and
// returns the status and the answer's JSON.
func sendKnownKeys(tb testing.TB, c *Chain, keys []antelope.PublicKey, acts ...antelope.Action) (int, []byte) {
	tb.Helper()
	head := c.Head()
	var signed antelope.SignedTransaction
	signed.SetExpiration(head.Time.Add(time.Minute))
	signed.SetReferenceBlock(head.ID)
	signed.Actions = acts
	packed, err := signed.Pack(antelope.CompressionNone)
	if err != nil {
		tb.Fatal(err)
	}
	id, err := signed.ID()
	if err != nil {
		tb.Fatal(err)
	}
	status, answer := c.runTransaction("send_transaction2", &signed, packed, id, true, func(pending time.Time) error {
		return c.engine.CheckKnownKeys(&signed, id, pending, keys)
	})
	b, ok := answer.([]byte)
	if !ok {
		if b, err = json.Marshal(answer); err != nil {
			tb.Fatalf("the answer is not JSON: %v", err)
		}
	}
	if status != 202 && !json.Valid(b) { // a 202's trace is decoded by the caller
		tb.Fatalf("the answer is not valid JSON: %q", b)
	}
	return status, b
}

// TestCheckKnownKeysChecksAuthority: the fuzz target's path leaves out only
// the recovery; with a key that is not the signer's, the transaction is
// refused as nodeos refuses a missing signature, and makes no block.
func TestCheckKnownKeysChecksAuthority(t *testing.T) {
	c := New(WithoutNetwork())
	t.Cleanup(c.Close)
	if err := c.DeployToken(antelope.MustName("eosio.token")); err != nil {
		t.Fatal(err)
	}
	c.NewAccount(antelope.MustName("alice"))
	other := c.NewAccount(antelope.MustName("bob"))
	otherPub, _ := other.PublicKey()
	tok := eosiotoken.Contract{Account: antelope.MustName("eosio.token")}
	open, _ := tok.Open(eosiotoken.Open{Owner: antelope.MustName("alice"), Symbol: antelope.MustSymbol("4,TKN"), RAMPayer: antelope.MustName("alice")}, antelope.Active(antelope.MustName("alice")))
	before := c.Head().Num
	status, answer := sendKnownKeys(t, c, []antelope.PublicKey{otherPub}, open)
	if !strings.Contains(string(answer), `"name":"unsatisfied_authorization"`) { // a failure trace (202), as nodeos answers by default
		t.Errorf("a transaction without its signer's key: %d %s", status, answer)
	}
	if c.Head().Num != before {
		t.Error("a refused transaction made a block")
	}
}
