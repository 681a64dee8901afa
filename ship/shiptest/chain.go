package shiptest

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"

	"github.com/antelopego/abigen/antelope"
)

// Block is one block as a BlockSource gives it to the Server.
type Block struct {
	Num       uint32                  // the block number
	ID        antelope.Checksum256    // its id
	Previous  antelope.Checksum256    // the id of block Num-1
	Timestamp antelope.BlockTimestamp // its time
	Producer  antelope.Name           // who produced it
	// The parts, encoded as nodeos sends them: a signed_block, a
	// transaction_trace[] and a table_delta[] (EncodeTraces and
	// EncodeDeltas make the last two; nil is an empty list).
	SignedBlock, Traces, Deltas []byte
}

// BlockSource is the chain a Server serves: anything that can say what
// block n of its current branch is. Chain implements it in memory; a test
// chain can implement it over its own blocks. Its blocks are numbered
// from 1, unless it has a method FirstBlock() uint32 that says where they
// start (a chain that joined another at its height): the status then
// reports the logs from there, as a node whose logs begin at a snapshot.
type BlockSource interface {
	// Heads returns the head and last irreversible blocks.
	Heads() (head, lastIrreversible uint32)
	// Block returns block num of the current branch.
	Block(num uint32) (Block, bool)
	// Subscribe calls changed on every change: blocks added (from is
	// the first new one), a fork (from is the first replaced one; the
	// server rewinds the sessions that sent it), or the last irreversible
	// block moved (from is 0). cancel stops the calls. Call changed as
	// the change is made, under the lock that Heads and Block take:
	// changed never calls the source, and a session then never sends a
	// block of the new branch after one of the old without a rewind
	// between.
	Subscribe(changed func(from uint32)) (cancel func())
}

// BlockData is what a produced block holds.
type BlockData struct {
	Transactions []Transaction // its traces
	Rows         []Row         // its contract_row deltas
	ABIs         []ABIChange   // its account deltas
}

// Chain is an in-memory BlockSource: blocks numbered from 1, produced on
// demand, with forks.
type Chain struct {
	mu       sync.Mutex
	blocks   []Block     // blocks[i].Num == i+1
	data     []BlockData // what each block was produced from
	seqs     []uint64    // the global sequence before each block
	lib      uint32
	branch   uint32
	subs     map[int]func(uint32)
	nextSub  int
	producer antelope.Name
}

// NewChain returns an empty chain.
func NewChain() *Chain {
	return &Chain{subs: map[int]func(uint32){}, producer: antelope.MustName("eosio")}
}

// Heads implements BlockSource.
func (c *Chain) Heads() (uint32, uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return uint32(len(c.blocks)), c.lib
}

// Block implements BlockSource.
func (c *Chain) Block(num uint32) (Block, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if num == 0 || int(num) > len(c.blocks) {
		return Block{}, false
	}
	return c.blocks[num-1], true
}

// Subscribe implements BlockSource. changed is called with the chain's
// lock held, as the change is made: it must not call the chain.
func (c *Chain) Subscribe(changed func(from uint32)) func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := c.nextSub
	c.nextSub++
	c.subs[id] = changed
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.subs, id)
	}
}

// notifyLocked tells the subscribers; c.mu is held, so that no reader
// sees the change before they know of it.
func (c *Chain) notifyLocked(from uint32) {
	for _, f := range c.subs {
		f(from)
	}
}

// Produce appends a block holding data and returns it.
func (c *Chain) Produce(data BlockData) Block {
	c.mu.Lock()
	b := c.produceLocked(data)
	c.notifyLocked(b.Num)
	c.mu.Unlock()
	return b
}

// ProduceEmpty appends n blocks without transactions.
func (c *Chain) ProduceEmpty(n int) {
	if n <= 0 {
		return
	}
	c.mu.Lock()
	from := uint32(len(c.blocks) + 1)
	for range n {
		c.produceLocked(BlockData{})
	}
	c.notifyLocked(from)
	c.mu.Unlock()
}

func (c *Chain) produceLocked(data BlockData) Block {
	num := uint32(len(c.blocks) + 1)
	var prev antelope.Checksum256
	var seq uint64
	if num > 1 {
		prev = c.blocks[num-2].ID
		seq = c.seqs[num-2] + uint64(countReceipts(c.data[num-2]))
	}
	h := sha256.New()
	h.Write(prev[:])
	binary.Write(h, binary.LittleEndian, [2]uint32{num, c.branch})
	var id antelope.Checksum256
	copy(id[:], h.Sum(nil))
	binary.BigEndian.PutUint32(id[:], num) // as nodeos: an id starts with its block number
	b := Block{Num: num, ID: id, Previous: prev, Timestamp: antelope.BlockTimestamp(num * 1), Producer: c.producer}
	b.SignedBlock = signedBlock(b)
	b.Traces = EncodeTraces(seq, num<<8|c.branch&0xff, data.Transactions...)
	b.Deltas = EncodeDeltas(data.Rows, data.ABIs)
	c.blocks = append(c.blocks, b)
	c.data = append(c.data, data)
	c.seqs = append(c.seqs, seq)
	return b
}

func countReceipts(d BlockData) int {
	n := 0
	for _, tx := range d.Transactions {
		for _, a := range tx.Actions {
			if !a.NoReceipt {
				n++
			}
		}
	}
	return n
}

// SetLastIrreversible marks block n irreversible (at most the head).
func (c *Chain) SetLastIrreversible(n uint32) {
	c.mu.Lock()
	c.lib = min(max(n, c.lib), uint32(len(c.blocks)))
	c.notifyLocked(0)
	c.mu.Unlock()
}

// Fork replaces the blocks above n by a new branch of as many blocks with
// the same contents and new ids, as a micro-fork does. Blocks at or below
// the last irreversible one cannot be replaced: n below it panics.
func (c *Chain) Fork(n uint32) {
	c.mu.Lock()
	data := append([]BlockData(nil), c.data[min(int(n), len(c.data)):]...)
	c.mu.Unlock()
	c.ForkWith(n, data...)
}

// ForkWith replaces the blocks above n by blocks holding data (any number:
// the new branch may be shorter or longer).
func (c *Chain) ForkWith(n uint32, data ...BlockData) {
	c.mu.Lock()
	if n < c.lib {
		c.mu.Unlock()
		panic("shiptest: cannot fork below the last irreversible block")
	}
	n = min(n, uint32(len(c.blocks)))
	c.blocks, c.data, c.seqs = c.blocks[:n], c.data[:n], c.seqs[:n]
	c.branch++
	for _, d := range data {
		c.produceLocked(d)
	}
	c.notifyLocked(n + 1)
	c.mu.Unlock()
}

// ForkBelowIrreversible replaces the blocks above n as Fork does, even
// when n is below the last irreversible block, which it lowers to n: what
// no correct node does, for testing how a consumer reacts to one that does.
func (c *Chain) ForkBelowIrreversible(n uint32) {
	c.mu.Lock()
	c.lib = min(c.lib, n)
	c.mu.Unlock()
	c.Fork(n)
}

// signedBlock encodes a minimal signed_block for b: its header, a zero K1
// signature, no transactions, no extensions.
func signedBlock(b Block) []byte {
	out := binary.LittleEndian.AppendUint32(nil, uint32(b.Timestamp))
	out = binary.LittleEndian.AppendUint64(out, uint64(b.Producer))
	out = append(out, 0, 0) // confirmed
	out = append(out, b.Previous[:]...)
	out = append(out, make([]byte, 64)...) // transaction_mroot, action_mroot
	out = append(out, 0, 0, 0, 0)          // schedule_version
	out = append(out, 0)                   // new_producers: none
	out = append(out, 0)                   // header_extensions
	out = append(out, 0)                   // producer_signature: K1
	out = append(out, make([]byte, 65)...)
	out = append(out, 0, 0) // transactions, block_extensions
	return out
}
