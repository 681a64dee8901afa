// Package store is chaintest's state store: contract tables (primary rows
// and the five kinds of secondary index objects) as nodeos's chainbase
// keeps them, with their payers, copy-on-write snapshots (each block's
// state, kept for the state service and SHiP's deltas, and each
// transaction's undo point) and the orders get_table_rows and the wasm
// db_* intrinsics read them in.
//
// It holds the accounts too (Accounts): permissions, linkauths, RAM, CPU
// and NET — as a map of execution's account record (internal/exec's
// Account), whose fields execution reads and writes, with the copies a
// block's snapshot keeps (Accounts.Snapshot) and a transaction's undo of
// them (AccountUndo). The record itself stays in internal/exec
// (accounts.go), as execution's files change its fields one by one.
//
// A forked chain fills it lazily: every lookup of a table goes through
// DB.Table or DB.Index, which first ask the Filler (the fork's remote
// fill, internal/fork's fork.State) to fetch that table, and a lookup of an
// account not held goes through Accounts.Lookup, which asks the
// AccountFiller; a chain that is no fork has neither. The store knows
// nothing else of the chain: contracts, their ABIs and the chain
// parameters, and their undo, are execution's (internal/exec's
// contract.go, undo.go), as are the iterator numbers a contract sees
// (iterators.go, dbapi.go).
package store
