package wasm

import "github.com/antelopego/abigen/antelope"

// Action is what one run executes: the action, and the account whose code
// runs (the contract, or a notified account).
type Action struct {
	Receiver uint64 // the account whose code runs
	Code     uint64 // the action's contract (the first receiver)
	Name     uint64 // the action's name
	Data     []byte // the packed payload
}

// Host is the chain an action runs on. Its methods have nodeos's semantics
// (spring's apply_context); an error one returns fails the action and is
// returned by Run unchanged. Accounts, tables and names are uint64 names.
type Host interface {
	Actions
	Authorization
	Database
	Privileged

	// Print appends to the action's console output.
	Print(s string)
}

// Actions is what an action can learn of its transaction and send.
type Actions interface {
	// SendInline queues an inline action (packed as an action), after the
	// authority checks nodeos makes; contextFree for
	// send_context_free_inline.
	SendInline(packed []byte, contextFree bool) error
	// SetActionReturnValue sets the action's return value.
	SetActionReturnValue(v []byte) error
	// Now is the pending block's time, microseconds since 1970.
	Now() int64
	// PublicationTime is the transaction's publication time, microseconds.
	PublicationTime() int64
	// BlockNum is the pending block's number.
	BlockNum() uint32
	// Sender is the account whose code sent this inline action (0 for an
	// action of the transaction).
	Sender() uint64
	// Transaction is the transaction being executed.
	Transaction() *antelope.SignedTransaction
	// CodeHash is get_code_hash's answer for an account.
	CodeHash(account uint64) (sequence uint64, hash [32]byte, vmType, vmVersion uint8)
}

// Authorization is the authority and account intrinsics.
type Authorization interface {
	RequireAuth(actor uint64) error
	RequireAuth2(actor, permission uint64) error
	HasAuth(actor uint64) bool
	RequireRecipient(account uint64) error
	IsAccount(account uint64) bool
	// CheckTransactionAuthorization is check_transaction_authorization:
	// whether keys and permissions (packed flat_sets) satisfy the packed
	// transaction's authorizations.
	CheckTransactionAuthorization(trx, keys, perms []byte) (bool, error)
	// CheckPermissionAuthorization is check_permission_authorization.
	CheckPermissionAuthorization(actor, permission uint64, keys, perms []byte, delayUS uint64) (bool, error)
	PermissionLastUsed(actor, permission uint64) (int64, error)
	AccountCreationTime(account uint64) (int64, error)
}

// Privileged is what privileged contracts (eosio.bios, eosio.system) call.
// Run checks the receiver's privilege (Privileged) before calling the
// others.
type Privileged interface {
	// Privileged reports whether the receiver is privileged.
	Privileged() bool
	IsPrivileged(account uint64) (bool, error)
	SetPrivileged(account uint64, on bool) error
	SetResourceLimits(account uint64, ram, net, cpu int64) error
	ResourceLimits(account uint64) (ram, net, cpu int64, err error)
	// BlockchainParameters is the packed chain_config_v0.
	BlockchainParameters() []byte
	SetBlockchainParameters(packed []byte) error
	// SetProposedProducers takes a schedule of format 0 (producer_key) or
	// 1 (producer_authority), and returns the proposed schedule's version,
	// or -1 when none was proposed.
	SetProposedProducers(format uint64, packed []byte) (int64, error)
	ActiveProducers() []uint64
	PreactivateFeature(digest [32]byte) error
	IsFeatureActivated(digest [32]byte) bool
}

// IndexKind is a secondary index type of nodeos.
type IndexKind uint8

// The secondary index types, in nodeos's order.
const (
	Idx64 IndexKind = iota
	Idx128
	Idx256
	IdxDouble
	IdxLongDouble
)

// Database is the table intrinsics, with nodeos's iterator semantics: a
// row iterator is a non-negative number, an end iterator -2 or below (one
// per table), -1 a table that does not exist.
type Database interface {
	StoreI64(scope, table, payer, id uint64, data []byte) (int32, error)
	UpdateI64(it int32, payer uint64, data []byte) error
	RemoveI64(it int32) error
	GetI64(it int32) ([]byte, error)
	NextI64(it int32) (next int32, primary uint64, err error)
	PreviousI64(it int32) (prev int32, primary uint64, err error)
	FindI64(code, scope, table, id uint64) int32
	LowerboundI64(code, scope, table, id uint64) int32
	UpperboundI64(code, scope, table, id uint64) int32
	EndI64(code, scope, table uint64) int32

	IdxStore(k IndexKind, scope, table, payer, id uint64, key antelope.TableKey) (int32, error)
	IdxUpdate(k IndexKind, it int32, payer uint64, key antelope.TableKey) error
	IdxRemove(k IndexKind, it int32) error
	IdxNext(k IndexKind, it int32) (next int32, primary uint64, err error)
	IdxPrevious(k IndexKind, it int32) (prev int32, primary uint64, err error)
	IdxFindSecondary(k IndexKind, code, scope, table uint64, key antelope.TableKey) (it int32, primary uint64)
	IdxFindPrimary(k IndexKind, code, scope, table, primary uint64) (it int32, key antelope.TableKey)
	// IdxLowerbound and IdxUpperbound return the key and primary key found
	// (only when it is a row iterator).
	IdxLowerbound(k IndexKind, code, scope, table uint64, key antelope.TableKey) (it int32, found antelope.TableKey, primary uint64)
	IdxUpperbound(k IndexKind, code, scope, table uint64, key antelope.TableKey) (it int32, found antelope.TableKey, primary uint64)
	IdxEnd(k IndexKind, code, scope, table uint64) int32
}
