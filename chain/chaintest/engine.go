package chaintest

import (
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
)

// engine is execution's state: what transactions read and change (the
// accounts, contracts, tables, ABIs and chain parameters) and how they run
// (deadline, wasm engine, console). The layers above reach execution
// through it; it asks them what it needs through above.
type engine struct {
	above above // the chain that holds the engine

	chainID   antelope.Checksum256
	accounts  store.Accounts[account]
	contracts map[antelope.Name]*contract
	db        *db
	abis      map[antelope.Name][]abiVersion

	wasm            *wasm.Engine      // runs wasm contracts; made on first use
	params          []byte            // chain_config_v0, packed (get/set_blockchain_parameters_packed)
	features        map[[32]byte]bool // preactivated protocol features
	scheduleVersion uint32            // of the last proposed producer schedule
	proposed        []antelope.Name   // its producers
	globalSeq       uint64            // receipts so far on this branch (global_sequence)

	txSnap *db // the tables before the transaction under way (a fork installs fetched tables in it too)

	deadline    time.Duration // per transaction
	interpreter bool          // wasm through wazero's interpreter
	ownCache    bool          // compiled code not shared with the process's other chains
	console     logger        // where contracts' console output goes, besides the traces

	forked forkSeam // the live chain a fork fills its state from; nil: no fork
}

// logger is where contracts' console output goes (Logger, WithConsoleLog).
type logger interface {
	Logf(format string, args ...any)
}

// above is what execution asks of the chain above it: the blocks, for
// TAPoS, the transactions already in them, the head block's time and the
// number of the block under way.
type above interface {
	tapos(refNum uint16, refPrefix uint32) bool
	executed(id antelope.Checksum256) bool
	headTime() time.Time
	nextBlockNum() uint32
}

// forkSeam is the fork of a live chain as execution sees it: the accounts
// and contracts it fills lazily, what it fetched and what it could not.
type forkSeam interface {
	store.AccountFiller
	loadContract(n antelope.Name)
	fetches() int
	takeFailure() error
	fail(err error)
}

// account is account n, fetched on a fork the first time it is looked up.
func (c *engine) account(n antelope.Name) *account {
	if c.forked == nil {
		return c.accounts.Lookup(n, nil)
	}
	return c.accounts.Lookup(n, c.forked)
}

// contract is account n's contract, fetched on a fork the first time.
func (c *engine) contract(n antelope.Name) *contract {
	if ct := c.contracts[n]; ct != nil || c.forked == nil {
		return ct
	}
	c.forked.loadContract(n)
	return c.contracts[n]
}

// forkFetches is how many answers a fork has asked its source for (0 for
// a chain that is no fork).
func (c *engine) forkFetches() int {
	if c.forked == nil {
		return 0
	}
	return c.forked.fetches()
}

// takeForkFailure returns and clears the failure of the operation under
// way on a fork (nil for a chain that is no fork).
func (c *engine) takeForkFailure() error {
	if c.forked == nil {
		return nil
	}
	return c.forked.takeFailure()
}

// abiVersion is an ABI an account was given, and the block it was set
// in: the state service serves the ABI as of any block.
type abiVersion struct {
	block uint32
	json  []byte
}
