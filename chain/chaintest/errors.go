package chaintest

import (
	"context"
	"time"
)

// envelope is nodeos's error answer.
type envelope struct {
	Code    int       `json:"code"`
	Message string    `json:"message"`
	Error   errorInfo `json:"error"`
}

type errorInfo struct {
	Code    int64         `json:"code"`
	Name    string        `json:"name"`
	What    string        `json:"what"`
	Details []errorDetail `json:"details"`
}

type errorDetail struct {
	Message    string `json:"message"`
	File       string `json:"file"`
	LineNumber int    `json:"line_number"`
	Method     string `json:"method"`
}

// nodeosError is an error answer as nodeos's http_plugin words it: the HTTP
// status repeated as code, its category, and the exception.
func nodeosError(status int, category string, code int64, name, what, detail string) (int, any) {
	return status, envelope{Code: status, Message: category, Error: errorInfo{Code: code, Name: name, What: what,
		Details: []errorDetail{{Message: detail, File: "chaintest", LineNumber: 1, Method: name}}}}
}

// exception is a chain exception raised while checking or executing a
// transaction: nodeos answers it with HTTP 500.
type exception struct {
	code   int64
	name   string
	what   string
	detail string
}

func (e *exception) Error() string { return e.name + ": " + e.detail }

func (e *exception) answer() (int, any) {
	return nodeosError(500, "Internal Service Error", e.code, e.name, e.what, e.detail)
}

// The exceptions chaintest raises, with nodeos's codes and descriptions.
func errExpired(detail string) *exception {
	return &exception{3040005, "expired_tx_exception", "Expired Transaction", detail}
}
func errTooFar(detail string) *exception {
	return &exception{3040006, "tx_exp_too_far_exception", "Transaction Expiration Too Far", detail}
}
func errRefBlock(detail string) *exception {
	return &exception{3040007, "invalid_ref_block_exception", "Invalid Reference Block", detail}
}
func errDuplicate(detail string) *exception {
	return &exception{3040008, "tx_duplicate", "Duplicate transaction", detail}
}
func errNoAuths(detail string) *exception {
	return &exception{3040003, "tx_no_auths", "Transaction should have at least one required authority", detail}
}
func errUnsatisfied(detail string) *exception {
	return &exception{3090003, "unsatisfied_authorization", "Provided keys, permissions, and delays do not satisfy declared authorizations", detail}
}
func errMissingAuth(detail string) *exception {
	return &exception{3090004, "missing_auth_exception", "Missing required authority", detail}
}
func errIrrelevantSig(detail string) *exception {
	return &exception{3090002, "tx_irrelevant_sig", "Irrelevant signature included", detail}
}
func errDuplicateSig(detail string) *exception {
	return &exception{3090001, "tx_duplicate_sig", "Duplicate signature included", detail}
}
func errAssert(msg string) *exception {
	return &exception{3050003, "eosio_assert_message_exception", "eosio_assert_message assertion failure", "assertion failure with message: " + msg}
}
func errTransaction(detail string) *exception {
	return &exception{3040000, "transaction_exception", "Transaction exception", detail}
}
func errPackedTx(detail string) *exception {
	return &exception{3050000, "packed_transaction_type_exception", "Invalid packed transaction", detail}
}
func errActionValidate(detail string) *exception {
	return &exception{3050000, "action_validate_exception", "Action validate exception", detail}
}

func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }
