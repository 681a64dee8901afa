package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// MaxResponseSize caps every response body: no ABI comes near it.
const MaxResponseSize = 32 << 20

// Retry policy: attempts per request, the first backoff (doubled each time,
// with jitter), and the longest server-requested wait honoured.
const (
	maxAttempts  = 4
	firstBackoff = 200 * time.Millisecond
	maxRetryWait = 10 * time.Second
)

// Client carries what every request shares.
type Client struct {
	HTTP *http.Client // nil: http.DefaultClient
	// Sleep waits between retries; tests replace it. nil: a timer that
	// respects the context.
	Sleep func(ctx context.Context, d time.Duration) error
}

func (c *Client) httpClient() *http.Client {
	if c != nil && c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
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

// Error is a failed request, with what the service said. Its message never
// contains the API key or a token.
type Error struct {
	Service string // "token service", "state service", "nodeos"
	URL     string // without query secrets
	Status  int    // HTTP status; 0 for a connection failure
	Code    string // the service's error code: dfuse "code", nodeos error.name
	Message string // the service's message, or the start of a non-JSON body
	Err     error  // the underlying error, for connection failures
}

func (e *Error) Error() string {
	switch {
	case e.Status == 0:
		return fmt.Sprintf("%s %s: %v", e.Service, e.URL, e.Err)
	case e.Code != "":
		return fmt.Sprintf("%s %s: HTTP %d %s: %s", e.Service, e.URL, e.Status, e.Code, e.Message)
	}
	return fmt.Sprintf("%s %s: HTTP %d: %s", e.Service, e.URL, e.Status, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// retryable reports whether a request that failed this way may succeed if
// sent again.
func (e *Error) retryable() bool {
	return e.Status == 0 || e.Status == http.StatusTooManyRequests || e.Status >= 500
}

// redactURL removes the query string and any user info: the query may hold
// a token (?token=), user info a password.
func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery = ""
	c.Fragment = ""
	return c.String()
}

// do sends the request built by build, retrying what is retryable, and
// returns the body of the first 2xx response.
func (c *Client) do(ctx context.Context, service string, build func() (*http.Request, error)) ([]byte, error) {
	for attempt := 1; ; attempt++ {
		req, err := build()
		if err != nil {
			return nil, err
		}
		body, ferr := c.once(ctx, service, req)
		if ferr == nil {
			return body, nil
		}
		if ctx.Err() != nil {
			return nil, &Error{Service: service, URL: redactURL(req.URL), Err: fmt.Errorf("gave up: %w", context.Cause(ctx))}
		}
		if !ferr.retryable() {
			return nil, &ferr.Error
		}
		if attempt == maxAttempts {
			ferr.Message += fmt.Sprintf(" (after %d attempts)", attempt)
			if ferr.Err != nil {
				ferr.Err = fmt.Errorf("%w (after %d attempts)", ferr.Err, attempt)
			}
			return nil, &ferr.Error
		}
		wait := backoff(attempt)
		if ferr.retryAfter > 0 {
			wait = min(ferr.retryAfter, maxRetryWait)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, &Error{Service: service, URL: redactURL(req.URL), Err: fmt.Errorf("gave up: %w", context.Cause(ctx))}
		}
	}
}

func backoff(attempt int) time.Duration {
	d := firstBackoff << (attempt - 1)
	return d/2 + rand.N(d/2+1) // jitter: between half and the full backoff
}

// once sends one request.
func (c *Client) once(ctx context.Context, service string, req *http.Request) ([]byte, *retryError) {
	resp, err := c.httpClient().Do(req.WithContext(ctx))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // drop the URL, which may carry a query secret
		}
		return nil, &retryError{Error: Error{Service: service, URL: redactURL(req.URL), Err: err}}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseSize+1))
	if err != nil {
		return nil, &retryError{Error: Error{Service: service, URL: redactURL(req.URL), Err: fmt.Errorf("reading the response: %w", err)}}
	}
	if len(body) > MaxResponseSize {
		return nil, &retryError{Error: Error{Service: service, URL: redactURL(req.URL), Status: resp.StatusCode,
			Message: fmt.Sprintf("response larger than %d MiB; no ABI is that large", MaxResponseSize>>20)}, final: true}
	}
	if resp.StatusCode/100 == 2 {
		return body, nil
	}
	e := &retryError{Error: Error{Service: service, URL: redactURL(req.URL), Status: resp.StatusCode}}
	e.Code, e.Message = describeBody(body)
	e.retryAfter = retryAfter(resp.Header, time.Now())
	return nil, e
}

// retryError adds what retrying needs to Error.
type retryError struct {
	Error
	retryAfter time.Duration
	final      bool // not worth retrying whatever the status
}

func (e *retryError) retryable() bool { return !e.final && e.Error.retryable() }

// describeBody reads the error code and message of a dfuse or nodeos error
// body, or shows the start of any other body (a proxy's HTML page).
func describeBody(body []byte) (code, msg string) {
	var dfuse struct {
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
	if json.Unmarshal(body, &dfuse) == nil && (dfuse.Message != "" || dfuse.Error != nil) {
		if dfuse.Error != nil { // nodeos envelope
			msg = dfuse.Message
			if len(dfuse.Error.Details) > 0 && dfuse.Error.Details[0].Message != "" {
				msg += ": " + dfuse.Error.Details[0].Message
			} else if dfuse.Error.What != "" {
				msg += ": " + dfuse.Error.What
			}
			return dfuse.Error.Name, msg
		}
		if s, ok := dfuse.Code.(string); ok {
			code = s
		}
		return code, dfuse.Message
	}
	text := strings.TrimSpace(string(bytes.ToValidUTF8(body, []byte("?"))))
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	if text == "" {
		text = "(empty body)"
	}
	return "", "not a JSON error: " + strconv.Quote(text)
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
