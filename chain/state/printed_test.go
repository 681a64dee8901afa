package state_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/antelopego/abigen/chain/state"
)

// A Token or an Auth printed (%v, %+v, %#v, %s: a debug log of the
// configuration, a test failure) shows neither the token nor the API key:
// their fields say "never printed", and fmt printed them all.
func TestPrintedTokenAndAuthShowNoSecret(t *testing.T) {
	const tok = "eyJhbGciOiJIUzI1NiJ9.eyJuIjoxfQ.c2VjcmV0X3NpZ25hdHVyZQ"
	const apiKey = "server_key_of_this_customer"
	tk := state.Token{Token: tok, ExpiresAt: 4000000000, IssuedAt: 3999999000}
	a := &state.Auth{AuthURL: "https://user:pw_secret@auth.example/?key=q_secret", APIKey: apiKey}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		for _, v := range []any{tk, &tk, a} {
			out := fmt.Sprintf(verb, v)
			for _, secret := range []string{tok, "c2VjcmV0X3NpZ25hdHVyZQ", apiKey, "pw_secret", "q_secret"} {
				if strings.Contains(out, secret) {
					t.Errorf("%s of a %T shows a secret: %s", verb, v, out)
				}
			}
		}
	}
	if out := fmt.Sprintf("%+v", tk); !strings.Contains(out, "4000000000") {
		t.Errorf("%q: the expiry is not a secret, and helps", out)
	}
}
