package wasm

import (
	"fmt"

	"github.com/antelopego/abigen/antelope"
)

// Exception is a nodeos exception raised while running a contract: its
// name, code, description and message, as nodeos reports them.
type Exception struct {
	Code    int64  // e.g. 3050003
	Name    string // e.g. "eosio_assert_message_exception"
	What    string // the exception's description, e.g. "eosio_assert_message assertion failure"
	Message string // the message, e.g. "assertion failure with message: overdrawn balance"
	// ErrorCode is the code nodeos's chain_exception carries for the
	// trace's error_code: eosio_assert_code's, or
	// contract_restricted_error_code; nil when the exception sets none.
	ErrorCode *uint64
}

// Error is the exception's name and message.
func (e *Exception) Error() string { return e.Name + ": " + e.Message }

func newException(code int64, name, what, msg string) *Exception {
	return &Exception{Code: code, Name: name, What: what, Message: msg}
}

// The exceptions the intrinsics raise themselves.
func errAssertMessage(msg string) *Exception {
	return newException(3050003, "eosio_assert_message_exception", "eosio_assert_message assertion failure",
		"assertion failure with message: "+msg)
}

func errAssertCode(code uint64) *Exception {
	// system_error_code::generic_system_error: codes from 10000000000000000000
	// up are reserved for the chain.
	if code >= 10_000_000_000_000_000_000 {
		e := newException(3050011, "restricted_error_code_exception", "eosio_assert_code assertion failure uses restricted error code value",
			fmt.Sprintf("eosio_assert_code called with reserved error code: %d", code))
		restricted := uint64(10_000_000_000_000_000_001) // system_error_code::contract_restricted_error_code
		e.ErrorCode = &restricted
		return e
	}
	e := newException(3050004, "eosio_assert_code_exception", "eosio_assert_code assertion failure",
		fmt.Sprintf("assertion failure with error code: %d", code))
	e.ErrorCode = &code
	return e
}

func errAbort() *Exception {
	return newException(3050008, "abort_called", "Abort Called", "abort() called")
}

// ErrAccessViolation is a memory access outside the instance's memory, by
// the contract or through an intrinsic's pointer.
func errAccessViolation() *Exception {
	return newException(3070002, "wasm_execution_error", "Runtime Error Processing WASM", "access violation")
}

func errExecution(msg string) *Exception {
	return newException(3070002, "wasm_execution_error", "Runtime Error Processing WASM", msg)
}

func errCrypto(msg string) *Exception {
	return newException(3230001, "crypto_api_exception", "Crypto API Exception", msg)
}

func errOverlap() *Exception {
	return newException(3070004, "overlapping_memory_error", "memcpy with overlapping memory", "memcpy can only accept non-aliasing pointers")
}

func errUnaccessible(code uint64) *Exception {
	return newException(3050007, "unaccessible_api", "Attempt to use unaccessible API",
		antelope.Name(code).String()+" does not have permission to call this API")
}

func errNaN() *Exception {
	return newException(3040000, "transaction_exception", "Transaction exception", "NaN is not an allowed value for a secondary key")
}

// ErrDeadline is the exception of a run stopped at its deadline.
func errDeadline() *Exception {
	return newException(3080004, "tx_cpu_usage_exceeded", "Transaction exceeded the current CPU usage limit imposed on the transaction",
		"transaction was executing for too long, reached node configured max-transaction-time (chaintest.WithDeadline)")
}

func errUnimplemented(name string) *Exception {
	return newException(3070002, "wasm_execution_error", "Runtime Error Processing WASM",
		"chaintest does not implement the intrinsic "+name)
}
