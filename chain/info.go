package chain

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// Info is get_info's answer: the chain and its head and last irreversible
// blocks. Raw holds the whole answer (newer nodes add fields).
type Info struct {
	ServerVersion            string               `json:"server_version"`              // short version hash
	ServerVersionString      string               `json:"server_version_string"`       // e.g. "v5.0.3"
	ChainID                  antelope.Checksum256 `json:"chain_id"`                    // the chain id transactions are signed for
	HeadBlockNum             uint32               `json:"head_block_num"`              // the head block
	HeadBlockID              antelope.Checksum256 `json:"head_block_id"`               // the head block's id
	HeadBlockTime            antelope.TimePoint   `json:"head_block_time"`             // the head block's time: the chain's clock
	HeadBlockProducer        antelope.Name        `json:"head_block_producer"`         // the head block's producer
	LastIrreversibleBlockNum uint32               `json:"last_irreversible_block_num"` // the last irreversible block
	LastIrreversibleBlockID  antelope.Checksum256 `json:"last_irreversible_block_id"`  // the LIB's id (TAPoS refers to it)
	Raw                      json.RawMessage      `json:"-"`                           // the node's whole answer
}

// GetInfo returns the node's get_info.
func (c *Client) GetInfo(ctx context.Context) (*Info, error) {
	body, err := c.Call(ctx, "/v1/chain/get_info", nil)
	if err != nil {
		return nil, err
	}
	info, err := DecodeInfo(body)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.info, c.infoAt = info, time.Now()
	c.mu.Unlock()
	return info, nil
}

// DecodeInfo reads get_info's answer. One without the chain id, the head
// block or the last irreversible block (what Transact signs for and refers
// to), or whose block ids do not carry their numbers, is an error.
func DecodeInfo(body []byte) (*Info, error) {
	var info Info
	if !decodeInfoFast(body, &info) {
		info = Info{}
		if err := json.Unmarshal(body, &info); err != nil {
			return nil, fmt.Errorf("nodeos get_info: unexpected answer: %v", err)
		}
	}
	switch {
	case info.ChainID == (antelope.Checksum256{}):
		return nil, errors.New("nodeos get_info: no chain_id")
	case info.HeadBlockNum == 0 || info.LastIrreversibleBlockID == (antelope.Checksum256{}):
		return nil, errors.New("nodeos get_info: no head or last irreversible block")
	case info.LastIrreversibleBlockNum > info.HeadBlockNum:
		return nil, fmt.Errorf("nodeos get_info: last irreversible block %d above the head block %d", info.LastIrreversibleBlockNum, info.HeadBlockNum)
	case blockNumOf(info.LastIrreversibleBlockID) != info.LastIrreversibleBlockNum,
		info.HeadBlockID != (antelope.Checksum256{}) && blockNumOf(info.HeadBlockID) != info.HeadBlockNum:
		return nil, errors.New("nodeos get_info: a block id that does not carry its block's number")
	}
	info.Raw = body
	return &info, nil
}

// blockNumOf is the number a block id starts with.
func blockNumOf(id antelope.Checksum256) uint32 { return binary.BigEndian.Uint32(id[:4]) }

// cachedInfo returns get_info, reusing an answer younger than the cache
// TTL: Transact needs the last irreversible block and the chain id, which
// change slowly enough.
func (c *Client) cachedInfo(ctx context.Context) (*Info, error) {
	c.mu.Lock()
	info, at := c.info, c.infoAt
	c.mu.Unlock()
	if info != nil && c.infoTTL > 0 && time.Since(at) < c.infoTTL {
		return info, nil
	}
	return c.GetInfo(ctx)
}

// BlockInfo is a block's header as get_block_info (or get_block) gives it.
type BlockInfo struct {
	ID             antelope.Checksum256 `json:"id"`               // the block id
	BlockNum       uint32               `json:"block_num"`        // the block number
	RefBlockNum    uint16               `json:"ref_block_num"`    // TAPoS: low 16 bits of the number
	RefBlockPrefix uint32               `json:"ref_block_prefix"` // TAPoS: bytes 8–11 of the id
	Timestamp      antelope.TimePoint   `json:"timestamp"`        // the block time
	Producer       antelope.Name        `json:"producer"`         // its producer
	Previous       antelope.Checksum256 `json:"previous"`         // the previous block's id
	Confirmed      uint16               `json:"confirmed"`        // producer confirmations (legacy)
}

// GetBlockInfo returns the header of block num: get_block_info, or on an
// older node without it, get_block.
func (c *Client) GetBlockInfo(ctx context.Context, num uint32) (*BlockInfo, error) {
	c.mu.Lock()
	noBlkInf := c.noBlkInf
	c.mu.Unlock()
	if !noBlkInf {
		body, err := c.Call(ctx, "/v1/chain/get_block_info", map[string]uint32{"block_num": num})
		if err == nil {
			return DecodeBlockInfo(body, num)
		}
		if !isNotFound(err) {
			return nil, err
		}
		c.mu.Lock()
		c.noBlkInf = true
		c.mu.Unlock()
	}
	body, err := c.Call(ctx, "/v1/chain/get_block", map[string]uint32{"block_num_or_id": num})
	if err != nil {
		return nil, err
	}
	return DecodeBlockInfo(body, num)
}

// DecodeBlockInfo reads get_block_info's (or get_block's) answer for block
// num. An answer for another block, or whose TAPoS fields are not its id's,
// is an error.
func DecodeBlockInfo(body []byte, num uint32) (*BlockInfo, error) {
	var b BlockInfo
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, fmt.Errorf("nodeos get_block_info: unexpected answer: %v", err)
	}
	if b.BlockNum != num || blockNumOf(b.ID) != num {
		return nil, fmt.Errorf("nodeos get_block_info: asked for block %d, got block %d (id %s)", num, b.BlockNum, b.ID)
	}
	// Older nodes' get_block has no ref_block_num: it is the id's.
	refNum, prefix := antelope.TaposFromBlockID(b.ID)
	if b.RefBlockPrefix != prefix || b.RefBlockNum != refNum && b.RefBlockNum != 0 {
		return nil, fmt.Errorf("nodeos get_block_info: block %d's ref_block_num/prefix %d/%d are not its id's", num, b.RefBlockNum, b.RefBlockPrefix)
	}
	b.RefBlockNum = refNum
	return &b, nil
}
