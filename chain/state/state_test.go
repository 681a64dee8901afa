package state_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/chain/state"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

var (
	alice      = antelope.MustName("alice")
	bob        = antelope.MustName("bob")
	eosioToken = antelope.MustName("eosio.token")
	waxSym     = antelope.Symbol{Precision: 8, Code: antelope.SymbolCode(0x584157)} // WAX
	token      = eosiotoken.Contract{Account: eosioToken}
)

func wax(amount int64) antelope.Asset { return antelope.Asset{Amount: amount, Symbol: waxSym} }

func active(n antelope.Name) antelope.PermissionLevel {
	return antelope.PermissionLevel{Actor: n, Permission: antelope.MustName("active")}
}

// tokenChain: eosio.token deployed, 1,000 WAX issued to alice, bob exists.
func tokenChain(t *testing.T, opts ...chaintest.Option) (*chaintest.Chain, map[antelope.Name]antelope.PrivateKey) {
	t.Helper()
	c := chaintest.New(opts...)
	t.Cleanup(c.Close)
	keys := map[antelope.Name]antelope.PrivateKey{}
	for _, n := range []antelope.Name{eosioToken, alice, bob} {
		keys[n] = c.NewAccount(n)
	}
	if err := c.DeployToken(eosioToken); err != nil {
		t.Fatal(err)
	}
	cl := c.Client()
	create, _ := token.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: wax(1_000_000_00000000)}, active(eosioToken))
	issue, _ := token.Issue(eosiotoken.Issue{To: alice, Quantity: wax(1000_00000000)}, active(alice))
	if _, err := cl.Transact(t.Context(), keys[eosioToken], create); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Transact(t.Context(), keys[alice], issue); err != nil {
		t.Fatal(err)
	}
	return c, keys
}

func transfer(t *testing.T, amount int64) antelope.Action {
	t.Helper()
	a, err := token.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(amount), Memo: "t"}, active(alice))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The state service: a revoked token is replaced once, a block above the
// head is refused, scopes and single rows are served at a block.
func TestStateService(t *testing.T) {
	c, keys := tokenChain(t)
	cl := c.Client()
	res, err := cl.Transact(t.Context(), keys[alice], transfer(t, 3_00000000))
	if err != nil {
		t.Fatal(err)
	}
	st := c.State()
	accounts := antelope.MustName("accounts")
	scopes, err := st.ScopeList(t.Context(), eosioToken, accounts)
	if err != nil || len(scopes) != 2 {
		t.Fatalf("scopes %v, %v", scopes, err)
	}
	c.RevokeTokens()
	row, found, err := st.At(uint64(res.BlockNum)).Row(t.Context(), eosioToken, bob, accounts, uint64(waxSym.Code))
	if err != nil || !found {
		t.Fatalf("row after a revoked token: %v %v", found, err)
	}
	var a eosiotoken.Account
	if err := a.UnmarshalBinary(row.Data); err != nil || a.Balance.Amount != 3_00000000 || row.Payer != alice {
		t.Errorf("bob's row: %+v payer %s, %v", a, row.Payer, err)
	}
	if _, found, _ := st.At(uint64(res.BlockNum-1)).Row(t.Context(), eosioToken, bob, accounts, uint64(waxSym.Code)); found {
		t.Error("bob had a row before the transfer")
	}
	_, err = st.At(uint64(c.Head().Num+100)).Table(t.Context(), eosioToken, bob, accounts)
	var he *httpcore.HTTPError
	if !errors.As(err, &he) || he.Code != "app_block_num_higher_than_head_block_error" {
		t.Errorf("a future block: %v", err)
	}
	byScope, err := st.TablesByScopes(t.Context(), eosioToken, accounts, []antelope.Name{alice, bob})
	if err != nil || len(byScope[alice]) != 1 || len(byScope[bob]) != 1 {
		t.Errorf("tables by scopes: %v %v", byScope, err)
	}
	// A secondary index is the nodeos client's job.
	for _, err := range st.TableRows(t.Context(), antelope.TableQuery{Code: eosioToken, Scope: bob, Table: accounts, Index: 2, KeyType: antelope.IndexI64}) {
		if err == nil || !strings.Contains(err.Error(), "primary key only") {
			t.Errorf("secondary index on the state service: %v", err)
		}
	}
	// A bound that is not a primary key's.
	for _, err := range st.TableRows(t.Context(), antelope.TableQuery{Code: eosioToken, Scope: bob, Table: accounts, Lower: antelope.KeyFloat64(1)}) {
		if err == nil || !strings.Contains(err.Error(), "the primary key is a 64-bit key") {
			t.Errorf("a float64 bound on the primary key: %v", err)
		}
	}
	// A wrong API key is an ErrAuth.
	bad := state.New(c.URL(), &state.Auth{AuthURL: c.AuthURL(), APIKey: "wrong"})
	if _, err := bad.ScopeList(t.Context(), eosioToken, accounts); !errors.Is(err, state.ErrAuth) {
		t.Errorf("wrong key: %v", err)
	}
	// The token service is at its own address: the state service's does
	// not issue tokens.
	mixed := state.New(c.URL(), &state.Auth{AuthURL: c.URL(), APIKey: "chaintest-key"})
	if _, err := mixed.ScopeList(t.Context(), eosioToken, accounts); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("tokens from the state service's address: %v", err)
	}
}

// ABI and PackedABI: every version of an account's ABI by block, as JSON
// byte for byte or as the packed bytes, with the block it was set in.
func TestABIByBlock(t *testing.T) {
	c, _ := tokenChain(t, chaintest.WithStartBlock(9_135_390))
	set := c.Head().Num // DeployToken set the ABI a few blocks ago
	v2 := []byte("{\"version\": \"eosio::abi/1.1\",\n \"structs\": [{\"name\":\"nop\",\"base\":\"\",\"fields\":[]}], \"actions\":[{\"name\":\"nop\",\"type\":\"nop\",\"ricardian_contract\":\"\"}]}")
	if err := c.SetContract(eosioToken, v2, nil); err != nil {
		t.Fatal(err)
	}
	st := c.State()
	cur, err := st.ABI(t.Context(), eosioToken)
	if err != nil || string(cur.JSON) != string(v2) || cur.BlockNum != uint64(c.Head().Num) || cur.Account != eosioToken || cur.Packed != nil {
		t.Fatalf("the current ABI: %+v, %v", cur, err)
	}
	if want := c.URL() + "/v0/state/abi?account=eosio.token&json=true"; cur.Source != want {
		t.Errorf("source %q, want %q", cur.Source, want)
	}
	old, err := st.At(uint64(set)).ABI(t.Context(), eosioToken)
	if err != nil || !strings.Contains(string(old.JSON), `"transfer"`) || old.BlockNum > uint64(set) || old.BlockNum < 9_135_390 {
		t.Fatalf("the ABI at block %d: %+v, %v", set, old, err)
	}
	packed, err := st.PackedABI(t.Context(), eosioToken)
	if err != nil || !strings.HasPrefix(string(packed.Packed), "\x0eeosio::abi/1.1") || packed.JSON != nil {
		t.Fatalf("packed: %+v, %v", packed, err)
	}
	_, err = st.At(100).ABI(t.Context(), eosioToken)
	var he *httpcore.HTTPError
	if !errors.As(err, &he) || he.Code != "data_abi_not_found_error" || he.Status != 400 {
		t.Errorf("before the first version: %v", err)
	}
}

// A token that expires under a client that still holds it (the service's
// clock ran ahead) is refused with a 401 and replaced, once; one refused
// valid token is replaced too.
func TestTokenExpiresMidRun(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	c, _ := tokenChain(t, chaintest.WithTokenClock(clock), chaintest.WithTokenLifetime(10*time.Minute))
	st := c.State()
	accounts := antelope.MustName("accounts")
	if _, err := st.ScopeList(t.Context(), eosioToken, accounts); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	now = now.Add(11 * time.Minute)
	mu.Unlock()
	if _, err := st.ScopeList(t.Context(), eosioToken, accounts); err != nil {
		t.Fatalf("after the token expired: %v", err)
	}
	c.RejectNextTokens(1)
	if _, err := st.ScopeList(t.Context(), eosioToken, accounts); err != nil {
		t.Fatalf("after one 401: %v", err)
	}
	if n := c.Stats().TokensIssued; n != 3 {
		t.Errorf("%d tokens issued, want 3", n)
	}
	c.RejectNextTokens(2)
	if _, err := st.ScopeList(t.Context(), eosioToken, accounts); err == nil {
		t.Error("two 401s in a row: no error")
	}
}

func TestTokenUsable(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	day := state.Token{Token: "t", IssuedAt: now.Unix(), ExpiresAt: now.Unix() + 86400}
	if !day.Usable(now) || day.Usable(now.Add(86400*95/100*time.Second+time.Second)) {
		t.Error("a 24 h token must be renewed in its last 5 %")
	}
	short := state.Token{Token: "t", IssuedAt: now.Unix(), ExpiresAt: now.Unix() + 100}
	if !short.Usable(now.Add(39*time.Second)) || short.Usable(now.Add(40*time.Second)) {
		t.Error("a short token must be renewed 60 s before expiry")
	}
}

func TestCheckAPIKey(t *testing.T) {
	for key, want := range map[string]error{
		"":                                       state.ErrNoAPIKey,
		"eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.c2ln": state.ErrAPIKeyIsToken,
		"server_0123456789abcdef":                nil,
	} {
		if err := state.CheckAPIKey(key); !errors.Is(err, want) || (want == nil) != (err == nil) {
			t.Errorf("%q: %v, want %v", key, err, want)
		}
	}
	if err := state.CheckAPIKey("server_01 23"); err == nil || !strings.Contains(err.Error(), "white space") {
		t.Errorf("white space: %v", err)
	}
}
