package shiptest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/antelopego/abigen/ship/protocol"
)

// changingSource is a Chain that a test changes in the middle of the
// server's reads: after a Heads or Block call has read the chain, as
// another goroutine producing or forking blocks could.
type changingSource struct {
	*Chain
	during func() // called after each read, before it returns
}

func (c *changingSource) Heads() (uint32, uint32) {
	h, l := c.Chain.Heads()
	c.during()
	return h, l
}

func (c *changingSource) Block(n uint32) (Block, bool) {
	b, ok := c.Chain.Block(n)
	c.during()
	return b, ok
}

// testSession is a session of s that asks for every block from 1, as a
// connection's request would make it, without a connection.
func testSession(s *Server) *session {
	ss := &session{wakeC: make(chan struct{}, 1)}
	s.mu.Lock()
	s.sessions[ss] = true
	s.mu.Unlock()
	ss.mu.Lock()
	s.blocksRequest(ss, protocol.GetBlocksRequestV1{StartBlockNum: 1, EndBlockNum: math.MaxUint32,
		MaxMessagesInFlight: math.MaxUint32}, true)
	ss.mu.Unlock()
	return ss
}

func blocksResult(t *testing.T, msg []byte) *protocol.GetBlocksResultV1 {
	t.Helper()
	var r protocol.Result
	if err := r.UnmarshalBinary(msg); err != nil {
		t.Fatal(err)
	}
	v, ok := r.Value.(*protocol.GetBlocksResultV1)
	if !ok {
		t.Fatalf("a block message holds %T", r.Value)
	}
	return v
}

// A fork made just after the server read the heads, as a session picked
// its next block, once made the session send a result without this_block
// (TestSHiPMicroForks failed so in CI): the session took the fork's
// rewind after reading the heads, so the old head let it ask for a block
// the fork had removed.
func TestForkJustAfterHeadsAreRead(t *testing.T) {
	c := NewChain()
	c.ProduceEmpty(34)
	src := &changingSource{Chain: c, during: func() {}}
	s := NewHandler(src)
	defer s.cancel()
	ss := testSession(s)
	for range 34 {
		if msg, _, _ := s.nextMessage(ss); msg == nil {
			t.Fatal("no block to send")
		}
	}
	// the chain rolls back to 30 right after the session reads the heads
	src.during = func() {
		src.during = func() {}
		c.ForkWith(30)
	}
	if msg, _, _ := s.nextMessage(ss); msg != nil {
		r := blocksResult(t, msg)
		t.Fatalf("sent a block while the chain had none to send: this_block %v, head %d", r.ThisBlock, r.Head.BlockNum)
	}
	c.ProduceEmpty(1)
	msg, _, _ := s.nextMessage(ss)
	if msg == nil {
		t.Fatal("the new block 31 was not sent")
	}
	if r := blocksResult(t, msg); r.ThisBlock == nil || r.ThisBlock.BlockNum != 31 {
		t.Fatalf("after the fork, sent %v; want the new block 31", r.ThisBlock)
	}
}

// A session's blocks, while the chain grows, forks and finalizes in the
// middle of the server's every read, always make one branch as a client
// checks it: each block names itself, is at most the head, follows the
// last sent or rewinds to a block sent before, and links to the block
// sent below it. When the chain stops changing, the session has sent the
// chain as it is.
func TestSessionFollowsAChainChangingMidRead(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		c := NewChain()
		c.ProduceEmpty(1 + rng.IntN(5))
		changes := 0
		src := &changingSource{Chain: c}
		src.during = func() {
			if changes >= 60 || rng.IntN(4) != 0 {
				return
			}
			changes++
			head, lib := c.Heads()
			switch rng.IntN(5) {
			case 0, 1:
				c.ProduceEmpty(1 + rng.IntN(3))
			case 2:
				c.SetLastIrreversible(lib + uint32(rng.IntN(int(head-lib)+1)))
			case 3:
				c.Fork(lib + uint32(rng.IntN(int(head-lib)+1)))
			case 4:
				c.ForkWith(lib+uint32(rng.IntN(int(head-lib)+1)), make([]BlockData, rng.IntN(4))...)
			}
		}
		s := NewHandler(src)
		ss := testSession(s)
		var sent []protocol.BlockPosition // sent[i] is block i+1 as last sent
		for idle := 0; idle < 3; {
			msg, _, _ := s.nextMessage(ss)
			if msg == nil {
				if changes >= 60 {
					idle++
				}
				continue
			}
			r := blocksResult(t, msg)
			if r.ThisBlock == nil {
				t.Fatalf("seed %d: a result without this_block after %d blocks (head %d)", seed, len(sent), r.Head.BlockNum)
			}
			n := r.ThisBlock.BlockNum
			if n > r.Head.BlockNum || r.LastIrreversible.BlockNum > r.Head.BlockNum {
				t.Fatalf("seed %d: block %d with head %d, last irreversible %d", seed, n, r.Head.BlockNum, r.LastIrreversible.BlockNum)
			}
			if n == 0 || int(n) > len(sent)+1 {
				t.Fatalf("seed %d: block %d after %d blocks", seed, n, len(sent))
			}
			sent = sent[:n-1]
			if n > 1 && (r.PrevBlock == nil || *r.PrevBlock != sent[n-2]) {
				t.Fatalf("seed %d: block %d's prev_block %v does not link to the block %v sent below it", seed, n, r.PrevBlock, sent[n-2])
			}
			sent = append(sent, *r.ThisBlock)
		}
		head, _ := c.Heads()
		if len(sent) != int(head) {
			t.Fatalf("seed %d: sent %d blocks of a chain of %d", seed, len(sent), head)
		}
		for i, p := range sent {
			if b, _ := c.Block(uint32(i + 1)); b.ID != p.BlockID {
				t.Fatalf("seed %d: block %d as sent is not the chain's", seed, i+1)
			}
		}
		s.cancel()
	}
}

// A status answer names its head and last irreversible blocks as one
// reading of the chain: a fork between reading the heads and the head's
// id once made it name the old head's number with no id.
func TestStatusIsOneReadingWhileTheChainForks(t *testing.T) {
	c := NewChain()
	c.ProduceEmpty(10)
	src := &changingSource{Chain: c, during: func() {}}
	s := NewHandler(src)
	defer s.cancel()
	src.during = func() {
		src.during = func() {}
		c.ForkWith(7, BlockData{})
	}
	ss := testSession(s)
	ss.status = append(ss.status, true) // a status request, as a connection's would queue it
	msg, _, _ := s.nextMessage(ss)
	var r protocol.Result
	if err := r.UnmarshalBinary(msg); err != nil {
		t.Fatal(err)
	}
	st, ok := r.Value.(*protocol.GetStatusResultV1)
	if !ok {
		t.Fatalf("a status message holds %T", r.Value)
	}
	if b, ok := c.Block(st.Head.BlockNum); !ok || b.ID != st.Head.BlockID || st.TraceEndBlock != st.Head.BlockNum+1 {
		t.Fatalf("status head %d %v (trace end %d), the chain's block there %v", st.Head.BlockNum, st.Head.BlockID, st.TraceEndBlock, b.ID)
	}
}
