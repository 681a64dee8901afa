package ship

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/coder/websocket"
)

// Conn is one message-oriented connection to a state-history endpoint: what
// the client needs of a websocket. Dialer makes them; a test or another
// transport can stand in for the websocket.
type Conn interface {
	// ReadMessage reads the next message. text reports a text frame (the
	// server's ABI); the result may reuse buf's memory, and the client
	// passes the last result back as the next buf: return memory the
	// caller may overwrite (a copy of anything the Conn keeps). A message longer
	// than the dialer's limit is a *MessageTooLargeError.
	ReadMessage(ctx context.Context, buf []byte) (text bool, msg []byte, err error)
	// WriteMessage sends one binary message.
	WriteMessage(ctx context.Context, msg []byte) error
	// Close closes the connection.
	Close() error
}

// progressKey carries a read's stall watchdog reset (Progress).
type progressKey struct{}

// Progress tells the stream that bytes of the message being read arrived:
// a Conn calls it from ReadMessage, with ReadMessage's ctx, as data comes
// in, so that a long message that keeps arriving is not taken for a stall
// (WithStallTimeout is no bytes for that long). A Conn that never calls it
// has the stall timeout bound each whole message. The WebSocket dialer's
// connections call it.
func Progress(ctx context.Context) { progressFunc(ctx)() }

func progressFunc(ctx context.Context) func() {
	if f, ok := ctx.Value(progressKey{}).(func()); ok {
		return f
	}
	return func() {}
}

// Dialer opens connections.
type Dialer interface {
	// Dial connects to url; no message may exceed maxMessageSize bytes.
	// ctx bounds the dial and handshake only (the client gives it the
	// stall timeout); the connection outlives it.
	Dial(ctx context.Context, url string, maxMessageSize int64) (Conn, error)
}

// MessageTooLargeError is a message over the size cap (WithMaxMessageSize).
// The first block of a fresh state-history log carries the whole chain
// state and can be gigabytes; so can a block with very large transactions.
type MessageTooLargeError struct {
	Limit int64 // the cap in force
}

// Error implements error.
func (e *MessageTooLargeError) Error() string {
	return fmt.Sprintf("ship: the node sent a message over the %d-byte limit: raise it with ship.WithMaxMessageSize (a fresh log's first block carries the whole chain state), or start after that block", e.Limit)
}

// WebSocket is the default Dialer: github.com/coder/websocket, with its
// 32 KiB read limit raised to the client's message-size cap.
type WebSocket struct {
	// Options are passed to websocket.Dial (HTTP client, headers); nil is
	// fine. The handshake follows at most ten redirects, and none to
	// another origin when Options sets headers (they may hold an API key).
	Options *websocket.DialOptions
}

// HandshakeError is an endpoint's refusal of the websocket handshake: it
// answered with an HTTP status other than 101 Switching Protocols. A Dialer
// returns it (wrapped or not) so that the client can tell a refusal that
// retrying cannot cure (a wrong address) from one it may (a node behind a
// proxy restarting); WebSocket does.
type HandshakeError struct {
	StatusCode int // the HTTP status, such as 404
}

// Error implements error.
func (e *HandshakeError) Error() string {
	if e.StatusCode < 400 {
		return fmt.Sprintf("the websocket handshake was answered with HTTP %d %s, as a plain web page: no websocket is served there", e.StatusCode, http.StatusText(e.StatusCode))
	}
	return fmt.Sprintf("the websocket handshake was refused with HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
}

// Permanent reports whether retrying cannot cure the refusal: a 4xx status
// (the request is wrong for this endpoint: the path, the credentials, not
// a websocket at all) other than those that say "not now": 408 Request
// Timeout, 425 Too Early and 429 Too Many Requests; and a 2xx or 3xx (a
// redirect the HTTP client did not follow, or one it followed to such an
// answer): the server took the handshake for a plain request, a page. 5xx
// (a proxy whose node is down) may heal.
func (e *HandshakeError) Permanent() bool {
	switch e.StatusCode {
	case http.StatusRequestTimeout, http.StatusTooEarly, http.StatusTooManyRequests:
		return false
	}
	return e.StatusCode >= 200 && e.StatusCode < 500
}

// URLError is an endpoint address no network can make dialable: not a
// URL, a scheme other than ws, wss, http or https, no host, a port outside
// 1 to 65535, or an '@' after the host (user info whose '/', '?' or '#' is
// not percent-encoded, which would make part of a password or token the
// host). WebSocket returns it before dialing, and a stream ends with it
// at once: retrying the same address would fail the same way forever.
type URLError struct {
	Reason string // what is wrong with the address, without the address
}

// Error implements error.
func (e *URLError) Error() string {
	return "not a state-history endpoint address (ws://host:port or wss://host:port/path): " + e.Reason
}

// CheckURL reports what makes url an address no network can make
// dialable (a *URLError, quoting no part of it), or nil: what a stream
// would end with at once, checked without a stream, so that a command can
// refuse a mistyped address as a usage error before it does anything else.
func CheckURL(url string) error { return checkDialURL(url) }

// quoted matches a Go-quoted string and the space before it.
var quoted = regexp.MustCompile(` ?"(?:[^"\\]|\\.)*"`)

// escapeHint says how to write a password or token that holds a URL
// delimiter.
const escapeHint = ": a password or token in the user info must have its '/', '?' and '#' percent-encoded (%2F, %3F, %23)"

// checkDialURL reports what makes raw undialable. Its messages never
// quote raw, which may carry user info or a token in its query.
func checkDialURL(raw string) error {
	u, err := neturl.Parse(raw)
	if err != nil {
		var ue *neturl.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL
		}
		if strings.HasPrefix(err.Error(), "invalid port") {
			// It quotes the "port": a password holding a '/', '?' or '#'
			// ("me:s3cret/x@host") makes its first part one.
			return &URLError{Reason: "an invalid port after the host" + escapeHint}
		}
		// Without what it quotes (an escape "%Q/", a character of the
		// host): part of a password, perhaps.
		return &URLError{Reason: quoted.ReplaceAllString(err.Error(), "")}
	}
	if httpcore.AtAfterHost(raw) {
		return &URLError{Reason: "an '@' after the host" + escapeHint + "; an '@' meant in the path or query, as %40"}
	}
	switch u.Scheme {
	case "ws", "wss", "http", "https":
	case "":
		return &URLError{Reason: "no scheme"}
	default:
		return &URLError{Reason: fmt.Sprintf("the scheme %q", u.Scheme)}
	}
	if u.Host == "" {
		return &URLError{Reason: "no host"}
	}
	if p := u.Port(); p != "" {
		// Parse keeps any run of digits; no network dials port 0 or one
		// above 65535 ("dial tcp: invalid port" on every retry).
		if n, err := strconv.ParseUint(p, 10, 16); err != nil || n == 0 {
			return &URLError{Reason: "a port outside 1 to 65535"}
		}
	}
	return nil
}

// Dial implements Dialer.
func (d WebSocket) Dial(ctx context.Context, url string, maxMessageSize int64) (Conn, error) {
	if err := checkDialURL(url); err != nil {
		return nil, err
	}
	c, resp, err := websocket.Dial(ctx, url, d.options())
	status := 0
	if resp != nil {
		status = resp.StatusCode
		if resp.Body != nil {
			resp.Body.Close()
		}
	}
	if err != nil {
		if status != 0 && status != http.StatusSwitchingProtocols {
			return nil, &HandshakeError{StatusCode: status}
		}
		var ue *neturl.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, whose query or user info may hold a secret
		}
		return nil, err
	}
	c.SetReadLimit(maxMessageSize)
	return &wsConn{c: c, limit: maxMessageSize}, nil
}

// options is d.Options with a redirect policy: at most ten redirects, as
// net/http's default (the websocket library's own had no limit: a
// redirect loop spun until the stall timeout, hammering the server), and
// none to another origin when the options set headers (an API key), which
// net/http would forward there, all but Authorization and cookies.
func (d WebSocket) options() *websocket.DialOptions {
	var o websocket.DialOptions
	if d.Options != nil {
		o = *d.Options
	}
	h := http.DefaultClient
	if o.HTTPClient != nil {
		h = o.HTTPClient
	}
	client := *h
	next, headers := h.CheckRedirect, len(o.HTTPHeader) > 0
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if headers && !httpcore.SameOrigin(via[0].URL, req.URL) {
			return fmt.Errorf("refused to follow a redirect to another origin (%s) with the headers WebSocket.Options sets", httpcore.RedactURL(req.URL))
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	o.HTTPClient = &client
	return &o
}

type wsConn struct {
	c     *websocket.Conn
	limit int64
}

func (w *wsConn) ReadMessage(ctx context.Context, buf []byte) (bool, []byte, error) {
	typ, r, err := w.c.Reader(ctx)
	if err != nil {
		return false, nil, w.mapErr(err)
	}
	progress := progressFunc(ctx)
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if n > 0 {
			progress()
		}
		if err == io.EOF {
			return typ == websocket.MessageText, buf, nil
		}
		if err != nil {
			return false, nil, w.mapErr(err)
		}
	}
}

func (w *wsConn) mapErr(err error) error {
	if errors.Is(err, websocket.ErrMessageTooBig) {
		return &MessageTooLargeError{Limit: w.limit}
	}
	return err
}

func (w *wsConn) WriteMessage(ctx context.Context, msg []byte) error {
	return w.c.Write(ctx, websocket.MessageBinary, msg)
}

func (w *wsConn) Close() error { return w.c.CloseNow() }
