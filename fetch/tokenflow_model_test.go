package fetch_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/antelopego/abigen/chain/state"
	"github.com/antelopego/abigen/fetch"
)

// watchedStore is one Auth's view of a TokenCache shared with others: it
// fails the test when its Auth drops a token that Auth was never refused
// (another's refusal of a different token must not cost it a good one).
type watchedStore struct {
	*fetch.TokenCache
	t       *testing.T
	refused func(tok string) bool // whether this store's Auth was refused tok
	number  func(tok string) int
}

func (s watchedStore) Drop(authURL, apiKey string) {
	// Auth drops under the issuing lock: what Get shows is what goes.
	if held, ok := s.TokenCache.Get(authURL, apiKey); ok && !s.refused(held.Token) {
		s.t.Errorf("an Auth dropped token %d from the store, never refused to it", s.number(held.Token))
	}
	s.TokenCache.Drop(authURL, apiKey)
}

// Random runs of Auths, each as another process would (its own memory),
// sharing one on-disk token cache and sending their requests at the same
// time (each Auth one after another, or several at once), to a state service that refuses some
// tokens from their issue on and now and then revokes every token issued
// so far. No Auth sends a token it was refused, or drops from the store a
// token it was not refused; no more tokens are issued than one plus one
// per refusal; every request ends, with the body or ErrAuth, and shows no
// token; afterwards the store holds no token any Auth was refused, in a
// file no other user can read. ABIGEN_TOKEN_PROCS_MODEL_RUNS sets the
// number of runs.
func TestTokenFlowSharedCacheModel(t *testing.T) {
	runs := 8
	if n, err := strconv.Atoi(os.Getenv("ABIGEN_TOKEN_PROCS_MODEL_RUNS")); err == nil && n > 0 {
		runs = n
	}
	first, _ := strconv.ParseUint(os.Getenv("ABIGEN_TOKEN_PROCS_MODEL_SEED"), 10, 64)
	for seed := first; seed < first+uint64(runs); seed++ {
		runSharedCacheModel(t, seed)
	}
}

func runSharedCacheModel(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x5ca4))
	var mu sync.Mutex
	bad := []bool{false} // bad[n]: token n is refused; tokens are numbered from 1
	badOdds := 1 + rng.IntN(4)
	// together: each Auth sends several requests at once, as a program
	// reading many tables does; a request may then send a token another
	// is being refused, so resending is not checked.
	together := rng.IntN(2) == 0
	revokeOdds := 4 + rng.IntN(20)
	issued, refusals := 0, 0
	var events []string // what the service saw, shown on a failure
	auths := make([]*state.Auth, 2+rng.IntN(3))
	refusedTo := make([]map[int]bool, len(auths)) // tokens refused to each Auth
	token := func(n int) string { return fmt.Sprintf("eyJhbGciOiJIUzI1NiJ9.eyJuIjo%d.c2lnbmF0dXJl", n) }
	number := func(tok string) int {
		var n int
		_, _ = fmt.Sscanf(tok, "eyJhbGciOiJIUzI1NiJ9.eyJuIjo%d.c2lnbmF0dXJl", &n)
		return n
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path == "/v1/auth/issue" {
			issued++
			bad = append(bad, rng.IntN(badOdds) == 0)
			fmt.Fprintf(w, `{"token":%q,"expires_at":4000000000}`, token(issued))
			events = append(events, fmt.Sprintf("issued %d (bad %v)", issued, bad[issued]))
			return
		}
		if rng.IntN(revokeOdds) == 0 {
			for n := range bad {
				bad[n] = true
			}
			events = append(events, "all revoked")
		}
		i, _ := strconv.Atoi(r.URL.Query().Get("auth"))
		n := number(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		if refusedTo[i][n] && !together {
			t.Errorf("seed %d: Auth %d sent token %d again, after it was refused it", seed, i, n)
		}
		if n < 1 || n >= len(bad) || bad[n] {
			refusals++
			refusedTo[i][n] = true
			events = append(events, fmt.Sprintf("Auth %d refused %d", i, n))
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		events = append(events, fmt.Sprintf("Auth %d sent %d", i, n))
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()

	cache := &fetch.TokenCache{Dir: filepath.Join(t.TempDir(), "tokens")}
	for i := range auths {
		refusedTo[i] = map[int]bool{}
		store := watchedStore{TokenCache: cache, t: t, number: number, refused: func(tok string) bool {
			mu.Lock()
			defer mu.Unlock()
			return refusedTo[i][number(tok)]
		}}
		auths[i] = &state.Auth{AuthURL: srv.URL, APIKey: key, Cache: store}
	}
	send := func(i int, a *state.Auth, requests int) {
		u, _ := url.Parse(srv.URL + "/v0/state/table?auth=" + strconv.Itoa(i))
		for range requests {
			_, err := a.Get(t.Context(), u)
			if err == nil {
				continue
			}
			if !errors.Is(err, state.ErrAuth) {
				t.Errorf("seed %d: Auth %d: %v", seed, i, err)
			}
			mu.Lock()
			for n := 1; n <= issued; n++ {
				if strings.Contains(err.Error(), token(n)) {
					t.Errorf("seed %d: token %d in %q", seed, n, err)
				}
			}
			mu.Unlock()
		}
	}
	// The plan is drawn before any request: the service draws from rng
	// as they come.
	type sender struct{ auth, requests int }
	var plan []sender
	for i := range auths {
		senders := 1
		if together {
			senders = 1 + rng.IntN(4)
		}
		for range senders {
			plan = append(plan, sender{i, 1 + rng.IntN(12)})
		}
	}
	var wg sync.WaitGroup
	for _, p := range plan {
		wg.Add(1)
		go func() {
			defer wg.Done()
			send(p.auth, auths[p.auth], p.requests)
		}()
	}
	wg.Wait()

	mu.Lock()
	defer mu.Unlock()
	if issued > 1+refusals {
		t.Errorf("seed %d: %d tokens issued for %d refusals, want at most one more:\n%s", seed, issued, refusals, strings.Join(events, "\n"))
	}
	if held, ok := cache.Get(srv.URL, key); ok {
		for i := range auths {
			if refusedTo[i][number(held.Token)] {
				t.Errorf("seed %d: the store still holds token %d, refused to Auth %d", seed, number(held.Token), i)
			}
		}
	}
	_ = filepath.WalkDir(filepath.Dir(cache.Dir), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if fi, err := d.Info(); err == nil && path != filepath.Dir(cache.Dir) && fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("seed %d: %s has mode %v: others may read it", seed, path, fi.Mode().Perm())
		}
		return nil
	})
}
