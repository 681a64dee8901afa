// Package store is chaintest's state store: contract tables (primary rows
// and the five kinds of secondary index objects) as nodeos's chainbase
// keeps them, with their payers, copy-on-write snapshots (each block's
// state, kept for the state service and SHiP's deltas, and each
// transaction's undo point) and the orders get_table_rows and the wasm
// db_* intrinsics read them in.
//
// A forked chain fills it lazily: every lookup of a table goes through
// DB.Table or DB.Index, which first ask the Filler (the fork's remote
// fill, chaintest's forkstate.go) to fetch that table; a chain that is no
// fork has none. The store knows nothing else of the chain: accounts,
// contracts and the undo of what a transaction changed outside the
// tables are chaintest's (accounts.go, undo.go), the iterator numbers a
// contract sees are execution's (iterators.go, dbapi.go).
package store
