// Package chain is the client of a nodeos chain API (/v1/chain/*): the
// I/O half of abigen's bindings. Generated bindings stay pure — they turn Go
// values into bytes and back — and read and send through this package.
//
// Beside it, one job each: chain/state is the state service's client (tables
// and ABIs at any past block), chain/httpcore the one HTTP core both clients
// and the CLI's fetching send through, and chain/chaintest an in-process
// chain for tests.
//
// # Reading tables
//
// Client.TableRows (and state.Client.TableRows) implement antelope.TableReader:
// binary rows (json=false; the generated row type decodes them, never the
// node), every index and key type with bounds encoded as nodeos parses them,
// reverse, limits, and paging by next_key that, on a table that does not
// change meanwhile, neither loses nor repeats a row whatever page sizes the
// node chooses — including nodeos's short page cut by its time limit,
// whose next_key is the last row it returned. A node is not trusted to make
// progress: a next_key going backwards or out of bounds, more rows than
// asked for, and pages that bring no new row are errors, and so, with
// TableQuery.Key, are rows outside the bounds. On a table that changes
// while it is read, each page is as of another block: a state.Client's
// At(block) reads a table as it was at one block.
//
//	for row, err := range c.TableRows(ctx, antelope.TableQuery{Code: code, Scope: scope, Table: table}) { … }
//
// A state.Client reads the same tables as they were at any past block
// (At(block)), which no nodeos can give; it is an antelope.TableReader
// too, so one call site reads from either.
//
// # Sending transactions
//
// Client.Transact builds a transaction of actions (TAPoS from the last
// irreversible block, expiring after two minutes of chain time), has an
// antelope.Signer sign it (a PrivateKey, a KMS, a wallet) and sends it with
// send_transaction2, falling back to send_transaction and push_transaction
// on older nodes. A transaction is never executed twice, and its outcome
// is reported only as far as the node's answers prove it:
//
//   - executed: the node's trace of it; or AlreadySubmitted, when the
//     answers left it open and the chain showed it in a block
//     (get_transaction_status, confirmed by the block it names, or the
//     blocks read since its reference block);
//   - refused, nothing executed: an *APIError whose exception spring
//     raises only before or while executing (ProvesNotExecuted, read from
//     the outcome table in outcometable.go: an assert, a missing
//     authority, bad TAPoS, exhausted CPU…), an *httpcore.HTTPError from a
//     gateway that turned every attempt away, or a *NotExecutedError when
//     the chain shows it expired in no block;
//   - unknown: an *UnknownOutcomeError with the id, when the answers leave
//     it open — lost, cut, unreadable, for another transaction, a 5xx,
//     nodeos's own timeout_exception, tx_resource_exhaustion (the retry
//     store can be full after the transaction ran) — and neither retrying
//     the same bytes nor reading the chain settled it. tx_duplicate proves
//     nothing (the transaction may be only queued): it is settled by
//     reading the chain. Nothing reachable from an *UnknownOutcomeError
//     reads as a refusal: no *APIError, no gateway status.
//
// ComputeTransaction is a dry run; SendReadOnly calls read-only actions
// for their return values.
//
// # Paying for resources
//
// CPU and NET are billed to the first authorizer of the first action. An
// account without them fails with a *ResourceError (matching ErrCPU or
// ErrNET) that names the account billed and says what to do. TransactWith
// lets another account pay: a Cosigner (your payer account and its
// Signer) prepends its noop and signs; a ResourceProvider asks Greymass
// Fuel or any service speaking the protocol, and checks its answer before
// anything is signed (the signer's actions intact and in order; only the
// known noop contract's noop, first; a fee only in a fee-required answer,
// to the provider's account, within MaxFee, RAM priced after the RAM
// purchases before it; a RAM purchase only for the signer; a refusal an
// error, or sent unchanged with Payment.Declined set if OnRefusal says so). Signatures are
// merged in nodeos's order and the cosigned transaction is sent as
// Transact sends, never executed twice. Account.PowerUpSample feeds
// package powerup, which rents CPU and NET.
//
// # Errors
//
// A nodeos error answer is an *APIError with the exception's name and code
// (a read's nodeos answer is final: it is never retried; its text, like
// every error's, is scrubbed of credentials). errors.Is matches
// the ones a caller acts on: ErrAssert (the contract's own message is
// APIError.AssertMessage, or in one call msg, refused :=
// AssertMessage(err)), ErrMissingAuthority, ErrExpired, ErrDuplicate, ErrCPU,
// ErrNET, ErrRAM, ErrUnknownAccount… A failure that is not nodeos's answer
// (a connection lost, a proxy's 502, a body cut short) is an
// *httpcore.HTTPError.
//
// # Credentials
//
// Credentials never appear in an error: every error text of the HTTP core
// (chain/httpcore) is scrubbed of the credentials this process holds
// (httpcore.AddSecret; New registers the query values and password of its
// base URL, decoded and as written, state.Auth its API key and every
// token; each in its URL-, JSON- and '\/'-escaped forms), URLs are shown without
// query or user info even when they do not parse (httpcore.RedactRawURL),
// and a request carrying credentials never follows a redirect to another
// origin. A base URL's query is kept on every request (httpcore.JoinURL).
//
// chaintest runs an in-process chain with nodeos's rules for tests.
package chain
