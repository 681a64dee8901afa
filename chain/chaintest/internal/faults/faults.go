package faults

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Injector holds the faults to inject: what a real network and node do to
// requests, so that a client's retry paths (and a user's) can be tested.
// Each applies to the next n requests of any endpoint, the token service's
// included: this is chaintest's one fault injector. The zero Injector
// injects nothing but needs its Answers (New); it is safe for concurrent
// use.
type Injector struct {
	answers Answers // set once by New

	// Guarded by mu, as every field below.
	retryAfter time.Duration // a 429's Retry-After
	oversize   int           // answer 200 with a body of oversizeN bytes instead of the chain's
	oversizeN  int64

	mu        sync.Mutex
	failNext  int // answer with failCode before doing anything
	failCode  int
	loseNext  int // do the work, then drop the connection: the answer is lost
	truncNext int // do the work, then send half the answer and drop it
	delay     time.Duration
	hostile   map[Misbehavior]int // see Misbehave
	turns     []Misbehavior       // see MisbehaveInTurn
	samePage  map[string][]byte   // SamePage's first answer per endpoint
}

// Answers are the nodeos error answers (HTTP status and JSON body) some
// misbehaviors give. The chain makes them, in the one nodeos error envelope
// it answers every failure with, so that this package need not know it.
type Answers struct {
	// Timeout is fc's timeout_exception, as nodeos answers when its
	// http-max-response-time-ms strikes.
	Timeout func() (int, any)
	// Lagging is invalid_ref_block_exception, as a node behind the
	// others refuses a transaction whose reference block it has not seen.
	Lagging func() (int, any)
	// RetryUnsupported is unsupported_feature, as a node with
	// transaction-retry-max-storage-size-gb 0 refuses retry_trx.
	RetryUnsupported func() (int, any)
}

// New returns an Injector that injects nothing yet, answering with answers.
func New(answers Answers) *Injector { return &Injector{answers: answers} }

// FailNext makes the next n requests fail with HTTP status (a proxy's 502,
// 503…) before the chain sees them; a 429 says Retry-After: 2.
func (f *Injector) FailNext(n, status int) {
	f.mu.Lock()
	f.failNext, f.failCode, f.retryAfter = n, status, 2*time.Second
	f.mu.Unlock()
}

// RateLimitNext makes the next n requests answer 429 Too Many Requests
// with Retry-After (whole seconds) before the chain sees them.
func (f *Injector) RateLimitNext(n int, retryAfter time.Duration) {
	f.mu.Lock()
	f.failNext, f.failCode, f.retryAfter = n, http.StatusTooManyRequests, retryAfter
	f.mu.Unlock()
}

// OversizeNext makes the next n requests answer 200 with a body of size
// bytes (white space) instead of the chain's answer, as a broken proxy or
// a hostile node does: a client must refuse it, not read it whole.
func (f *Injector) OversizeNext(n int, size int64) {
	f.mu.Lock()
	f.oversize, f.oversizeN = n, size
	f.mu.Unlock()
}

// LoseNextAnswers makes the chain do the next n requests — execute a
// transaction, too — and then drop the connection without an answer.
func (f *Injector) LoseNextAnswers(n int) {
	f.mu.Lock()
	f.loseNext = n
	f.mu.Unlock()
}

// TruncateNext makes the next n answers stop halfway.
func (f *Injector) TruncateNext(n int) {
	f.mu.Lock()
	f.truncNext = n
	f.mu.Unlock()
}

// Delay delays every answer by d (0 removes it).
func (f *Injector) Delay(d time.Duration) {
	f.mu.Lock()
	f.delay = d
	f.mu.Unlock()
}

// Delaying tells whether answers are delayed (Delay); a nil Injector
// delays none.
func (f *Injector) Delaying() bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.delay > 0
}

// Before applies the faults that strike before the request is handled; it
// reports whether the request was answered already, and the
// MisbehaveInTurn step that after applies (-1: none).
func (f *Injector) Before(w http.ResponseWriter, path string, body []byte) (bool, Misbehavior) {
	f.mu.Lock()
	delay := f.delay
	fail := f.failNext > 0
	code, retryAfter := f.failCode, f.retryAfter
	if fail {
		f.failNext--
	}
	oversize, size := !fail && f.oversize > 0, f.oversizeN
	if oversize {
		f.oversize--
	}
	f.mu.Unlock()
	if delay > 0 {
		time.Sleep(delay)
	}
	if oversize {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		chunk := bytes.Repeat([]byte(" "), 64<<10)
		for n := int64(0); n < size; n += int64(len(chunk)) {
			if _, err := w.Write(chunk[:min(int64(len(chunk)), size-n)]); err != nil {
				break
			}
		}
		return true, -1
	}
	if fail {
		if code == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", strconv.Itoa(int(retryAfter/time.Second)))
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(code)
		_, _ = w.Write([]byte("<html><body>" + strconv.Itoa(code) + " " + http.StatusText(code) + "</body></html>"))
		return true, -1
	}
	return f.hostileBefore(w, path, body)
}

// After writes the answer, or loses or truncates it.
func (f *Injector) After(w http.ResponseWriter, path string, step Misbehavior, status int, body []byte) {
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
