package exec

import (
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
)

// Engine is execution's state: what transactions read and change (the
// accounts, contracts, tables, ABIs and chain parameters) and how they run
// (deadline, wasm engine, console). The layers above reach execution
// through it; it asks them what it needs through Chain and Fork.
type Engine struct {
	above Chain // the chain that holds the engine

	ChainID   antelope.Checksum256           // the chain signatures are for
	Accounts  store.Accounts[Account]        // the accounts
	Contracts map[antelope.Name]*Contract    // their contracts
	DB        *db                            // the contract tables
	ABIs      map[antelope.Name][]ABIVersion // every ABI each account had, by block

	wasm            *wasm.Engine      // runs wasm contracts; made on first use
	params          []byte            // chain_config_v0, packed (get/set_blockchain_parameters_packed)
	features        map[[32]byte]bool // preactivated protocol features
	scheduleVersion uint32            // of the last proposed producer schedule
	proposed        []antelope.Name   // its producers
	globalSeq       uint64            // receipts so far on this branch (global_sequence)

	TxSnap *db // the tables before the transaction under way (a fork installs fetched tables in it too)

	deadline    time.Duration // per transaction
	interpreter bool          // wasm through wazero's interpreter
	ownCache    bool          // compiled code not shared with the process's other chains
	console     Logger        // where contracts' console output goes, besides the traces

	Fork Fork // the live chain a fork fills its state from; nil: no fork
}

// Logger is where contracts' console output goes (chaintest's Logger, its
// WithConsoleLog).
type Logger interface {
	Logf(format string, args ...any)
}

// Config is how execution runs: the chain it signs for, the
// deadline of a transaction, how wasm runs, where console output goes.
type Config struct {
	ChainID     antelope.Checksum256 // the chain signatures are for
	Deadline    time.Duration        // how long one transaction may run
	Interpreter bool                 // wasm through wazero's interpreter
	OwnCache    bool                 // compiled code not shared with the process's other chains
	Console     Logger               // where console output goes too (nil: only the traces)
}

// New is the execution of a new chain, with nodeos's default
// parameters and no accounts: up is the chain above it.
func New(up Chain, cfg Config) *Engine {
	return &Engine{above: up, ChainID: cfg.ChainID, Accounts: store.Accounts[Account]{}, Contracts: map[antelope.Name]*Contract{},
		DB: store.New(), ABIs: map[antelope.Name][]ABIVersion{}, params: append([]byte(nil), defaultParams...), features: map[[32]byte]bool{},
		deadline: cfg.Deadline, interpreter: cfg.Interpreter, ownCache: cfg.OwnCache, console: cfg.Console}
}

// Chain is what execution asks of the chain above it: the blocks, for
// TAPoS, the transactions already in them, the head block's time and the
// number of the block under way.
type Chain interface {
	// TAPoS reports whether refNum and refPrefix name a block of the last
	// 65,536: the most recent block whose number ends in refNum.
	TAPoS(refNum uint16, refPrefix uint32) bool
	// Executed reports whether transaction id is in one of the blocks.
	Executed(id antelope.Checksum256) bool
	// HeadTime is the head block's time.
	HeadTime() time.Time
	// NextBlockNum is the number of the next block, the one a transaction
	// executed now goes in.
	NextBlockNum() uint32
}

// Fork is the fork of a live chain as execution sees it: the accounts
// and contracts it fills lazily, what it fetched and what it could not.
type Fork interface {
	store.AccountFiller
	// LoadContract fetches account n's contract into Engine.Contracts, the
	// first time it is looked up.
	LoadContract(n antelope.Name)
	// Fetches is how many answers the fork has asked its source for.
	Fetches() int
	// TakeFailure returns and clears what the operation under way could
	// not fetch.
	TakeFailure() error
	// Fail records what a lookup could not fetch: the operation under way
	// fails with it.
	Fail(err error)
}

// Account is account n, fetched on a fork the first time it is looked up.
func (c *Engine) Account(n antelope.Name) *Account {
	if c.Fork == nil {
		return c.Accounts.Lookup(n, nil)
	}
	return c.Accounts.Lookup(n, c.Fork)
}

// Contract is account n's contract, fetched on a fork the first time.
func (c *Engine) Contract(n antelope.Name) *Contract {
	if ct := c.Contracts[n]; ct != nil || c.Fork == nil {
		return ct
	}
	c.Fork.LoadContract(n)
	return c.Contracts[n]
}

// forkFetches is how many answers a fork has asked its source for (0 for
// a chain that is no fork).
func (c *Engine) forkFetches() int {
	if c.Fork == nil {
		return 0
	}
	return c.Fork.Fetches()
}

// takeForkFailure returns and clears the failure of the operation under
// way on a fork (nil for a chain that is no fork).
func (c *Engine) takeForkFailure() error {
	if c.Fork == nil {
		return nil
	}
	return c.Fork.TakeFailure()
}

// ABIVersion is an ABI an account was given, and the block it was set
// in: the state service serves the ABI as of any block.
type ABIVersion struct {
	Block uint32 // the block it was set in
	JSON  []byte // the ABI, as JSON
}
