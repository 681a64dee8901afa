package chaintest

import (
	"context"
	"strconv"
	"time"

	"github.com/antelopego/abigen/chain/chaintest/internal/nodeosapi"
)

// nodeos's error envelope is internal/nodeosapi's, the one every answer
// of the chain API is given in.
type (
	envelope    = nodeosapi.Envelope
	errorDetail = nodeosapi.ErrorDetail
)

// nodeosError is an error answer as nodeos's http_plugin words it
// (nodeosapi.Error).
func nodeosError(status int, category string, code int64, name, what, detail string) (int, any) {
	return nodeosapi.Error(status, category, code, name, what, detail)
}

// badRequest is nodeos's answer to a body it cannot parse.
func badRequest(detail string) (int, any) { return nodeosapi.BadRequest(detail) }

// exception is a chain exception raised while checking or executing a
// transaction: nodeos answers it with HTTP 500.
type exception struct {
	code   int64
	name   string
	what   string
	detail string
	more   []string // further details, after detail (a panic's stack)
	// errorCode is the one the exception sets itself (eosio_assert_code's):
	// see errorCodeJSON.
	errorCode *uint64
}

// errorCodeJSON is a failed trace's error_code, as nodeos's
// controller::convert_exception_to_error_code gives it: the exception's
// own, else system_error_code::generic_system_error for any chain
// exception (codes from 3000000), and none for fc's (such as
// out_of_range_exception, 8). fc prints a uint64 above 0xffffffff as a
// string.
func errorCodeJSON(ex *exception) any {
	var code uint64
	switch {
	case ex == nil:
		return nil
	case ex.errorCode != nil:
		code = *ex.errorCode
	case ex.code >= 3000000:
		code = 10_000_000_000_000_000_000
	default:
		return nil
	}
	if code > 0xffffffff {
		return strconv.FormatUint(code, 10)
	}
	return code
}

func (e *exception) Error() string { return e.name + ": " + e.detail }

func (e *exception) answer() (int, any) {
	status, out := nodeosError(500, "Internal Service Error", e.code, e.name, e.what, e.detail)
	env := out.(envelope)
	for _, m := range e.more {
		env.Error.Details = append(env.Error.Details, errorDetail{Message: m, File: "chaintest", LineNumber: 1, Method: e.name})
	}
	return status, env
}

// The exceptions chaintest raises, with nodeos's codes and descriptions.
func errExpired(detail string) *exception {
	return &exception{code: 3040005, name: "expired_tx_exception", what: "Expired Transaction", detail: detail}
}
func errTooFar(detail string) *exception {
	return &exception{code: 3040006, name: "tx_exp_too_far_exception", what: "Transaction Expiration Too Far", detail: detail}
}
func errRefBlock(detail string) *exception {
	return &exception{code: 3040007, name: "invalid_ref_block_exception", what: "Invalid Reference Block", detail: detail}
}
func errDuplicate(detail string) *exception {
	return &exception{code: 3040008, name: "tx_duplicate", what: "Duplicate transaction", detail: detail}
}
func errNoAuths(detail string) *exception {
	return &exception{code: 3040003, name: "tx_no_auths", what: "Transaction should have at least one required authority", detail: detail}
}
func errUnsatisfied(detail string) *exception {
	return &exception{code: 3090003, name: "unsatisfied_authorization", what: "Provided keys, permissions, and delays do not satisfy declared authorizations", detail: detail}
}
func errMissingAuth(detail string) *exception {
	return &exception{code: 3090004, name: "missing_auth_exception", what: "Missing required authority", detail: detail}
}
func errIrrelevantSig(detail string) *exception {
	return &exception{code: 3090002, name: "tx_irrelevant_sig", what: "Irrelevant signature included", detail: detail}
}
func errDuplicateSig(detail string) *exception {
	return &exception{code: 3090001, name: "tx_duplicate_sig", what: "Duplicate signature included", detail: detail}
}
func errAssert(msg string) *exception {
	return &exception{code: 3050003, name: "eosio_assert_message_exception", what: "eosio_assert_message assertion failure", detail: "assertion failure with message: " + msg}
}
func errTransaction(detail string) *exception {
	return &exception{code: 3040000, name: "transaction_exception", what: "Transaction exception", detail: detail}
}
func errPackedTx(detail string) *exception {
	return &exception{code: 3050000, name: "packed_transaction_type_exception", what: "Invalid packed transaction", detail: detail}
}
func errActionValidate(detail string) *exception {
	return &exception{code: 3050000, name: "action_validate_exception", what: "Action validate exception", detail: detail}
}

func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }
