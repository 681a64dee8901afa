package chaintest

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/shiptest"
	"github.com/coder/websocket"
)

// The chain's state-history endpoint: package shiptest's server over the
// chain's own blocks (shipblock.go), on the chain's server at /ship — or,
// for a chain made WithoutNetwork, over in-memory connections that only
// SHiPClient and HTTPClient reach.

// shipPath is where the chain's server serves state history.
const shipPath = "/ship"

// SHiPURL is the chain's state-history (SHiP) websocket address, for
// ship.NewClient; for a chain made WithoutNetwork, an address only
// SHiPClient and HTTPClient reach.
func (c *Chain) SHiPURL() string {
	if c.srv == nil {
		return "ws" + strings.TrimPrefix(inProcessURL, "http") + shipPath
	}
	return "ws" + strings.TrimPrefix(c.srv.URL, "http") + shipPath
}

// SHiPClient returns a ship.Client of the chain's state history (any
// options after the chain's own: reconnection backoff of 1 to 50 ms, so
// that tests of faults run fast). It reaches a chain made WithoutNetwork
// too.
func (c *Chain) SHiPClient(opts ...ship.Option) *ship.Client {
	base := []ship.Option{ship.WithDialer(ship.WebSocket{Options: &websocket.DialOptions{HTTPClient: c.HTTPClient()}}),
		ship.WithBackoff(time.Millisecond, 50*time.Millisecond)}
	return ship.NewClient(c.SHiPURL(), append(base, opts...)...)
}

// SHiP returns the chain's state-history endpoint, for its faults and
// counters: DropMidMessage, Stall, DropConnections, MaxInFlight,
// BlocksSent, Requests (see shiptest.Server). Its URL is SHiPURL.
//
// It serves the chain's blocks as nodeos's state_history_plugin with
// --trace-history, --chain-state-history and --trace-history-debug-mode
// serves them: each block's signed block, its transaction traces and its
// table deltas (see BlockSource), with credits, have_positions and a
// rewind of every reader when a fork replaces blocks it was sent.
func (c *Chain) SHiP() *shiptest.Server {
	l := &c.blocklog
	l.shipOnce.Do(func() {
		s := shiptest.NewHandler(c.BlockSource(), shiptest.WithChainID(c.engine.ChainID))
		s.URL = c.SHiPURL()
		var pipe *pipeListener
		var transport http.RoundTripper
		if c.srv == nil {
			pipe = newPipeListener()
			go (&http.Server{Handler: s, ReadHeaderTimeout: time.Minute}).Serve(pipe)
			transport = &http.Transport{DialContext: pipe.dial, DisableKeepAlives: true}
		}
		c.mu.Lock()
		l.ship, l.pipe, l.transport = s, pipe, transport
		c.mu.Unlock()
	})
	return l.ship
}

// closeSHiP stops the state-history endpoint, if it was started.
func (c *Chain) closeSHiP() {
	c.mu.Lock()
	s, pipe := c.blocklog.ship, c.blocklog.pipe
	c.mu.Unlock()
	if s != nil {
		s.Close()
	}
	if pipe != nil {
		pipe.Close()
	}
}

// BlockSource returns the chain as a shiptest.BlockSource, to serve with
// options of your own (shiptest.NewServer(node.BlockSource(),
// shiptest.WithABI(…))). SHiP serves it on the chain's own server.
//
// Block n is the chain's block n: its header (id, previous id, time,
// producer eosio) and signed block with its transaction (as sent); its
// traces — transaction_trace_v0 with partial, action_trace_v1 by action
// ordinal with receipts (global, receiver and authorizer sequences, code
// and ABI sequences, act_digest), notifications as traces of their own,
// creator ordinals, authorization, console, RAM deltas and return values;
// every transaction executed (failed ones are refused, never in a block;
// chaintest has no deferred transactions and no onblock) — and its
// deltas: account (a created account, an ABI set), contract_table,
// contract_row and the five contract_index tables, as nodeos's undo
// session gives them (modified, then removed with their old values, then
// created; each by table and primary key). The chain's first block (1,
// or WithStartBlock's) is the log's first block: its deltas hold the
// whole state, as a fresh state-history log's first block does.
//
// Its Subscribe calls changed with the chain locked, as each change is
// made: changed must not call the chain.
func (c *Chain) BlockSource() shiptest.BlockSource { return chainSource{c} }

type chainSource struct{ c *Chain }

// FirstBlock is the chain's first block (WithStartBlock), where the
// state-history status says its logs begin.
func (s chainSource) FirstBlock() uint32 { return s.c.opts.firstBlock }

func (s chainSource) Heads() (head, lastIrreversible uint32) {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	return s.c.headNum(), s.c.lastIrreversible()
}

func (s chainSource) Block(num uint32) (shiptest.Block, bool) {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	if s.c.block(num) == nil {
		return shiptest.Block{}, false
	}
	return s.c.shipBlock(num), true
}

func (s chainSource) Subscribe(changed func(from uint32)) (cancel func()) {
	return s.c.subscribe(changed)
}

// shipTransport is the HTTP transport of a chain made WithoutNetwork's
// state-history connections: in-memory pipes to its endpoint.
func (c *Chain) shipTransport() http.RoundTripper {
	c.SHiP()
	return c.blocklog.transport
}

// pipeListener is a net.Listener of in-memory connections (net.Pipe).
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case conn := <-l.conns:
		return conn, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		err := net.ErrClosed
		client.Close()
		server.Close()
		return nil, err
	case <-ctx.Done():
		client.Close()
		server.Close()
		return nil, ctx.Err()
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "chaintest" }
