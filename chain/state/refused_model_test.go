package state_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/antelopego/abigen/chain/state"
)

// Random runs of requests, sent one after another by several Auths, to a
// state service that refuses some tokens from their issue on and, now and
// then, revokes every token issued so far, checked against a model of
// what each request must cost: the token kept (in the shared store, or
// in each Auth's memory) is sent if there is one, else one is issued; a
// refusal issues one more; a second refusal is ErrAuth and leaves no token
// kept. So no token is ever sent after it was refused, and no token is
// issued while a good one is kept. ABIGEN_TOKEN_MODEL_RUNS sets the number
// of runs per store.
func TestTokenFlowModel(t *testing.T) {
	runs := 30
	if n, err := strconv.Atoi(os.Getenv("ABIGEN_TOKEN_MODEL_RUNS")); err == nil && n > 0 {
		runs = n
	}
	stores := []struct {
		name   string
		shared bool // the Auths share one store that keeps their tokens
		store  func() state.TokenStore
	}{
		{"memory", false, func() state.TokenStore { return nil }},
		{"unwritable store", false, func() state.TokenStore { return unwritableStore{} }},
		{"shared store", true, func() state.TokenStore { return &lockingStore{} }},
	}
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			for seed := range uint64(runs) {
				runTokenModel(t, seed, st.shared, st.store)
			}
		})
	}
}

func runTokenModel(t *testing.T, seed uint64, shared bool, newStore func() state.TokenStore) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x70c3))
	var mu sync.Mutex
	bad := []bool{false} // bad[n]: token n is refused; tokens are numbered from 1
	badOdds := 1 + rng.IntN(4)
	issued, refusals := 0, 0
	token := func(n int) string { return fmt.Sprintf("eyJhbGciOiJIUzI1NiJ9.eyJuIjo%d.c2lnbmF0dXJl", n) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path == "/v1/auth/issue" {
			issued++
			bad = append(bad, rng.IntN(badOdds) == 0)
			fmt.Fprintf(w, `{"token":%q,"expires_at":4000000000}`, token(issued))
			return
		}
		var n int
		_, _ = fmt.Sscanf(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), "eyJhbGciOiJIUzI1NiJ9.eyJuIjo%d.c2lnbmF0dXJl", &n)
		if n < 1 || n >= len(bad) || bad[n] {
			refusals++
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL + "/v0/state/table")

	auths := make([]*state.Auth, 1+rng.IntN(3))
	var store state.TokenStore
	for i := range auths {
		if i == 0 || !shared {
			store = newStore()
		}
		auths[i] = &state.Auth{AuthURL: srv.URL, APIKey: "server_key_of_this_customer", Cache: store}
	}
	// kept[i]: the model's token kept for Auth i (0: none); shared, all
	// Auths keep the store's, kept[0].
	kept := make([]int, len(auths))
	counts := func() (int, int) { mu.Lock(); defer mu.Unlock(); return issued, refusals }
	// isBad of a token not issued (the Auth issued fewer than the model)
	// is false: the counts below tell.
	isBad := func(n int) bool { mu.Lock(); defer mu.Unlock(); return n < len(bad) && bad[n] }
	for step := range 25 {
		if rng.IntN(6) == 0 {
			mu.Lock()
			for n := range bad {
				bad[n] = true // every token issued so far revoked
			}
			mu.Unlock()
		}
		i := rng.IntN(len(auths))
		k := i
		if shared {
			k = 0
		}
		issuedBefore, refusalsBefore := counts()
		_, err := auths[i].Get(t.Context(), u)
		issuedNow, refusalsNow := counts()

		// The model: what this request must have cost.
		wantIssued, wantRefusals := 0, 0
		tok := kept[k]
		if tok == 0 {
			wantIssued++
			tok = issuedBefore + wantIssued
		}
		wantErr := false
		if isBad(tok) {
			wantRefusals++
			wantIssued++
			tok = issuedBefore + wantIssued
			if isBad(tok) {
				wantRefusals++
				wantErr = true
				tok = 0
			}
		}
		kept[k] = tok

		where := fmt.Sprintf("seed %d step %d (Auth %d of %d)", seed, step, i, len(auths))
		if gotErr := err != nil; gotErr != wantErr || (wantErr && !errors.Is(err, state.ErrAuth)) {
			t.Fatalf("%s: got error %v; an ErrAuth expected: %v", where, err, wantErr)
		}
		if issuedNow-issuedBefore != wantIssued || refusalsNow-refusalsBefore != wantRefusals {
			t.Fatalf("%s: %d tokens issued and %d refusals, want %d and %d",
				where, issuedNow-issuedBefore, refusalsNow-refusalsBefore, wantIssued, wantRefusals)
		}
	}
}
