package chain

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/antelopego/abigen/chain/httpcore"
)

// Errors a caller can act on, matched with errors.Is against an *APIError
// (and, for ErrDuplicate, against Transact's own errors).
var (
	// ErrAssert: the contract refused the action (eosio_assert); AssertMessage
	// has the contract's own message.
	ErrAssert = errors.New("the contract refused the action")
	// ErrMissingAuthority: a signature or an authorization is missing or
	// wrong (unsatisfied_authorization, missing_auth_exception,
	// irrelevant_auth_exception).
	ErrMissingAuthority = errors.New("missing or unsatisfied authority")
	// ErrExpired: the transaction expired before it was executed.
	ErrExpired = errors.New("the transaction expired")
	// ErrExpirationTooFar: the expiration is further ahead than the node allows.
	ErrExpirationTooFar = errors.New("the transaction expires too far in the future")
	// ErrBadTAPoS: the reference block is not on this chain's fork.
	ErrBadTAPoS = errors.New("the transaction's reference block is not known")
	// ErrDuplicate: the same transaction (same id) was already submitted.
	ErrDuplicate = errors.New("the transaction was already submitted")
	// ErrCPU, ErrNET, ErrRAM: the payer's resources are exhausted.
	ErrCPU = errors.New("not enough CPU")
	ErrNET = errors.New("not enough NET")
	ErrRAM = errors.New("not enough RAM")
	// ErrUnknownAccount: an account the request names does not exist.
	ErrUnknownAccount = errors.New("unknown account")
	// ErrUnknownBlock: the node does not have that block.
	ErrUnknownBlock = errors.New("unknown block")
	// ErrUnsupported: the node does not offer the feature or endpoint.
	ErrUnsupported = errors.New("not supported by the node")
)

// exceptionKinds maps nodeos exception names to the errors above.
var exceptionKinds = map[string]error{
	"eosio_assert_message_exception": ErrAssert,
	"eosio_assert_code_exception":    ErrAssert,
	"unsatisfied_authorization":      ErrMissingAuthority,
	"missing_auth_exception":         ErrMissingAuthority,
	"irrelevant_auth_exception":      ErrMissingAuthority,
	"expired_tx_exception":           ErrExpired,
	"tx_exp_too_far_exception":       ErrExpirationTooFar,
	"invalid_ref_block_exception":    ErrBadTAPoS,
	"tx_duplicate":                   ErrDuplicate,
	"tx_cpu_usage_exceeded":          ErrCPU,
	"block_cpu_usage_exceeded":       ErrCPU,
	"deadline_exception":             ErrCPU,
	"leeway_deadline_exception":      ErrCPU,
	"greylist_cpu_usage_exceeded":    ErrCPU,
	"tx_net_usage_exceeded":          ErrNET,
	"block_net_usage_exceeded":       ErrNET,
	"greylist_net_usage_exceeded":    ErrNET,
	"ram_usage_exceeded":             ErrRAM,
	"account_query_exception":        ErrUnknownAccount,
	"unknown_block_exception":        ErrUnknownBlock,
	"unsupported_feature":            ErrUnsupported,
}

// APIError is an error answer of nodeos, decoded from its envelope
// {"code","message","error":{"code","name","what","details"}}.
type APIError struct {
	HTTPStatus int           // the HTTP status (nodeos repeats it as "code")
	Category   string        // "message": "Internal Service Error", "Account lookup"…
	Code       int64         // error.code: the exception's number, e.g. 3050003
	Name       string        // error.name: the exception, e.g. "eosio_assert_message_exception"
	What       string        // error.what: the exception's description
	Details    []ErrorDetail // error.details: messages, innermost first
	Endpoint   string        // the API path, e.g. "/v1/chain/send_transaction2"
}

// ErrorDetail is one entry of a nodeos error's details.
type ErrorDetail struct {
	Message    string `json:"message"`     // the message
	File       string `json:"file"`        // the nodeos source file
	LineNumber int    `json:"line_number"` // its line
	Method     string `json:"method"`      // the nodeos function
}

// Error says what nodeos said, in one line, scrubbed of every credential
// this process holds (httpcore.Scrub): nodeos or a gateway may echo the
// request's key in a message.
func (e *APIError) Error() string {
	return httpcore.Scrub(e.text())
}

// text is Error before scrubbing.
func (e *APIError) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "nodeos %s: %s (%d)", e.Endpoint, e.Name, e.Code)
	switch {
	case e.AssertMessage() != "":
		b.WriteString(": " + e.AssertMessage())
	case len(e.Details) > 0 && e.Details[0].Message != "":
		b.WriteString(": " + e.Details[0].Message)
	case e.What != "":
		b.WriteString(": " + e.What)
	}
	return b.String()
}

// Is matches the errors of this package: errors.Is(err, chain.ErrAssert).
func (e *APIError) Is(target error) bool {
	if k, ok := exceptionKinds[e.Name]; ok && k == target {
		return true
	}
	// Older nodeos said "unknown key" for an account it does not have.
	if target == ErrUnknownAccount && e.Name == "exception" && len(e.Details) > 0 && strings.Contains(e.Details[0].Message, "unknown key") {
		return true
	}
	return false
}

// AssertMessage is the contract's own message when it refused the action
// with eosio_assert ("overdrawn balance"), and "" otherwise.
func (e *APIError) AssertMessage() string {
	if e.Name != "eosio_assert_message_exception" && e.Name != "eosio_assert_code_exception" {
		return ""
	}
	for _, d := range e.Details {
		for _, prefix := range []string{"assertion failure with message: ", "assertion failure with error code: "} {
			if m, ok := strings.CutPrefix(d.Message, prefix); ok {
				return m
			}
		}
	}
	if len(e.Details) > 0 {
		return e.Details[0].Message
	}
	return ""
}

// AssertMessage returns the contract's own message ("overdrawn balance")
// when err, or an error it wraps, is nodeos refusing an action with
// eosio_assert (ErrAssert), and whether it is: errors.As and
// APIError.AssertMessage in one call.
func AssertMessage(err error) (string, bool) {
	var ae *APIError
	if !errors.As(err, &ae) || !errors.Is(ae, ErrAssert) {
		return "", false
	}
	return ae.AssertMessage(), true
}

// apiError decodes a nodeos error envelope from an httpcore.HTTPError's body, or
// returns err unchanged when it is not one.
func apiError(err error, endpoint string) error {
	var he *httpcore.HTTPError
	if !errors.As(err, &he) || len(he.Body) == 0 {
		return err
	}
	var env struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Error   *struct {
			Code    json.Number   `json:"code"`
			Name    string        `json:"name"`
			What    string        `json:"what"`
			Details []ErrorDetail `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(he.Body, &env) != nil || env.Error == nil || env.Error.Name == "" {
		return err
	}
	code, _ := env.Error.Code.Int64()
	// The body was scrubbed as it came; its strings are scrubbed again
	// once decoded, in case a secret was escaped there in a form the raw
	// body did not show.
	for i := range env.Error.Details {
		env.Error.Details[i].Message = httpcore.Scrub(env.Error.Details[i].Message)
	}
	return &APIError{HTTPStatus: he.Status, Category: httpcore.Scrub(env.Message), Code: code, Name: env.Error.Name,
		What: httpcore.Scrub(env.Error.What), Details: env.Error.Details, Endpoint: endpoint}
}
