package ship

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/protocol"
	"github.com/antelopego/abigen/ship/shiptest"
)

// This file is a small model of a chain and of a state-history endpoint
// serving it, simple enough to be obviously right, for modelcheck_test.go
// to drive the real client with.

// modelChain is a chain as one node sees it: its current branch, numbered
// from 1, and its last irreversible block.
type modelChain struct {
	id     antelope.Checksum256 // the chain id its status reports
	salt   byte                 // makes another chain's block ids differ
	blocks []modelBlock         // blocks[i] is block i+1
	lib    uint32
	forks  uint32 // branches made so far: part of each new id
	// forkLog is the first block each fork replaced, in order: what
	// sessions rewind to.
	forkLog []uint32
}

type modelBlock struct {
	pos    Position
	prev   antelope.Checksum256
	abi    string // the ABI the block sets on modelAccount; "": none
	deltas []byte
}

var modelAccount = antelope.MustName("eosio.token")

// modelGivenABI is the ABI modelAccount has before block 1.
const modelGivenABI = "v0"

func (c *modelChain) head() uint32 { return uint32(len(c.blocks)) }

// produce appends a block; it sets abi when abi is not "".
func (c *modelChain) produce(abi string) {
	num := c.head() + 1
	var prev antelope.Checksum256
	if num > 1 {
		prev = c.blocks[num-2].pos.ID
	}
	seed := binary.LittleEndian.AppendUint32(append(prev[:], c.salt), c.forks)
	h := sha256.Sum256(binary.LittleEndian.AppendUint32(seed, num))
	binary.BigEndian.PutUint32(h[:], num)
	b := modelBlock{pos: Position{num, h}, prev: prev, abi: abi}
	var changes []shiptest.ABIChange
	if abi != "" {
		changes = []shiptest.ABIChange{{Account: modelAccount, ABI: []byte(abi)}}
	}
	b.deltas = shiptest.EncodeDeltas(nil, changes)
	c.blocks = append(c.blocks, b)
}

// fork replaces the blocks above n (n at or above the last irreversible
// block) by count new ones, setting the ABIs abis says.
func (c *modelChain) fork(n uint32, abis []string) {
	if n < c.lib {
		panic("model: fork below the last irreversible block")
	}
	c.blocks = c.blocks[:min(n, c.head())]
	c.forks++
	c.forkLog = append(c.forkLog, n+1)
	for _, abi := range abis {
		c.produce(abi)
	}
}

func (c *modelChain) snapshot() *modelChain {
	s := *c
	s.blocks = slices.Clone(c.blocks)
	s.forkLog = slices.Clone(c.forkLog)
	return &s
}

func (c *modelChain) block(num uint32) (modelBlock, bool) {
	if num == 0 || num > c.head() {
		return modelBlock{}, false
	}
	return c.blocks[num-1], true
}

// abiBefore is the ABI in force when block num begins.
func (c *modelChain) abiBefore(num uint32) string {
	for n := min(num-1, c.head()); n >= 1; n-- {
		if a := c.blocks[n-1].abi; a != "" {
			return a
		}
	}
	return modelGivenABI
}

// modelConn is one connection to a model endpoint serving node, as spring's
// state_history_plugin serves a session: the ABI first, status on request,
// blocks from the request's start (lowered to the first have_position the
// node does not have), within the credits, rewound to the fork point when
// the node's branch changes under it.
type modelConn struct {
	node  *modelChain
	world *modelWorld
	abi   bool // the ABI was sent
	// status counts the status requests to answer.
	status    int
	active    bool
	req       protocol.GetBlocksRequestV1
	next      uint32
	credits   uint32
	forksSeen int // the node's forks the session has rewound for
	broken    bool
}

// modelSent is the last block message made, as the node saw it then: the
// client delivers a block as it reads it, so the block it delivers is this.
type modelSent struct {
	pos              Position
	lib              uint32
	abiStart, abiEnd string // the ABI in force at the block's start and end
}

var errModelDrop = errors.New("model: connection dropped")

func (c *modelConn) ReadMessage(ctx context.Context, _ []byte) (bool, []byte, error) {
	if c.broken {
		return false, nil, errModelDrop
	}
	if !c.abi {
		c.abi = true
		return true, protocol.ABIJSON, nil
	}
	for {
		if c.world.dropNow() {
			c.broken = true
			return false, nil, errModelDrop
		}
		if c.status > 0 {
			c.status--
			return false, c.statusMessage(), nil
		}
		// The node switched branches under the session: as spring's
		// block_applied, rewind to the first block replaced.
		for _, from := range c.node.forkLog[c.forksSeen:] {
			c.next = min(c.next, from)
		}
		c.forksSeen = len(c.node.forkLog)
		ceiling := c.node.head()
		if c.req.IrreversibleOnly {
			ceiling = c.node.lib
		}
		if c.active && c.credits == 0 {
			return false, nil, fmt.Errorf("model: the client waits for a block while it owes the node acks (%d in flight)", c.req.MaxMessagesInFlight)
		}
		if c.active && c.next <= ceiling && c.next < c.req.EndBlockNum {
			b, _ := c.node.block(c.next)
			c.next++
			c.credits--
			c.world.sent = modelSent{b.pos, c.node.lib, c.node.abiBefore(b.pos.Num), c.node.abiBefore(b.pos.Num + 1)}
			msg, err := c.arrive(ctx, c.blocksMessage(b), c.world.delay())
			return false, msg, err
		}
		// Nothing to send: the world moves on, or, for a node that
		// does not (a stale one), the connection times out.
		if !c.world.idle(c.node) {
			c.broken = true
			return false, nil, errModelDrop
		}
	}
}

func (c *modelConn) WriteMessage(_ context.Context, msg []byte) error {
	if c.broken {
		return errModelDrop
	}
	var r protocol.Request
	if err := r.UnmarshalBinary(msg); err != nil {
		return fmt.Errorf("model: the client sent a request that does not decode: %v", err)
	}
	switch v := r.Value.(type) {
	case *protocol.GetStatusRequestV0, *protocol.GetStatusRequestV1:
		c.status++
	case *protocol.GetBlocksRequestV1:
		req := *v
		for _, p := range req.HavePositions {
			if b, ok := c.node.block(p.BlockNum); req.StartBlockNum > p.BlockNum && (!ok || b.pos.ID != p.BlockID) {
				req.StartBlockNum = min(req.StartBlockNum, p.BlockNum)
			}
		}
		c.req, c.active, c.next, c.credits = req, true, req.StartBlockNum, req.MaxMessagesInFlight
		c.forksSeen = len(c.node.forkLog) // earlier forks: have_positions told
	case *protocol.GetBlocksAckRequestV0:
		c.credits += v.NumMessages
	default:
		return fmt.Errorf("model: unexpected request %T", v)
	}
	return nil
}

func (c *modelConn) Close() error { c.broken = true; return nil }

func (c *modelConn) position(num uint32) protocol.BlockPosition {
	b, _ := c.node.block(num)
	return protocol.BlockPosition{BlockNum: num, BlockID: b.pos.ID}
}

func (c *modelConn) statusMessage() []byte {
	head := c.node.head()
	r := protocol.Result{Value: &protocol.GetStatusResultV1{Head: c.position(head), LastIrreversible: c.position(c.node.lib),
		TraceBeginBlock: 1, TraceEndBlock: head + 1, ChainStateBeginBlock: 1, ChainStateEndBlock: head + 1, ChainID: c.node.id}}
	out, _ := r.MarshalBinary()
	return out
}

func (c *modelConn) blocksMessage(b modelBlock) []byte {
	r := protocol.GetBlocksResultV1{Head: c.position(c.node.head()), LastIrreversible: c.position(c.node.lib),
		ThisBlock: &protocol.BlockPosition{BlockNum: b.pos.Num, BlockID: b.pos.ID}}
	if b.pos.Num > 1 {
		r.PrevBlock = &protocol.BlockPosition{BlockNum: b.pos.Num - 1, BlockID: b.prev}
	}
	if c.req.FetchDeltas {
		d := b.deltas
		r.Deltas = &d
	}
	out, _ := (&protocol.Result{Value: &r}).MarshalBinary()
	return out
}
