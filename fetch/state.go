package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Fetched is an ABI as a service returned it.
type Fetched struct {
	Body   []byte // the response body: model.Load reads it
	Source string // where it came from, with no credentials
}

// StateAPI fetches ABIs from the state service, with tokens from the token
// service.
type StateAPI struct {
	Client  *Client
	BaseURL string // the state service, e.g. https://wax.example.io
	AuthURL string // the token service, e.g. https://auth.example.io
	APIKey  string
	Cache   *TokenCache // nil: a token per run
	Now     func() time.Time
}

// ErrAuth marks errors that come from the API key or token being refused.
var ErrAuth = errors.New("authentication failed")

// ErrNotFound marks an account that has no ABI at the requested block.
var ErrNotFound = errors.New("no ABI")

// CheckAPIKey rejects keys that cannot be right, and a JWT passed where the
// key belongs.
func CheckAPIKey(key string) error {
	switch {
	case key == "":
		return errors.New("no API key: set ABIGEN_API_KEY or use --api-key-file")
	case strings.Count(key, ".") == 2 && strings.HasPrefix(key, "eyJ"):
		return errors.New("the API key looks like a JWT (a token): pass the API key itself; abigen issues and caches tokens")
	case strings.ContainsAny(key, " \t\r\n"):
		return errors.New("the API key contains white space")
	}
	return nil
}

func (s *StateAPI) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// FetchABI returns the state service's response for the account's ABI at
// blockNum (0: the head block), as JSON or, with packed, as packed hex.
func (s *StateAPI) FetchABI(ctx context.Context, account string, blockNum uint64, packed bool) (*Fetched, error) {
	if err := CheckAPIKey(s.APIKey); err != nil {
		return nil, err
	}
	base, err := url.Parse(strings.TrimRight(s.BaseURL, "/") + "/v0/state/abi")
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("invalid state service URL %q", s.BaseURL)
	}
	q := url.Values{"account": {account}, "json": {strconv.FormatBool(!packed)}}
	if blockNum > 0 {
		q.Set("block_num", strconv.FormatUint(blockNum, 10))
	}
	base.RawQuery = q.Encode()
	source := base.String()
	if base.User != nil {
		source = redactURL(base) + "?" + q.Encode()
	}

	tok, err := s.token(ctx, false)
	if err != nil {
		return nil, err
	}
	body, err := s.get(ctx, base, tok)
	var fe *Error
	if errors.As(err, &fe) && fe.Status == http.StatusUnauthorized {
		// The token was refused (revoked, or expired early): issue a new
		// one, once, and try again.
		if s.Cache != nil {
			s.Cache.Drop(s.AuthURL, s.APIKey)
		}
		if tok, err = s.token(ctx, true); err != nil {
			return nil, err
		}
		body, err = s.get(ctx, base, tok)
	}
	if err != nil {
		return nil, s.explain(err, account, blockNum)
	}
	return &Fetched{Body: body, Source: source}, nil
}

func (s *StateAPI) get(ctx context.Context, u *url.URL, tok string) ([]byte, error) {
	return s.Client.do(ctx, "state service", func() (*http.Request, error) {
		req, err := http.NewRequest(http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Cache-Control", "no-cache")
		return req, nil
	})
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

// token returns a usable token: the cached one, or a new one. fresh skips
// the cache (after a 401).
func (s *StateAPI) token(ctx context.Context, fresh bool) (string, error) {
	if s.Cache == nil {
		t, err := s.issue(ctx)
		return t.Token, err
	}
	if !fresh {
		if t, ok := s.Cache.Get(s.AuthURL, s.APIKey); ok && t.Usable(s.now()) {
			return t.Token, nil
		}
	}
	unlock, err := s.Cache.Lock(ctx, s.AuthURL, s.APIKey)
	if err != nil {
		return "", err
	}
	defer unlock()
	// Another process may have issued one while this one waited.
	if t, ok := s.Cache.Get(s.AuthURL, s.APIKey); ok && t.Usable(s.now()) && !fresh {
		return t.Token, nil
	}
	t, err := s.issue(ctx)
	if err != nil {
		return "", err
	}
	// A cache that cannot be written costs a token per run, nothing more.
	_ = s.Cache.Put(s.AuthURL, s.APIKey, t)
	return t.Token, nil
}

// issue asks the token service for a token.
func (s *StateAPI) issue(ctx context.Context) (Token, error) {
	u, err := url.Parse(strings.TrimRight(s.AuthURL, "/") + "/v1/auth/issue")
	if err != nil || u.Scheme == "" || u.Host == "" {
		return Token{}, fmt.Errorf("invalid token service URL %q", s.AuthURL)
	}
	payload, _ := json.Marshal(map[string]string{"api_key": s.APIKey})
	body, err := s.Client.do(ctx, "token service", func() (*http.Request, error) {
		req, err := http.NewRequest(http.MethodPost, u.String(), bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Cache-Control", "no-cache")
		return req, nil
	})
	var fe *Error
	if errors.As(err, &fe) && (fe.Status == http.StatusUnauthorized || fe.Status == http.StatusForbidden || fe.Status == http.StatusBadRequest) {
		return Token{}, fmt.Errorf("%w: the token service refused the API key: %v", ErrAuth, fe)
	}
	if err != nil {
		return Token{}, err
	}
	var t Token
	if err := json.Unmarshal(body, &t); err != nil || t.Token == "" || t.ExpiresAt == 0 {
		return Token{}, fmt.Errorf("token service %s: the response is not {\"token\", \"expires_at\"}", redactURL(u))
	}
	t.IssuedAt = s.now().Unix()
	if t.ExpiresAt <= t.IssuedAt {
		return Token{}, fmt.Errorf("token service %s: the token it issued has already expired (check this machine's clock)", redactURL(u))
	}
	return t, nil
}
