// Package exec is chaintest's execution: a transaction checked and run as
// nodeos runs it, over the state it changes. chaintest's Chain holds one
// Engine and is its public face — Handler and Context there wrap Handler
// and Context here, and Chain's setters (CreateAccount, SetPermission,
// LinkPermission, SetResources, DeployWASM, SetContract, SetTableRow) call
// the Engine's (fixtures.go) under the chain's lock. The Engine is not safe
// for concurrent use: its caller holds that lock.
//
// What is here, by file:
//
//   - engine.go: the Engine — the accounts and the contract tables (both in
//     internal/store), contracts, ABI versions, chain parameters, the wasm
//     engine, the deadline — and New.
//   - tx.go: Check (expiration, TAPoS, duplicates, signatures against the
//     authorizations) and Execute (the actions within the deadline, run
//     again on a fork while they fetch what a run failed on).
//   - accounts.go, links.go, authram.go: the account record, authority
//     (nodeos's authority_checker, linkauth's minimum permissions) and what
//     permissions cost in RAM.
//   - apply.go, host.go, dbapi.go, iterators.go, native.go, wasm.go,
//     contract.go, context.go: an action at its receiver and the accounts
//     it notifies, inline actions depth-first; eosio's native actions; wasm
//     through internal/wasm (host.go and dbapi.go are its wasm.Host and
//     wasm.Database); Go handlers through Context.
//   - resources.go, receipts.go, undo.go: CPU and NET billing, receipts'
//     sequences, and the undo of what a failed transaction changed outside
//     the tables (the tables roll back by snapshot).
//   - tracejson.go, exceptions.go: the chain API's answer to a transaction
//     (its traces as nodeos writes them) and nodeos's exceptions.
//   - fixtures.go, params.go: state set outside any transaction; nodeos's
//     default chain_config.
//   - state.go: the state outside the tables that a block saves and a
//     rollback restores (State).
//
// What execution asks of the layers above goes through two interfaces:
// Chain (TAPoS and duplicates, which need the blocks, the head block's time
// and the next block's number) and Fork (a forked chain's lazy fill of
// accounts and contracts from the live chain, and the failures of that
// fill). chaintest implements both; a chain that is no fork has no Fork.
package exec
