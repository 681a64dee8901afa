package state_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/chain/state"
)

// oneTokenStore is a TokenStore holding one token, whatever the key.
type oneTokenStore struct {
	mu sync.Mutex
	t  state.Token
}

func (s *oneTokenStore) Get(string, string) (state.Token, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t, s.t.Token != ""
}

func (s *oneTokenStore) Put(_, _ string, t state.Token) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.t = t
	return nil
}

func (s *oneTokenStore) Drop(string, string) { _ = s.Put("", "", state.Token{}) }

func (s *oneTokenStore) Lock(context.Context, string, string) (func(), error) { return func() {}, nil }

// A stored token goes through the check an issued one does: a token store
// written before tokens were checked (or by another program) may hold one
// no header can carry, whose registration as a secret costs 88 times its
// size; it is issued anew instead.
func TestCachedTokenIsCheckedAsIssued(t *testing.T) {
	const good = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJnb29kIn0.Z29vZC1zaWduYXR1cmU"
	var mu sync.Mutex
	var sent []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/auth/issue" {
			fmt.Fprintf(w, `{"token":%q,"expires_at":4000000000}`, good)
			return
		}
		mu.Lock()
		sent = append(sent, r.Header.Get("Authorization"))
		mu.Unlock()
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	now := time.Now().Unix()
	store := &oneTokenStore{t: state.Token{Token: "eyJhbGciOi.eyJ\xb0\xb0\xb0\xb0.sig\xff", ExpiresAt: now + 86400, IssuedAt: now}}
	a := &state.Auth{AuthURL: srv.URL, APIKey: "server_key_of_this_customer", Cache: store}
	u, _ := url.Parse(srv.URL + "/v0/state/table")
	if _, err := a.Get(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 1 || sent[0] != "Bearer "+good {
		t.Fatalf("sent %q, want a freshly issued token", sent)
	}
}
