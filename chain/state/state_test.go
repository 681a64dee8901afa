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
)

// tokenChain is a chain with eosio.token's contract deployed.
func tokenChain(t *testing.T, opts ...chaintest.Option) *chaintest.Chain {
	t.Helper()
	c := chaintest.New(opts...)
	t.Cleanup(c.Close)
	if err := c.DeployToken(eosioToken); err != nil {
		t.Fatal(err)
	}
	return c
}

var (
	eosioToken = antelope.MustName("eosio.token")
	accounts   = antelope.MustName("accounts")
)

// What TestStateService (in package chain's tests, with a transfer) does
// not cover: a bound the primary key cannot have, and a token service
// asked at the state service's address.
func TestRefusals(t *testing.T) {
	c := tokenChain(t)
	st := c.State()
	for _, err := range st.TableRows(t.Context(), antelope.TableQuery{Code: eosioToken, Scope: eosioToken, Table: accounts, Lower: antelope.KeyFloat64(1)}) {
		if err == nil || !strings.Contains(err.Error(), "the primary key is a 64-bit key") {
			t.Errorf("a float64 bound on the primary key: %v", err)
		}
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
	c := tokenChain(t, chaintest.WithStartBlock(9_135_390))
	set := c.Head().Num // DeployToken set the ABI a few blocks ago
	v2 := []byte("{\"version\": \"eosio::abi/1.1\",\n \"structs\": [{\"name\":\"nop\",\"base\":\"\",\"fields\":[]}], \"actions\":[{\"name\":\"nop\",\"type\":\"nop\",\"ricardian_contract\":\"\"}]}")
	if err := c.SetContract(eosioToken, v2, nil); err != nil {
		t.Fatal(err)
	}
	st := c.State()
	cur, err := st.ABI(t.Context(), eosioToken)
	if err != nil || string(cur.JSON) != string(v2) || cur.BlockNum != c.Head().Num || cur.Account != eosioToken || cur.Packed != nil {
		t.Fatalf("the current ABI: %+v, %v", cur, err)
	}
	if want := c.URL() + "/v0/state/abi?account=eosio.token&json=true"; cur.Source != want {
		t.Errorf("source %q, want %q", cur.Source, want)
	}
	old, err := st.At(set).ABI(t.Context(), eosioToken)
	if err != nil || !strings.Contains(string(old.JSON), `"transfer"`) || old.BlockNum > set || old.BlockNum < 9_135_390 {
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

// A base URL's own query (a provider's ?api_key=) and user info go with
// every request but never into ABI.Source, which abigen writes into every
// generated file's header.
func TestABISourceWithoutBaseURLCredentials(t *testing.T) {
	c := tokenChain(t)
	const secret = "provider-secret-9431"
	base := strings.Replace(c.URL(), "http://", "http://alice:"+secret+"@", 1) + "/?api_key=" + secret
	st := state.New(base, &state.Auth{AuthURL: c.AuthURL(), APIKey: "chaintest-key"})
	got, err := st.ABI(t.Context(), eosioToken)
	if err != nil {
		t.Fatal(err)
	}
	if want := c.URL() + "/v0/state/abi?account=eosio.token&json=true"; got.Source != want {
		t.Errorf("source %q, want %q", got.Source, want)
	}
}

// A token that expires under a client that still holds it (the service's
// clock ran ahead) is refused with a 401 and replaced, once; one refused
// valid token is replaced too.
func TestTokenExpiresMidRun(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	c := tokenChain(t, chaintest.WithTokenClock(clock), chaintest.WithTokenLifetime(10*time.Minute))
	st := c.State()
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
