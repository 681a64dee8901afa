package state_test

import (
	"context"
	"errors"
	"net/url"
	"sync"
	"testing"

	"github.com/antelopego/abigen/chain/state"
)

// readOnlyStore holds a token it can neither drop nor replace: a cache
// directory made read-only, or another user's, with a token in it.
type readOnlyStore struct{ held state.Token }

func (s readOnlyStore) Get(string, string) (state.Token, bool) { return s.held, true }
func (readOnlyStore) Put(string, string, state.Token) error {
	return errors.New("read-only file system")
}
func (readOnlyStore) Drop(string, string) {}
func (readOnlyStore) Lock(context.Context, string, string) (func(), error) {
	return nil, errors.New("read-only file system")
}

// A token the state service refused is never sent again, however many
// others it refuses after it: a store that cannot drop it (read-only)
// holds it still, and the Auth remembered only the last eight tokens
// refused, so that, four failing requests later, it read the store's
// token as never refused and sent it again. The state service here
// refuses every token (tokens from a token service it does not trust).
func TestRefusedTokenAStoreKeepsIsNeverSentAgain(t *testing.T) {
	svc := newRefusingService(t, 1<<30)
	stuck := svc.token(1 << 20)
	var mu sync.Mutex
	refused := map[int]int{}
	svc.onRefuse = func(n int) {
		mu.Lock()
		defer mu.Unlock()
		refused[n]++
		if refused[n] > 1 {
			t.Errorf("token %d sent again after the state service refused it", n)
		}
	}
	a := &state.Auth{AuthURL: svc.srv.URL, APIKey: "server_key_of_this_customer",
		Cache: readOnlyStore{state.Token{Token: stuck, ExpiresAt: 4000000000}}}
	u, _ := url.Parse(svc.srv.URL + "/v0/state/table")
	for range 12 {
		if _, err := a.Get(t.Context(), u); !errors.Is(err, state.ErrAuth) {
			t.Fatalf("got %v, want ErrAuth", err)
		}
	}
}
