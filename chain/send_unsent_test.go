package chain_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
)

// A send that cannot even be made (the client's URL is not one) executed
// nothing: it is that error, not an unknown outcome telling the caller to
// look the transaction up.
func TestSendNeverSentIsNoUnknownOutcome(t *testing.T) {
	tx := antelope.Transaction{Actions: []antelope.Action{{Account: eosioToken, Name: antelope.MustName("transfer"),
		Authorization: []antelope.PermissionLevel{antelope.Active(alice)}, Data: []byte{}}},
		ContextFreeActions: []antelope.Action{}, Extensions: []antelope.Extension{}}
	signed := &antelope.SignedTransaction{Transaction: tx, Signatures: []antelope.Signature{}, ContextFreeData: [][]byte{}}
	for _, url := range []string{"ftp://node.example", "node.example", "https://"} {
		_, err := chain.New(url).SendTransaction(t.Context(), signed)
		var uo *chain.UnknownOutcomeError
		if errors.As(err, &uo) || err == nil || !strings.Contains(err.Error(), "invalid URL") {
			t.Errorf("%q: %v", url, err)
		}
	}
}
