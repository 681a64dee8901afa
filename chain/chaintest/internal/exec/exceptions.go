package exec

import (
	"strconv"

	"github.com/antelopego/abigen/chain/chaintest/internal/nodeosapi"
)

// The exceptions of transaction checks and contract execution, with
// nodeos's codes and descriptions, and the fork's own.

func errInvalidIterator(detail string) *Exception {
	return &Exception{code: 3160003, name: "invalid_table_iterator", what: "Invalid table iterator", detail: detail}
}

func errTableOperation(detail string) *Exception {
	return &Exception{code: 3160005, name: "table_operation_not_permitted", what: "The table operation is not allowed", detail: detail}
}

func errTableAccess() *Exception {
	return &Exception{code: 3160002, name: "table_access_violation", what: "Table access violation", detail: "db access violation"}
}

func errInvalidPayer() *Exception {
	return &Exception{code: 3160001, name: "invalid_table_payer", what: "The payer of the table data is invalid",
		detail: "must specify a valid account to pay for new record"}
}

// errUniqueness is chainbase's refusal of a second row with the same key,
// as nodeos reports the std::logic_error.
func errUniqueness() *Exception {
	return &Exception{code: 13, name: "std_exception", what: "unspecified",
		detail: "could not insert object, most likely a uniqueness constraint was violated"}
}

func errUnauthorizedRAM(detail string) *Exception {
	return &Exception{code: 3050010, name: "unauthorized_ram_usage_increase",
		what: "Action attempts to increase RAM usage of account without authorization", detail: detail}
}

func errRAM(detail string) *Exception {
	return &Exception{code: 3080001, name: "ram_usage_exceeded", what: "Account using more than allotted RAM usage", detail: detail}
}

func errDeadline() *Exception {
	return &Exception{code: 3080004, name: "tx_cpu_usage_exceeded",
		what: "Transaction exceeded the current CPU usage limit imposed on the transaction", detail: "transaction was executing for too long, reached node configured max-transaction-time (chaintest.WithDeadline)"}
}

func errSetExactCode(detail string) *Exception {
	return &Exception{code: 3160008, name: "set_exact_code", what: "Contract is already running this version of code", detail: detail}
}

func errPermissionQuery(detail string) *Exception {
	return &Exception{code: 3060001, name: "permission_query_exception", what: "Permission Query Exception", detail: detail}
}

func errUnknownAccount(detail string) *Exception {
	return &Exception{code: 3060002, name: "account_query_exception", what: "Account Query Exception", detail: detail}
}

func errReadOnly(detail string) *Exception {
	return &Exception{code: 3160005, name: "table_operation_not_permitted", what: "The table operation is not allowed", detail: detail}
}

func errActionReturnValue(detail string) *Exception {
	return &Exception{code: 3050014, name: "action_return_value_exception", what: "action return value size too big", detail: detail}
}

func errProducerSchedule(detail string) *Exception {
	return &Exception{code: 3070002, name: "wasm_execution_error", what: "Runtime Error Processing WASM", detail: detail}
}

// ForkError is what a fork could not answer.
type ForkError struct {
	Msg string // what could not be read, and why
}

// Error is the message, prefixed "chaintest fork: ".
func (e *ForkError) Error() string { return "chaintest fork: " + e.Msg }

// ForkExceptionCode is the fork's exception's, in nodeos's database
// exception family (3060xxx) at a code spring leaves unused: like those,
// it is raised while executing and rolls the transaction back. Its name is
// its own, as no nodeos exception is this one, so chain.Client knows it by
// name and code (its outcome table's chaintestRule) and reports the
// transaction not executed.
const ForkExceptionCode = 3069900

// errFork is a transaction's failure because the fork could not fill what
// it looked up.
func errFork(err error) *Exception {
	return &Exception{code: ForkExceptionCode, name: "chaintest_fork_exception", what: "The fork could not read the live chain's state", detail: err.Error()}
}

// Exception is a chain exception raised while checking or executing a
// transaction: nodeos answers it with HTTP 500.
type Exception struct {
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
func errorCodeJSON(ex *Exception) any {
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

// Error is the exception's name and detail.
func (e *Exception) Error() string { return e.name + ": " + e.detail }

// Answer is nodeos's HTTP 500 answer of the exception, with its further
// details.
func (e *Exception) Answer() (int, any) {
	status, out := nodeosapi.Error(500, "Internal Service Error", e.code, e.name, e.what, e.detail)
	env := out.(nodeosapi.Envelope)
	for _, m := range e.more {
		env.Error.Details = append(env.Error.Details, nodeosapi.ErrorDetail{Message: m, File: "chaintest", LineNumber: 1, Method: e.name})
	}
	return status, env
}

// The exceptions chaintest raises, with nodeos's codes and descriptions.
func errExpired(detail string) *Exception {
	return &Exception{code: 3040005, name: "expired_tx_exception", what: "Expired Transaction", detail: detail}
}
func errTooFar(detail string) *Exception {
	return &Exception{code: 3040006, name: "tx_exp_too_far_exception", what: "Transaction Expiration Too Far", detail: detail}
}

// ErrRefBlock is invalid_ref_block_exception: TAPoS names no block of the chain.
func ErrRefBlock(detail string) *Exception {
	return &Exception{code: 3040007, name: "invalid_ref_block_exception", what: "Invalid Reference Block", detail: detail}
}
func errDuplicate(detail string) *Exception {
	return &Exception{code: 3040008, name: "tx_duplicate", what: "Duplicate transaction", detail: detail}
}
func errNoAuths(detail string) *Exception {
	return &Exception{code: 3040003, name: "tx_no_auths", what: "Transaction should have at least one required authority", detail: detail}
}

// ErrUnsatisfied is unsatisfied_authorization: the keys do not satisfy
// the declared authorizations.
func ErrUnsatisfied(detail string) *Exception {
	return &Exception{code: 3090003, name: "unsatisfied_authorization", what: "Provided keys, permissions, and delays do not satisfy declared authorizations", detail: detail}
}
func errMissingAuth(detail string) *Exception {
	return &Exception{code: 3090004, name: "missing_auth_exception", what: "Missing required authority", detail: detail}
}
func errIrrelevantSig(detail string) *Exception {
	return &Exception{code: 3090002, name: "tx_irrelevant_sig", what: "Irrelevant signature included", detail: detail}
}
func errDuplicateSig(detail string) *Exception {
	return &Exception{code: 3090001, name: "tx_duplicate_sig", what: "Duplicate signature included", detail: detail}
}

// ErrAssert is eosio_assert_message_exception with msg, as a contract's
// check(false, msg) raises it.
func ErrAssert(msg string) *Exception {
	return &Exception{code: 3050003, name: "eosio_assert_message_exception", what: "eosio_assert_message assertion failure", detail: "assertion failure with message: " + msg}
}
func errTransaction(detail string) *Exception {
	return &Exception{code: 3040000, name: "transaction_exception", what: "Transaction exception", detail: detail}
}

// ErrPackedTx is packed_transaction_type_exception: a packed transaction
// that does not unpack.
func ErrPackedTx(detail string) *Exception {
	return &Exception{code: 3050000, name: "packed_transaction_type_exception", what: "Invalid packed transaction", detail: detail}
}

// ErrActionValidate is action_validate_exception: an action's data or a
// table that does not fit the ABI.
func ErrActionValidate(detail string) *Exception {
	return &Exception{code: 3050000, name: "action_validate_exception", what: "Action validate exception", detail: detail}
}
