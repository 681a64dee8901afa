package fetch_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/chain/state"
	"github.com/antelopego/abigen/fetch"
	"github.com/antelopego/abigen/model"
)

const key = "server_0123456789abcdef"

// The blocks of orng.wax's two ABI versions on the test chain: the real one
// was set at 9,135,393; an older, smaller one a few blocks before.
const (
	orngBlock = 9_135_393
	oldBlock  = 9_135_381
)

func orngABI(t *testing.T) []byte {
	data, err := os.ReadFile("../testdata/abis/orng.wax.abi.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// setABIAt sets account's ABI in block num of node, a block ahead of its
// head.
func setABIAt(t *testing.T, node *chaintest.Chain, account string, num uint32, abi []byte) {
	t.Helper()
	node.ProduceBlocks(int(num - node.Head().Num - 1))
	if err := node.SetContract(antelope.MustName(account), abi, nil); err != nil {
		t.Fatal(err)
	}
	if got := node.Head().Num; got != num {
		t.Fatalf("the ABI of %s went into block %d, not %d", account, got, num)
	}
}

// setup starts a chain with orng.wax's ABI (and an older, smaller one
// before it) and returns a StateAPI of it using a fresh token cache, and
// the backoff waits the client asked for.
func setup(t *testing.T, opts ...chaintest.Option) (*chaintest.Chain, *fetch.StateAPI, *[]time.Duration) {
	node := chaintest.New(append([]chaintest.Option{chaintest.WithAPIKey(key), chaintest.WithStartBlock(oldBlock - 1)}, opts...)...)
	t.Cleanup(node.Close)
	setABIAt(t, node, "orng.wax", oldBlock, []byte(`{"version":"eosio::abi/1.0","structs":[{"name":"old","base":"","fields":[]}]}`))
	setABIAt(t, node, "orng.wax", orngBlock, orngABI(t))
	var waits []time.Duration
	transport := &httpcore.Transport{Sleep: func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return ctx.Err() }}
	api := &fetch.StateAPI{Transport: transport, BaseURL: node.URL(), AuthURL: node.AuthURL(), APIKey: key,
		Cache: &fetch.TokenCache{Dir: t.TempDir()}}
	return node, api, &waits
}

func mustLoad(t *testing.T, f *fetch.Fetched) *model.Source {
	t.Helper()
	src, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func noSecrets(t *testing.T, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if strings.Contains(s, key) || strings.Contains(s, "eyJ") {
			t.Errorf("a key or token leaked: %s", s)
		}
	}
}

func TestStateFetchAndTokenReuse(t *testing.T) {
	node, api, _ := setup(t)
	ctx := context.Background()
	f, err := api.FetchABI(ctx, "orng.wax", 0, false)
	if err != nil {
		t.Fatal(err)
	}
	src := mustLoad(t, f)
	if src.Account != "orng.wax" || src.BlockNum != orngBlock || len(src.ABI.Structs) != 10 {
		t.Fatalf("got %s at %d with %d structs", src.Account, src.BlockNum, len(src.ABI.Structs))
	}
	if !strings.HasPrefix(f.Source, node.URL()+"/v0/state/abi?account=orng.wax&json=true") {
		t.Errorf("source %q", f.Source)
	}
	// A second run (a new StateAPI, as a new process) reuses the token.
	api2 := *api
	if _, err := api2.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatal(err)
	}
	if n := node.Stats().TokensIssued; n != 1 {
		t.Errorf("%d tokens issued for two runs, want 1", n)
	}
	// The cache file holds no key, and only its owner can read it.
	files, _ := filepath.Glob(filepath.Join(api.Cache.(*fetch.TokenCache).Dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("cache files: %v", files)
	}
	fi, _ := os.Stat(files[0])
	data, _ := os.ReadFile(files[0])
	if fi.Mode().Perm() != 0o600 || strings.Contains(string(data), key) {
		t.Errorf("cache file mode %v, contains key: %v", fi.Mode(), strings.Contains(string(data), key))
	}
	noSecrets(t, f.Source)
}

func TestBlockNumAndPacked(t *testing.T) {
	_, api, _ := setup(t)
	f, err := api.FetchABI(context.Background(), "orng.wax", orngBlock-5, false)
	if err != nil {
		t.Fatal(err)
	}
	if src := mustLoad(t, f); src.BlockNum != oldBlock || src.ABI.Structs[0].Name != "old" {
		t.Errorf("block %d gave the ABI of block %d", orngBlock-5, src.BlockNum)
	}
	f, err = api.FetchABI(context.Background(), "orng.wax", 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if src := mustLoad(t, f); src.Form != "state API response (packed ABI)" || len(src.ABI.Structs) != 10 || src.BlockNum != orngBlock {
		t.Errorf("packed: %s, %d structs, block %d", src.Form, len(src.ABI.Structs), src.BlockNum)
	}
}

func TestExpiredTokenIsReplaced(t *testing.T) {
	var mu sync.Mutex
	serviceNow := time.Now()
	serviceClock := func() time.Time { mu.Lock(); defer mu.Unlock(); return serviceNow }
	node, api, _ := setup(t, chaintest.WithTokenLifetime(90*time.Second), chaintest.WithTokenClock(serviceClock)) // renewed 60 s before expiry
	ctx := context.Background()
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(31 * time.Second)
	api.Now = func() time.Time { return later }
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatal(err)
	}
	if n := node.Stats().TokensIssued; n != 2 {
		t.Errorf("%d tokens issued, want 2 (the cached one was about to expire)", n)
	}
	// The service's clock runs ahead of this machine's: the token expires
	// there while the client still holds it. The 401 is answered with a new
	// token, once.
	mu.Lock()
	serviceNow = serviceNow.Add(2 * time.Minute)
	mu.Unlock()
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatalf("a token expired at the service: %v", err)
	}
	if n := node.Stats().TokensIssued; n != 3 {
		t.Errorf("%d tokens issued, want 3 (the expired one replaced)", n)
	}
}

func TestUnauthorizedRecoversOnce(t *testing.T) {
	node, api, _ := setup(t)
	ctx := context.Background()
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatal(err)
	}
	node.RejectNextTokens(1)
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatalf("after one 401: %v", err)
	}
	if n := node.Stats().TokensIssued; n != 2 {
		t.Errorf("%d tokens issued, want 2", n)
	}
	node.RejectNextTokens(2)
	_, err := api.FetchABI(ctx, "orng.wax", 0, false)
	if !errors.Is(err, state.ErrAuth) {
		t.Errorf("two 401s: %v", err)
	}
	// The fresh token refused too is not left in the cache for the next
	// run to be refused again.
	if _, ok := api.Cache.Get(node.AuthURL(), key); ok {
		t.Error("the token cache still holds the token the state service refused")
	}
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatalf("after the refusals: %v", err)
	}
	if n := node.Stats().TokensIssued; n != 4 {
		t.Errorf("%d tokens issued, want 4", n)
	}
}

func TestErrors(t *testing.T) {
	node, api, waits := setup(t)
	ctx := context.Background()

	bad := *api
	bad.APIKey = "server_wrong"
	_, err := bad.FetchABI(ctx, "orng.wax", 0, false)
	if !errors.Is(err, state.ErrAuth) || !strings.Contains(err.Error(), "refused the API key") {
		t.Errorf("wrong key: %v", err)
	}
	noSecrets(t, err.Error())

	jwt := *api
	jwt.APIKey = "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.c2ln"
	if _, err := jwt.FetchABI(ctx, "orng.wax", 0, false); err == nil || !strings.Contains(err.Error(), "looks like a JWT") {
		t.Errorf("JWT as key: %v", err)
	}

	_, err = api.FetchABI(ctx, "nosuch", 0, false)
	if !errors.Is(err, fetch.ErrNotFound) || !strings.Contains(err.Error(), "account nosuch has no ABI at the head block") {
		t.Errorf("unknown account: %v", err)
	}

	node.RateLimitNext(1, 3*time.Second)
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatalf("429 then success: %v", err)
	}
	if len(*waits) != 1 || (*waits)[0] != 3*time.Second {
		t.Errorf("waits %v, want the 3 s Retry-After", *waits)
	}

	*waits = nil
	node.FailNext(2, http.StatusBadGateway)
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatalf("502 twice then success: %v", err)
	}
	if len(*waits) != 2 {
		t.Errorf("waits %v, want two backoffs", *waits)
	}

	node.FailNext(10, http.StatusServiceUnavailable)
	_, err = api.FetchABI(ctx, "orng.wax", 0, false)
	if err == nil || !strings.Contains(err.Error(), "HTTP 503") || !strings.Contains(err.Error(), "after 4 attempts") {
		t.Errorf("503 forever: %v", err)
	}
	node.FailNext(0, 0)
}

func TestBodyFaults(t *testing.T) {
	node, api, _ := setup(t)
	ctx := context.Background()
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil { // a token, so that the faults hit the state service
		t.Fatal(err)
	}
	node.OversizeNext(1, httpcore.MaxResponseSize+1<<16)
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err == nil || !strings.Contains(err.Error(), "larger than 32 MiB") {
		t.Errorf("oversize: %v", err)
	}
	node.TruncateNext(100)
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err == nil {
		t.Errorf("truncated body accepted")
	}
	node.TruncateNext(0)
}

func TestDeadServerFailsWithinDeadline(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close()
	api := &fetch.StateAPI{Transport: &httpcore.Transport{}, BaseURL: dead, AuthURL: dead, APIKey: key}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	start := time.Now()
	_, err = api.FetchABI(ctx, "orng.wax", 0, false)
	if err == nil || time.Since(start) > 10*time.Second {
		t.Fatalf("dead server: %v after %v", err, time.Since(start))
	}
	if !strings.Contains(err.Error(), "token service") {
		t.Errorf("error does not say which service: %v", err)
	}
}

func TestSlowServerHitsDeadline(t *testing.T) {
	node, api, _ := setup(t)
	node.Delay(time.Second) // the token service is asked first
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := api.FetchABI(ctx, "orng.wax", 0, false)
	node.Delay(0)
	if err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Errorf("slow server: %v", err)
	}
}

// Parallel runs sharing the cache issue one token, not a storm.
func TestConcurrentRunsShareOneToken(t *testing.T) {
	node, api, _ := setup(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run := *api
			_, err := run.FetchABI(context.Background(), "orng.wax", 0, false)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := node.Stats().TokensIssued; n != 1 {
		t.Errorf("%d tokens issued by 8 parallel runs, want 1", n)
	}
}

func TestChainAPI(t *testing.T) {
	node, _, _ := setup(t)
	node.NewAccount(antelope.MustName("empty"))
	chain := &fetch.ChainAPI{URL: node.URL()}
	ctx := context.Background()
	for _, packed := range []bool{false, true} {
		f, err := chain.FetchABI(ctx, "orng.wax", packed)
		if err != nil {
			t.Fatal(err)
		}
		if src := mustLoad(t, f); src.Account != "orng.wax" || len(src.ABI.Structs) != 10 {
			t.Errorf("packed=%v: %s %d", packed, src.Account, len(src.ABI.Structs))
		}
		if _, err := chain.FetchABI(ctx, "nosuch", packed); !errors.Is(err, fetch.ErrNotFound) || !strings.Contains(err.Error(), "does not exist") {
			t.Errorf("packed=%v: unknown account: %v", packed, err)
		}
		// An account with no ABI.
		if _, err := chain.FetchABI(ctx, "empty", packed); !errors.Is(err, fetch.ErrNotFound) || !strings.Contains(err.Error(), "account empty has no ABI") {
			t.Errorf("packed=%v: no ABI: %v", packed, err)
		}
	}
}

// fetch (the CLI's ABI source) talks to chaintest's state service: every
// ABI version of an account, by block.
func TestFetchFromChaintest(t *testing.T) {
	c := chaintest.New()
	t.Cleanup(c.Close)
	eosioToken := antelope.MustName("eosio.token")
	if err := c.DeployToken(eosioToken); err != nil {
		t.Fatal(err)
	}
	set := c.Head().Num
	c.ProduceBlocks(3)
	v2 := []byte(`{"version":"eosio::abi/1.1","structs":[{"name":"nop","base":"","fields":[]}],"actions":[{"name":"nop","type":"nop","ricardian_contract":""}]}`)
	if err := c.SetContract(eosioToken, v2, nil); err != nil {
		t.Fatal(err)
	}
	api := &fetch.StateAPI{BaseURL: c.URL(), AuthURL: c.AuthURL(), APIKey: "chaintest-key"}
	old, err := api.FetchABI(t.Context(), "eosio.token", uint64(set), false)
	if err != nil || !strings.Contains(string(old.Body), `"transfer"`) {
		t.Fatalf("the ABI at block %d: %v", set, err)
	}
	cur, err := api.FetchABI(t.Context(), "eosio.token", 0, false)
	if err != nil || !strings.Contains(string(cur.Body), `"nop"`) {
		t.Fatalf("the current ABI: %v", err)
	}
	src, err := cur.Load()
	if err != nil || src.BlockNum != uint64(c.Head().Num) || src.Account != "eosio.token" {
		t.Errorf("loaded: %+v, %v", src, err)
	}
	versions, err := api.History(t.Context(), "eosio.token", 0, 0, 0)
	if err != nil || len(versions) != 2 || versions[0].Block != uint64(c.Head().Num) || versions[1].Block != uint64(set) {
		t.Errorf("history: %+v, %v", versions, err)
	}
	// From a block after the first version: back to the version in force
	// there, no further.
	versions, err = api.History(t.Context(), "eosio.token", uint64(set)+1, 0, 0)
	if err != nil || len(versions) != 2 || versions[1].Block != uint64(set) {
		t.Errorf("history from block %d: %+v, %v", set+1, versions, err)
	}
	versions, err = api.History(t.Context(), "eosio.token", uint64(c.Head().Num), 0, 0)
	if err != nil || len(versions) != 1 || versions[0].Block != uint64(c.Head().Num) {
		t.Errorf("history from the head: %+v, %v", versions, err)
	}
	// Without a token cache, a history is issued one token for all its
	// requests (it was issued one per request).
	before := c.Stats().TokensIssued
	if _, err := api.History(t.Context(), "eosio.token", 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	if n := c.Stats().TokensIssued - before; n != 1 {
		t.Errorf("%d tokens issued for one history's 3 requests, want 1", n)
	}
}

// A custom state service for responses the fake does not make, with the
// fake's token service.
func stateWith(t *testing.T, h http.HandlerFunc) (*fetch.StateAPI, *[]time.Duration) {
	node := chaintest.New(chaintest.WithAPIKey(key))
	t.Cleanup(node.Close)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	var waits []time.Duration
	return &fetch.StateAPI{BaseURL: srv.URL, AuthURL: node.AuthURL(), APIKey: key,
		Transport: &httpcore.Transport{Sleep: func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil }}}, &waits
}

func TestProxyAndTierErrors(t *testing.T) {
	api, _ := stateWith(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		w.Write([]byte("<html><body><h1>502 Bad Gateway</h1></body></html>"))
	})
	_, err := api.FetchABI(context.Background(), "orng.wax", 0, false)
	if err == nil || !strings.Contains(err.Error(), `HTTP 502: not a JSON error: "<html><body><h1>502 Bad Gateway`) {
		t.Errorf("proxy page: %v", err)
	}
	api, _ = stateWith(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`{"code":"auth_invalid_tier_error","trace_id":"x","message":"Your plan does not allow this.","details":{"tier":"free","required_tier":"pro"}}`))
	})
	_, err = api.FetchABI(context.Background(), "orng.wax", 0, false)
	if !errors.Is(err, state.ErrAuth) || !strings.Contains(err.Error(), "plan does not allow") {
		t.Errorf("tier: %v", err)
	}
}

func TestRateLimitReset(t *testing.T) {
	calls := 0
	api, waits := stateWith(t, func(w http.ResponseWriter, r *http.Request) {
		calls++
		if calls == 1 {
			w.Header().Set("X-RateLimit-Reset", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Write([]byte(`{"block_num":1,"account":"a","abi":{"version":"eosio::abi/1.0"}}`))
	})
	if _, err := api.FetchABI(context.Background(), "a", 0, false); err != nil {
		t.Fatal(err)
	}
	if len(*waits) != 1 || (*waits)[0] != 2*time.Second {
		t.Errorf("waits %v, want 2 s from X-RateLimit-Reset", *waits)
	}
	// A server asking for an hour is waited for at most the cap.
	calls = 0
	*waits = nil
	api2, waits2 := stateWith(t, func(w http.ResponseWriter, r *http.Request) {
		calls++
		if calls == 1 {
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Write([]byte(`{"block_num":1,"account":"a","abi":{"version":"eosio::abi/1.0"}}`))
	})
	if _, err := api2.FetchABI(context.Background(), "a", 0, false); err != nil {
		t.Fatal(err)
	}
	if len(*waits2) != 1 || (*waits2)[0] != 10*time.Second {
		t.Errorf("waits %v, want the 10 s cap", *waits2)
	}
}

func TestFileSource(t *testing.T) {
	f, err := fetch.FileSource{Path: "../testdata/abis/orng.wax.abi.json"}.Fetch(context.Background())
	if err != nil || f.Source != "../testdata/abis/orng.wax.abi.json" || len(f.Body) == 0 {
		t.Fatalf("%v %q", err, f.Source)
	}
	f, err = fetch.FileSource{Path: "-", Stdin: strings.NewReader("{}")}.Fetch(context.Background())
	if err != nil || f.Source != "(stdin)" || string(f.Body) != "{}" {
		t.Fatalf("stdin: %v %+v", err, f)
	}
	// Without Stdin, "-" reads the process's standard input (it panicked
	// on the nil reader).
	in, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	in.WriteString(`{"version":"eosio::abi/1.1"}`)
	in.Seek(0, 0)
	saved := os.Stdin
	os.Stdin = in
	defer func() { os.Stdin = saved }()
	f, err = fetch.FileSource{Path: "-"}.Fetch(context.Background())
	if err != nil || string(f.Body) != `{"version":"eosio::abi/1.1"}` {
		t.Fatalf("stdin without Stdin: %v %+v", err, f)
	}
	var _ fetch.Source = fetch.StateSource{}
	var _ fetch.Source = fetch.ChainSource{}
}

// TestBlockNumOver32BitsRefused: block numbers are 32-bit (nodeos's
// block_num); a larger one is refused before any request, not cut short.
func TestBlockNumOver32BitsRefused(t *testing.T) {
	_, api, _ := setup(t)
	_, err := api.FetchABI(t.Context(), "orng.wax", 1<<32+5, false)
	if err == nil || !strings.Contains(err.Error(), "32-bit") {
		t.Fatalf("block 2^32+5: %v", err)
	}
}
