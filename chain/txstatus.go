package chain

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/antelopego/abigen/antelope"
)

// The states get_transaction_status reports (spring's transaction finality
// status).
const (
	TxUnknown        = "UNKNOWN"         // the node has no record of it (another node may)
	TxLocallyApplied = "LOCALLY_APPLIED" // executed on the node, not yet in a block
	TxInBlock        = "IN_BLOCK"        // in a block, not yet irreversible
	TxIrreversible   = "IRREVERSIBLE"    // in an irreversible block
	TxForkedOut      = "FORKED_OUT"      // its block was forked out; it may come back in another
	TxFailed         = "FAILED"          // it failed on that node
)

// TransactionStatus is get_transaction_status's answer: where the node saw
// a transaction, and what the node tracks.
type TransactionStatus struct {
	State      string               // one of the Tx… states
	BlockNum   uint32               // the block it is in (IN_BLOCK, IRREVERSIBLE; 0 otherwise)
	BlockID    antelope.Checksum256 // that block's id
	BlockTime  antelope.TimePoint   // that block's time
	Expiration antelope.TimePoint   // the transaction's expiration, when known
	// HeadNum and IrreversibleNum are the node's head and last
	// irreversible blocks; EarliestTrackedNum the oldest block whose
	// transactions it still tracks.
	HeadNum, IrreversibleNum, EarliestTrackedNum uint32
}

// Executed reports whether the node has the transaction in a block.
func (s *TransactionStatus) Executed() bool {
	return s.State == TxInBlock || s.State == TxIrreversible
}

// String says what the node reported, in a few words.
func (s *TransactionStatus) String() string {
	switch {
	case s.BlockNum > 0:
		return fmt.Sprintf("%s in block %d (head %d, irreversible %d)", s.State, s.BlockNum, s.HeadNum, s.IrreversibleNum)
	case s.State == TxUnknown:
		return fmt.Sprintf("%s to the node, which tracks blocks %d to %d", s.State, s.EarliestTrackedNum, s.HeadNum)
	}
	return fmt.Sprintf("%s (head %d)", s.State, s.HeadNum)
}

// GetTransactionStatus asks the node what became of transaction id
// (get_transaction_status, on nodes that track transaction finality:
// transaction-finality-status-max-storage-size-gb). A node that does not
// is an error matching ErrUnsupported.
func (c *Client) GetTransactionStatus(ctx context.Context, id antelope.Checksum256) (*TransactionStatus, error) {
	body, err := c.Call(ctx, "/v1/chain/get_transaction_status", map[string]antelope.Checksum256{"id": id})
	if err != nil {
		if isNotFound(err) {
			return nil, fmt.Errorf("%w: the node has no get_transaction_status: %v", ErrUnsupported, err)
		}
		return nil, err
	}
	return DecodeTransactionStatus(body)
}

// DecodeTransactionStatus reads get_transaction_status's answer. A state
// it does not know, or a block state without its block, is an error.
func DecodeTransactionStatus(body []byte) (*TransactionStatus, error) {
	var raw struct {
		State                      string               `json:"state"`
		BlockNumber                *uint32              `json:"block_number"`
		BlockID                    antelope.Checksum256 `json:"block_id"`
		BlockTimestamp             antelope.TimePoint   `json:"block_timestamp"`
		Expiration                 antelope.TimePoint   `json:"expiration"`
		HeadNumber                 uint32               `json:"head_number"`
		IrreversibleNumber         uint32               `json:"irreversible_number"`
		EarliestTrackedBlockNumber uint32               `json:"earliest_tracked_block_number"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("nodeos get_transaction_status: unexpected answer: %v", err)
	}
	s := &TransactionStatus{State: raw.State, BlockID: raw.BlockID, BlockTime: raw.BlockTimestamp, Expiration: raw.Expiration,
		HeadNum: raw.HeadNumber, IrreversibleNum: raw.IrreversibleNumber, EarliestTrackedNum: raw.EarliestTrackedBlockNumber}
	if raw.BlockNumber != nil {
		s.BlockNum = *raw.BlockNumber
	}
	switch s.State {
	case TxInBlock, TxIrreversible:
		if s.BlockNum == 0 {
			return nil, fmt.Errorf("nodeos get_transaction_status: %s without a block number", s.State)
		}
		if s.BlockID != (antelope.Checksum256{}) && blockNumOf(s.BlockID) != s.BlockNum {
			return nil, fmt.Errorf("nodeos get_transaction_status: block %d with the id of another block, %s", s.BlockNum, s.BlockID)
		}
	case TxUnknown, TxLocallyApplied, TxForkedOut, TxFailed:
	default:
		return nil, fmt.Errorf("nodeos get_transaction_status: unknown state %q", s.State)
	}
	return s, nil
}
