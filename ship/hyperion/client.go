package hyperion

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
)

// MaxResponseSize caps one answer: a page of 1,000 actions is far below
// it; a node sending more is treated as broken rather than read.
const MaxResponseSize = 16 << 20

// DefaultPageSize is how many items one request asks for unless
// WithPageSize says otherwise: below every public node's maximum.
const DefaultPageSize = 100

// Client is a client of a Hyperion v2 API. It is safe for concurrent use.
type Client struct {
	url        string
	transport  *httpcore.Transport
	header     http.Header
	creds      bool // requests carry credentials: never sent to another origin
	pageSize   int
	coreSymbol antelope.Symbol
	precision  PrecisionFunc

	mu         sync.Mutex
	precisions map[precisionKey]uint8
}

// PrecisionFunc returns the precision of a token's symbol code: what
// WithPrecision sets to recover an accounts row's balance.
type PrecisionFunc func(ctx context.Context, contract antelope.Name, code antelope.SymbolCode) (uint8, error)

type precisionKey struct {
	contract antelope.Name
	code     antelope.SymbolCode
}

// Option configures a Client.
type Option func(*Client)

// WithTransport sets the HTTP core (its http.Client, retries, size cap).
func WithTransport(t *httpcore.Transport) Option { return func(c *Client) { c.transport = t } }

// WithHTTPClient sets the http.Client requests go through.
func WithHTTPClient(h *http.Client) Option {
	return func(c *Client) { c.transport = &httpcore.Transport{HTTP: h, MaxResponseSize: MaxResponseSize} }
}

// WithHeader sends a header with every request: an API key, usually. Its
// value is a secret: scrubbed from every error, and the requests carrying
// it never follow a redirect to another origin.
func WithHeader(name, value string) Option {
	return func(c *Client) {
		httpcore.AddSecret(value)
		c.header.Set(name, value)
		c.creds = true
	}
}

// WithPageSize sets how many items a request asks for (default
// DefaultPageSize). A node whose maximum is lower says so, and the client
// uses its maximum.
func WithPageSize(n int) Option { return func(c *Client) { c.pageSize = max(n, 1) } }

// WithCoreSymbol sets the chain's core symbol (4,EOS; 8,WAX), which
// recovers buyram's, delegatebw's and undelegatebw's amounts: Hyperion
// keeps them as floats without their symbol.
func WithCoreSymbol(s antelope.Symbol) Option { return func(c *Client) { c.coreSymbol = s } }

// WithPrecision sets where the precision of a token comes from, to recover
// a token accounts row's balance (Hyperion keeps {amount, symbol}). The
// default asks the node's /v1/chain/get_currency_stats through the same
// endpoint (Hyperion proxies the chain API).
func WithPrecision(f PrecisionFunc) Option { return func(c *Client) { c.precision = f } }

// New returns a client of the Hyperion API at url (its root: the client
// adds /v2/history/…). Query values or a password in url are credentials
// (see WithHeader).
func New(url string, opts ...Option) *Client {
	c := &Client{url: strings.TrimRight(url, "/"), transport: &httpcore.Transport{MaxResponseSize: MaxResponseSize},
		header: http.Header{}, pageSize: DefaultPageSize, precisions: map[precisionKey]uint8{}}
	httpcore.AddURLSecrets(url)
	if strings.Contains(url, "?") || strings.Contains(url, "@") {
		c.creds = true
	}
	for _, o := range opts {
		o(c)
	}
	if c.precision == nil {
		c.precision = c.currencyPrecision
	}
	return c
}

// URL is the API's address.
func (c *Client) URL() string { return httpcore.RedactRawURL(c.url) }

// get sends GET path?query and returns the body.
func (c *Client) get(ctx context.Context, route, path string, query url.Values) ([]byte, error) {
	return c.do(ctx, route, http.MethodGet, path, query, nil)
}

func (c *Client) do(ctx context.Context, route, method, path string, query url.Values, body []byte) ([]byte, error) {
	u, err := httpcore.JoinURL(c.url, path)
	if err != nil {
		return nil, fmt.Errorf("hyperion: %w", err)
	}
	u = httpcore.WithQuery(u, query)
	if c.creds {
		ctx = httpcore.WithCredentials(ctx)
	}
	out, err := c.transport.Do(ctx, "hyperion", func() (*http.Request, error) {
		var r *http.Request
		var err error
		if body != nil {
			r, err = http.NewRequest(method, u.String(), strings.NewReader(string(body)))
			if r != nil {
				r.Header.Set("Content-Type", "application/json")
			}
		} else {
			r, err = http.NewRequest(method, u.String(), nil)
		}
		if err != nil {
			return nil, err
		}
		for k, v := range c.header {
			r.Header[k] = v
		}
		r.Header.Set("Accept", "application/json")
		return r, nil
	})
	if err != nil {
		return nil, fromTransport(route, err)
	}
	return out, nil
}

// GetActions asks /v2/history/get_actions once, with Hyperion's own
// parameters (account, filter, after, before, sort, limit, skip, and
// generic filters such as act.authorization.actor). Actions pages
// without losing or repeating items; this is the single request.
func (c *Client) GetActions(ctx context.Context, params url.Values) (*ActionsPage, error) {
	body, err := c.get(ctx, "get_actions", "/v2/history/get_actions", params)
	if err != nil {
		return nil, err
	}
	return ParseActions(body)
}

// GetDeltas asks /v2/history/get_deltas once (code, scope, table, payer,
// primary_key, present, after, before, sort, limit, skip).
func (c *Client) GetDeltas(ctx context.Context, params url.Values) (*DeltasPage, error) {
	body, err := c.get(ctx, "get_deltas", "/v2/history/get_deltas", params)
	if err != nil {
		return nil, err
	}
	return ParseDeltas(body)
}
