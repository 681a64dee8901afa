// Package hyperionapi serves the Hyperion v2 history API (get_actions,
// get_deltas, get_transaction, get_tokens, health, and the chain API
// Hyperion proxies) from a chain's own blocks, as chaintest's HyperionAPI.
//
// It is a served API of chaintest's top layer, and reads the chain only
// through the narrow Chain interface: the blocks of its current branch as
// state history serves them (which it indexes as Hyperion's indexer does,
// index.go, rewriting data as Hyperion's deserializer does, rewrite.go),
// and the nodeos chain API. It never sees the chain's state or execution.
package hyperionapi
