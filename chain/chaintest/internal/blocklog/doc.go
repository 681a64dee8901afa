// Package blocklog is the part of chaintest's block log and history that
// needs nothing of execution: block ids (ID: a hash of the block's place,
// time, transactions and branch, so a fork's blocks have new ids), a
// block's table deltas as state history serves them (Deltas: the account
// changes, and the contract tables, rows and index objects that differ
// between two of the state store's snapshots, in spring's order), the
// encoding helpers of state history's values, and the subscribers told of
// every change of the blocks (the SHiP endpoint's, the mirror's).
//
// The per-block records themselves (each block's executed transactions
// with their traces, the state outside the tables kept while a block is
// reversible for Fork and Rollback, finality) stay in package chaintest
// (blocklog.go, shipblock.go, fork.go): they hold execution's transaction
// contexts, which stay there too.
package blocklog
