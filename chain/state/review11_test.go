package state_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/chain/state"
)

// unwritableStore is a TokenStore that cannot keep a token: a read-only
// or full cache directory.
type unwritableStore struct{}

func (unwritableStore) Get(string, string) (state.Token, bool) { return state.Token{}, false }
func (unwritableStore) Put(string, string, state.Token) error {
	return errors.New("read-only file system")
}
func (unwritableStore) Drop(string, string) {}
func (unwritableStore) Lock(context.Context, string, string) (func(), error) {
	return func() {}, nil
}

// A store that cannot be written costs a token per run, not one per
// request: the token this Auth issued is kept in memory for its life.
func TestUnwritableStoreIssuesOneTokenPerAuth(t *testing.T) {
	if issued := tokensIssuedFor(t, unwritableStore{}, 5); issued != 1 {
		t.Errorf("%d tokens issued for 5 requests with a store that cannot be written; want 1", issued)
	}
}

// tokensIssuedFor sends requests through an Auth with store, to a state
// service that accepts every token, and returns how many were issued.
func tokensIssuedFor(t *testing.T, store state.TokenStore, requests int) int {
	t.Helper()
	var mu sync.Mutex
	issued := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/auth/issue" {
			mu.Lock()
			issued++
			n := issued
			mu.Unlock()
			fmt.Fprintf(w, `{"token":"eyJhbGciOiJIUzI1NiJ9.eyJuIjo%d.c2ln","expires_at":4000000000}`, n)
			return
		}
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	a := &state.Auth{AuthURL: srv.URL, APIKey: "server_key_of_this_customer", Cache: store}
	u, _ := url.Parse(srv.URL + "/v0/state/table")
	for range requests {
		if _, err := a.Get(t.Context(), u); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return issued
}

// A request waiting for another to issue the in-memory token returns when
// its context ends, not when the other's issuing does (a token service
// that hangs, or retries with backoff, for minutes).
func TestWaitForInMemoryIssueEndsWithContext(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/auth/issue" {
			arrived <- struct{}{}
			<-release
			fmt.Fprint(w, `{"token":"eyJhbGciOiJIUzI1NiJ9.eyJuIjoxfQ.c2ln","expires_at":4000000000}`)
			return
		}
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	defer close(release)
	a := &state.Auth{AuthURL: srv.URL, APIKey: "server_key_of_this_customer"}
	u, _ := url.Parse(srv.URL + "/v0/state/table")
	go func() { _, _ = a.Get(context.Background(), u) }()
	<-arrived // the first request holds the issuing lock
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := a.Get(ctx, u)
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled request still waits for another request's token issue")
	}
}

// A stored token whose issue time is after its expiry (a store written by
// another program, or by a machine whose clock was wrong) is not usable:
// issued tokens with such times are refused (decodeToken), and Usable's
// margin, computed from a negative life, used to push the expiry decades
// into the future.
func TestStoredTokenIssuedAfterItsExpiryIsNotUsed(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	expired := state.Token{Token: "eyJhbGciOiJIUzI1NiJ9.eyJvbGQiOjF9.c2ln", IssuedAt: now.Unix() + 1_000_000, ExpiresAt: now.Unix() - 3600}
	if expired.Usable(now) {
		t.Errorf("a token that expired an hour ago, issued after its expiry, is Usable")
	}
	const good = "eyJhbGciOiJIUzI1NiJ9.eyJuZXciOjF9.c2ln"
	var sent []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/auth/issue" {
			fmt.Fprintf(w, `{"token":%q,"expires_at":%d}`, good, now.Unix()+3600)
			return
		}
		sent = append(sent, r.Header.Get("Authorization"))
		if r.Header.Get("Authorization") != "Bearer "+good {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	a := &state.Auth{AuthURL: srv.URL, APIKey: "server_key_of_this_customer",
		Cache: &oneTokenStore{t: expired}, Now: func() time.Time { return now }}
	u, _ := url.Parse(srv.URL + "/v0/state/table")
	if _, err := a.Get(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 1 {
		t.Errorf("sent %d requests, want 1: the expired stored token was sent", len(sent))
	}
}

// lockFailingStore cannot take its issuing lock either: fetch's on-disk
// cache in a read-only directory cannot create its lock file.
type lockFailingStore struct{ unwritableStore }

func (lockFailingStore) Lock(context.Context, string, string) (func(), error) {
	return nil, errors.New("token cache: open /ro/tokens/x.json.lock: read-only file system")
}

// A store that cannot be locked is a store that cannot be written: the
// run goes on with a token kept in memory, one for the Auth's life, as it
// does with no store at all.
func TestStoreThatCannotLockFallsBackToMemory(t *testing.T) {
	if issued := tokensIssuedFor(t, lockFailingStore{}, 3); issued != 1 {
		t.Errorf("%d tokens issued for 3 requests; want 1", issued)
	}
}

// A request refused with a token is given, in its place, only a token
// issued to replace that one, not any other token: one issued earlier
// (here a renewal, issued while the refused request was on its way) may
// have been revoked with it, and the request, having had no token issued
// for it, failed with "refused a freshly issued token too". The state
// service here revokes every token issued so far (its signing key rotated)
// while two requests are out, one with a token past its renewal time, one
// with its renewal.
func TestRefusedRequestIsNotGivenAnEarlierToken(t *testing.T) {
	for _, stored := range []bool{false, true} {
		t.Run(fmt.Sprintf("stored=%v", stored), func(t *testing.T) {
			var mu sync.Mutex
			now := time.Unix(1_800_000_000, 0)
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
			issued, revokedUpTo := 0, 0
			number := map[string]int{}
			seen := map[int]int{}
			arrived := []chan struct{}{nil, make(chan struct{}), make(chan struct{})}
			release := []chan struct{}{nil, make(chan struct{}), make(chan struct{})}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				if r.URL.Path == "/v1/auth/issue" {
					issued++
					tok := fmt.Sprintf("eyJhbGciOiJIUzI1NiJ9.eyJuIjo%d.c2ln", issued)
					number["Bearer "+tok] = issued
					fmt.Fprintf(w, `{"token":%q,"expires_at":%d}`, tok, now.Unix()+1000)
					mu.Unlock()
					return
				}
				n := number[r.Header.Get("Authorization")]
				seen[n]++
				first := seen[n] == 1 && n <= 2
				mu.Unlock()
				if first {
					close(arrived[n])
					<-release[n]
				}
				mu.Lock()
				refused := n <= revokedUpTo
				mu.Unlock()
				if refused {
					w.WriteHeader(http.StatusUnauthorized)
					return
				}
				fmt.Fprint(w, `{}`)
			}))
			defer srv.Close()
			a := &state.Auth{AuthURL: srv.URL, APIKey: "server_key_of_this_customer", Now: clock}
			if stored {
				a.Cache = &lockingStore{}
			}
			u, _ := url.Parse(srv.URL + "/v0/state/table")
			errA, errB := make(chan error, 1), make(chan error, 1)
			go func() { _, err := a.Get(t.Context(), u); errA <- err }()
			<-arrived[1] // A is out with token 1
			mu.Lock()
			now = now.Add(950 * time.Second) // token 1 is past its renewal time
			mu.Unlock()
			go func() { _, err := a.Get(t.Context(), u); errB <- err }()
			<-arrived[2] // B is out with token 2, its renewal
			mu.Lock()
			revokedUpTo = 2
			mu.Unlock()
			close(release[1])
			if err := <-errA; err != nil {
				t.Errorf("the request refused token 1: %v", err)
			}
			close(release[2])
			if err := <-errB; err != nil {
				t.Errorf("the request refused token 2: %v", err)
			}
		})
	}
}

// staleReadOnlyStore holds a token it can neither replace nor drop: a
// cache directory mounted read-only with a revoked token in it.
type staleReadOnlyStore struct {
	lockFailingStore
	t state.Token
}

func (s staleReadOnlyStore) Get(string, string) (state.Token, bool) { return s.t, true }

// The token this Auth issued because its store could not keep one is
// used before the store's: the store's may be the very token the state
// service refused, sent again, and refused again, by every request.
func TestTokenKeptInMemoryIsPreferredToAStoreThatCouldNotTakeIt(t *testing.T) {
	const revoked = "eyJhbGciOiJIUzI1NiJ9.eyJyZXZva2VkIjoxfQ.c2ln"
	var mu sync.Mutex
	refusals := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/auth/issue" {
			fmt.Fprint(w, `{"token":"eyJhbGciOiJIUzI1NiJ9.eyJuIjoxfQ.c2ln","expires_at":4000000000}`)
			return
		}
		if r.Header.Get("Authorization") == "Bearer "+revoked {
			mu.Lock()
			refusals++
			mu.Unlock()
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	store := staleReadOnlyStore{t: state.Token{Token: revoked, ExpiresAt: 4000000000}}
	a := &state.Auth{AuthURL: srv.URL, APIKey: "server_key_of_this_customer", Cache: store}
	u, _ := url.Parse(srv.URL + "/v0/state/table")
	for range 3 {
		if _, err := a.Get(t.Context(), u); err != nil {
			t.Fatal(err)
		}
	}
	if refusals != 1 {
		t.Errorf("the stored revoked token was refused %d times in 3 requests; want once", refusals)
	}
}
