package chain

import "net/http"

// What an answer to a send proves. A transaction's outcome is reported only
// as far as an answer proves it: nodeos's trace of it (executed), nodeos's
// refusal by an exception it raises while checking or executing a
// transaction, which rolls back all the transaction did (not executed), or
// nothing (it may have been executed: the same signed bytes are sent
// again, and the outcome is otherwise unknown).

// refusingFamilies are the exception families (code / 1,000) nodeos raises
// while checking or executing a transaction: chain types (3010xxx: a
// transaction that does not unpack), transaction checks (3040xxx: expired,
// TAPoS, duplicate…), action validation and asserts (3050xxx), database
// guards (3060xxx), wasm (3070xxx), resources (3080xxx and leeway
// 3081xxx), authorization (3090xxx), white- and blacklists (3130xxx),
// contracts (3160xxx) and contract APIs (3230xxx). ABI exceptions
// (3015xxx) are missing on purpose: nodeos raises them while printing the
// trace too, after executing.
var refusingFamilies = map[int64]bool{3010: true, 3040: true, 3050: true, 3060: true, 3070: true, 3080: true,
	3081: true, 3090: true, 3130: true, 3160: true, 3230: true}

// refusingNames are exceptions outside those families that nodeos raises
// before executing anything: an unsupported feature (retry_trx on a node
// without transaction retry), a request it could not read, the producer's
// subjective refusals.
var refusingNames = map[string]bool{
	"unsupported_feature":                   true,
	"subjective_block_production_exception": true,
	"invalid_http_request":                  true,
	"parse_error_exception":                 true,
}

// openNames are exceptions that never prove a refusal, whatever their code
// says: fc's timeout_exception is nodeos's HTTP deadline
// (http-max-response-time-ms), which can strike while it writes the answer
// of a transaction it executed; abi_serialization_deadline_exception is the
// trace taking too long to print, after executing; the unspecified ones say
// nothing.
var openNames = map[string]bool{
	"timeout_exception":                    true,
	"abi_serialization_deadline_exception": true,
	"exception":                            true,
	"unhandled_exception":                  true,
	"std_exception":                        true,
}

// ProvesNotExecuted reports whether nodeos's error answer e proves that the
// request it answers did not execute its transaction: an exception raised
// while checking or executing it (an assert, a missing authority, bad
// TAPoS, expiry, a duplicate, exhausted resources…). nodeos's own
// timeout_exception does not: nodeos can time out writing the answer of a
// transaction it executed. Neither does an exception this package does not
// know.
func ProvesNotExecuted(e *APIError) bool {
	if e == nil || openNames[e.Name] {
		return false
	}
	return refusingNames[e.Name] || refusingFamilies[e.Code/1000]
}

// refusedStatus reports whether an HTTP status without nodeos's answer
// proves the request was refused before it reached nodeos: a proxy or
// gateway turning it away (bad request, authentication, a method or size
// it does not take, an endpoint it does not route, a rate limit). A 5xx, a
// 408 and anything else may come after nodeos executed the transaction.
func refusedStatus(status int) bool {
	switch status {
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound,
		http.StatusMethodNotAllowed, http.StatusLengthRequired, http.StatusRequestEntityTooLarge,
		http.StatusRequestURITooLong, http.StatusUnsupportedMediaType, http.StatusTooManyRequests,
		http.StatusRequestHeaderFieldsTooLarge:
		return true
	}
	return false
}
