package chaintest

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/exec"
)

// transactionAPI answers push_transaction, send_transaction,
// send_transaction2, compute_transaction and send_read_only_transaction.
func (c *Chain) transactionAPI(endpoint string, body []byte) (int, any) {
	var packedJSON json.RawMessage = body
	failureTrace := false
	switch endpoint {
	case "send_transaction2", "compute_transaction", "send_read_only_transaction":
		p, err := parseSendBody(body, endpoint == "send_transaction2")
		if err != nil {
			return badRequest("Unable to parse valid input from POST body: " + err.Error())
		}
		packedJSON = p.Transaction
		if endpoint == "send_transaction2" {
			failureTrace = p.ReturnFailureTrace == nil || *p.ReturnFailureTrace // nodeos's default is true
		}
	}
	var packed antelope.PackedTransaction
	if err := packed.UnmarshalJSON(packedJSON); err != nil {
		return exec.ErrPackedTx("Invalid packed transaction: " + err.Error()).Answer()
	}
	signed, err := packed.Unpack()
	if err != nil {
		return exec.ErrPackedTx("Invalid packed transaction: " + err.Error()).Answer()
	}
	id, _ := signed.ID()
	dry := endpoint == "compute_transaction" || endpoint == "send_read_only_transaction"
	return c.runTransaction(endpoint, signed, &packed, id, failureTrace, func(pending time.Time) error {
		return c.engine.Check(signed, &packed, id, pending, dry)
	})
}

// runTransaction is transactionAPI once the body is read: check runs
// nodeos's checks before execution (for a block at pending), then the
// transaction runs, and the answer is the endpoint's.
func (c *Chain) runTransaction(endpoint string, signed *antelope.SignedTransaction, packed *antelope.PackedTransaction, id antelope.Checksum256, failureTrace bool, check func(pending time.Time) error) (int, any) {
	dry := endpoint == "compute_transaction" || endpoint == "send_read_only_transaction"
	status := 202
	if dry {
		status = 200
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	blockNum := c.nextBlockNum()
	blockTime := c.headTime().Add(500 * time.Millisecond)
	var trx *exec.TrxContext
	err := check(blockTime)
	if err == nil {
		trx, err = c.engine.Execute(signed, packed, id, blockNum, blockTime, endpoint == "send_read_only_transaction", dry)
	}
	if err != nil {
		c.stats.Refused++
		var ex *exec.Exception
		if !errors.As(err, &ex) {
			ex = exec.ErrAssert(err.Error())
		}
		if failureTrace {
			// nodeos's failure trace has the action traces so far: those
			// executed with their receipts (numbered as if committed), the
			// failed one with the exception, those scheduled with neither.
			if trx != nil {
				c.engine.Sequence(trx, false)
				trx.Failure = ex
			}
			answer, _, _ := exec.AppendAnswer(nil, id, blockNum, blockTime, trx, ex)
			return status, answer
		}
		return ex.Answer()
	}
	c.engine.Sequence(trx, !dry)
	if !dry {
		c.seen[id] = blockNum
		c.stats.Executions++
		c.produceTx(trx, packed)
	}
	answer, start, end := exec.AppendAnswer(make([]byte, 0, 512+1024*len(trx.Traces)), id, blockNum, blockTime, trx, nil)
	if c.opts.inProcess {
		if d := trx.Decoded(answer, start, end); d != nil {
			c.handoff.keep(d)
		}
	}
	return status, answer
}
