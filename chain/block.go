package chain

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
)

// Block is a block as get_block gives it: its header and the receipt of
// each transaction it holds, in order.
type Block struct {
	BlockInfo
	TransactionMroot  antelope.Checksum256 // the merkle root of the transaction receipts
	ActionMroot       antelope.Checksum256 // the merkle root of the action receipts
	ScheduleVersion   uint32               // the producer schedule's version
	ProducerSignature antelope.Signature   // the producer's signature of the header
	Transactions      []TransactionReceipt // the receipts, in the block's order
}

// TransactionReceipt is a transaction as a block holds it: what became of
// it and what it was billed.
type TransactionReceipt struct {
	Status        ReceiptStatus // executed, soft_fail, hard_fail, delayed or expired
	CPUUsageUS    uint32        // CPU billed, in microseconds
	NetUsageWords uint32        // NET billed, in 8-byte words
	// ID is the transaction's id: computed from Packed for a transaction
	// the block carries (and checked against the id the node gives), the
	// node's for a deferred one, which the block names by id alone.
	ID antelope.Checksum256
	// Packed is the signed transaction as the block carries it; nil for a
	// deferred transaction.
	Packed *antelope.PackedTransaction
}

// ReceiptStatus is a transaction receipt's status, as nodeos prints it
// (spring's transaction_receipt_header::status_enum).
type ReceiptStatus string

// The statuses of a transaction receipt. Only Executed applied the
// transaction's actions; SoftFail ran its error handler, and HardFail and
// Expired are deferred transactions that failed or expired, billed all the
// same; Delayed scheduled it.
const (
	ReceiptExecuted ReceiptStatus = "executed"
	ReceiptSoftFail ReceiptStatus = "soft_fail"
	ReceiptHardFail ReceiptStatus = "hard_fail"
	ReceiptDelayed  ReceiptStatus = "delayed"
	ReceiptExpired  ReceiptStatus = "expired"
)

// GetBlock returns block num with get_block: its header (checked as
// GetBlockInfo checks it) and its transaction receipts, each carried
// transaction's id computed from its bytes.
func (c *Client) GetBlock(ctx context.Context, num uint32) (*Block, error) {
	body, err := c.Call(ctx, "/v1/chain/get_block", map[string]uint32{"block_num_or_id": num})
	if err != nil {
		return nil, err
	}
	return DecodeBlock(body, num)
}

// DecodeBlock reads get_block's answer for block num. An answer for
// another block, a receipt with an unknown status, or a carried
// transaction whose bytes do not hash to the id the node gives is an
// error.
func DecodeBlock(body []byte, num uint32) (*Block, error) {
	info, err := DecodeBlockInfo(body, num)
	if err != nil {
		return nil, err
	}
	var raw struct {
		TransactionMroot  antelope.Checksum256 `json:"transaction_mroot"`
		ActionMroot       antelope.Checksum256 `json:"action_mroot"`
		ScheduleVersion   uint32               `json:"schedule_version"`
		ProducerSignature antelope.Signature   `json:"producer_signature"`
		Transactions      []struct {
			Status        ReceiptStatus   `json:"status"`
			CPUUsageUS    uint32          `json:"cpu_usage_us"`
			NetUsageWords uint32          `json:"net_usage_words"`
			Trx           json.RawMessage `json:"trx"`
		} `json:"transactions"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("nodeos get_block %d: unexpected answer: %v", num, err)
	}
	b := &Block{BlockInfo: *info, TransactionMroot: raw.TransactionMroot, ActionMroot: raw.ActionMroot,
		ScheduleVersion: raw.ScheduleVersion, ProducerSignature: raw.ProducerSignature,
		Transactions: make([]TransactionReceipt, 0, len(raw.Transactions))}
	for i, tx := range raw.Transactions {
		switch tx.Status {
		case ReceiptExecuted, ReceiptSoftFail, ReceiptHardFail, ReceiptDelayed, ReceiptExpired:
		default:
			return nil, httpcore.AnswerErrorf("nodeos get_block %d: transaction %d has status %q", num, i, tx.Status)
		}
		r := TransactionReceipt{Status: tx.Status, CPUUsageUS: tx.CPUUsageUS, NetUsageWords: tx.NetUsageWords}
		if r.ID, r.Packed, err = decodeReceiptTrx(tx.Trx); err != nil {
			return nil, fmt.Errorf("nodeos get_block %d: transaction %d: %w", num, i, err)
		}
		b.Transactions = append(b.Transactions, r)
	}
	return b, nil
}

// decodeReceiptTrx reads a receipt's trx: a deferred transaction's id, or
// a packed transaction, whose id is computed from its bytes and must be
// the one the node gives (a node that names one transaction and carries
// another is not believed either way).
func decodeReceiptTrx(trx json.RawMessage) (antelope.Checksum256, *antelope.PackedTransaction, error) {
	var id antelope.Checksum256
	if err := json.Unmarshal(trx, &id); err == nil {
		return id, nil, nil
	}
	var named struct {
		ID *antelope.Checksum256 `json:"id"`
	}
	p := &antelope.PackedTransaction{}
	if err := json.Unmarshal(trx, &named); err != nil {
		return id, nil, fmt.Errorf("neither an id nor a packed transaction: %v", err)
	}
	if err := p.UnmarshalJSON(trx); err != nil {
		return id, nil, fmt.Errorf("neither an id nor a packed transaction: %v", err)
	}
	id, err := p.ID()
	if err != nil {
		return id, nil, err
	}
	if named.ID != nil && *named.ID != id {
		return id, nil, fmt.Errorf("the node names it %s, but its bytes are transaction %s", *named.ID, id)
	}
	return id, p, nil
}

// executed reports whether the block executed transaction id.
func (b *Block) executed(id antelope.Checksum256) bool {
	for _, r := range b.Transactions {
		if r.Status == ReceiptExecuted && r.ID == id {
			return true
		}
	}
	return false
}
