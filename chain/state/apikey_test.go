package state_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/state"
)

// A client without an API key says so before any request, and says how to
// give one; errors.Is still finds ErrNoAPIKey.
func TestNoAPIKeySaysHowToGiveOne(t *testing.T) {
	st := state.New("http://127.0.0.1:1", &state.Auth{AuthURL: "http://127.0.0.1:1"})
	_, err := st.ABI(t.Context(), antelope.MustName("eosio.token"))
	if !errors.Is(err, state.ErrNoAPIKey) {
		t.Fatalf("%v, want ErrNoAPIKey", err)
	}
	if !strings.Contains(err.Error(), "Auth.APIKey") {
		t.Errorf("%q does not say how to give the key", err)
	}
}
