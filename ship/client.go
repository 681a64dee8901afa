package ship

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/ship/protocol"
)

// Client streams blocks from one nodeos state-history endpoint
// (--state-history-endpoint; ws://host:8080). It holds no connection
// between calls: Status and each Stream dial their own, and a Stream
// reconnects on its own.
type Client struct {
	url           string
	shown         string // url for errors and logs: no user info or query, which may hold a secret
	dialer        Dialer
	maxMessage    int64
	window        uint32
	stall         time.Duration
	backoffMin    time.Duration
	backoffMax    time.Duration
	maxReconnects int
	logf          func(format string, args ...any)
}

// Option configures a Client.
type Option func(*Client)

// Defaults of the options.
const (
	DefaultMaxMessageSize = 256 << 20
	DefaultWindow         = 32
	DefaultStallTimeout   = 2 * time.Minute
)

// WithMaxMessageSize caps one message (default 256 MiB). The client holds
// one message at a time, so this bounds its memory.
func WithMaxMessageSize(n int64) Option { return func(c *Client) { c.maxMessage = n } }

// WithWindow sets max_messages_in_flight, the blocks the node may send
// ahead of the consumer (default 32). Each is acknowledged only after the
// handler of its event returns, so a slow consumer slows the node.
func WithWindow(n uint32) Option { return func(c *Client) { c.window = max(n, 1) } }

// WithStallTimeout reconnects (from the cursor) when no data arrives for d
// while the stream waits for some (default 2 minutes), and bounds the dial
// and websocket handshake of each attempt. A message that keeps arriving
// is not a stall however long it takes in all (a fresh log's first block
// can be hundreds of MiB). A node at the head of a live chain sends a
// block every half second; with FinalOnly, a block when one becomes
// irreversible.
func WithStallTimeout(d time.Duration) Option { return func(c *Client) { c.stall = d } }

// WithBackoff sets the delays between reconnection attempts: from min,
// doubling, up to max, with jitter (default 250 ms to 30 s).
func WithBackoff(min, max time.Duration) Option {
	return func(c *Client) { c.backoffMin, c.backoffMax = min, max }
}

// WithMaxReconnects gives up after n failed attempts in a row (default:
// never; a stream stops only on a terminal error or its context). A
// handshake the endpoint refuses with a status retrying cannot cure
// (HandshakeError.Permanent: a 404, 401, 403…, or a 200 page) before the
// stream's first session is terminal whatever n is: the address is
// wrong, and a mistyped one would otherwise be retried forever without a
// word. Once a session began, the same refusal (a node restarting behind
// a proxy) is retried under n like any other failure.
func WithMaxReconnects(n int) Option { return func(c *Client) { c.maxReconnects = n } }

// WithDialer replaces the websocket (tests, proxies, other transports).
func WithDialer(d Dialer) Option { return func(c *Client) { c.dialer = d } }

// WithLogger receives a line for each reconnection and why.
func WithLogger(logf func(format string, args ...any)) Option {
	return func(c *Client) { c.logf = logf }
}

// NewClient returns a client of the state-history endpoint at url.
func NewClient(url string, opts ...Option) *Client {
	c := &Client{url: url, shown: httpcore.RedactRawURL(url), dialer: WebSocket{}, maxMessage: DefaultMaxMessageSize, window: DefaultWindow,
		stall: DefaultStallTimeout, backoffMin: 250 * time.Millisecond, backoffMax: 30 * time.Second,
		maxReconnects: -1, logf: func(string, ...any) {}}
	for _, o := range opts {
		o(c)
	}
	return c
}

// session is one connection after the handshake.
type session struct {
	c    *Client
	conn Conn
	p    *protocolMap
	buf  []byte
}

func (c *Client) connect(ctx context.Context) (*session, error) {
	// The stall timeout bounds the handshake too: an endpoint that accepts
	// TCP and never answers is a failed attempt, not a hang.
	dctx, cancel := context.WithTimeout(ctx, c.stall)
	conn, err := c.dialer.Dial(dctx, c.url, c.maxMessage)
	// Read before cancel, which would make any dial look timed out.
	timedOut := errors.Is(dctx.Err(), context.DeadlineExceeded)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var refused *HandshakeError
		var bad *URLError
		switch {
		case errors.As(err, &bad):
			return nil, fmt.Errorf("ship: %q: %w", c.shown, err) // terminal: not transient
		case errors.As(err, &refused):
			// nodeos's state_history_plugin accepts the websocket on any
			// path (boost::beast's async_accept, no target check) and
			// answers 400 or 426 only to a request that is not a websocket
			// upgrade, which this client never sends: a 404 is the chain
			// API's port (the http_plugin's "Unknown Endpoint") or another
			// server, or a proxy's wrong path; a 401 or 403 a proxy's
			// credentials; a 200 the chain API's own endpoints (its
			// beast_http_session answers any method there) or a web page.
			return nil, &transientError{fmt.Errorf("ship: %s: %w: is this the --state-history-endpoint address (ws://host:8080), not the chain API's, with the path and credentials a proxy in front expects?", c.shown, err)}
		case timedOut:
			err = fmt.Errorf("no handshake within %v: %w", c.stall, err)
		}
		return nil, &transientError{fmt.Errorf("ship: cannot connect to %s: %w (is nodeos running with the state_history_plugin and --state-history-endpoint?)", c.shown, err)}
	}
	s := &session{c: c, conn: conn}
	text, msg, err := s.read(ctx)
	if err != nil {
		conn.Close()
		return nil, err
	}
	if !text {
		conn.Close()
		return nil, fmt.Errorf("ship: %s sent a binary message first; a state-history endpoint sends its ABI as text: is this the --state-history-endpoint address?", c.shown)
	}
	if s.p, err = negotiate(msg); err != nil {
		conn.Close()
		return nil, err
	}
	return s, nil
}

// errStall cancels a read that received no bytes for the stall timeout.
var errStall = errors.New("stalled")

// read reads one message. It fails as stalled when no bytes arrive for the
// stall timeout: a long message that keeps arriving is not a stall (the
// Conn reports its bytes with Progress).
func (s *session) read(ctx context.Context) (bool, []byte, error) {
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	watchdog := time.AfterFunc(s.c.stall, func() { cancel(errStall) })
	defer watchdog.Stop()
	rctx = context.WithValue(rctx, progressKey{}, func() { watchdog.Reset(s.c.stall) })
	text, msg, err := s.conn.ReadMessage(rctx, s.buf)
	if err != nil {
		var tooLarge *MessageTooLargeError
		switch {
		case errors.As(err, &tooLarge):
			return false, nil, err
		case ctx.Err() != nil:
			return false, nil, ctx.Err()
		case errors.Is(context.Cause(rctx), errStall):
			return false, nil, &transientError{fmt.Errorf("ship: no data from %s for %v: the node stalled", s.c.shown, s.c.stall)}
		}
		return false, nil, &transientError{fmt.Errorf("ship: reading from %s: %w", s.c.shown, err)}
	}
	if cap(msg) > cap(s.buf) {
		s.buf = msg[:0]
	}
	return text, msg, nil
}

func (s *session) send(ctx context.Context, member string, body antelope.BinaryAppender) error {
	idx, ok := s.p.requests[member]
	if !ok {
		return fmt.Errorf("ship: the node's ABI has no %s", member)
	}
	msg := antelope.AppendVarUint32(nil, idx)
	msg, err := body.AppendBinary(msg)
	if err != nil {
		return err
	}
	if err := s.conn.WriteMessage(ctx, msg); err != nil {
		return &transientError{fmt.Errorf("ship: writing to %s: %w", s.c.shown, err)}
	}
	return nil
}

func (s *session) status(ctx context.Context) (Status, error) {
	member, ok := s.p.statusRequest()
	if !ok {
		return Status{}, fmt.Errorf("ship: the node's ABI has no status request this client knows")
	}
	if err := s.send(ctx, member, &protocol.GetStatusRequestV0{}); err != nil {
		return Status{}, err
	}
	// The session is new and asked nothing else: spring answers requests in
	// order, so the next result is the status. Anything else is a broken
	// node; skipping it would spin for as long as the node sends.
	_, msg, err := s.read(ctx)
	if err != nil {
		return Status{}, err
	}
	name, w, err := s.p.resultKind(msg)
	if err != nil {
		return Status{}, err
	}
	if name != "get_status_result_v0" && name != "get_status_result_v1" {
		return Status{}, broken("%s answered get_status with %s", s.c.shown, name)
	}
	return parseStatus(name, w.data[w.pos:])
}

// Status asks the node what it serves.
func (c *Client) Status(ctx context.Context) (Status, error) {
	s, err := c.connect(ctx)
	if err != nil {
		return Status{}, unwrapTransient(err)
	}
	defer s.conn.Close()
	st, err := s.status(ctx)
	return st, unwrapTransient(err)
}

// transientError is a failure a reconnection may cure.
type transientError struct{ err error }

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }

func unwrapTransient(err error) error {
	var t *transientError
	if errors.As(err, &t) {
		return t.err
	}
	return err
}

// backoff is the delay before attempt n (1-based).
func (c *Client) backoff(n int) time.Duration {
	d := c.backoffMin
	for i := 1; i < n && d < c.backoffMax; i++ {
		d *= 2
	}
	d = min(d, c.backoffMax)
	if d <= 0 {
		return 0
	}
	return d/2 + rand.N(d/2+1) // jitter: several clients do not retry in step
}
