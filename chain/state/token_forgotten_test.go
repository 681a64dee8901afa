package state_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/chain/state"
)

// A token in use stays scrubbed however many tokens the process was
// issued since (other Auths: a service holding one per customer's key).
// Only the most recent tokens' forms are remembered, and an Auth keeping
// its token in memory registered it once, when issued: after 51 tokens
// issued elsewhere, a service echoing it in an error showed it whole.
func TestTokenInUseOutlivesOtherTokens(t *testing.T) {
	const tok = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJpbi11c2UtdG9rZW4ifQ.aW4tdXNlLXNpZ25hdHVyZQ"
	var echo atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/auth/issue":
			fmt.Fprintf(w, `{"token":%q,"expires_at":4000000000}`, tok)
		case echo.Load():
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"code":"bad_request","message":"cannot serve %s"}`, r.Header.Get("Authorization"))
		default:
			fmt.Fprint(w, `{}`)
		}
	}))
	defer srv.Close()
	a := &state.Auth{AuthURL: srv.URL, APIKey: "server_key_of_this_customer"}
	u, _ := url.Parse(srv.URL + "/v0/state/table")
	if _, err := a.Get(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	for i := range 1000 { // other Auths' tokens
		httpcore.AddToken(fmt.Sprintf("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvdGhlci0%06d.b3RoZXItc2lnbmF0dXJl%06d", i, i))
	}
	echo.Store(true)
	_, err := a.Get(context.Background(), u)
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), tok) || strings.Contains(err.Error(), "aW4tdXNlLXNpZ25hdHVyZQ") {
		t.Fatalf("the token in use is in the error: %v", err)
	}
}
