package hyperion

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/antelopego/abigen/chain/httpcore"
)

// Error is an error answer of Hyperion: Fastify's {statusCode, error,
// message} (a 400 in 4.x, a 500 in 3.x for a bad parameter; 429 when
// rate-limited, with its wait), or get_deltas' bare message string.
type Error struct {
	Route      string        // "get_actions", …
	Status     int           // HTTP status
	Code       string        // Fastify's "code" (FST_ERR_VALIDATION), when it sent one
	Message    string        // what Hyperion said, scrubbed of credentials
	RetryAfter time.Duration // the wait a 429 asked for (Retry-After, X-RateLimit-Reset)
	// MaxLimit is the largest limit the node accepts, when it refused a
	// larger one ("limit too big, maximum: 1000"); 0 otherwise.
	MaxLimit int
	Err      error // the transport's error (*httpcore.HTTPError), if any
}

// Error implements error.
func (e *Error) Error() string {
	if e.Err != nil {
		return "hyperion " + e.Route + ": " + e.Err.Error()
	}
	return httpcore.Scrub(fmt.Sprintf("hyperion %s: HTTP %d: %s", e.Route, e.Status, e.Message))
}

// Unwrap returns the transport's error.
func (e *Error) Unwrap() error { return e.Err }

// RateLimited reports a 429.
func (e *Error) RateLimited() bool { return e.Status == 429 }

var maxLimitRE = regexp.MustCompile(`limit too big, maximum: (\d+)`)

// fromTransport turns the HTTP core's error into an *Error.
func fromTransport(route string, err error) error {
	var he *httpcore.HTTPError
	if !errors.As(err, &he) || he.Status == 0 {
		return fmt.Errorf("hyperion %s: %w", route, err)
	}
	e := &Error{Route: route, Status: he.Status, Code: he.Code, Message: he.Message, RetryAfter: he.RetryAfter, Err: he}
	if m := maxLimitRE.FindStringSubmatch(he.Message); m != nil {
		e.MaxLimit, _ = strconv.Atoi(m[1])
	}
	return e
}

// MisbehaviorError ends a paged sequence whose node broke the rules paging
// relies on: the same page again, a cursor going backwards, items out of
// the order or range asked, more items than asked for.
type MisbehaviorError struct {
	Route  string // "get_actions" or "get_deltas"
	Reason string // what the node did
}

// Error implements error.
func (e *MisbehaviorError) Error() string {
	return "hyperion " + e.Route + ": the node misbehaves: " + e.Reason
}

// BehindError ends a sequence whose range goes past what the node has
// indexed: the items up to LastIndexed were all yielded, those after it
// are not in the index yet. Ask again later, or end the range at
// LastIndexed (Health says where it is).
type BehindError struct {
	Route       string // "get_actions" or "get_deltas"
	LastIndexed uint32 // the node's last_indexed_block
	Wanted      uint32 // the range's last block
}

// Error implements error.
func (e *BehindError) Error() string {
	return fmt.Sprintf("hyperion %s: the index ends at block %d, before block %d that was asked for: the rest is not indexed yet", e.Route, e.LastIndexed, e.Wanted)
}
