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

	"github.com/antelopego/abigen/fetch"
	"github.com/antelopego/abigen/fetch/fetchtest"
	"github.com/antelopego/abigen/model"
)

const key = "server_0123456789abcdef"

func orngABI(t *testing.T) []byte {
	data, err := os.ReadFile("../testdata/abis/orng.wax.abi.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// setup starts the fakes with orng.wax's ABI (and an older, smaller one at
// block 100) and returns a StateAPI using a fresh token cache.
func setup(t *testing.T) (*fetchtest.Env, *fetch.StateAPI, *[]time.Duration) {
	env := fetchtest.New(t)
	env.Auth.Keys[key] = true
	env.State.SetABI("orng.wax", 9135393, orngABI(t))
	env.State.SetABI("orng.wax", 100, []byte(`{"version":"eosio::abi/1.0","structs":[{"name":"old","base":"","fields":[]}]}`))
	var waits []time.Duration
	client := &fetch.Client{Sleep: func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return ctx.Err() }}
	api := &fetch.StateAPI{Client: client, BaseURL: env.State.URL(), AuthURL: env.Auth.URL(), APIKey: key,
		Cache: &fetch.TokenCache{Dir: t.TempDir()}}
	return env, api, &waits
}

func mustLoad(t *testing.T, f *fetch.Fetched) *model.Source {
	t.Helper()
	src, err := model.Load(f.Body)
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
	env, api, _ := setup(t)
	ctx := context.Background()
	f, err := api.FetchABI(ctx, "orng.wax", 0, false)
	if err != nil {
		t.Fatal(err)
	}
	src := mustLoad(t, f)
	if src.Account != "orng.wax" || src.BlockNum != 9135393 || len(src.ABI.Structs) != 10 {
		t.Fatalf("got %s at %d with %d structs", src.Account, src.BlockNum, len(src.ABI.Structs))
	}
	if !strings.HasPrefix(f.Source, env.State.URL()+"/v0/state/abi?account=orng.wax&json=true") {
		t.Errorf("source %q", f.Source)
	}
	// A second run (a new StateAPI, as a new process) reuses the token.
	api2 := *api
	if _, err := api2.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatal(err)
	}
	if n := env.Auth.Issued(); n != 1 {
		t.Errorf("%d tokens issued for two runs, want 1", n)
	}
	// The cache file holds no key, and only its owner can read it.
	files, _ := filepath.Glob(filepath.Join(api.Cache.Dir, "*.json"))
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
	f, err := api.FetchABI(context.Background(), "orng.wax", 5000, false)
	if err != nil {
		t.Fatal(err)
	}
	if src := mustLoad(t, f); src.BlockNum != 100 || src.ABI.Structs[0].Name != "old" {
		t.Errorf("block 5000 gave the ABI of block %d", src.BlockNum)
	}
	f, err = api.FetchABI(context.Background(), "orng.wax", 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if src := mustLoad(t, f); src.Form != "state API response (packed ABI)" || len(src.ABI.Structs) != 10 {
		t.Errorf("packed: %s, %d structs", src.Form, len(src.ABI.Structs))
	}
}

func TestExpiredTokenIsReplaced(t *testing.T) {
	env, api, _ := setup(t)
	env.Auth.Lifetime = 90 * time.Second // renewed 60 s before expiry
	ctx := context.Background()
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(31 * time.Second)
	api.Now = func() time.Time { return later }
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatal(err)
	}
	if n := env.Auth.Issued(); n != 2 {
		t.Errorf("%d tokens issued, want 2 (the cached one was about to expire)", n)
	}
}

func TestUnauthorizedRecoversOnce(t *testing.T) {
	env, api, _ := setup(t)
	ctx := context.Background()
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatal(err)
	}
	env.State.RejectNextTokens(1)
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatalf("after one 401: %v", err)
	}
	if n := env.Auth.Issued(); n != 2 {
		t.Errorf("%d tokens issued, want 2", n)
	}
	env.State.RejectNextTokens(2)
	_, err := api.FetchABI(ctx, "orng.wax", 0, false)
	if !errors.Is(err, fetch.ErrAuth) {
		t.Errorf("two 401s: %v", err)
	}
}

func TestErrors(t *testing.T) {
	env, api, waits := setup(t)
	ctx := context.Background()

	bad := *api
	bad.APIKey = "server_wrong"
	_, err := bad.FetchABI(ctx, "orng.wax", 0, false)
	if !errors.Is(err, fetch.ErrAuth) || !strings.Contains(err.Error(), "refused the API key") {
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

	env.State.Fault().RateLimitNext(1, 3)
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatalf("429 then success: %v", err)
	}
	if len(*waits) != 1 || (*waits)[0] != 3*time.Second {
		t.Errorf("waits %v, want the 3 s Retry-After", *waits)
	}

	*waits = nil
	env.State.Fault().FailNext(2, http.StatusBadGateway)
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err != nil {
		t.Fatalf("502 twice then success: %v", err)
	}
	if len(*waits) != 2 {
		t.Errorf("waits %v, want two backoffs", *waits)
	}

	env.State.Fault().FailNext(10, http.StatusServiceUnavailable)
	_, err = api.FetchABI(ctx, "orng.wax", 0, false)
	if err == nil || !strings.Contains(err.Error(), "HTTP 503") || !strings.Contains(err.Error(), "after 4 attempts") {
		t.Errorf("503 forever: %v", err)
	}
	env.State.Fault().FailNext(0, 0)
}

func TestBodyFaults(t *testing.T) {
	env, api, _ := setup(t)
	ctx := context.Background()
	env.State.Fault().Oversize = fetch.MaxResponseSize + 1<<16
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err == nil || !strings.Contains(err.Error(), "larger than 32 MiB") {
		t.Errorf("oversize: %v", err)
	}
	env.State.Fault().Oversize = 0
	env.State.Fault().Truncate = true
	if _, err := api.FetchABI(ctx, "orng.wax", 0, false); err == nil {
		t.Errorf("truncated body accepted")
	}
}

func TestDeadServerFailsWithinDeadline(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close()
	api := &fetch.StateAPI{Client: &fetch.Client{}, BaseURL: dead, AuthURL: dead, APIKey: key}
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
	env, api, _ := setup(t)
	env.Auth.Fault().Delay = 5 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := api.FetchABI(ctx, "orng.wax", 0, false)
	if err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Errorf("slow server: %v", err)
	}
}

// Parallel runs sharing the cache issue one token, not a storm.
func TestConcurrentRunsShareOneToken(t *testing.T) {
	env, api, _ := setup(t)
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
	if n := env.Auth.Issued(); n != 1 {
		t.Errorf("%d tokens issued by 8 parallel runs, want 1", n)
	}
}

func TestChainAPI(t *testing.T) {
	env := fetchtest.New(t)
	env.Chain.SetABI("orng.wax", orngABI(t))
	env.Chain.SetABI("empty", nil)
	chain := &fetch.ChainAPI{Client: &fetch.Client{}, URL: env.Chain.URL()}
	ctx := context.Background()
	for _, packed := range []bool{false, true} {
		f, err := chain.FetchABI(ctx, "orng.wax", packed)
		if err != nil {
			t.Fatal(err)
		}
		if src := mustLoad(t, f); src.Account != "orng.wax" || len(src.ABI.Structs) != 10 {
			t.Errorf("packed=%v: %s %d", packed, src.Account, len(src.ABI.Structs))
		}
	}
	if _, err := chain.FetchABI(ctx, "nosuch", false); !errors.Is(err, fetch.ErrNotFound) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("unknown account: %v", err)
	}
	f, err := chain.FetchABI(ctx, "empty", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.Load(f.Body); err == nil || !strings.Contains(err.Error(), `account "empty" has no ABI`) {
		t.Errorf("no ABI: %v", err)
	}
}

func TestTokenUsable(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	day := fetch.Token{Token: "t", IssuedAt: now.Unix(), ExpiresAt: now.Unix() + 86400}
	if !day.Usable(now) || day.Usable(now.Add(86400*95/100*time.Second+time.Second)) {
		t.Error("a 24 h token must be renewed in its last 5 %")
	}
	short := fetch.Token{Token: "t", IssuedAt: now.Unix(), ExpiresAt: now.Unix() + 100}
	if !short.Usable(now.Add(39*time.Second)) || short.Usable(now.Add(40*time.Second)) {
		t.Error("a short token must be renewed 60 s before expiry")
	}
}

// A custom state service for responses the fakes do not make.
func stateWith(t *testing.T, h http.HandlerFunc) (*fetch.StateAPI, *[]time.Duration) {
	env := fetchtest.New(t)
	env.Auth.Keys[key] = true
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	var waits []time.Duration
	return &fetch.StateAPI{BaseURL: srv.URL, AuthURL: env.Auth.URL(), APIKey: key,
		Client: &fetch.Client{Sleep: func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil }}}, &waits
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
	if !errors.Is(err, fetch.ErrAuth) || !strings.Contains(err.Error(), "plan does not allow") {
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
	var _ fetch.Source = fetch.StateSource{}
	var _ fetch.Source = fetch.ChainSource{}
}
