// Package fork is chaintest's link to a live chain it forks: what a forked
// chain asks the live chain, and the cache that records the answers.
//
//   - remote.go: Live reads the live chain through chain.Client (nodeos's
//     chain API) and, when it has one, state.Client (the state service at
//     the fork block), counting requests and bytes; Point is the fork block,
//     Code an account's contract, Table a table in one scope with the node's
//     order by each secondary index. Source is what a fork asks, answered
//     by Live or by a Cache.
//   - cache.go: Cache, a directory holding one file per answer, each
//     stamped with the chain, source kind and fork block, replayed without
//     the network and refused, not mixed, when it is of another fork.
//   - keys.go: how a fork reads a table's secondary keys from its rows
//     (ReadTableKeys, KeyReader), which neither get_table_rows nor the state
//     service sends: from the ABI's key_names and key_types.
//
// It knows nothing of the chain that uses the answers; chaintest's
// forkstate.go installs them in the store and in execution.
package fork
