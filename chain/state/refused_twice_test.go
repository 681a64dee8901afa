package state_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/antelopego/abigen/chain/state"
)

// A token the state service refused is never sent again: when it refuses
// the token issued to replace a refused one too, that fresh token is
// dropped from memory and from the store, so the next request issues a new
// one instead of first spending a 401 on it. The state service here
// refuses the first two tokens issued and accepts every later one.
func TestFreshTokenRefusedIsNotSentAgain(t *testing.T) {
	stores := []struct {
		name  string
		store func() state.TokenStore
	}{
		{"memory", func() state.TokenStore { return nil }},
		{"store", func() state.TokenStore { return &lockingStore{} }},
		{"unwritable store", func() state.TokenStore { return unwritableStore{} }},
	}
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			store := st.store()
			svc := newRefusingService(t, 2)
			a := &state.Auth{AuthURL: svc.srv.URL, APIKey: "server_key_of_this_customer", Cache: store}
			u, _ := url.Parse(svc.srv.URL + "/v0/state/table")
			_, err := a.Get(t.Context(), u)
			if !errors.Is(err, state.ErrAuth) {
				t.Fatalf("the first request, both tokens refused: got %v, want ErrAuth", err)
			}
			svc.checkNoTokenIn(t, err.Error())
			if store != nil {
				if held, ok := store.Get(svc.srv.URL, a.APIKey); ok {
					t.Errorf("the store still holds a refused token (number %d)", svc.number(held.Token))
				}
			}
			for i := range 3 {
				if _, err := a.Get(t.Context(), u); err != nil {
					t.Fatalf("request %d after the refusals: %v", i+2, err)
				}
			}
			if refusals, issued := svc.counts(); refusals != 2 || issued != 3 {
				t.Errorf("%d refusals and %d tokens issued for 4 requests; want 2 and 3 (the refused fresh token was sent again)", refusals, issued)
			}
		})
	}
}

// A refused fresh token is dropped from the store only if the store still
// holds it: another process may have stored a newer token meanwhile, which
// the next request uses, issuing none.
func TestRefusedTokenDropKeepsAnotherProcesssToken(t *testing.T) {
	store := &lockingStore{}
	svc := newRefusingService(t, 2)
	other := svc.token(100) // accepted: only the first two are refused
	svc.onRefuse = func(n int) {
		if n == 2 { // another process stores its token while token 2 is out
			_ = store.Put(svc.srv.URL, "server_key_of_this_customer", state.Token{Token: other, ExpiresAt: 4000000000})
		}
	}
	a := &state.Auth{AuthURL: svc.srv.URL, APIKey: "server_key_of_this_customer", Cache: store}
	u, _ := url.Parse(svc.srv.URL + "/v0/state/table")
	if _, err := a.Get(t.Context(), u); !errors.Is(err, state.ErrAuth) {
		t.Fatalf("got %v, want ErrAuth", err)
	}
	if held, _ := store.Get(svc.srv.URL, a.APIKey); held.Token != other {
		t.Fatalf("the store holds token number %d, want the other process's (100)", svc.number(held.Token))
	}
	if _, err := a.Get(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	if refusals, issued := svc.counts(); refusals != 2 || issued != 2 {
		t.Errorf("%d refusals and %d tokens issued; want 2 and 2 (the other process's token used)", refusals, issued)
	}
}

// refusingService is a token service issuing numbered tokens and a state
// service refusing the first refuseUpTo of them, counting both.
type refusingService struct {
	srv      *httptest.Server
	mu       sync.Mutex
	issued   int
	refusals int
	onRefuse func(n int) // called before a refusal of token n, unlocked
}

func newRefusingService(t *testing.T, refuseUpTo int) *refusingService {
	s := &refusingService{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if r.URL.Path == "/v1/auth/issue" {
			s.issued++
			fmt.Fprintf(w, `{"token":%q,"expires_at":4000000000}`, s.token(s.issued))
			s.mu.Unlock()
			return
		}
		n := s.number(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		refused := n <= refuseUpTo
		if refused {
			s.refusals++
		}
		onRefuse := s.onRefuse
		s.mu.Unlock()
		if refused {
			if onRefuse != nil {
				onRefuse(n)
			}
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, `{}`)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *refusingService) token(n int) string {
	return fmt.Sprintf("eyJhbGciOiJIUzI1NiJ9.eyJuIjo%d.c2lnbmF0dXJl", n)
}

// number is a token's number, 0 for a string that is not one of ours.
func (s *refusingService) number(tok string) int {
	var n int
	if _, err := fmt.Sscanf(tok, "eyJhbGciOiJIUzI1NiJ9.eyJuIjo%d.c2lnbmF0dXJl", &n); err != nil {
		return 0
	}
	return n
}

func (s *refusingService) counts() (refusals, issued int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refusals, s.issued
}

// checkNoTokenIn fails if text holds any token issued so far.
func (s *refusingService) checkNoTokenIn(t *testing.T, text string) {
	t.Helper()
	_, issued := s.counts()
	for n := 1; n <= issued; n++ {
		if strings.Contains(text, s.token(n)) {
			t.Errorf("token %d appears in %q", n, text)
		}
	}
}
