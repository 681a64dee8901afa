package state_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/antelopego/abigen/chain/state"
)

// lockingStore is a TokenStore whose issuing lock excludes, as fetch's
// on-disk cache's does between processes.
type lockingStore struct {
	oneTokenStore
	issuing sync.Mutex
}

func (s *lockingStore) Lock(context.Context, string, string) (func(), error) {
	s.issuing.Lock()
	return s.issuing.Unlock, nil
}

// Requests refused the same token together replace it with one new token,
// not one each: a token service counts (and may bill or rate-limit) every
// token issued, and a program reading many tables at once meets a revoked
// token with all its requests. The state service here refuses the first
// token once every request has been sent with it.
func TestRequestsRefusedTogetherShareOneNewToken(t *testing.T) {
	const parallel = 8
	for _, stored := range []bool{false, true} {
		t.Run(fmt.Sprintf("stored=%v", stored), func(t *testing.T) {
			var mu sync.Mutex
			issued, withFirst := 0, 0
			allSent := make(chan struct{})
			token := func(n int) string { return fmt.Sprintf("eyJhbGciOiJIUzI1NiJ9.eyJuIjo%d.c2lnbmF0dXJl", n) }
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				if r.URL.Path == "/v1/auth/issue" {
					issued++
					fmt.Fprintf(w, `{"token":%q,"expires_at":4000000000}`, token(issued))
					mu.Unlock()
					return
				}
				first := r.Header.Get("Authorization") == "Bearer "+token(1)
				if first {
					if withFirst++; withFirst == parallel {
						close(allSent)
					}
				}
				mu.Unlock()
				if first {
					<-allSent
					w.WriteHeader(http.StatusUnauthorized)
					fmt.Fprint(w, `{"error":"token revoked"}`)
					return
				}
				fmt.Fprint(w, `{}`)
			}))
			defer srv.Close()
			a := &state.Auth{AuthURL: srv.URL, APIKey: "server_key_of_this_customer"}
			if stored {
				a.Cache = &lockingStore{}
			}
			u, _ := url.Parse(srv.URL + "/v0/state/table")
			var wg sync.WaitGroup
			errs := make(chan error, parallel)
			for range parallel {
				wg.Go(func() {
					_, err := a.Get(t.Context(), u)
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			if issued != 2 {
				t.Errorf("%d tokens issued for %d requests refused one token together; want 2 (the first, and one new)", issued, parallel)
			}
		})
	}
}
