package nodeosapi

import (
	"encoding/json"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
)

// Chain is what the rest of the chain API's read handlers (get_info,
// get_block, get_account, get_abi, get_code…, get_currency_balance,
// get_required_keys, get_transaction_status) read of the chain. Every
// method but TransactionStatusEnabled is called with the lock held.
type Chain interface {
	Tables
	// ChainID is the chain's id.
	ChainID() antelope.Checksum256
	// FirstBlock is the chain's first block (earliest_available_block_num).
	FirstBlock() uint32
	// Head is the head block.
	Head() Block
	// Irreversible is the last irreversible block.
	Irreversible() Block
	// Block is block num, false when the chain has none.
	Block(num uint32) (Block, bool)
	// BlockByID is the block with that id (the last one, should two
	// share it), false when none.
	BlockByID(id antelope.Checksum256) (Block, bool)
	// BlockTransactions is block num's transactions as get_block lists
	// them (receipts, the transaction execution committed).
	BlockTransactions(num uint32) []any
	// AccountExists reports account n (on a fork, filled first).
	AccountExists(n antelope.Name) bool
	// Account is get_account's view of account n, false when none.
	Account(n antelope.Name) (Account, bool)
	// Contract is account n's contract, false when it has none.
	Contract(n antelope.Name) (Contract, bool)
	// RequiredKeys is which of the available keys satisfy the
	// transaction's authorizations, or nodeos's refusal (status not 0).
	RequiredKeys(tx *antelope.Transaction, available []antelope.PublicKey) (keys []antelope.PublicKey, status int, refusal any)
	// TransactionBlock is the block that holds transaction id, false when
	// the chain executed no such transaction (on this branch).
	TransactionBlock(id antelope.Checksum256) (uint32, bool)
	// TransactionStatusEnabled is false for a chain made
	// WithoutTransactionStatus; the lock is not needed.
	TransactionStatusEnabled() bool
}

// Block is a block as the chain API shows it.
type Block struct {
	Num      uint32
	ID       antelope.Checksum256
	Previous antelope.Checksum256
	Time     time.Time
}

// Account is an account as get_account shows it.
type Account struct {
	Name                 antelope.Name
	Privileged           bool
	RAMQuota, RAMUsage   int64 // RAMQuota -1: unlimited
	NetWeight, CPUWeight int64 // -1: none set (eosio.system's set_resource_limits)
	NetLimit, NetUsed    int64 // NetLimit -1: unlimited
	CPULimit, CPUUsed    int64 // likewise
	Created              time.Time
	LastCodeUpdate       time.Time
	Permissions          []Permission   // in any order
	EosioAnyLinked       []LinkedAction // the links to eosio.any, never nil
}

// Permission is one of an account's permissions with the actions linked
// to it (never nil).
type Permission struct {
	Name, Parent  antelope.Name // Parent 0: none (owner)
	Auth          chain.Authority
	LinkedActions []LinkedAction
}

// LinkedAction is a link in get_account's answer: the contract, and the
// action (omitted for a link of all the contract's actions), as nodeos 3.1+
// lists them under the linked permission.
type LinkedAction struct {
	Account antelope.Name  `json:"account"`
	Action  *antelope.Name `json:"action,omitempty"`
}

// Contract is an account's contract as get_abi and get_code show it.
type Contract struct {
	ABI       json.RawMessage // nil: none
	PackedABI []byte          // as the chain stores it; nil: none
	Code      []byte
	CodeHash  antelope.Checksum256
}

// timeText is a time as nodeos prints it.
func timeText(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000") }
