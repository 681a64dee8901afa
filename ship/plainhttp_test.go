package ship_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
)

// A server that answers the websocket handshake as a plain GET — 200 with
// a page (a website, Hyperion's or the chain API's front, a load
// balancer's landing page), or a redirect the HTTP client does not follow
// (300, a 3xx without Location), or one it follows to such a page — is no
// state-history endpoint, and retrying cannot make it one: before the
// stream's first session it ends the stream at once, as a 404 does. It
// was retried forever without a word.
func TestPlainHTTPAnswerEndsStream(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>hello</html>")) })
	mux.HandleFunc("/empty", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/choices", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusMultipleChoices) })
	mux.HandleFunc("/nowhere", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusFound) })
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/page", http.StatusMovedPermanently)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for path, status := range map[string]int{"/page": 200, "/empty": 204, "/choices": 300, "/nowhere": 302, "/moved": 200} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a guard only: retried, it never ended
		var errs []error
		for ev, err := range ship.NewClient(wsURL(srv)+path).Stream(ctx, ship.Request{Start: 1}) {
			if err == nil {
				t.Fatalf("%s: an event %+v", path, ev)
			}
			errs = append(errs, err)
		}
		cancel()
		var refused *ship.HandshakeError
		if len(errs) != 1 || !errors.As(errs[0], &refused) || refused.StatusCode != status || !refused.Permanent() {
			t.Errorf("%s: %v", path, errs)
		}
	}
}
