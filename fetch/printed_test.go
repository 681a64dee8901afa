package fetch_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/antelopego/abigen/fetch"
)

// A StateAPI printed (%v, %+v, %#v, %s) shows neither its API key nor its
// URLs' secrets: APIKey says "never printed", and fmt printed it.
func TestPrintedStateAPIShowsNoSecret(t *testing.T) {
	api := fetch.StateAPI{BaseURL: "https://u:base_secret@wax.example/?k=bq_secret",
		AuthURL: "https://auth.example/?key=q_secret", APIKey: key, Cache: &fetch.TokenCache{Dir: "/tmp/x"}}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		for _, v := range []any{api, &api} {
			out := fmt.Sprintf(verb, v)
			for _, secret := range []string{key, "base_secret", "bq_secret", "q_secret"} {
				if strings.Contains(out, secret) {
					t.Errorf("%s of a %T shows a secret: %s", verb, v, out)
				}
			}
		}
	}
}

// A ChainAPI printed shows no password or query value of its URL.
func TestPrintedChainAPIShowsNoSecret(t *testing.T) {
	api := fetch.ChainAPI{URL: "https://u:base_secret@wax.example/?k=bq_secret"}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		for _, v := range []any{api, &api} {
			out := fmt.Sprintf(verb, v)
			if strings.Contains(out, "base_secret") || strings.Contains(out, "bq_secret") || !strings.Contains(out, "wax.example") {
				t.Errorf("%s of a %T: %s", verb, v, out)
			}
		}
	}
}
