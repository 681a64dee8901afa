package hyperion_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/antelopego/abigen/ship/hyperion"
)

// TestEchoedKeyScrubbed: a node or gateway that echoes the API key in its
// answer (a plain-text error, a JSON string, Fastify's message) does not
// carry it into an error's text.
func TestEchoedKeyScrubbed(t *testing.T) {
	const key = "k3y-Zq8vXw2Lm5Np"
	bodies := []struct {
		status int
		body   string
	}{
		{200, `<html>bad key ` + key + `</html>`},
		{200, `"invalid api key ` + key + `"`},
		{200, `{"actions":[{"block_num":"` + key + `"}]}`},
		{400, `{"statusCode":400,"error":"Bad Request","message":"unknown key ` + key + `"}`},
		{500, `{"statusCode":500,"error":"Internal","message":"unknown key ` + key + `"}`},
		{429, `rate limited for ` + key},
	}
	for _, b := range bodies {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(b.status)
			w.Write([]byte(b.body))
		}))
		h := hyperion.New(srv.URL, hyperion.WithHeader("X-Api-Key", key))
		ctx, cancel := context.WithCancel(context.Background())
		_, err := h.GetActions(ctx, nil)
		cancel()
		srv.Close()
		if err == nil {
			t.Fatalf("%d %s: no error", b.status, b.body)
		}
		if strings.Contains(err.Error(), key) {
			t.Errorf("%d: the key is in the error: %v", b.status, err)
		}
	}
}
