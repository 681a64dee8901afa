// Package fetchtest runs in-process fakes of the three services abigen
// fetches ABIs from, for tests (abigen's own, and yours):
//
//   - an auth service (POST /v1/auth/issue) that issues real HS256 JWTs with
//     a configurable lifetime, for a set of API keys;
//   - a state service (GET /v0/state/abi) that checks the Bearer token's
//     signature and expiry, serves each account's ABI history by block_num,
//     as JSON or packed hex, and answers with the documented error bodies;
//   - a nodeos chain API (POST /v1/chain/get_abi, /v1/chain/get_raw_abi).
//
// Each runs on its own httptest server, so the two dfuse services have two
// distinct addresses as in production. Faults can be injected per service:
// the next N requests fail with a status, 429 with Retry-After, a 401 for a
// valid token, a slow response, a truncated or oversized body.
//
//	env := fetchtest.New(t)
//	env.Auth.Keys["server_abc"] = true
//	env.State.SetABI("orng.wax", 9135393, abiJSON)
//	// point abigen at env.Auth.URL() and env.State.URL()
package fetchtest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
)

// Env is a set of fakes sharing one signing secret.
type Env struct {
	Auth  *Auth
	State *State
	Chain *Chain
}

// New starts the three fakes; they stop when the test ends.
func New(t testing.TB) *Env {
	secret := []byte("fetchtest secret " + t.Name())
	e := &Env{
		Auth:  &Auth{secret: secret, Keys: map[string]bool{}, Lifetime: 24 * time.Hour, Now: time.Now},
		State: &State{secret: secret, history: map[string][]version{}, Now: time.Now},
		Chain: &Chain{abis: map[string][]byte{}},
	}
	e.Auth.srv = httptest.NewServer(e.Auth.faults.wrap(http.HandlerFunc(e.Auth.serve)))
	e.State.srv = httptest.NewServer(e.State.faults.wrap(http.HandlerFunc(e.State.serve)))
	e.Chain.srv = httptest.NewServer(e.Chain.faults.wrap(http.HandlerFunc(e.Chain.serve)))
	t.Cleanup(func() { e.Auth.srv.Close(); e.State.srv.Close(); e.Chain.srv.Close() })
	return e
}

// Faults are injected into one fake's responses, in this order of checks.
type Faults struct {
	mu        sync.Mutex
	failNext  int // the next N requests answer failStatus
	failCode  int
	rateLimit int // the next N requests answer 429 with Retry-After
	retrySecs int
	Delay     time.Duration // every response waits this long (respecting the client going away)
	Truncate  bool          // 200 with half of the body and a Content-Length for all of it
	Oversize  int64         // 200 with a body of this many bytes
	requests  int
}

// FailNext makes the next n requests fail with status.
func (f *Faults) FailNext(n, status int) {
	f.mu.Lock()
	f.failNext, f.failCode = n, status
	f.mu.Unlock()
}

// RateLimitNext makes the next n requests answer 429 with Retry-After.
func (f *Faults) RateLimitNext(n, retryAfterSeconds int) {
	f.mu.Lock()
	f.rateLimit, f.retrySecs = n, retryAfterSeconds
	f.mu.Unlock()
}

// Requests is how many requests reached the fake.
func (f *Faults) Requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

func (f *Faults) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.requests++
		fail, code := f.failNext > 0, f.failCode
		if fail {
			f.failNext--
		}
		limited, secs := f.rateLimit > 0, f.retrySecs
		if limited {
			f.rateLimit--
		}
		delay, truncate, oversize := f.Delay, f.Truncate, f.Oversize
		f.mu.Unlock()
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		switch {
		case fail:
			writeError(w, code, "unexpected_error", "An unexpected error occurred.", nil)
		case limited:
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			writeError(w, http.StatusTooManyRequests, "rate_limited", "Too many requests.", nil)
		case oversize > 0:
			w.Header().Set("Content-Type", "application/json")
			chunk := []byte(strings.Repeat(" ", 1<<16))
			for n := int64(0); n < oversize; n += int64(len(chunk)) {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case truncate:
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			body := rec.Body.Bytes()
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(rec.Code)
			w.Write(body[:len(body)/2])
		default:
			h.ServeHTTP(w, r)
		}
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError writes the dfuse error shape {code, trace_id, message, details}.
func writeError(w http.ResponseWriter, status int, code, msg string, details map[string]any) {
	body := map[string]any{"code": code, "trace_id": "fetchtest", "message": msg}
	if details != nil {
		body["details"] = details
	}
	writeJSON(w, status, body)
}

// Auth is the fake token service.
type Auth struct {
	srv      *httptest.Server
	secret   []byte
	mu       sync.Mutex
	issued   int
	Keys     map[string]bool // accepted API keys
	Lifetime time.Duration   // of issued tokens
	Now      func() time.Time
	faults   Faults
}

// URL is the service's base URL (auth_url).
func (a *Auth) URL() string { return a.srv.URL }

// Issued is how many tokens were issued.
func (a *Auth) Issued() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.issued
}

// Fault returns the fault injector of this fake.
func (a *Auth) Fault() *Faults { return &a.faults }

func (a *Auth) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/auth/issue" {
		writeError(w, http.StatusNotFound, "not_found", "no such route", nil)
		return
	}
	var req struct {
		APIKey string `json:"api_key"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.APIKey == "" {
		writeError(w, http.StatusBadRequest, "request_validation_error", "The request is invalid.", nil)
		return
	}
	a.mu.Lock()
	ok := a.Keys[req.APIKey]
	now, life := a.Now(), a.Lifetime
	if ok {
		a.issued++
	}
	a.mu.Unlock()
	if !ok {
		writeError(w, http.StatusUnauthorized, "auth_invalid_api_key_error", "The API key is invalid.", nil)
		return
	}
	exp := now.Add(life).Unix()
	writeJSON(w, http.StatusOK, map[string]any{"token": signJWT(a.secret, now.Unix(), exp), "expires_at": exp})
}

func signJWT(secret []byte, iat, exp int64) string {
	enc := base64.RawURLEncoding
	head := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	claims := enc.EncodeToString([]byte(fmt.Sprintf(`{"iat":%d,"exp":%d,"iss":"fetchtest"}`, iat, exp)))
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(head + "." + claims))
	return head + "." + claims + "." + enc.EncodeToString(m.Sum(nil))
}

// checkJWT verifies the signature and expiry, returning why it fails.
func checkJWT(secret []byte, tok string, now time.Time) string {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return "malformed token"
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(parts[0] + "." + parts[1]))
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || !hmac.Equal(sig, m.Sum(nil)) {
		return "invalid signature"
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	var claims struct {
		Exp int64 `json:"exp"`
	}
	if err != nil || json.Unmarshal(raw, &claims) != nil {
		return "malformed claims"
	}
	if now.Unix() >= claims.Exp {
		return "token expired"
	}
	return ""
}

type version struct {
	block uint64
	abi   []byte // ABI JSON
}

// State is the fake state service.
type State struct {
	srv     *httptest.Server
	secret  []byte
	mu      sync.Mutex
	history map[string][]version
	reject  int // the next N valid tokens are refused with 401
	Now     func() time.Time
	faults  Faults
}

// URL is the service's base URL (base_url).
func (s *State) URL() string { return s.srv.URL }

// Fault returns the fault injector of this fake.
func (s *State) Fault() *Faults { return &s.faults }

// RejectNextTokens refuses the next n requests' tokens with a 401, as the
// real service does for a revoked token.
func (s *State) RejectNextTokens(n int) {
	s.mu.Lock()
	s.reject = n
	s.mu.Unlock()
}

// SetABI records that account set abiJSON at block.
func (s *State) SetABI(account string, block uint64, abiJSON []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := append(s.history[account], version{block, abiJSON})
	sort.Slice(h, func(i, j int) bool { return h[i].block < h[j].block })
	s.history[account] = h
}

func (s *State) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.Path != "/v0/state/abi" {
		writeError(w, http.StatusNotFound, "not_found", "no such route", nil)
		return
	}
	auth := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		writeError(w, http.StatusUnauthorized, "auth_invalid_token_error", "Unable to correctly decode provided token.",
			map[string]any{"reason": "required authorization token not found"})
		return
	}
	if why := checkJWT(s.secret, tok, s.Now()); why != "" {
		writeError(w, http.StatusUnauthorized, "auth_invalid_token_error", "Unable to correctly decode provided token.",
			map[string]any{"reason": "invalid token provided: " + why})
		return
	}
	s.mu.Lock()
	rejected := s.reject > 0
	if rejected {
		s.reject--
	}
	s.mu.Unlock()
	if rejected {
		writeError(w, http.StatusUnauthorized, "auth_invalid_token_error", "Unable to correctly decode provided token.",
			map[string]any{"reason": "invalid token provided: revoked"})
		return
	}
	q := r.URL.Query()
	account := q.Get("account")
	var block uint64
	if b := q.Get("block_num"); b != "" {
		v, err := strconv.ParseUint(b, 10, 64)
		if err != nil {
			writeError(w, http.StatusBadRequest, "request_validation_error", "The request is invalid.",
				map[string]any{"errors": map[string]any{"block_num": []string{"The block_num field must be an integer"}}})
			return
		}
		block = v
	}
	if _, err := antelope.ParseName(account); err != nil || account == "" {
		writeError(w, http.StatusBadRequest, "request_validation_error", "The request is invalid.",
			map[string]any{"errors": map[string]any{"account": []string{"The account field must be a valid EOS name"}}})
		return
	}
	s.mu.Lock()
	var found *version
	for i, v := range s.history[account] {
		if block == 0 || v.block <= block {
			found = &s.history[account][i]
		}
	}
	s.mu.Unlock()
	if found == nil {
		writeError(w, http.StatusBadRequest, "data_abi_not_found_error", "Cannot find an ABI for request account at this block height.",
			map[string]any{"account": account, "block_num": block})
		return
	}
	abi := found.abi // sent as stored, byte for byte, as the real service sends what it holds
	if q.Get("json") != "true" && q.Get("json") != "1" {
		src, err := model.Load(found.abi)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "unexpected_error", err.Error(), nil)
			return
		}
		packed, err := src.ABI.Pack()
		if err != nil {
			writeError(w, http.StatusInternalServerError, "unexpected_error", err.Error(), nil)
			return
		}
		abi = []byte(`"` + hex.EncodeToString(packed) + `"`)
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"block_num":%d,"account":%q,"abi":%s}`, found.block, account, abi)
}

// Chain is the fake nodeos chain API.
type Chain struct {
	srv    *httptest.Server
	mu     sync.Mutex
	abis   map[string][]byte // account → ABI JSON; nil value: the account exists with no ABI
	faults Faults
}

// URL is the chain API's base URL.
func (c *Chain) URL() string { return c.srv.URL }

// Fault returns the fault injector of this fake.
func (c *Chain) Fault() *Faults { return &c.faults }

// SetABI sets an account's ABI; nil makes an account with no ABI.
func (c *Chain) SetABI(account string, abiJSON []byte) {
	c.mu.Lock()
	c.abis[account] = abiJSON
	c.mu.Unlock()
}

func (c *Chain) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		AccountName string `json:"account_name"`
	}
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"code": 400, "message": "Invalid Request",
			"error": map[string]any{"code": 0, "name": "parse_error_exception", "what": "A Request body is required", "details": []any{}}})
		return
	}
	c.mu.Lock()
	abi, ok := c.abis[req.AccountName]
	c.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusBadRequest, map[string]any{"code": 400, "message": "Account lookup",
			"error": map[string]any{"code": 3060002, "name": "account_query_exception", "what": "Account Query Exception",
				"details": []any{map[string]any{"message": "unable to retrieve account abi (unknown key): " + req.AccountName}}}})
		return
	}
	switch r.URL.Path {
	case "/v1/chain/get_abi":
		resp := map[string]any{"account_name": req.AccountName}
		if abi != nil {
			resp["abi"] = json.RawMessage(abi)
		}
		writeJSON(w, http.StatusOK, resp)
	case "/v1/chain/get_raw_abi":
		var packed []byte
		if abi != nil {
			src, err := model.Load(abi)
			if err == nil {
				packed, err = src.ABI.Pack()
			}
			if err != nil {
				writeJSON(w, http.StatusInternalServerError, map[string]any{"code": 500, "message": err.Error()})
				return
			}
		}
		sum := sha256.Sum256(packed)
		// nodeos pads its base64 wrongly: a "=" too many (EOSIO/eos#8161).
		b64 := base64.StdEncoding.EncodeToString(packed) + "="
		writeJSON(w, http.StatusOK, map[string]any{"account_name": req.AccountName, "code_hash": strings.Repeat("0", 64),
			"abi_hash": hex.EncodeToString(sum[:]), "abi": b64})
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"code": 404, "message": "Not Found",
			"error": map[string]any{"code": 0, "name": "exception", "what": "Unknown Endpoint", "details": []any{}}})
	}
}
