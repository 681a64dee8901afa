// Package fork is chaintest's fork of a live chain: the chain's state
// filled lazily from the live chain, what it asks the live chain, and the
// cache that records the answers.
//
//   - state.go: State, the lazy fill — store.Filler (a table the first
//     time it is looked up, its secondary indexes rebuilt from the rows
//     when the ABI lets it), store.AccountFiller and exec.Fork (an account,
//     a contract at the fork block; code set later is refused and listed
//     as NewerCode) — installing what it fetches in the current state, each
//     block's saved state and the transaction's snapshot. It reaches the
//     chain it fills through Chain (its exec.Engine, saved states and
//     tables); the chain serializes every call. A lookup that cannot be
//     filled fails the operation under way (Fail, TakeFailure).
//   - remote.go: Live reads the live chain through chain.Client (nodeos's
//     chain API) and, when it has one, state.Client (the state service at
//     the fork block), counting requests and bytes; Point is the fork
//     block, Code an account's contract, Table a table in one scope with
//     the node's order by each secondary index. Source is what a fork asks,
//     answered by Live or by a Cache.
//   - cache.go: Cache, a directory holding one file per answer, each
//     stamped with the chain, source kind and fork block, replayed without
//     the network and refused, not mixed, when it is of another fork.
//   - keys.go: how a fork reads a table's secondary keys from its rows
//     (ReadTableKeys, KeyReader), which neither get_table_rows nor the state
//     service sends: from the ABI's key_names and key_types.
//
// chaintest's WithFork and NewFork (forkstate.go) open a State from
// chaintest.Remote's fields (Config) and attach the chain to it.
package fork
