package chain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Client is a client of a nodeos chain API (/v1/chain/*). It is safe for
// concurrent use. Reads are retried on connection errors, 5xx and 429;
// transactions are sent so that none is ever executed twice (see Transact).
type Client struct {
	url        string // without a trailing slash
	transport  *Transport
	expiration time.Duration
	infoTTL    time.Duration
	pageSize   int
	retryTrx   bool
	retryBlock uint16
	now        func() time.Time

	mu       sync.Mutex
	info     *Info
	infoAt   time.Time
	noSend2  bool // the node has no send_transaction2
	noSend   bool // nor send_transaction
	noRetry  bool // send_transaction2 refused retry_trx
	noBlkInf bool // the node has no get_block_info
}

// Option configures a Client.
type Option func(*Client)

// WithTransport sets the HTTP core (its http.Client, retry count, size cap).
func WithTransport(t *Transport) Option { return func(c *Client) { c.transport = t } }

// WithHTTPClient sets the http.Client requests go through.
func WithHTTPClient(h *http.Client) Option {
	return func(c *Client) { c.transport = &Transport{HTTP: h} }
}

// WithExpiration sets how long a transaction Transact builds stays valid
// (default 2 minutes).
func WithExpiration(d time.Duration) Option { return func(c *Client) { c.expiration = d } }

// WithInfoCache sets how long get_info's answer is reused for TAPoS
// (default 3 seconds; 0 asks every time).
func WithInfoCache(ttl time.Duration) Option { return func(c *Client) { c.infoTTL = ttl } }

// WithPageSize sets how many rows one get_table_rows request asks for when
// a query does not say (default 200).
func WithPageSize(n int) Option { return func(c *Client) { c.pageSize = n } }

// WithRetryTrx sets send_transaction2's retry_trx: the node keeps
// re-sending the transaction until it is in a block blocks deep (0: until
// irreversible), and answers then. On by default with 1 block; a node
// without the feature is asked without it.
func WithRetryTrx(on bool, blocks uint16) Option {
	return func(c *Client) { c.retryTrx, c.retryBlock = on, blocks }
}

// WithClock sets the clock expirations are computed from (tests).
func WithClock(now func() time.Time) Option { return func(c *Client) { c.now = now } }

// New returns a client of the chain API at url (e.g. https://wax.example.io).
func New(url string, opts ...Option) *Client {
	c := &Client{url: strings.TrimRight(url, "/"), transport: &Transport{}, expiration: 2 * time.Minute,
		infoTTL: 3 * time.Second, pageSize: 200, retryTrx: true, retryBlock: 1, now: time.Now}
	for _, o := range opts {
		o(c)
	}
	addURLSecrets(url) // an API key in its query, a password
	return c
}

// URL is the chain API's address.
func (c *Client) URL() string { return c.url }

// Call posts req (marshalled to JSON; nil sends {}) to the chain API path
// (e.g. "/v1/chain/get_info") and returns the answer's body. A nodeos error
// answer is an *APIError.
func (c *Client) Call(ctx context.Context, path string, req any) ([]byte, error) {
	body, _, err := c.call(ctx, path, req)
	return body, err
}

func (c *Client) call(ctx context.Context, path string, req any) ([]byte, int, error) {
	return c.callVia(ctx, c.transport, path, req)
}

// callVia is call through transport t.
func (c *Client) callVia(ctx context.Context, t *Transport, path string, req any) ([]byte, int, error) {
	var payload []byte
	switch r := req.(type) {
	case nil:
		payload = []byte("{}")
	case []byte:
		payload = r
	case json.RawMessage:
		payload = r
	default:
		var err error
		if payload, err = json.Marshal(req); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", path, err)
		}
	}
	u, err := JoinURL(c.url, path)
	if err != nil {
		return nil, 0, fmt.Errorf("chain API: %w", err)
	}
	body, attempts, err := t.do(ctx, "nodeos", func() (*http.Request, error) {
		r, err := http.NewRequest(http.MethodPost, u.String(), bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		r.Header.Set("Content-Type", "application/json")
		return r, nil
	})
	if err != nil {
		return nil, attempts, apiError(err, path)
	}
	return body, attempts, nil
}

// callJSON is Call that decodes the answer into out.
func (c *Client) callJSON(ctx context.Context, path string, req, out any) error {
	body, err := c.Call(ctx, path, req)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("nodeos %s: unexpected answer: %v", path, err)
	}
	return nil
}

// isNotFound reports an endpoint the node does not serve (an older nodeos,
// or a plugin that is not enabled).
func isNotFound(err error) bool {
	var he *HTTPError
	if errors.As(err, &he) && he.Status == http.StatusNotFound {
		return true
	}
	var ae *APIError
	return errors.As(err, &ae) && ae.HTTPStatus == http.StatusNotFound
}
