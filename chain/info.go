package chain

import (
	"context"
	"encoding/json"
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
	var info Info
	if err := json.Unmarshal(body, &info); err != nil {
		return nil, fmt.Errorf("nodeos get_info: unexpected answer: %v", err)
	}
	info.Raw = body
	c.mu.Lock()
	c.info, c.infoAt = &info, time.Now()
	c.mu.Unlock()
	return &info, nil
}

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
	var b BlockInfo
	if !noBlkInf {
		err := c.callJSON(ctx, "/v1/chain/get_block_info", map[string]uint32{"block_num": num}, &b)
		if err == nil || !isNotFound(err) {
			return &b, err
		}
		c.mu.Lock()
		c.noBlkInf = true
		c.mu.Unlock()
	}
	err := c.callJSON(ctx, "/v1/chain/get_block", map[string]uint32{"block_num_or_id": num}, &b)
	return &b, err
}
