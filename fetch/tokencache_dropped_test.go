package fetch_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/antelopego/abigen/chain/state"
	"github.com/antelopego/abigen/fetch"
)

// A token the state service refused, which the cache could not drop (its
// directory read-only), is not read back by the next Auth of the process:
// fetch.StateAPI makes an Auth per fetch (abigen diff fetches twice), and
// each new Auth, knowing nothing of the last one's refusal, sent it again.
func TestRefusedTokenAReadOnlyCacheKeepsIsNotSentByTheNextAuth(t *testing.T) {
	const stuck = "eyJhbGciOiJIUzI1NiJ9.eyJzdHVjayI6MX0.c3R1Y2s"
	var mu sync.Mutex
	issued, refusals := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path == "/v1/auth/issue" {
			issued++
			fmt.Fprintf(w, `{"token":"eyJhbGciOiJIUzI1NiJ9.eyJuIjo%d.c2ln","expires_at":4000000000}`, issued)
			return
		}
		if strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ") == stuck {
			refusals++
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	dir := t.TempDir()
	if err := (&fetch.TokenCache{Dir: dir}).Put(srv.URL, key, state.Token{Token: stuck, ExpiresAt: 4000000000}); err != nil {
		t.Fatal(err)
	}
	cache := fetch.TokenCacheReadOnly(dir) // made read-only since
	u, _ := url.Parse(srv.URL + "/v0/state/table")
	for fetches := range 3 {
		a := &state.Auth{AuthURL: srv.URL, APIKey: key, Cache: cache} // as StateAPI.FetchABI does
		if _, err := a.Get(t.Context(), u); err != nil {
			t.Fatalf("fetch %d: %v", fetches+1, err)
		}
	}
	if refusals != 1 {
		t.Errorf("the refused token was sent %d times by 3 Auths of one process, want once", refusals)
	}
}
