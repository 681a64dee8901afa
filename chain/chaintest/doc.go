// Package chaintest runs an Antelope chain in process, with nodeos's rules,
// so that code that reads tables and sends transactions is tested in go
// test with no network — the way go-ethereum's simulated backend tests
// Ethereum code.
//
//	node := chaintest.New()
//	defer node.Close()
//	key := node.NewAccount(antelope.MustName("alice"))      // an account and its key
//	node.DeployToken(antelope.MustName("eosio.token"))       // eosio.token, in Go
//	node.SetContract(myAccount, mypkg.ABIJSON, myHandler)   // your contract, in Go
//	node.DeployWASM(myAccount, wasm, abi)                    // or its real .wasm
//	c := node.Client()                                       // a chain.Client of it
//	st := node.State()                                       // a state.Client of its state service
//
// # What it checks
//
// Every transaction is checked as a node checks it: its expiration (past,
// or more than an hour ahead, is refused with expired_tx_exception or
// tx_exp_too_far_exception), its reference block (TAPoS:
// invalid_ref_block_exception), its id (tx_duplicate), and its signatures,
// recovered from the signing digest and weighed against each authorizing
// permission's keys, weights, threshold and delegated accounts
// (unsatisfied_authorization, tx_irrelevant_sig). Each transaction that
// passes is executed in a block of its own (real ids, 500 ms apart); a
// failed one changes nothing. Errors come back in nodeos's envelope with its
// exception names, codes and HTTP statuses, so chain's typed errors work.
//
// # Contracts
//
// A contract is a Handler written on generated bindings: ctx.Decode reads
// the action's payload, ctx.Get/Set/Delete read and write the contract's
// tables (with secondary index keys, checked against the ABI's key_names
// and key_types), GetRow reads a row as its generated type,
// ctx.RequireAuth, ctx.Assert and ctx.RequireRecipient behave as their CDT
// namesakes, ctx.SendInline queues an inline action and ctx.Return sets an
// action result. TokenContract is eosio.token written that way:
//
//	acct, payer, found, err := chaintest.GetRow(ctx, eosiotoken.TableAccounts, owner, uint64(sym.Code))
//	…
//	return ctx.SetValue(owner, antelope.MustName("accounts"), uint64(sym.Code), &acct, payer)
//
// A handler that returns an error fails the transaction, and so does one
// that panics: the chain answers once, as nodeos answers a contract that
// traps (wasm_execution_error, the panic value in the message and its
// stack in the details), and undoes the transaction's writes; a client
// does not retry it.
//
// # Real contracts
//
// DeployWASM (or chain.Client.Deploy, through eosio's setcode and setabi)
// runs a contract's real WebAssembly with wazero (pure Go): compiled once
// per code hash for the chain's life (and shared between the chains of a
// process), a fresh instance per action, nodeos's 528-page memory cap and
// 250-deep call bound, and every nodeos intrinsic bound — those chaintest
// does not implement (alt_bn128, bls, blake2, mod_exp, the
// get/set_(wasm_)parameters_packed pair, and the float128-to-32/64-bit
// integer conversions, whose rounding and out-of-range results are
// SoftFloat's own) trap with a message naming them. The
// intrinsics have nodeos's semantics: iterators, their numbers and
// messages, "db access violation", NaN refused as a secondary key,
// memcpy's overlap check, exact binary128 arithmetic, recover_key, console
// output into the trace (and the test log, WithConsoleLog). A transaction
// running past WithDeadline (5 s) fails with tx_cpu_usage_exceeded
// (chain.ErrCPU). leap's token, currency, db and multi_index tests, msig,
// bios and system actions run against the real binaries in
// testdata/wasm.
//
// # Execution
//
// Go handlers and wasm run under nodeos's rules: an action runs at its
// receiver, then at each account it notified (in order, sharing one apply
// context and its iterators), then its inline actions depth-first, at most
// 4 levels deep; traces come back by action ordinal. RAM is billed to each
// row's payer by nodeos's billable sizes (account_ram_deltas in the trace,
// ram_usage in get_account, a quota set by set_resource_limits enforced),
// and refused as nodeos refuses it: to another account without its
// authority, and in a notification. An inline action's authorizations must
// be satisfied by the sending contract's eosio.code permission (NewAccount
// lists it in the account's active permission, as leap's tester does)
// unless the sender is privileged (SetPrivileged). Every declared
// authorization, in a transaction or inline, must be at or above the
// permission linked to its action (linkauth, LinkPermission; active when
// nothing is linked), and eosio's permission actions follow nodeos's own
// rules for who may declare them. Secondary index entries
// live in their own tables as CDT's multi_index keeps them, and
// get_table_rows reads them by index_position. eosio's native actions
// (newaccount, setcode, setabi, updateauth, deleteauth, linkauth,
// unlinkauth) run before eosio's own code and bill RAM as nodeos's
// eosio_contract.cpp does: overhead_per_account_ram_bytes (2048) and two
// permissions for a new account; a permission_object (288) and its
// authority (50 a K1 key, 32 an account, 16 a wait) for each permission,
// the difference when updateauth changes one, refunded by deleteauth; a
// permission_link_object (144) per link; code ten times its size; an ABI
// its size. Accounts the Go API makes (NewAccount: 2756 bytes; genesis
// eosio: 2624) carry what newaccount would have billed, and SetPermission
// and LinkPermission bill as updateauth and linkauth, so ram_usage is
// what a real chain reports.
//
// # Resources
//
// CPU and NET are billed as under ONLY_BILL_FIRST_AUTHORIZER: to the first
// authorizer of the first action. Every account has unlimited CPU and NET
// until SetResources limits it (0 and 0: it can send nothing a payer does
// not pay for); NET is checked before execution and CPU (a fixed 100 µs a
// transaction) after, failing with nodeos's tx_net_usage_exceeded and
// tx_cpu_usage_exceeded, and Resources reads the usage. The receipts —
// in the transaction's answer, get_block (which carries each transaction
// packed, as nodeos does) and state history — report what was billed; Rollback and Fork restore the usage as of their block.
// NewResourceProvider serves a fake resource provider (Greymass Fuel's
// protocol) beside the chain API — free, for a fee, for RAM, refusing, or
// tampering with the actions — and DeployNoop deploys the noop contract
// payers prepend.
//
// # Reading
//
// get_table_rows serves binary rows of every index and key type with
// nodeos's bound parsing (ParseBound), reverse, limits and next_key
// (FormatNextKey); WithPageSize cuts pages short as nodeos's time limit
// does, including its quirk of a next_key that repeats the last row.
//
// # The state service
//
// URL also serves the state service (/v0/state/*): every table and ABI as
// it was at every block, as JSON byte for byte or packed, with the
// service's documented error bodies (data_abi_not_found_error,
// app_block_num_higher_than_head_block_error, request_validation_error…).
// Its token service is at AuthURL, a second address as in production: it
// issues real JWTs (HS256, with expiry) for the API key (WithAPIKey), which
// the state service checks. WithTokenLifetime and WithTokenClock make a
// token expire under a client that holds it; RevokeTokens and
// RejectNextTokens refuse tokens as a revocation does. WithStartBlock
// starts the chain at a real chain's height, so that block numbers (and
// the blocks ABIs were set in) read as they do there.
//
// # Faults
//
// FailNext, RateLimitNext (429 with Retry-After), LoseNextAnswers (the
// work is done, the answer lost), TruncateNext, OversizeNext and Delay
// reproduce what networks and proxies do to any request, the token
// service's included, so a client's retries — and yours — can be tested;
// Stats counts requests, executions and tokens issued.
//
// Misbehave adds the hostile node, what a load balancer over nodes at
// different heights, a cache, a proxy or nodeos's own time limits do: for
// sends, a connection dropped or nodeos's timeout_exception before
// executing (DropBeforeExecuting, TimeoutBeforeExecuting), a lagging
// node's invalid_ref_block_exception (RefuseAsLagging), retry_trx refused
// (RefuseRetryTrx), and after executing the answer lost, nodeos's timeout,
// a gateway's 504, an answer cut but correctly framed, or another
// transaction's id (LoseAfterExecuting, TimeoutAfterExecuting,
// GatewayErrorAfterExecuting, CutAfterExecuting, OtherTransactionID) —
// for the next n sends, or one step per send with MisbehaveInTurn (a load
// balancer whose first node executes and loses the answer while the
// others lag behind); for table reads, the same page forever (SamePage),
// a next_key that goes backwards (NextKeyBackward), rows outside the
// bounds (RowsOutOfBounds), more rows than the limit (RowsOverLimit), an
// empty page with more (EmptyPage).
//
// get_transaction_status reports every executed transaction (IRREVERSIBLE:
// blocks are final at once here, unless WithManualFinality: IN_BLOCK above
// the last irreversible block); WithoutTransactionStatus makes the chain
// refuse it, as nodeos does by default.
//
// # State history and forks
//
// The chain serves its blocks as nodeos's state-history plugin does, for
// code that follows a contract with package ship: SHiPClient is a
// ship.Client of it (SHiPURL the websocket, /ship on the chain's server),
// and SHiP the endpoint with its faults (DropMidMessage, Stall,
// DropConnections) and counters. Each block carries its signed block, the
// traces of what its transaction did (receipts numbered chain-wide,
// notifications, inline actions, console, return values) and its table
// deltas (a new account or an ABI set, contract tables, rows — a removed
// one with its old value — and secondary index objects); block 1 holds the
// whole state, as a fresh log's first block does. BlockSource lists what
// exactly, and serves the same blocks through shiptest with options of
// your own.
//
// WithManualFinality keeps blocks reversible until SetLastIrreversible
// says otherwise, so that an indexer's fork handling can be tested: Fork(n)
// replaces the blocks above n by a branch with the same transactions and
// new ids, Rollback(n) takes the whole state back to block n for the test
// to make a different branch. A reader is sent an Undo of the replaced
// blocks before the new ones, also when it resumes with a cursor after a
// fork that happened while it was away. Example_stateHistory is a test of
// an indexer.
//
// # Forking a live chain
//
// WithFork (or NewFork) starts a chain that continues a live one at a
// block: accounts (permissions, links, RAM), contract code and ABIs, and
// table rows are fetched from it the first time a transaction, a read or
// the Go API looks them up, and are local from then on — writes never
// leave the process, and nothing a fork does changes the live chain.
//
//	fork, err := chaintest.NewFork(chaintest.Remote{
//		NodeURL: "https://node", StateURL: "https://state", APIKey: key, AuthURL: auth,
//		Block: 400_000_000, Cache: "testdata/fork"})
//
// Tables (and ABIs) come from the state service as they were at Block, a
// consistent snapshot; without StateURL, from nodeos at its head, read
// when first touched. Accounts and code always come from nodeos as they
// are when read: a contract whose code was set after the fork block is
// refused (its transactions fail with chaintest_fork_exception) and listed
// by NewerCode. Secondary index keys, which neither source sends, are
// read from each row by the ABI's key_names and key_types (a field at a
// fixed offset, of a 64- or 128-bit integer or a float key) and checked
// against nodeos's order by that index (for a state-service fork, when the
// node still holds the fork block's rows); an index they do not describe
// is refused, never served empty. A fork cannot list a
// contract's tables (get_table_by_scope). Each answer is recorded in
// Remote.Cache with the chain, source and block, so that a later run replays
// it offline (Remote.Offline); a cache of another chain, source or block is
// refused. ForkStats counts the requests and bytes. The seam is one:
// execution's Engine.Account and Engine.Contract (exec.Fork) and the
// store's Filler fill what is missing (internal/fork's fork.State); the
// rest of chaintest does not know it runs on a fork.
//
// # Without a network
//
// New serves the chain on httptest servers (loopback ports). With
// WithoutNetwork it starts none: Client, State and HTTPClient call the
// chain directly in process, with the same API and the same faults (a lost
// answer is a transport error, a truncated one a body ending early) — for
// sandboxes without sockets and for many chains in one test binary. Its
// state history is reached by SHiPClient (and HTTPClient) over in-memory
// connections to the same endpoint.
//
// # Layers
//
// The package is the public face of layers that each live in a room of
// their own, bottom up; each knows only those below it, through the
// interface named:
//
//   - internal/wasm: the WebAssembly engine (wazero) and nodeos's
//     intrinsics, calling back into the chain through wasm.Host and
//     wasm.Database.
//   - internal/store: all the chain's state that execution changes row by
//     row or account by account — the contract tables (rows, the five
//     secondary index kinds, payers) with copy-on-write snapshots for each
//     block and each transaction's undo, and the accounts (permissions,
//     linkauths, RAM, CPU and NET: store.Accounts) with the copies a block
//     keeps and a transaction's undo of them (store.AccountUndo). A fork
//     fills both lazily, through store.Filler and store.AccountFiller
//     (internal/fork).
//   - internal/exec: execution — transaction checks (Engine.Check),
//     authority, actions run as Go handlers or wasm, billing, receipts,
//     the undo of contracts, ABIs and parameters, the chain API's answer
//     to a transaction, nodeos's exceptions, and the state a test sets
//     outside a transaction behind Chain's setters. Chain holds one
//     exec.Engine (its accounts, contracts, tables, ABIs, parameters) and
//     answers what execution asks of it through exec.Chain (TAPoS and
//     duplicates, the head block's time, the next block's number) and, on
//     a fork, exec.Fork (store.go). Handler and Context are execution's
//     public face here (handler.go): Context wraps exec.Context with the
//     same methods, and a Handler is adapted to exec.Handler when its
//     contract is set, its panic recovered there.
//   - internal/blocklog: the history — block ids, a block's SHiP table
//     deltas between two store snapshots, the subscribers told of every
//     change, and the per-block records with their bookkeeping
//     (blocklog.Log: finality, saved states pruned below the last
//     irreversible block, the branch, what Fork and Rollback do to the
//     records), generic in the transactions and state they hold. What a
//     block did is filled in and made into state history here
//     (blocklog.go, shipblock.go), as it is execution's transaction
//     contexts (exec.TrxContext); Fork and Rollback (fork.go) give blocks new ids and
//     restore the state; ship.go hands the blocks to ship/shiptest, which
//     serves the state-history websocket.
//   - internal/fork: the fork of a live chain — fork.State, the lazy fill
//     behind the seams store.Filler, store.AccountFiller and exec.Fork,
//     reaching the chain it fills through fork.Chain (execution's Engine,
//     the blocks' saved states and tables: forkChain in forkstate.go); what
//     it asks the live chain (fork.Live, through chain.Client and
//     state.Client), the cache replaying the answers (fork.Cache), and the
//     secondary keys read from rows by the ABI. WithFork, NewFork, Remote,
//     ForkStats, NewerCode and the answer of a request whose lookup could
//     not be filled stay here (forkstate.go, forkremote.go).
//   - The served APIs: internal/nodeosapi (the nodeos chain API's reads —
//     get_info, get_block, get_account, get_abi, get_raw_abi, get_code,
//     get_code_hash, get_raw_code_and_abi, get_currency_balance,
//     get_required_keys, get_transaction_status, get_table_rows,
//     get_table_by_scope — over nodeosapi.Tables and nodeosapi.Chain,
//     which this package implements in tablesapi.go and chainapi.go, and
//     nodeos's error envelope), internal/statesvc (the state service and
//     its token service, over statesvc.Chain), internal/hyperionapi
//     (Hyperion v2, over hyperionapi.Chain), ship/shiptest (SHiP, over a
//     BlockSource), and, in this package, the chain API's sends, which
//     execute (sendapi.go, inprocess.go), and the resource provider
//     (provider.go).
//   - internal/faults: the fault injector every HTTP answer passes
//     through (faults.Injector), knowing nothing of the chain but the
//     nodeos errors it is handed (faults.Answers).
//
// Chain, New and its options, Handler and Context (handler.go), the
// setters of accounts, contracts and rows (setup.go), and the Client,
// State, SHiPClient and BlockSource accessors are the thin top: the
// internal packages' public names (Misbehavior, HyperionAPI) are aliases
// here.
package chaintest
