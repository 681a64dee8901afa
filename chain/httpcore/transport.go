package httpcore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxResponseSize is the default cap on a response body: no ABI, table page
// or block comes near it.
const MaxResponseSize = 32 << 20

// Retry policy: attempts per request, the first backoff (doubled each time,
// with jitter), and the longest server-requested wait honoured.
const (
	defaultAttempts = 4
	firstBackoff    = 200 * time.Millisecond
	maxRetryWait    = 10 * time.Second
)

// Transport is the HTTP core every client of this module shares (chain.Client,
// state.Client, and fetch for the CLI): retries with backoff and jitter on
// connection errors, 5xx and 429 (honouring Retry-After and
// X-RateLimit-Reset up to a cap), a response size cap, the caller's context
// for deadlines, and errors with no credentials in them. A nodeos error
// answer (its JSON envelope) is final and never retried. The zero value is
// ready to use.
type Transport struct {
	HTTP *http.Client // nil: http.DefaultClient
	// Sleep waits between retries; tests replace it. nil: a timer that
	// respects the context.
	Sleep func(ctx context.Context, d time.Duration) error
	// MaxAttempts per request, the first included; 0 means 4.
	MaxAttempts int
	// MaxResponseSize caps a response body; 0 means MaxResponseSize.
	MaxResponseSize int64
}

func (c *Transport) httpClient() *http.Client {
	if c != nil && c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

// Attempts is how many attempts Do makes of a request, the first included:
// MaxAttempts, or 4.
func (c *Transport) Attempts() int {
	if c != nil && c.MaxAttempts > 0 {
		return c.MaxAttempts
	}
	return defaultAttempts
}

func (c *Transport) maxSize() int64 {
	if c != nil && c.MaxResponseSize > 0 {
		return c.MaxResponseSize
	}
	return MaxResponseSize
}

func (c *Transport) sleep(ctx context.Context, d time.Duration) error {
	if c != nil && c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// HTTPError is a failed request, with what the service said. Its message
// never contains an API key or a token.
type HTTPError struct {
	Service string // "token service", "state service", "nodeos"
	URL     string // without query or user info
	Status  int    // HTTP status; 0 for a connection failure
	Code    string // the service's error code: the state service's "code", nodeos's error.name
	Message string // the service's message, or the start of a non-JSON body
	Err     error  // the underlying error, for connection failures
	// Body is the response body of an HTTP error answer (within the size
	// cap, scrubbed), for callers that decode the service's own answer:
	// an error's shape, or a resource provider's 402 with the transaction
	// it pays for.
	Body []byte
	// RetryAfter is the wait the service asked for (Retry-After or
	// X-RateLimit-Reset), 0 when it named none.
	RetryAfter time.Duration
}

// Error describes the failure in one line, scrubbed of every credential
// this process holds (see AddSecret).
func (e *HTTPError) Error() string {
	switch {
	case e.Status == 0:
		return Scrub(fmt.Sprintf("%s %s: %v", e.Service, e.URL, e.Err))
	case e.Code != "":
		return Scrub(fmt.Sprintf("%s %s: HTTP %d %s: %s", e.Service, e.URL, e.Status, e.Code, e.Message))
	}
	return Scrub(fmt.Sprintf("%s %s: HTTP %d: %s", e.Service, e.URL, e.Status, e.Message))
}

// Unwrap returns the connection error, if that is what failed.
func (e *HTTPError) Unwrap() error { return e.Err }

// summary is the failure in a few words: its status and code, or its
// connection error.
func (e *HTTPError) summary() string {
	switch {
	case e.Status == http.StatusTooManyRequests:
		return fmt.Sprintf("HTTP 429 (rate-limited; the service asked to wait %s)", e.RetryAfter)
	case e.Status != 0:
		return fmt.Sprintf("HTTP %d %s", e.Status, e.Code)
	}
	return fmt.Sprint(e.Err)
}

// RedactURL is u without its query string, fragment and user info, fit for
// errors and logs: the query may hold a token (?token=), user info a
// password.
func RedactURL(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery = ""
	c.Fragment = ""
	return c.String()
}

// Do sends the request built by build (called again for each attempt),
// retrying what is retryable, and returns the body of the first 2xx
// response.
func (c *Transport) Do(ctx context.Context, service string, build func() (*http.Request, error)) ([]byte, error) {
	body, _, err := c.DoCount(ctx, service, build)
	return body, err
}

// DoCount is Do that also says how many attempts were sent: a send that
// needed more than one may have been executed by an attempt whose answer
// was lost (chain.Client.Transact tells a retried transaction apart so).
func (c *Transport) DoCount(ctx context.Context, service string, build func() (*http.Request, error)) ([]byte, int, error) {
	max := c.Attempts()
	for attempt := 1; ; attempt++ {
		req, err := build()
		if err != nil {
			return nil, attempt - 1, err
		}
		body, ferr := c.once(ctx, service, req)
		if ferr == nil {
			return body, attempt, nil
		}
		if ctx.Err() != nil {
			return nil, attempt, &HTTPError{Service: service, URL: RedactURL(req.URL), Err: fmt.Errorf("gave up: %w", context.Cause(ctx))}
		}
		if !ferr.retryable() {
			return nil, attempt, &ferr.HTTPError
		}
		if attempt >= max {
			if attempt > 1 {
				ferr.Message += fmt.Sprintf(" (after %d attempts)", attempt)
				if ferr.Err != nil {
					ferr.Err = fmt.Errorf("%w (after %d attempts)", ferr.Err, attempt)
				}
			}
			return nil, attempt, &ferr.HTTPError
		}
		if deadline, ok := ctx.Deadline(); ok && ferr.RetryAfter > 0 && time.Until(deadline) < min(ferr.RetryAfter, maxRetryWait) {
			// Waiting as asked would outlast the caller's deadline: say so
			// now, rather than "deadline exceeded" later.
			ferr.Message += fmt.Sprintf(" (rate-limited: the service asks to wait %s, beyond the deadline)", ferr.RetryAfter)
			return nil, attempt, &ferr.HTTPError
		}
		if err := c.Wait(ctx, attempt, ferr.RetryAfter); err != nil {
			return nil, attempt, &HTTPError{Service: service, URL: RedactURL(req.URL),
				Err: fmt.Errorf("gave up waiting to retry after %s: %w", ferr.HTTPError.summary(), context.Cause(ctx))}
		}
	}
}

// Wait waits before the retry that follows failed attempt number attempt
// (1 after the first), as Do does: the service's wait when it asked for one
// (up to a cap), otherwise a backoff doubling with each attempt, with
// jitter. It returns early with the context's error.
func (c *Transport) Wait(ctx context.Context, attempt int, serverWait time.Duration) error {
	wait := backoff(attempt)
	if serverWait > 0 {
		wait = min(serverWait, maxRetryWait)
	}
	return c.sleep(ctx, wait)
}

func backoff(attempt int) time.Duration {
	d := firstBackoff << (attempt - 1)
	return d/2 + rand.N(d/2+1) // jitter: between half and the full backoff
}

// once sends one request.
func (c *Transport) once(ctx context.Context, service string, req *http.Request) ([]byte, *retryError) {
	resp, err := guarded(ctx, c.httpClient()).Do(req.WithContext(ctx))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // drop the URL, which may carry a query secret
		}
		return nil, &retryError{HTTPError: HTTPError{Service: service, URL: RedactURL(req.URL), Err: err}, final: errors.Is(err, errCrossOrigin)}
	}
	defer resp.Body.Close()
	limit := c.maxSize()
	body, err := readBody(resp.Body, limit, resp.ContentLength)
	if err != nil {
		// A body cut short: the answer is lost, as if the connection failed.
		return nil, &retryError{HTTPError: HTTPError{Service: service, URL: RedactURL(req.URL), Err: fmt.Errorf("reading the response: %w", err)}}
	}
	if int64(len(body)) > limit {
		return nil, &retryError{HTTPError: HTTPError{Service: service, URL: RedactURL(req.URL), Status: resp.StatusCode,
			Message: "response larger than " + formatSize(limit)}, final: true}
	}
	if resp.StatusCode/100 == 2 {
		return body, nil
	}
	e := &retryError{HTTPError: HTTPError{Service: service, URL: RedactURL(req.URL), Status: resp.StatusCode}}
	// A service may echo the request (a key, a token) in its error.
	body = scrubBytes(body)
	e.Body = body // whole: a service's answer may be data (a 402's transaction)
	var nodeos bool
	e.Code, e.Message, nodeos = describeBody(body)
	// nodeos answered: the request was handled, and asking again gets the
	// same answer (a failed assertion is a 500). A proxy's 502 is not that.
	e.final = nodeos
	e.RetryAfter = retryAfter(resp.Header, time.Now())
	return nil, e
}

// retryError adds what retrying needs to HTTPError.
type retryError struct {
	HTTPError
	final bool // not worth retrying whatever the status
}

func (e *retryError) retryable() bool {
	if e.final {
		return false
	}
	return e.Status == 0 || e.Status == http.StatusTooManyRequests || e.Status >= 500
}

// describeBody reads the error code and message of a state service or
// nodeos error body, or shows the start of any other body (a proxy's HTML
// page). nodeos reports whether it is nodeos's error envelope.
func describeBody(body []byte) (code, msg string, nodeos bool) {
	var env struct {
		Code    any    `json:"code"`
		Message string `json:"message"`
		Error   *struct {
			Name    string `json:"name"`
			What    string `json:"what"`
			Details []struct {
				Message string `json:"message"`
			} `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &env) == nil && (env.Message != "" || env.Error != nil) {
		if env.Error != nil { // nodeos envelope
			msg = env.Message
			if len(env.Error.Details) > 0 && env.Error.Details[0].Message != "" {
				msg += ": " + env.Error.Details[0].Message
			} else if env.Error.What != "" {
				msg += ": " + env.Error.What
			}
			return clip(env.Error.Name), clip(msg), env.Error.Name != ""
		}
		if s, ok := env.Code.(string); ok {
			code = s
		}
		return clip(code), clip(env.Message), false
	}
	text := strings.TrimSpace(string(bytes.ToValidUTF8(body[:min(len(body), maxMessage)], []byte("?"))))
	if text == "" {
		text = "(empty body)"
	}
	return "", clip("not a JSON error: " + strconv.Quote(text)), false
}

// maxMessage bounds the message an HTTPError shows of a body: a page's
// start is enough to tell what answered, and quoting control characters
// (\x01) or decoding invalid UTF-8 (U+FFFD) makes text longer than the
// bytes it came from.
const maxMessage = 240

// clip is msg cut to at most maxMessage bytes, at a character boundary,
// with "…" (3 more bytes) where it was cut.
func clip(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "…"
}

// retryAfter reads Retry-After (seconds or an HTTP date) or
// X-RateLimit-Reset (Unix seconds, or seconds from now when small).
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After"); v != "" {
		if s, err := strconv.Atoi(v); err == nil && s >= 0 {
			return time.Duration(s) * time.Second
		}
		if t, err := http.ParseTime(v); err == nil {
			return max(t.Sub(now), 0)
		}
	}
	if v := h.Get("X-RateLimit-Reset"); v != "" {
		if s, err := strconv.ParseInt(v, 10, 64); err == nil && s >= 0 {
			if s > 1e9 { // a Unix time
				return max(time.Unix(s, 0).Sub(now), 0)
			}
			return time.Duration(s) * time.Second
		}
	}
	return 0
}
