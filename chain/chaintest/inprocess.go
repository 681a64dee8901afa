package chaintest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/internal/inproc"
)

// inProcessURL is the address a chain made WithoutNetwork answers at: it
// names no host, so a request that escapes the in-process client fails
// rather than reaching something real.
const inProcessURL = "http://chaintest.invalid"

// inProcessAuthURL is where the token service of a chain made
// WithoutNetwork answers: another address, as AuthURL is over a network.
const inProcessAuthURL = "http://auth.chaintest.invalid"

// WithoutNetwork makes New start no HTTP servers: the chain is reached only
// through Client, State and HTTPClient, which call it directly in the same
// process, with no socket, port or goroutine of a server. The API and every
// fault are the same: a lost answer is a transport error, a truncated one a
// body that ends early. State history (SHiPClient, or HTTPClient at
// SHiPURL), being a websocket, runs over in-memory connections (net.Pipe)
// to the same endpoint, served from the first one on.
//
// A request runs on the caller's goroutine when no other request of the
// chain is under way and no Delay is set; otherwise on a goroutine of its
// own, so that a client giving up (its context) does not wait for the
// requests before it or for a delay. A request run on the caller's
// goroutine holds it until the chain has answered (a Go handler that
// blocks holds it as long), and its answer is lost if the caller's
// context ended meanwhile, as over a network: the work is done.
func WithoutNetwork() Option { return func(o *options) { o.inProcess = true } }

// HTTPClient is an http.Client that reaches this chain at URL and AuthURL:
// the httptest servers' client, or for a chain made WithoutNetwork one that
// calls the chain directly. Use it for clients of your own (fetch's, say).
func (c *Chain) HTTPClient() *http.Client {
	if c.srv != nil {
		return c.srv.Client()
	}
	return &http.Client{Transport: inProcess{c}}
}

// inProcess is an http.RoundTripper serving requests with the chain's own
// handler.
type inProcess struct{ c *Chain }

func (t inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	refuse := func(err error) (*http.Response, error) {
		if req.Body != nil {
			req.Body.Close() // a RoundTripper closes the body, even on errors
		}
		return nil, err
	}
	if err := req.Context().Err(); err != nil {
		return refuse(err)
	}
	handler := t.c.serve
	switch req.URL.Scheme + "://" + req.URL.Host {
	case inProcessURL:
	case inProcessAuthURL:
		handler = t.c.serveAuth
	default:
		return refuse(fmt.Errorf("chaintest: %s is not this chain (%s)", req.URL.Redacted(), inProcessURL))
	}
	if req.URL.Path == shipPath {
		return t.c.shipTransport().RoundTrip(req) // a websocket: over an in-memory connection
	}
	// The handler's request is the client's, as a server would see it.
	body := req.Body
	if body == nil {
		body = http.NoBody
	}
	if t.c.inFlight.Add(1) == 1 && !t.c.faults.Delaying() {
		// Nothing else is under way and nothing will sleep: the request
		// runs here, as the chain would run it at once, without a
		// goroutine's start and two thread wakeups (a tenth of a
		// one-transfer Transact). Had the client given up meanwhile, its
		// answer is lost, as over a network; the work is done.
		defer t.c.inFlight.Add(-1)
		// A shallow copy: the handler is done before RoundTrip returns,
		// so the client cannot change what it shares meanwhile (a deep
		// copy was a tenth of a one-transfer Transact's allocations).
		in := *req
		in.Body = body
		resp, err := t.serve(req, &in, handler)
		if cerr := req.Context().Err(); cerr != nil {
			if resp != nil {
				resp.Body.Close()
			}
			return nil, cerr
		}
		return resp, err
	}
	type result struct {
		resp *http.Response
		err  error
	}
	// The handler may run on after the client has given up and gone on
	// with what it shares with its request: a deep copy.
	in := req.Clone(req.Context())
	in.Body = body
	done := make(chan result, 1)
	// The handler runs apart so that a client giving up (its context) does
	// not wait for it, as over a network: the chain still does the work,
	// after the requests before it and any delay injected. A goroutine of
	// its own, not a kept worker: one kept would outlive a synctest bubble
	// it was started in, and hold synctest.Test (a request on this path
	// waits for another or a delay anyway; the idle chain's runs inline).
	go func() {
		defer t.c.inFlight.Add(-1)
		resp, err := t.serve(req, in, handler)
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
}

// serve runs the chain's handler for one request and turns what it wrote
// into the client's response.
func (t inProcess) serve(req, in *http.Request, handler http.HandlerFunc) (resp *http.Response, err error) {
	w := &answer{header: http.Header{}}
	defer func() {
		if req.Body != nil {
			req.Body.Close()
		}
		r := recover()
		if r == nil {
			resp = w.response(req, nil)
			return
		}
		if r != http.ErrAbortHandler {
			// As net/http does: a panic while serving (a handler's is
			// already a failed transaction; this is chaintest's own) is
			// logged with its stack and drops the connection.
			log.Printf("chaintest: panic serving %s (in process): %v\n%s", req.URL.Path, r, debug.Stack())
		}
		// The handler dropped the connection: nothing answered is a lost
		// answer; a part of one is a body that ends early.
		if !w.wrote || r != http.ErrAbortHandler {
			resp, err = nil, errors.New("chaintest: connection closed before an answer (in process)")
			return
		}
		resp, err = w.response(req, io.ErrUnexpectedEOF), nil
	}()
	handler(w, in)
	return
}

// answer is the http.ResponseWriter of an in-process request. It is no
// http.Hijacker, so dropConnection aborts the handler, which RoundTrip
// turns into the client's view of a dropped connection.
type answer struct {
	header http.Header
	status int
	body   bytes.Buffer
	wrote  bool
}

func (a *answer) Header() http.Header { return a.header }

func (a *answer) WriteHeader(status int) {
	if !a.wrote {
		a.status, a.wrote = status, true
	}
}

func (a *answer) Write(p []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	return a.body.Write(p)
}

// response is the answer as the client receives it; a non-nil cut makes
// its body end with that error after what was written.
func (a *answer) response(req *http.Request, cut error) *http.Response {
	if !a.wrote {
		a.WriteHeader(http.StatusOK)
	}
	var body io.Reader = bytes.NewReader(a.body.Bytes())
	length := int64(a.body.Len())
	if cut != nil {
		body = io.MultiReader(body, errReader{cut})
		if n, err := strconv.ParseInt(a.header.Get("Content-Length"), 10, 64); err == nil {
			length = n
		}
	}
	return &http.Response{
		Status:        strconv.Itoa(a.status) + " " + http.StatusText(a.status),
		StatusCode:    a.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        a.header,
		Body:          io.NopCloser(body),
		ContentLength: length,
		Request:       req,
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// handoffSize is how many answered traces a chain keeps for its clients
// to take: one per send under way is enough; more concurrent sends than
// that decode their answers, as over a network.
const handoffSize = 8

// handoff keeps the traces of the last transactions answered in process,
// decoded, with the answers written (internal/inproc): chain.Client takes
// the one kept with an answer equal to the one it received instead of
// decoding it again.
type handoff struct {
	mu   sync.Mutex
	kept [handoffSize]*inproc.Trace
	next int
}

func (h *handoff) keep(t *inproc.Trace) {
	h.mu.Lock()
	h.kept[h.next] = t
	h.next = (h.next + 1) % handoffSize
	h.mu.Unlock()
}

// take returns and forgets the trace of id kept with an answer equal to
// answer; nil when there is none.
func (h *handoff) take(id antelope.Checksum256, answer []byte) *inproc.Trace {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, t := range h.kept {
		if t != nil && t.ID == id && bytes.Equal(t.Answer, answer) {
			h.kept[i] = nil
			return t
		}
	}
	return nil
}

// TakeTrace implements inproc.Source for chain.Client.
func (t inProcess) TakeTrace(id antelope.Checksum256, answer []byte) *inproc.Trace {
	return t.c.handoff.take(id, answer)
}

var _ inproc.Source = inProcess{}
