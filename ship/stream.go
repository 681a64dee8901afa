package ship

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/protocol"
)

// Parts says which parts of each block to fetch.
type Parts uint8

// The parts of a block.
const (
	FetchBlock        Parts = 1 << iota // the signed block (needed for Timestamp and Producer)
	FetchTraces                         // action traces (Actions)
	FetchDeltas                         // table deltas (Rows, and ABI changes)
	FetchFinalityData                   // spring's finality data (nodes with get_blocks_request_v1)
)

// Request says which blocks to stream.
type Request struct {
	// Start is the first block; 0: the first block the node serves (from
	// its status). Ignored when Cursor is set: the cursor holds the start.
	Start uint32
	// End is the block to stop before (exclusive); 0: never stop, follow
	// the chain's head.
	End uint32
	// Cursor resumes after the last block a previous stream delivered
	// (Event.Cursor), undoing first what a fork replaced meanwhile, on the
	// same chain only, and never below the last irreversible block
	// reported.
	Cursor Cursor
	// FinalOnly streams irreversible blocks only (irreversible_only): no
	// forks, so no Undo, at the price of the finality delay.
	FinalOnly bool
	// Fetch chooses the parts; 0 means FetchBlock|FetchTraces|FetchDeltas.
	Fetch Parts
	// ABIs, when not nil (an empty map will do), turns on ABI tracking for
	// Block.ABI, ActionTrace.ABI and RowChange.ABI: it holds the packed
	// ABIs (as on chain) contracts had at the end of the block before
	// Start — or, resuming, of the cursor's last block — and the stream
	// adds every ABI change it sees (account deltas; setabi actions when
	// deltas are not fetched). An Undo that reaches that block or below
	// makes a given ABI unknown (the stream cannot tell whether an undone
	// block set it) until a block sets it again, and so does resuming
	// from the cursor of an Undo of everything delivered (no Last: the
	// block before the start may have been replaced too); with Start at
	// or below the last irreversible block, none can. The stream keeps the versions
	// in force at the last irreversible block (or, in a finality stall
	// longer than a cursor's 16,384 positions, at the oldest it holds)
	// and those set above it.
	ABIs map[antelope.Name][]byte
}

// Undo says that blocks already delivered are no longer on the chain: a
// fork replaced them. Revert what you derived from them, newest first; the
// new branch's blocks follow.
type Undo struct {
	Blocks []Position // newest first
}

// Event is the next thing that happened: a fork's Undo, or a Block on the
// current branch. Exactly one of the two is set.
type Event struct {
	Undo  *Undo  // a fork: blocks to revert
	Block *Block // the next block

	cursor *tracker
}

// Cursor is the stream's position once this event is handled: persist it
// with what you did for the event, and resume from it. Call it in the loop
// body: once the stream has moved on, it reports the later position.
func (e Event) Cursor() Cursor {
	if e.cursor == nil {
		return Cursor{}
	}
	return e.cursor.cursor()
}

// Stream is a sequence of events. Ranging over it connects, streams and
// reconnects; leaving the loop closes the connection. The block of an event
// is acknowledged to the node only after the loop body for it returns.
type Stream iter.Seq2[Event, error]

// Stream streams the blocks req asks for. The sequence ends after End, on
// a terminal error (yielded last: ErrGap, ErrForkBelowReversible,
// ErrNoBlock, ErrOtherChain, ErrBrokenNode after repeated refusals, a
// *FormatError, a *MessageTooLargeError, a *HandshakeError that is
// Permanent before the first session, a *URLError, the context's error, or giving
// up after WithMaxReconnects), or when the loop stops.
func (c *Client) Stream(ctx context.Context, req Request) Stream {
	return func(yield func(Event, error) bool) {
		st := &streamState{c: c, req: req, t: resumeTracker(req.Cursor, req.Start, req.FinalOnly)}
		if req.Fetch == 0 {
			st.req.Fetch = FetchBlock | FetchTraces | FetchDeltas
		}
		if req.ABIs != nil {
			st.abis = newABIHistory(req.ABIs)
			if c := req.Cursor; !c.IsZero() && len(c.held) == 0 && c.start > 1 {
				// The cursor of an Undo of everything delivered: the fork
				// reached the start, perhaps below it, and what the new
				// branch set there the stream never saw (the cursor does
				// not say). ABIs given as of the block before the start,
				// looked up when it was reversible, may be of the old
				// branch (even if it is final now): unknown until set
				// again.
				st.abis.gap(c.start - 1)
			}
		}
		st.run(ctx, yield)
	}
}

type streamState struct {
	c       *Client
	req     Request
	t       *tracker
	abis    *abiHistory
	scratch []ActionTrace
	strikes int // broken answers in a row (ErrBrokenNode, errRelink)
	// connected: a session began (handshake and ABI). Until then a
	// handshake refusal that retrying cannot cure is the wrong address;
	// after, the same status is a node restarting behind a proxy.
	connected bool
}

// maxStrikes is how many broken answers in a row a stream retries.
const maxStrikes = 3

// checkChain asks the node's status at the start of a session: its chain
// id must be the cursor's (the first known becomes the stream's), and
// when the stream has no start yet it starts at the first block the node
// serves. A node that cannot report its status is taken on trust, unless
// the start is needed.
func (st *streamState) checkChain(ctx context.Context, s *session, needStart bool) error {
	if _, ok := s.p.statusRequest(); !ok && !needStart {
		return nil
	}
	status, err := s.status(ctx)
	if err != nil {
		return err
	}
	var zero antelope.Checksum256
	if status.ChainID != zero {
		if st.t.chain != zero && status.ChainID != st.t.chain {
			return fmt.Errorf("%w: %s serves chain %v, the stream's is %v: check the URL (or start a new stream without the cursor)", ErrOtherChain, st.c.shown, status.ChainID, st.t.chain)
		}
		st.t.chain = status.ChainID
	}
	if needStart {
		st.t.start = max(status.TraceBegin, status.ChainStateBegin, 1)
	}
	return nil
}

// errStopped ends a session because the consumer left the loop.
var errStopped = errors.New("stopped")

func (st *streamState) run(ctx context.Context, yield func(Event, error) bool) {
	failures := 0
	for {
		progressed, err := st.session(ctx, yield)
		if err == nil || errors.Is(err, errStopped) {
			return
		}
		var t *transientError
		var refused *HandshakeError
		if !st.connected && errors.As(err, &refused) && refused.Permanent() {
			err = unwrapTransient(err)
		}
		if !errors.As(err, &t) || ctx.Err() != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			yield(Event{}, err)
			return
		}
		if progressed {
			failures = 0
		}
		failures++
		if st.c.maxReconnects >= 0 && failures > st.c.maxReconnects {
			yield(Event{}, fmt.Errorf("ship: giving up after %d failed attempts in a row: %w", failures, t.err))
			return
		}
		delay := st.c.backoff(failures)
		st.c.logf("%v; reconnecting in %v (attempt %d)", t.err, delay.Round(time.Millisecond), failures)
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			yield(Event{}, ctx.Err())
			return
		case <-timer.C:
		}
	}
}

// session streams over one connection until the end, an error or the
// consumer's stop. progressed reports whether it delivered anything.
func (st *streamState) session(ctx context.Context, yield func(Event, error) bool) (progressed bool, err error) {
	s, err := st.c.connect(ctx)
	if err != nil {
		return false, err
	}
	defer s.conn.Close()
	st.connected = true

	start, have := st.t.resume()
	if err := st.checkChain(ctx, s, start == 0); err != nil {
		return false, err
	}
	if start == 0 {
		start = st.t.start
	}
	if st.abis != nil {
		st.abis.dateGiven(start - 1) // the given ABIs are the state after the block before the first
	}
	if st.req.End != 0 && start >= st.req.End {
		if len(have) == 0 {
			return false, nil
		}
		// Everything was delivered, but a fork may have replaced some of
		// it since: ask for the last block again, with have_positions.
		start = st.req.End - 1
	}
	end := st.req.End
	if end == 0 {
		end = 0xffffffff
	}
	positions := make([]protocol.BlockPosition, len(have))
	for i, p := range have {
		positions[i] = protocol.BlockPosition{BlockNum: p.Num, BlockID: p.ID}
	}
	f := st.req.Fetch
	req := protocol.GetBlocksRequestV1{StartBlockNum: start, EndBlockNum: end, MaxMessagesInFlight: st.c.window,
		HavePositions: positions, IrreversibleOnly: st.req.FinalOnly, FetchBlock: f&FetchBlock != 0,
		FetchTraces: f&FetchTraces != 0, FetchDeltas: f&FetchDeltas != 0, FetchFinalityData: f&FetchFinalityData != 0}
	member := s.p.blocksRequest()
	if member == "get_blocks_request_v1" {
		err = s.send(ctx, member, &req)
	} else {
		err = s.send(ctx, member, &protocol.GetBlocksRequestV0{StartBlockNum: req.StartBlockNum, EndBlockNum: req.EndBlockNum,
			MaxMessagesInFlight: req.MaxMessagesInFlight, HavePositions: req.HavePositions, IrreversibleOnly: req.IrreversibleOnly,
			FetchBlock: req.FetchBlock, FetchTraces: req.FetchTraces, FetchDeltas: req.FetchDeltas})
	}
	if err != nil {
		return false, err
	}

	ackEvery := max(st.c.window/2, 1)
	var unacked uint32
	for {
		_, msg, err := s.read(ctx)
		if err != nil {
			return progressed, err
		}
		name, w, err := s.p.resultKind(msg)
		if err != nil {
			return progressed, err
		}
		if name != "get_blocks_result_v0" && name != "get_blocks_result_v1" {
			continue // a status result nobody asked for
		}
		r, err := parseBlocks(w, name == "get_blocks_result_v1")
		if err != nil {
			return progressed, err
		}
		unacked++
		undo, deliver, err := st.t.accept(&r)
		switch {
		case errors.Is(err, errRelink):
			// The node's chain changed below the last block without a
			// rewind: ask again with have_positions, so that it rewinds
			// to the fork point.
			st.strikes++
			if st.strikes > maxStrikes {
				return progressed, fmt.Errorf("%w: block %d does not link to block %d as delivered, even after asking the node to rewind; restart it or use another", ErrBrokenNode, r.this.Num, r.prev.Num)
			}
			return progressed, &transientError{fmt.Errorf("ship: block %d does not link to the block %d delivered: asking the node to rewind", r.this.Num, r.prev.Num)}
		case errors.As(err, new(*behindError)):
			return progressed, &transientError{err}
		case errors.Is(err, ErrBrokenNode):
			// Perhaps one bad node behind a load balancer: try again,
			// but not forever.
			st.strikes++
			if st.strikes > maxStrikes {
				return progressed, fmt.Errorf("%w (%d times in a row)", err, st.strikes)
			}
			return progressed, &transientError{err}
		case err != nil:
			return progressed, err
		}
		st.strikes = 0
		if st.abis != nil && st.t.forget != 0 {
			st.abis.undo(st.t.forget)
		}
		if st.abis != nil && st.t.unseen != 0 {
			st.abis.gap(st.t.unseen)
		}
		st.t.forget, st.t.unseen = 0, 0
		if undo != nil {
			st.t.undo(len(undo))
			if !yield(Event{Undo: &Undo{Blocks: undo}, cursor: st.t}, nil) {
				return progressed, errStopped
			}
		}
		if !deliver && st.abis != nil && r.this.Num < st.t.start {
			// A block below the start on the new branch of a fork: not
			// delivered, but what it sets is in force for the blocks that are.
			b := newBlock(s.p, &r, &st.scratch, st.abis)
			if err := st.abis.record(b); err != nil {
				return progressed, b.partErr(err)
			}
		}
		if !deliver {
			if st.req.End != 0 && r.this.Num+1 >= st.req.End && st.t.cursor().Last().Num+1 >= st.req.End {
				return progressed, nil // the last block, unchanged
			}
			if unacked >= ackEvery {
				if err := s.send(ctx, "get_blocks_ack_request_v0", &protocol.GetBlocksAckRequestV0{NumMessages: unacked}); err != nil {
					return progressed, err
				}
				unacked = 0
			}
			continue
		}
		b := newBlock(s.p, &r, &st.scratch, st.abis)
		if st.abis != nil {
			// Before the consumer sees the block: its rows decode with
			// the ABI at its end (RowChange.ABI).
			if err := st.abis.record(b); err != nil {
				return progressed, b.partErr(err)
			}
		}
		st.t.delivered(b.Position, r.lib.Num)
		if st.abis != nil {
			// Not past the block's start: its actions decode with the ABI
			// in force then (a stream catching up delivers blocks below
			// the last irreversible one). Not past what a fork can still
			// undo, and not short of it either: while the last
			// irreversible block stalls, the versions would grow with
			// every setabi, the cursor's positions do not.
			st.abis.prune(min(st.t.settled(), b.Num-1))
		}
		progressed = true
		if !yield(Event{Block: b, cursor: st.t}, nil) {
			return progressed, errStopped
		}
		if unacked >= ackEvery {
			if err := s.send(ctx, "get_blocks_ack_request_v0", &protocol.GetBlocksAckRequestV0{NumMessages: unacked}); err != nil {
				return progressed, err
			}
			unacked = 0
		}
		if st.req.End != 0 && b.Num+1 >= st.req.End {
			return progressed, nil
		}
	}
}
