// Package chain is the I/O half of abigen: clients for a nodeos chain API
// and for the state service, over one HTTP core shared with the CLI's ABI
// fetching (package fetch). Generated bindings stay pure — they turn Go
// values into bytes and back — and read and send through this package.
//
// # Reading tables
//
// Client.TableRows and State.TableRows implement antelope.TableReader:
// binary rows (json=false; the generated row type decodes them, never the
// node), every index and key type with bounds encoded as nodeos parses them,
// reverse, limits, and paging by next_key that neither loses nor repeats a
// row whatever page sizes the node chooses — including nodeos's short page
// cut by its time limit, whose next_key is the last row it returned.
//
//	for row, err := range c.TableRows(ctx, antelope.TableQuery{Code: code, Scope: scope, Table: table}) { … }
//
// State reads the same tables as they were at any past block
// (State.At(block)), which no nodeos can give; its token flow (StateAuth)
// issues and caches JWTs for an API key.
//
// # Sending transactions
//
// Client.Transact builds a transaction of actions (TAPoS from the last
// irreversible block, expiring after two minutes of chain time), has an
// antelope.Signer sign it (a PrivateKey, a KMS, a wallet) and sends it with
// send_transaction2, falling back to send_transaction and push_transaction
// on older nodes. A transaction is never executed twice: a send whose
// answer is lost is retried with the same signed bytes, and tx_duplicate on
// such a retry means the lost attempt went through (AlreadySubmitted).
// ComputeTransaction is a dry run; SendReadOnly calls read-only actions for
// their return values.
//
// # Paying for resources
//
// CPU and NET are billed to the first authorizer of the first action. An
// account without them fails with a *ResourceError (matching ErrCPU or
// ErrNET) that names the account billed and says what to do. TransactWith
// lets another account pay: a Cosigner (your payer account and its
// Signer) prepends its noop and signs; a ResourceProvider asks Greymass
// Fuel or any service speaking the protocol, and checks its answer before
// anything is signed (the signer's actions intact and in order; only a
// noop, a fee within MaxFee or a RAM purchase for the signer added; a
// refusal sent unchanged or failed as OnRefusal says). Signatures are
// merged in nodeos's order and the cosigned transaction is sent as
// Transact sends, never executed twice. Account.PowerUpSample feeds
// package powerup, which rents CPU and NET.
//
// # Errors
//
// A nodeos error answer is an *APIError with the exception's name and code
// (a nodeos answer is final: it is never retried). errors.Is matches the
// ones a caller acts on: ErrAssert (the contract's own message is
// APIError.AssertMessage, or in one call msg, refused :=
// AssertMessage(err)), ErrMissingAuthority, ErrExpired, ErrDuplicate, ErrCPU,
// ErrNET, ErrRAM, ErrUnknownAccount… The state service's errors are
// *HTTPError with its code. Credentials never appear in an error.
//
// chaintest runs an in-process chain with nodeos's rules for tests.
package chain
