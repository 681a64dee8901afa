package statesvc

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Tokens is the state service's token service (/v1/auth/issue): it
// issues JWTs for the API key, and checks those a request bears.
// It is safe for concurrent use.
type Tokens struct {
	apiKey string
	life   time.Duration
	clock  func() time.Time
	secret []byte // signs the JWTs

	mu     sync.Mutex
	issued map[string]int64 // token → expiry
	count  int              // tokens issued so far
	reject int              // the next n checks of a valid token fail
}

// NewTokens returns a token service that accepts apiKey and issues tokens
// valid for life, by clock.
func NewTokens(apiKey string, life time.Duration, clock func() time.Time) *Tokens {
	return &Tokens{apiKey: apiKey, life: life, clock: clock, secret: newSecret(), issued: map[string]int64{}}
}

// Issue answers /v1/auth/issue, whose body is {"api_key": …}.
func (t *Tokens) Issue(body []byte) (int, any) {
	var p struct {
		APIKey string `json:"api_key"`
	}
	if err := json.Unmarshal(body, &p); err != nil || p.APIKey == "" {
		return invalid("api_key", "The api_key field is required")
	}
	if p.APIKey != t.apiKey {
		return Error(401, "auth_invalid_api_key_error", "The API key is not valid.", nil)
	}
	now := t.clock()
	exp := now.Add(t.life).Unix()
	tok := signJWT(t.secret, now.Unix(), exp)
	t.mu.Lock()
	t.issued[tok] = exp
	t.count++
	t.mu.Unlock()
	return 200, map[string]any{"token": tok, "expires_at": exp}
}

// Issued is the number of tokens issued so far.
func (t *Tokens) Issued() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.count
}

// RevokeAll makes every issued token invalid, as a revocation does: the
// next request gets a 401.
func (t *Tokens) RevokeAll() {
	t.mu.Lock()
	clear(t.issued)
	t.mu.Unlock()
}

// RejectNext makes the next n checks refuse their tokens, valid as they
// are, with a 401, as the real service does for a token revoked behind the
// client's back.
func (t *Tokens) RejectNext(n int) {
	t.mu.Lock()
	t.reject = n
	t.mu.Unlock()
}

// tokenRefused is the state service's 401, with why.
func tokenRefused(reason string) (int, any) {
	return Error(401, "auth_invalid_token_error", "Unable to correctly decode provided token.",
		map[string]any{"token": "", "reason": reason})
}

// Check checks the request's bearer token: signed by this token service,
// not expired by its clock, not revoked. It returns status 0 when the
// token passes, else the service's 401.
func (t *Tokens) Check(r *http.Request) (int, any) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return tokenRefused("required authorization token not found")
	}
	if why := checkJWT(t.secret, tok, t.clock()); why != "" {
		return tokenRefused("invalid token provided: " + why)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, issued := t.issued[tok]; !issued {
		return tokenRefused("invalid token provided: revoked")
	}
	if t.reject > 0 {
		t.reject--
		return tokenRefused("invalid token provided: revoked")
	}
	return 0, nil
}
