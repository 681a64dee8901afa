package ship_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
)

// refusingServer answers the websocket handshake with status while
// refusals lasts (each handshake takes one; below zero: always), and
// serves chain otherwise.
func refusingServer(t *testing.T, chain *shiptest.Chain, status int, refusals int64) (*httptest.Server, *shiptest.Server, *atomic.Int64) {
	t.Helper()
	left := new(atomic.Int64)
	left.Store(refusals)
	h := shiptest.NewHandler(chain)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n := left.Add(-1); n >= 0 || refusals < 0 {
			http.Error(w, http.StatusText(status), status)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { h.Close(); srv.Close() })
	return srv, h, left
}

func wsURL(srv *httptest.Server) string { return "ws" + strings.TrimPrefix(srv.URL, "http") }

// A handshake refused with a status retrying cannot cure (a 404: the chain
// API's port, a plain HTTP server, a proxy's wrong path; 400, 401, 403…)
// before the stream ever had a session ends the stream at once with the
// default options (no limit on reconnections), with an error naming the
// URL, without its secrets, and the status.
func TestLastingRefusalEndsStream(t *testing.T) {
	for _, status := range []int{http.StatusNotFound, http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden,
		http.StatusMethodNotAllowed, http.StatusGone, http.StatusUpgradeRequired} {
		srv, _, _ := refusingServer(t, shiptest.NewChain(), status, -1)
		url := strings.Replace(wsURL(srv), "://", "://me:hunter2@", 1) + "/ship?token=s3cret"
		// A guard only: without the fix the stream retries until it.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var errs []error
		for ev, err := range ship.NewClient(url).Stream(ctx, ship.Request{Start: 1}) {
			if err == nil {
				t.Fatalf("%d: an event %+v", status, ev)
			}
			errs = append(errs, err)
		}
		cancel()
		if len(errs) != 1 {
			t.Fatalf("%d: %v", status, errs)
		}
		err := errs[0]
		var refused *ship.HandshakeError
		if !errors.As(err, &refused) || refused.StatusCode != status || errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%d: %v", status, err)
		}
		msg := err.Error()
		if !containsAll(msg, strings.TrimPrefix(srv.URL, "http://")+"/ship", http.StatusText(status)) ||
			strings.Contains(msg, "hunter2") || strings.Contains(msg, "s3cret") {
			t.Errorf("%d: %s", status, msg)
		}
		if _, err := ship.NewClient(url).Status(context.Background()); !errors.As(err, &refused) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%d: Status: %v", status, err)
		}
	}
}

// A refusal that may heal (a proxy's 5xx while its node is down, 408, 425,
// 429) is retried before the first session too.
func TestPassingRefusalRetried(t *testing.T) {
	for _, status := range []int{http.StatusRequestTimeout, http.StatusTooEarly, http.StatusTooManyRequests,
		http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable} {
		chain := shiptest.NewChain()
		chain.ProduceEmpty(5)
		srv, _, left := refusingServer(t, chain, status, 3)
		b, err := streamAll(t, fastClient(wsURL(srv)), ship.Request{Start: 1, End: 6}, nil)
		if err != nil || len(b.Blocks) != 5 || left.Load() >= 0 {
			t.Fatalf("%d: %d blocks, %d refusals left: %v", status, len(b.Blocks), left.Load()+1, err)
		}
	}
}

// Once the stream has had a session, the same lasting statuses are a node
// restarting behind a proxy: retried under WithMaxReconnects, the stream
// resumes where it was. (A window of one block: the node sends no block
// past the one the connection drops at.)
func TestLastingRefusalAfterSessionRetried(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(20)
	srv, h, left := refusingServer(t, chain, http.StatusNotFound, 0)
	b, err := streamAll(t, fastClient(wsURL(srv), ship.WithWindow(1)), ship.Request{Start: 1, End: 21}, func(ev ship.Event) {
		if ev.Block != nil && ev.Block.Num == 10 {
			left.Store(5)
			h.DropConnections()
		}
	})
	if err != nil || len(b.Blocks) != 20 || left.Load() >= 0 {
		t.Fatalf("%d blocks, %d refusals left: %v", len(b.Blocks), left.Load()+1, err)
	}
}

// WithMaxReconnects still bounds the refusals after a session.
func TestLastingRefusalAfterSessionGivesUp(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(20)
	srv, h, left := refusingServer(t, chain, http.StatusNotFound, 0)
	_, err := streamAll(t, fastClient(wsURL(srv), ship.WithWindow(1), ship.WithMaxReconnects(2)), ship.Request{Start: 1, End: 21}, func(ev ship.Event) {
		if ev.Block != nil && ev.Block.Num == 10 {
			left.Store(1 << 30)
			h.DropConnections()
		}
	})
	var refused *ship.HandshakeError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "giving up after 3") {
		t.Fatalf("%v", err)
	}
}

// No error carries the URL's user info or query, which may hold a secret:
// not ship's own words, nor the dialer's (net/http puts the URL, query
// included, in its errors).
func TestErrorsRedactURL(t *testing.T) {
	ln := silentListener(t) // accepts and never answers: a handshake timeout
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := strings.TrimPrefix(srv.URL, "http://")
	srv.Close() // nothing listens there now: connection refused
	for _, host := range []string{addr, ln} {
		var last error
		for _, err := range ship.NewClient("ws://me:hunter2@"+host+"/ship?token=s3cret", ship.WithMaxReconnects(0),
			ship.WithStallTimeout(100*time.Millisecond)).Stream(testContext(t), ship.Request{Start: 1}) {
			last = err
		}
		if last == nil || !strings.Contains(last.Error(), host+"/ship") || strings.Contains(last.Error(), "hunter2") || strings.Contains(last.Error(), "s3cret") {
			t.Errorf("%v", last)
		}
	}
}

// An address no network can make dialable (a misspelt scheme, a missing
// "://" or host, a port out of 1 to 65535, not a URL at all) ends the stream at once with the
// default options, which retried it forever, and its error shows neither
// the user info nor the query.
func TestUndialableURLEndsStream(t *testing.T) {
	for _, url := range []string{"htp://me:pw@127.0.0.1:8080/?token=s3cret", "ws//me:pw@127.0.0.1:8080?token=s3cret",
		"127.0.0.1:8080", "localhost:8080", "", "ws://", "ws:///ship?token=s3cret", "ws://me:pw@[::1?token=s3cret",
		"ws://127.0.0.1:8080/%zz?token=s3cret", " ws://me:pw@127.0.0.1:8080", "ws://127.0.0.1:65536/", "ws://127.0.0.1:0/",
		"wss://node.example:99999999999999999999/"} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a guard only
		var errs []error
		for ev, err := range ship.NewClient(url).Stream(ctx, ship.Request{Start: 1}) {
			if err == nil {
				t.Fatalf("%q: an event %+v", url, ev)
			}
			errs = append(errs, err)
		}
		cancel()
		var bad *ship.URLError
		if len(errs) != 1 || !errors.As(errs[0], &bad) {
			t.Fatalf("%q: %v", url, errs)
		}
		if msg := errs[0].Error(); strings.Contains(msg, "pw") || strings.Contains(msg, "s3cret") {
			t.Errorf("%q: %s", url, msg)
		}
		if _, err := ship.NewClient(url).Status(context.Background()); !errors.As(err, &bad) {
			t.Errorf("%q: Status: %v", url, err)
		}
	}
}
