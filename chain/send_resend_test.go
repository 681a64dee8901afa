package chain_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/httpcore"
)

// SendTransaction takes any signed bytes: an earlier call (the one whose
// *UnknownOutcomeError invites sending the same bytes again), another
// process or a cosigner may have executed them. nodeos checks the
// expiration before it looks for a duplicate (producer_plugin.cpp
// process_incoming_transaction_async: expire < block time, then
// is_known_unexpired_transaction), so a resend of an executed transaction
// that has just expired is answered expired_tx_exception, without
// retry_trx too. That is no refusal: the chain shows it executed.
func TestSendTransactionResentAfterExecutedAndExpired(t *testing.T) {
	c, keys := tokenChain(t)
	signed := signedTransfer(t, c, keys[alice], 6)
	id, _ := signed.ID()
	if _, err := c.Client().SendTransaction(t.Context(), signed); err != nil {
		t.Fatal(err) // executed by an earlier call
	}
	c.ProduceBlocks(2*60*2 + 10) // and now expired
	srv := front(t, c, func(w http.ResponseWriter, r *http.Request, _ func() []byte) bool {
		if !isSendPath(r.URL.Path) {
			return false
		}
		nodeosAnswer(w, 500, 3040005, "expired_tx_exception", "Expired Transaction")
		return true
	})
	cl := chain.New(srv, chain.WithTransport(&httpcore.Transport{Sleep: noSleep}), chain.WithRetryTrx(false, 0))
	var res *chain.TransactResult
	var err error
	if n := executions(c, func() { res, err = cl.SendTransaction(t.Context(), signed) }); n != 0 {
		t.Fatalf("executed %d more times", n)
	}
	var uo *chain.UnknownOutcomeError
	switch {
	case errors.Is(err, chain.ErrExpired):
		t.Fatalf("executed, reported refused (expired): the caller rebuilds and pays twice: %v", err)
	case err == nil && (res.ID != id || !res.AlreadySubmitted):
		t.Fatalf("reported: %+v", res)
	case err != nil && !errors.As(err, &uo):
		t.Fatalf("executed, reported: %v", err)
	}
}
