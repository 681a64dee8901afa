package state_test

import (
	"context"
	"net/url"
	"sync"
	"testing"

	"github.com/antelopego/abigen/chain/state"
)

// gatedStore is a oneTokenStore whose issuing lock lets each caller, named
// by its context's gateKey value, in only when the test opens its gate.
type gatedStore struct {
	oneTokenStore
	issuing sync.Mutex
	arrived chan int         // a caller waits at its gate
	gates   map[int]chan int // closed: the caller may take the lock
}

type gateKey struct{}

func (s *gatedStore) Lock(ctx context.Context, _, _ string) (func(), error) {
	if who, ok := ctx.Value(gateKey{}).(int); ok {
		s.arrived <- who
		<-s.gates[who]
	}
	s.issuing.Lock()
	return s.issuing.Unlock, nil
}

// A request refused a token, and another request that starts meanwhile
// (finding the stored token refused), share one new token, whichever
// takes the lock first: the new request issued one not marked as
// replacing the refused token, which the refused request therefore did
// not take, issuing a second one.
func TestRefusedAndNewRequestShareOneToken(t *testing.T) {
	svc := newRefusingService(t, 0)
	refused := svc.token(0) // the only token refused
	store := &gatedStore{arrived: make(chan int), gates: map[int]chan int{1: make(chan int), 2: make(chan int)}}
	_ = store.Put("", "", state.Token{Token: refused, ExpiresAt: 4000000000})
	a := &state.Auth{AuthURL: svc.srv.URL, APIKey: "server_key_of_this_customer", Cache: store}
	u, _ := url.Parse(svc.srv.URL + "/v0/state/table")
	errs := make(chan error, 2)
	send := func(who int) {
		_, err := a.Get(context.WithValue(t.Context(), gateKey{}, who), u)
		errs <- err
	}
	go send(1)      // refused, it waits to replace the token
	<-store.arrived // 1
	go send(2)      // new: finds the stored token refused, waits to issue
	<-store.arrived // 2
	close(store.gates[2])
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	close(store.gates[1])
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if refusals, issued := svc.counts(); refusals != 1 || issued != 1 {
		t.Errorf("%d refusals and %d tokens issued, want 1 and 1: the refused request did not take the token the new one issued", refusals, issued)
	}
}

// A request refused a token takes any token issued after that refusal,
// also one issued to replace its replacement: waiting for the lock while
// another request replaced the refused token, was refused the
// replacement, and replaced that, it issued a third token.
func TestRefusedRequestTakesTheReplacementsReplacement(t *testing.T) {
	svc := newRefusingService(t, 1) // token 0 (stored) and the first issued are refused
	store := &gatedStore{arrived: make(chan int, 8), gates: map[int]chan int{1: make(chan int), 2: make(chan int)}}
	_ = store.Put("", "", state.Token{Token: svc.token(0), ExpiresAt: 4000000000})
	a := &state.Auth{AuthURL: svc.srv.URL, APIKey: "server_key_of_this_customer", Cache: store}
	u, _ := url.Parse(svc.srv.URL + "/v0/state/table")
	errs := make(chan error, 2)
	send := func(who int) {
		_, err := a.Get(context.WithValue(t.Context(), gateKey{}, who), u)
		errs <- err
	}
	go send(1)      // refused token 0, it waits to replace it
	<-store.arrived // 1
	go send(2)      // new: finds token 0 refused, waits to issue
	<-store.arrived // 2
	close(store.gates[2])
	if err := <-errs; err != nil { // issued 1, refused it, issued 2
		t.Fatal(err)
	}
	close(store.gates[1])
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if refusals, issued := svc.counts(); refusals != 2 || issued != 2 {
		t.Errorf("%d refusals and %d tokens issued, want 2 and 2: the refused request did not take token 2, issued after token 0 was refused", refusals, issued)
	}
}
