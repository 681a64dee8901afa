package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/antelopego/abigen/chain"
)

// The HTTP core and the token flow live in package chain, shared with its
// clients; these names keep the CLI's vocabulary.
type (
	// Client is the shared HTTP core (retries, caps, redaction).
	Client = chain.Transport
	// Error is a failed request.
	Error = chain.HTTPError
	// Token is an issued JWT and its expiry.
	Token = chain.Token
	// TokenCache keeps tokens on disk between runs.
	TokenCache = chain.TokenCache
)

// MaxResponseSize caps every response body.
const MaxResponseSize = chain.MaxResponseSize

// DefaultTokenCache is the cache under the user's cache directory.
func DefaultTokenCache() (*TokenCache, error) { return chain.DefaultTokenCache() }

// Fetched is an ABI as a service returned it.
type Fetched struct {
	Body   []byte // the response body: model.Load reads it
	Source string // where it came from, with no credentials
}

// StateAPI fetches ABIs from the state service, with tokens from the token
// service.
type StateAPI struct {
	Client  *Client          // the HTTP core
	BaseURL string           // the state service, e.g. https://wax.example.io
	AuthURL string           // the token service, e.g. https://auth.example.io
	APIKey  string           // the API key; never printed
	Cache   *TokenCache      // nil: a token per run
	Now     func() time.Time // the clock (tests); nil: time.Now
}

// ErrAuth marks errors that come from the API key or token being refused.
var ErrAuth = chain.ErrAuth

// ErrNotFound marks an account that has no ABI at the requested block.
var ErrNotFound = errors.New("no ABI")

// CheckAPIKey rejects keys that cannot be right, and a JWT passed where the
// key belongs.
func CheckAPIKey(key string) error {
	if key == "" {
		return errors.New("no API key: set ABIGEN_API_KEY or use --api-key-file")
	}
	if err := chain.CheckAPIKey(key); err != nil {
		return errors.New(strings.Replace(err.Error(), "tokens are issued and cached for you", "abigen issues and caches tokens", 1))
	}
	return nil
}

// FetchABI returns the state service's response for the account's ABI at
// blockNum (0: the head block), as JSON or, with packed, as packed hex.
func (s *StateAPI) FetchABI(ctx context.Context, account string, blockNum uint64, packed bool) (*Fetched, error) {
	if err := CheckAPIKey(s.APIKey); err != nil {
		return nil, err
	}
	base, err := chain.JoinURL(s.BaseURL, "/v0/state/abi")
	if err != nil {
		return nil, fmt.Errorf("state service: %w", err)
	}
	q := url.Values{"account": {account}, "json": {strconv.FormatBool(!packed)}}
	if blockNum > 0 {
		q.Set("block_num", strconv.FormatUint(blockNum, 10))
	}
	// The source named in generated files: the request, without the base
	// URL's own query or user info (an API key, a password).
	source := chain.RedactURL(base) + "?" + q.Encode()
	all := base.Query() // the base URL's query (it may carry a key) and the request's
	for k, vs := range q {
		all[k] = vs
	}
	base.RawQuery = all.Encode()
	auth := &chain.StateAuth{Transport: s.Client, AuthURL: s.AuthURL, APIKey: s.APIKey, Cache: s.Cache, Now: s.Now}
	body, err := auth.Get(ctx, base)
	if err != nil {
		return nil, s.explain(err, account, blockNum)
	}
	return &Fetched{Body: body, Source: source}, nil
}

// explain turns the state service's error codes into sentences.
func (s *StateAPI) explain(err error, account string, blockNum uint64) error {
	var fe *Error
	if !errors.As(err, &fe) {
		return err
	}
	at := "the head block"
	if blockNum > 0 {
		at = "block " + strconv.FormatUint(blockNum, 10)
	}
	switch fe.Code {
	case "data_abi_not_found_error":
		return fmt.Errorf("%w: account %s has no ABI at %s (state service %s)", ErrNotFound, account, at, fe.URL)
	case "auth_invalid_token_error":
		return fmt.Errorf("%w: the state service refused a freshly issued token: %s", ErrAuth, fe.Message)
	case "auth_invalid_tier_error":
		return fmt.Errorf("%w: the API key's plan does not allow this request (%s)", ErrAuth, fe.Message)
	case "app_block_num_higher_than_head_block_error":
		return fmt.Errorf("block %d is above the chain's head block (%s)", blockNum, fe.Message)
	case "request_validation_error":
		return fmt.Errorf("the state service rejected the request for account %q: %s", account, fe.Message)
	}
	if fe.Status == http.StatusForbidden {
		return fmt.Errorf("%w: %v", ErrAuth, fe)
	}
	return err
}
