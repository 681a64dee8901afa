package ship_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
	"github.com/coder/websocket"
)

// A handshake redirected to another origin does not take the headers the
// caller set (WebSocket.Options: an API key) along: net/http forwards
// every header but Authorization and cookies there. A redirect within
// the origin (a path moved, http to https) still carries them.
func TestRedirectToOtherOriginDropsNoHeader(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(3)
	h := shiptest.NewHandler(chain)
	defer h.Close()
	var leaked atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != "" {
			leaked.Store(true)
		}
		h.ServeHTTP(w, r)
	}))
	defer other.Close()
	var keyed atomic.Int32
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/ship", http.StatusTemporaryRedirect)
		case "/moved":
			http.Redirect(w, r, "/ship", http.StatusPermanentRedirect)
		default:
			if r.Header.Get("X-Api-Key") == "s3cr3tkey" {
				keyed.Add(1)
			}
			h.ServeHTTP(w, r)
		}
	}))
	defer origin.Close()
	dialer := ship.WebSocket{Options: &websocket.DialOptions{HTTPHeader: http.Header{"X-Api-Key": {"s3cr3tkey"}}}}

	var last error
	for _, err := range fastClient(wsURL(origin)+"/away", ship.WithDialer(dialer), ship.WithMaxReconnects(0)).Stream(testContext(t), ship.Request{Start: 1, End: 4}) {
		last = err
	}
	if leaked.Load() {
		t.Fatal("the API key header went to another origin")
	}
	if last == nil || !strings.Contains(last.Error(), "another origin") || strings.Contains(last.Error(), "s3cr3tkey") {
		t.Errorf("the redirect refused: %v", last)
	}

	b, err := streamAll(t, fastClient(wsURL(origin)+"/moved", ship.WithDialer(dialer)), ship.Request{Start: 1, End: 4}, nil)
	if err != nil || len(b.Blocks) != 3 || keyed.Load() == 0 {
		t.Fatalf("within the origin: %d blocks, key seen %d times: %v", len(b.Blocks), keyed.Load(), err)
	}
}

// A handshake redirected in a loop ends after ten redirects, as net/http's
// default policy does: the websocket library's policy had no limit, and
// each attempt spun until the stall timeout.
func TestRedirectLoopEnds(t *testing.T) {
	var hops atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hops.Add(1)
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var last error
	for _, err := range ship.NewClient(wsURL(srv)+"/ship", ship.WithMaxReconnects(0), ship.WithStallTimeout(3*time.Second)).Stream(ctx, ship.Request{Start: 1}) {
		last = err
	}
	if last == nil || !strings.Contains(last.Error(), "redirects") || hops.Load() > 11 {
		t.Errorf("after %d requests: %v", hops.Load(), last)
	}
}
