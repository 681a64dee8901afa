package chain

// What an answer to a send proves. A transaction's outcome is reported only
// as far as an answer proves it: nodeos's trace of it (executed), an
// exception that spring raises only before or while executing a
// transaction, which rolls back all the transaction did (not executed:
// the outcome table, outcometable.go), or nothing (it may have been
// executed: the same signed bytes are sent again, and the chain is read
// to settle it).

// ProvesNotExecuted reports whether nodeos's error answer e proves that the
// request it answers did not execute its transaction: an exception that
// spring's source raises only before the transaction runs or while it
// runs (an assert, a missing authority, bad TAPoS, exhausted resources, a
// contract's fc::out_of_range…). An exception that can also come after
// execution does not: tx_resource_exhaustion (the retry store is full
// after the transaction ran), expired_tx_exception (a retry_trx
// transaction that ran and was dropped, or bytes an earlier send executed:
// nodeos checks the expiration before duplicates), tx_duplicate (the transaction
// may be only queued), nodeos's timeout_exception (writing the answer of
// an executed transaction). Neither does an exception the table does not
// have, or a code with a name spring does not give it.
func ProvesNotExecuted(e *APIError) bool {
	return e != nil && stageOf(e.Code, e.Name).refuses()
}

// refusedStatus reports whether an HTTP status without nodeos's answer
// proves the request was refused before it reached nodeos: the statuses of
// statusTable whose stage is before execution. A 5xx, a 408 and anything
// else may come after nodeos executed the transaction.
func refusedStatus(status int) bool {
	for _, r := range statusTable {
		if r.status == status {
			return r.stage.refuses()
		}
	}
	return false
}
