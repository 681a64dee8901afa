package chaintest

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Faults are what a real network and node do to requests, injected so that
// a client's retry paths (and a user's) can be tested. Each applies to the
// next n requests of any endpoint.
type faults struct {
	mu        sync.Mutex
	failNext  int // answer with failCode before doing anything
	failCode  int
	loseNext  int // do the work, then drop the connection: the answer is lost
	truncNext int // do the work, then send half the answer and drop it
	delay     time.Duration
	hostile   map[Misbehavior]int // see Misbehave (hostile.go)
	turns     []Misbehavior       // see MisbehaveInTurn
	samePage  map[string][]byte   // SamePage's first answer per endpoint
}

// FailNext makes the next n requests fail with HTTP status (a proxy's 502,
// 503…) before the chain sees them; a 429 says Retry-After: 2.
func (c *Chain) FailNext(n, status int) {
	c.faults.mu.Lock()
	c.faults.failNext, c.faults.failCode = n, status
	c.faults.mu.Unlock()
}

// LoseNextAnswers makes the chain do the next n requests — execute a
// transaction, too — and then drop the connection without an answer.
func (c *Chain) LoseNextAnswers(n int) {
	c.faults.mu.Lock()
	c.faults.loseNext = n
	c.faults.mu.Unlock()
}

// TruncateNext makes the next n answers stop halfway.
func (c *Chain) TruncateNext(n int) {
	c.faults.mu.Lock()
	c.faults.truncNext = n
	c.faults.mu.Unlock()
}

// Delay delays every answer by d (0 removes it).
func (c *Chain) Delay(d time.Duration) {
	c.faults.mu.Lock()
	c.faults.delay = d
	c.faults.mu.Unlock()
}

// before applies the faults that strike before the request is handled; it
// reports whether the request was answered already, and the
// MisbehaveInTurn step that after applies (-1: none).
func (f *faults) before(w http.ResponseWriter, path string, body []byte) (bool, Misbehavior) {
	f.mu.Lock()
	delay := f.delay
	fail := f.failNext > 0
	code := f.failCode
	if fail {
		f.failNext--
	}
	f.mu.Unlock()
	if delay > 0 {
		time.Sleep(delay)
	}
	if fail {
		if code == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "2")
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(code)
		_, _ = w.Write([]byte("<html><body>" + strconv.Itoa(code) + " " + http.StatusText(code) + "</body></html>"))
		return true, -1
	}
	return f.hostileBefore(w, path, body)
}

// after writes the answer, or loses or truncates it.
func (f *faults) after(w http.ResponseWriter, path string, step Misbehavior, status int, body []byte) {
	status, body, framed, lose := f.hostileAfter(path, step, status, body)
	f.mu.Lock()
	if !lose && f.loseNext > 0 {
		f.loseNext--
		lose = true
	}
	trunc := !lose && f.truncNext > 0
	if trunc {
		f.truncNext--
	}
	f.mu.Unlock()
	if lose {
		dropConnection(w)
		return
	}
	if status == http.StatusGatewayTimeout {
		w.Header().Set("Content-Type", "text/html")
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	if framed {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	if trunc {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(status)
		_, _ = w.Write(body[:len(body)/2])
		dropConnection(w)
		return
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// dropConnection closes the connection under the handler, after what was
// written so far (Hijack flushes it).
func dropConnection(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}
