// Package blocklog is the part of chaintest's block log and history that
// needs nothing of execution: block ids (ID: a hash of the block's place,
// time, transactions and branch, so a fork's blocks have new ids), a
// block's table deltas as state history serves them (Deltas: the account
// changes, and the contract tables, rows and index objects that differ
// between two of the state store's snapshots, in spring's order), the
// encoding helpers of state history's values, and the subscribers told of
// every change of the blocks (the SHiP endpoint's, the mirror's).
//
// It also keeps the per-block records and their bookkeeping (Log): one
// Record per block, finality (the last irreversible block, manual or
// instant), the saved states pruned below it, the branch counter, and what
// Fork (Rebranch) and Rollback (Truncate) do to the records. A record's
// transactions and saved state are type parameters: they are execution's
// transaction contexts and chaintest's state outside the tables, which
// chaintest fills in and reads back (blocklog.go, shipblock.go, fork.go);
// giving blocks new ids and restoring the state stay there, as they need
// the chain's blocks and state.
package blocklog
