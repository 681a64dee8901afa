package shiptest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/protocol"
	"github.com/coder/websocket"
)

// Server is a state-history endpoint over a BlockSource, on a local
// httptest server: it sends the ABI as text, then answers status and
// blocks requests as spring's state_history_plugin does — credits and
// acks, have_positions, end_block_num exclusive, irreversible_only, a
// rewind of every session when its source forks — with faults to inject.
type Server struct {
	// URL is the websocket address, ws://127.0.0.1:port.
	URL string

	src     BlockSource
	http    *httptest.Server
	abi     []byte
	chainID antelope.Checksum256
	cancel  func()

	mu          sync.Mutex
	sessions    map[*session]bool
	maxInFlight uint32
	connections int
	requests    []protocol.GetBlocksRequestV1
	dropNext    int  // drop the connection in the middle of the next block message, this many times
	stalled     bool // send no blocks
	blocksSent  int
}

// ServerOption configures a Server.
type ServerOption func(*Server)

// WithABI sends another ABI text first (an older node's, a broken one), to
// test a client's negotiation. The server itself still reads requests and
// writes results with ship/protocol's variant indices: give an ABI whose
// members keep those indices for the requests and results it uses.
func WithABI(text []byte) ServerOption { return func(s *Server) { s.abi = text } }

// WithChainID sets the chain id status results report (default zero).
func WithChainID(id antelope.Checksum256) ServerOption { return func(s *Server) { s.chainID = id } }

// NewServer starts a server of src. Close it when done.
func NewServer(src BlockSource, opts ...ServerOption) *Server {
	s := NewHandler(src, opts...)
	s.http = httptest.NewServer(s)
	s.URL = "ws" + strings.TrimPrefix(s.http.URL, "http")
	return s
}

// NewHandler returns a server of src that does not listen: it serves the
// websocket requests handed to ServeHTTP, on a server of your own (URL is
// empty: set it to the address you serve it at, for your tests). Close it
// when done.
func NewHandler(src BlockSource, opts ...ServerOption) *Server {
	s := &Server{src: src, abi: protocol.ABIJSON, sessions: map[*session]bool{}}
	for _, o := range opts {
		o(s)
	}
	s.cancel = src.Subscribe(s.changed)
	return s
}

// ServeHTTP accepts a state-history websocket connection and serves it
// until it closes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.serve(w, r) }

// Close stops the server and drops every connection.
func (s *Server) Close() {
	s.cancel()
	s.DropConnections()
	if s.http != nil {
		s.http.Close()
	}
}

// DropConnections closes every open connection at once.
func (s *Server) DropConnections() {
	s.mu.Lock()
	list := make([]*session, 0, len(s.sessions))
	for ss := range s.sessions {
		list = append(list, ss)
	}
	s.mu.Unlock()
	for _, ss := range list {
		ss.conn.CloseNow()
	}
}

// DropMidMessage makes the next n block messages each stop halfway and
// their connection drop.
func (s *Server) DropMidMessage(n int) {
	s.mu.Lock()
	s.dropNext += n
	s.mu.Unlock()
}

// Stall stops (true) or resumes (false) sending blocks, keeping the
// connections open.
func (s *Server) Stall(on bool) {
	s.mu.Lock()
	s.stalled = on
	s.mu.Unlock()
	s.wakeAll()
}

// MaxInFlight is the most block messages any session had sent and not yet
// seen acknowledged: never more than the client's max_messages_in_flight.
func (s *Server) MaxInFlight() uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInFlight
}

// Connections counts the connections accepted so far.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.connections
}

// BlocksSent counts the block messages sent whole.
func (s *Server) BlocksSent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.blocksSent
}

// Requests returns the blocks requests received so far (v0 requests as v1
// with FetchFinalityData false).
func (s *Server) Requests() []protocol.GetBlocksRequestV1 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]protocol.GetBlocksRequestV1(nil), s.requests...)
}

// changed is the source's notice. It takes no session's lock and calls
// nothing of the source, so a source may call it with its own lock held —
// which is what makes a fork and the sessions' rewind one step, as on
// nodeos's main thread: a session that picks its next block after the
// change sees the rewind too (nextMessage).
func (s *Server) changed(from uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ss := range s.sessions {
		if from != 0 {
			ss.rewindTo(from) // spring's block_applied: rewind for a fork
		}
		ss.wake()
	}
}

func (s *Server) wakeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ss := range s.sessions {
		ss.wake()
	}
}

type session struct {
	conn  *websocket.Conn
	wakeC chan struct{}
	// rewind is the lowest block the source changed from since the
	// session last looked (0: none), applied to next by nextMessage.
	rewind atomic.Uint32

	mu       sync.Mutex
	active   bool // a blocks request is in force
	req      protocol.GetBlocksRequestV1
	v1       bool
	next     uint32
	credits  uint32
	inFlight uint32
	status   []bool // queued status requests: v1?
}

// rewindTo records a change from block from on.
func (ss *session) rewindTo(from uint32) {
	for {
		cur := ss.rewind.Load()
		if cur != 0 && cur <= from || ss.rewind.CompareAndSwap(cur, from) {
			return
		}
	}
}

func (ss *session) wake() {
	select {
	case ss.wakeC <- struct{}{}:
	default:
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	conn.SetReadLimit(1 << 20)
	ss := &session{conn: conn, wakeC: make(chan struct{}, 1)}
	s.mu.Lock()
	s.sessions[ss] = true
	s.connections++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.sessions, ss)
		s.mu.Unlock()
		conn.CloseNow()
	}()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	if err := conn.Write(ctx, websocket.MessageText, s.abi); err != nil {
		return
	}
	go func() {
		defer cancel()
		for {
			_, msg, err := conn.Read(ctx)
			if err != nil {
				return
			}
			if !s.request(ss, msg) {
				return
			}
			ss.wake()
		}
	}()
	s.writeLoop(ctx, ss)
}

// request applies one request; false closes the connection.
func (s *Server) request(ss *session, msg []byte) bool {
	var req protocol.Request
	if err := req.UnmarshalBinary(msg); err != nil {
		return false
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	switch v := req.Value.(type) {
	case *protocol.GetStatusRequestV0:
		ss.status = append(ss.status, false)
	case *protocol.GetStatusRequestV1:
		ss.status = append(ss.status, true)
	case *protocol.GetBlocksRequestV0:
		s.blocksRequest(ss, protocol.GetBlocksRequestV1{StartBlockNum: v.StartBlockNum, EndBlockNum: v.EndBlockNum,
			MaxMessagesInFlight: v.MaxMessagesInFlight, HavePositions: v.HavePositions, IrreversibleOnly: v.IrreversibleOnly,
			FetchBlock: v.FetchBlock, FetchTraces: v.FetchTraces, FetchDeltas: v.FetchDeltas}, false)
	case *protocol.GetBlocksRequestV1:
		s.blocksRequest(ss, *v, true)
	case *protocol.GetBlocksAckRequestV0:
		ss.credits += v.NumMessages
		ss.inFlight -= min(ss.inFlight, v.NumMessages)
	}
	return true
}

// blocksRequest replaces the session's request, as spring does: start
// lowered to the first have_position whose id the chain does not have.
func (s *Server) blocksRequest(ss *session, req protocol.GetBlocksRequestV1, v1 bool) {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	ss.rewind.Store(0) // changes before the request: it is checked against the chain as it is now
	for _, p := range req.HavePositions {
		if req.StartBlockNum <= p.BlockNum {
			continue
		}
		if b, ok := s.src.Block(p.BlockNum); !ok || b.ID != p.BlockID {
			req.StartBlockNum = min(req.StartBlockNum, p.BlockNum)
		}
	}
	req.HavePositions = nil
	ss.req, ss.v1, ss.active = req, v1, true
	ss.next = req.StartBlockNum
	ss.credits = req.MaxMessagesInFlight
	ss.inFlight = 0
}

func (s *Server) writeLoop(ctx context.Context, ss *session) {
	for {
		msg, block, drop := s.nextMessage(ss)
		if msg == nil {
			select {
			case <-ctx.Done():
				return
			case <-ss.wakeC:
			case <-time.After(50 * time.Millisecond):
			}
			continue
		}
		if drop {
			wr, err := ss.conn.Writer(ctx, websocket.MessageBinary)
			if err == nil {
				wr.Write(msg[:len(msg)/2])
			}
			ss.conn.CloseNow()
			return
		}
		if err := ss.conn.Write(ctx, websocket.MessageBinary, msg); err != nil {
			return
		}
		if block {
			s.mu.Lock()
			s.blocksSent++
			s.mu.Unlock()
		}
	}
}

// nextMessage picks what to send: status replies first, then a block if
// the credits, the range and the chain allow.
func (s *Server) nextMessage(ss *session) (msg []byte, block, drop bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if len(ss.status) > 0 {
		v1 := ss.status[0]
		ss.status = ss.status[1:]
		return s.statusMessage(v1), false, false
	}
	var head, lib uint32
	s.mu.Lock()
	stalled := s.stalled
	s.mu.Unlock()
	for {
		// The rewind is taken before the heads are read: a change after
		// the read leaves a rewind that remakes the message, while heads
		// read before a rewind taken could be older than it and let the
		// session ask for a block the change removed (this_block null).
		if from := ss.rewind.Swap(0); from != 0 && ss.active && from < ss.next {
			ss.next = from
		}
		head, lib = s.src.Heads()
		ceiling := head
		if ss.req.IrreversibleOnly {
			ceiling = lib
		}
		if !ss.active || stalled || ss.credits == 0 || ss.next > ceiling || ss.next >= ss.req.EndBlockNum {
			return nil, false, false
		}
		msg = s.blocksMessage(ss, head, lib)
		if ss.rewind.Load() == 0 {
			break
		}
		// The source changed while the message was made: it may mix the
		// branches. Rewind and make it again.
	}
	ss.next++
	ss.credits--
	ss.inFlight++
	s.mu.Lock()
	s.maxInFlight = max(s.maxInFlight, ss.inFlight)
	if s.dropNext > 0 {
		s.dropNext--
		drop = true
	}
	s.mu.Unlock()
	return msg, true, drop
}

func (s *Server) position(num uint32) protocol.BlockPosition {
	b, _ := s.src.Block(num)
	return protocol.BlockPosition{BlockNum: num, BlockID: b.ID}
}

// heads returns the head and last irreversible positions as one reading
// of the source: read again while a change between the reads removed a
// block they name or moved the heads.
func (s *Server) heads() (head, lib protocol.BlockPosition) {
	for {
		h, l := s.src.Heads()
		head, lib = s.position(h), s.position(l)
		if h2, l2 := s.src.Heads(); h2 == h && l2 == l && head.BlockID == s.position(h).BlockID {
			return head, lib
		}
	}
}

func (s *Server) statusMessage(v1 bool) []byte {
	begin := uint32(1)
	if f, ok := s.src.(interface{ FirstBlock() uint32 }); ok {
		begin = f.FirstBlock()
	}
	headPos, libPos := s.heads()
	head := headPos.BlockNum
	st := protocol.GetStatusResultV1{Head: headPos, LastIrreversible: libPos,
		TraceBeginBlock: begin, TraceEndBlock: head + 1, ChainStateBeginBlock: begin, ChainStateEndBlock: head + 1, ChainID: s.chainID}
	var r protocol.Result
	if v1 {
		r.Value = &st
	} else {
		r.Value = &protocol.GetStatusResultV0{Head: st.Head, LastIrreversible: st.LastIrreversible, TraceBeginBlock: begin,
			TraceEndBlock: head + 1, ChainStateBeginBlock: begin, ChainStateEndBlock: head + 1, ChainID: antelope.NewExt(st.ChainID)}
	}
	b, _ := r.MarshalBinary()
	return b
}

func (s *Server) blocksMessage(ss *session, head, lib uint32) []byte {
	r := protocol.GetBlocksResultV1{Head: s.position(head), LastIrreversible: s.position(lib)}
	if b, ok := s.src.Block(ss.next); ok {
		r.ThisBlock = &protocol.BlockPosition{BlockNum: b.Num, BlockID: b.ID}
		if prev, ok := s.src.Block(ss.next - 1); ok {
			r.PrevBlock = &protocol.BlockPosition{BlockNum: prev.Num, BlockID: prev.ID}
		}
		part := func(want bool, data []byte) *[]byte {
			if !want {
				return nil
			}
			if data == nil {
				data = []byte{0}
			}
			return &data
		}
		r.Block = part(ss.req.FetchBlock, b.SignedBlock)
		r.Traces = part(ss.req.FetchTraces, b.Traces)
		r.Deltas = part(ss.req.FetchDeltas, b.Deltas)
	}
	var res protocol.Result
	if ss.v1 {
		res.Value = &r
	} else {
		res.Value = &protocol.GetBlocksResultV0{Head: r.Head, LastIrreversible: r.LastIrreversible, ThisBlock: r.ThisBlock,
			PrevBlock: r.PrevBlock, Block: r.Block, Traces: r.Traces, Deltas: r.Deltas}
	}
	b, _ := res.MarshalBinary()
	return b
}
