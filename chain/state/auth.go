package state

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/antelopego/abigen/chain/httpcore"
)

// ErrAuth marks errors that come from the API key or a token being refused.
var ErrAuth = errors.New("authentication failed")

// The API keys CheckAPIKey refuses, for callers that word the advice
// themselves (the CLI names its variable and its flag).
var (
	// ErrNoAPIKey: the key is empty.
	ErrNoAPIKey = errors.New("no API key")
	// ErrAPIKeyIsToken: a JWT was given where the API key belongs.
	ErrAPIKeyIsToken = errors.New("the API key looks like a JWT (a token): pass the API key itself")
)

// CheckAPIKey rejects keys that cannot be right, and a JWT passed where the
// key belongs.
func CheckAPIKey(key string) error {
	switch {
	case key == "":
		return ErrNoAPIKey
	case strings.Count(key, ".") == 2 && strings.HasPrefix(key, "eyJ"):
		return fmt.Errorf("%w; tokens are issued and cached for you", ErrAPIKeyIsToken)
	case strings.ContainsAny(key, " \t\r\n"):
		return errors.New("the API key contains white space")
	}
	return nil
}

// Auth is the state service's token flow: an API key exchanged at the
// token service (POST {AuthURL}/v1/auth/issue) for a short-lived JWT, sent
// as a bearer token, cached (in a TokenStore, such as fetch's on-disk
// cache) until shortly before it expires, and issued anew once when the
// state service refuses it. A token the state service refused, the fresh
// one included, is never sent again: it is dropped from memory, and from
// the store if the store still holds it (not a newer one another process
// stored), so the next request issues a new one.
type Auth struct {
	Transport *httpcore.Transport // the HTTP core; nil gets a default
	AuthURL   string              // the token service, e.g. https://auth.example.io
	APIKey    string              // the API key the token service exchanges for tokens; never printed
	Cache     TokenStore          // nil: tokens are kept in memory for this value's life
	Now       func() time.Time    // the clock (tests); nil: time.Now

	mu      sync.Mutex
	mem     Token         // the in-memory token: when Cache is nil, or one Cache could not keep
	issuing chan struct{} // the in-memory issuing lock: a channel, so that waiting ends with the context
	refused refusedTokens // tokens the state service refused, never handed out again
	// lastRefused is the last token the state service refused this Auth:
	// a token issued after it replaces it (Token.Replaces), so that a
	// request refused it, still waiting for the lock, takes that token.
	lastRefused string
	// handedOut remembers what the last tokens this Auth handed out
	// replaced (Token.Replaces), so that one issued to replace them
	// replaces those too.
	handedOut [8]struct{ print, replaces string }
	nextOut   int
}

// refusedTokens fingerprints the last tokens the state service refused,
// and the one a store was last seen holding after its refusal: a store
// that cannot drop one (read-only), or whose drop waited in vain for its
// lock, may still hold it. A few suffice for the others: a token is
// refused while it is the newest, and tokens refused earlier have been
// replaced since. Not the one a store keeps: with the last few only, a
// read-only store's refused token, pushed out by four failing requests'
// eight refusals, was read as never refused and sent again.
type refusedTokens struct {
	prints [8]string
	next   int
	stored string // the refused token a store was last seen holding
}

func (r *refusedTokens) add(tok string) {
	p := fingerprint(tok)
	if r.has(tok) || p == "" {
		return
	}
	r.prints[r.next] = p
	r.next = (r.next + 1) % len(r.prints)
}

func (r *refusedTokens) has(tok string) bool {
	p := fingerprint(tok)
	if p != "" && p == r.stored {
		return true
	}
	for _, q := range r.prints {
		if q != "" && q == p {
			return true
		}
	}
	return false
}

// lockIssuing takes the in-memory issuing lock, or gives up when ctx ends:
// the holder may wait minutes on a slow token service.
func (s *Auth) lockIssuing(ctx context.Context) (unlock func(), err error) {
	s.mu.Lock()
	if s.issuing == nil {
		s.issuing = make(chan struct{}, 1)
	}
	issuing := s.issuing
	s.mu.Unlock()
	select {
	case issuing <- struct{}{}:
		return func() { <-issuing }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("state service: waiting for another request to issue a token: %w", context.Cause(ctx))
	}
}

// memToken returns the in-memory token if it is usable and may replace
// refused (see replaces).
func (s *Auth) memToken(refused string) (string, bool) {
	s.mu.Lock()
	t := s.mem
	s.mu.Unlock()
	if !t.Usable(s.now()) || !replaces(t, refused) {
		return "", false
	}
	return s.handOut(t), true
}

// refuse records that the state service refused tok: it is forgotten from
// memory here, and never handed out again, from memory or from the store.
func (s *Auth) refuse(tok string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refused.add(tok)
	s.lastRefused = tok
	if s.mem.Token == tok {
		s.mem = Token{}
	}
}

// refusedInStore reports whether tok, the store's token, is one the state
// service refused, and if so remembers it for as long as the store may
// keep it (until it is seen holding another refused token).
func (s *Auth) refusedInStore(tok string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.refused.has(tok) {
		return false
	}
	s.refused.stored = fingerprint(tok)
	return true
}

// dropRefused drops the store's token if the state service refused it.
// Called with the issuing lock held, so that the token compared is the
// token dropped: another process may have stored a newer one, which
// stays.
func (s *Auth) dropRefused() {
	if s.Cache == nil {
		return
	}
	if t, ok := s.Cache.Get(s.AuthURL, s.APIKey); ok && s.refusedInStore(t.Token) {
		s.Cache.Drop(s.AuthURL, s.APIKey)
	}
}

// forget drops a token the state service refused, though it was issued to
// replace one it refused, so that the next request issues a new one (or
// uses another process's) instead of first being refused it again. The
// store's copy is dropped under the issuing lock; should ctx end while
// waiting for it, the copy stays for other processes (one 401 each), but
// this Auth never sends it again.
func (s *Auth) forget(ctx context.Context, tok string) {
	s.refuse(tok)
	if s.Cache == nil {
		return
	}
	if unlock, err := s.lock(ctx); err == nil {
		s.dropRefused()
		unlock()
	}
}

// replaces reports whether t may be used by a request refused the token
// refused: any token when none was; after a refusal, only a token issued
// after it (to replace that one, or the token that replaced it, ...),
// since one issued earlier (a renewal) may have been revoked with it.
func replaces(t Token, refused string) bool {
	if refused == "" {
		return true
	}
	p := fingerprint(refused)
	return t.Token != refused && slices.Contains(strings.Fields(t.Replaces), p)
}

// maxReplaces bounds Token.Replaces: a request refused a token waits for
// the lock while a few replacements are issued at most.
const maxReplaces = 4

// handOut records that t is handed out to a request, and returns its
// token.
func (s *Auth) handOut(t Token) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := fingerprint(t.Token)
	for _, h := range s.handedOut {
		if h.print == p {
			return t.Token
		}
	}
	s.handedOut[s.nextOut] = struct{ print, replaces string }{p, t.Replaces}
	s.nextOut = (s.nextOut + 1) % len(s.handedOut)
	return t.Token
}

// replacing is the Token.Replaces of a token issued to replace refused:
// refused, and what refused replaced, as far as this Auth knows.
func (s *Auth) replacing(refused string) string {
	if refused == "" {
		return ""
	}
	p := fingerprint(refused)
	chain := []string{p}
	s.mu.Lock()
	for _, h := range s.handedOut {
		if h.print == p {
			chain = append(chain, strings.Fields(h.replaces)...)
			break
		}
	}
	s.mu.Unlock()
	return strings.Join(chain[:min(len(chain), maxReplaces)], " ")
}

// fingerprint names a token, in Token.Replaces, without giving it away.
func fingerprint(tok string) string {
	if tok == "" {
		return ""
	}
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:8])
}

func (s *Auth) lastRefusedToken() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastRefused
}

func (s *Auth) setMem(t Token) {
	s.mu.Lock()
	s.mem = t
	s.mu.Unlock()
}

func (s *Auth) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Get sends an authenticated GET to u and returns the body. A 401 drops the
// token and retries once with a fresh one; requests refused the same token
// together share one fresh token.
func (s *Auth) Get(ctx context.Context, u *url.URL) ([]byte, error) {
	if err := CheckAPIKey(s.APIKey); errors.Is(err, ErrNoAPIKey) {
		return nil, fmt.Errorf(`%w: set Auth.APIKey to the state service's API key, e.g. state.New(baseURL, &state.Auth{AuthURL: authURL, APIKey: os.Getenv("STATE_API_KEY")})`, err)
	} else if err != nil {
		return nil, err
	}
	httpcore.AddSecret(s.APIKey)
	httpcore.AddURLSecrets(s.AuthURL)
	tok, err := s.token(ctx, "")
	if err != nil {
		return nil, err
	}
	body, err := s.get(ctx, u, tok)
	var fe *httpcore.HTTPError
	if errors.As(err, &fe) && fe.Status == http.StatusUnauthorized {
		// The token was refused (revoked, or expired early): replace it,
		// once, and try again.
		s.refuse(tok)
		if tok, err = s.token(ctx, tok); err != nil {
			return nil, err
		}
		body, err = s.get(ctx, u, tok)
		if errors.As(err, &fe) && fe.Status == http.StatusUnauthorized {
			s.forget(ctx, tok)
			return nil, fmt.Errorf("%w: the state service refused a freshly issued token too: %w", ErrAuth, err)
		}
	}
	if errors.As(err, &fe) && fe.Status == http.StatusForbidden {
		return nil, fmt.Errorf("%w: the state service refused the request (the API key's plan?): %w", ErrAuth, err)
	}
	return body, err
}

func (s *Auth) get(ctx context.Context, u *url.URL, tok string) ([]byte, error) {
	// Registered again at each use: only the most recent tokens are
	// remembered, and other Auths of this process may have been issued
	// hundreds since this one's.
	httpcore.AddToken(tok)
	return s.Transport.Do(ctx, "state service", func() (*http.Request, error) {
		req, err := http.NewRequest(http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Cache-Control", "no-cache")
		return req, nil
	})
}

// token returns a usable token: the cached one, or a new one. refused,
// when not empty, is a token the state service just refused: it is
// dropped and not returned. Requests refused together replace it once:
// the first to take the lock issues a new token, and the others find it
// (a token issued to replace the one they were refused) and use it.
func (s *Auth) token(ctx context.Context, refused string) (string, error) {
	if refused == "" {
		// First the in-memory token (with a store, one it could not
		// keep: the store's may be one refused that it could not drop
		// either).
		if tok, ok := s.memToken(""); ok {
			return tok, nil
		}
		if t, ok := s.stored(); ok {
			return s.handOut(t), nil
		}
	}
	unlock, err := s.lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	// A refused token is not left for other processes to be refused too,
	// should issuing fail.
	s.dropRefused()
	// Another request or process may have issued one while this one
	// waited.
	if t, ok := s.stored(); ok && replaces(t, refused) {
		return s.handOut(t), nil
	}
	if tok, ok := s.memToken(refused); ok {
		return tok, nil
	}
	// A request that did not come refused issues a token that replaces
	// the last one refused all the same: a request refused that one and
	// waiting for the lock took the store's (or memory's) token only if
	// it was issued to replace it, and issued a second.
	replacing := refused
	if replacing == "" {
		replacing = s.lastRefusedToken()
	}
	t, err := s.issue(ctx, replacing)
	if err != nil {
		return "", err
	}
	// A store that cannot be written costs a token per run, nothing more:
	// this Auth keeps the token in memory.
	if s.Cache == nil || s.Cache.Put(s.AuthURL, s.APIKey, t) != nil {
		s.setMem(t)
	} else {
		s.setMem(Token{})
	}
	return s.handOut(t), nil
}

// stored returns the store's token if there is a store and its token is
// usable and not one the state service refused.
func (s *Auth) stored() (Token, bool) {
	if s.Cache == nil {
		return Token{}, false
	}
	t, ok := s.Cache.Get(s.AuthURL, s.APIKey)
	if !ok || !s.usableStored(t) || s.refusedInStore(t.Token) {
		return Token{}, false
	}
	httpcore.AddToken(t.Token)
	return t, true
}

// lock takes the issuing lock: the store's, or the in-memory one when
// there is no store or it cannot be locked (a read-only directory: it
// cannot keep a token either, and this Auth keeps its own).
func (s *Auth) lock(ctx context.Context) (unlock func(), err error) {
	if s.Cache != nil {
		if unlock, err = s.Cache.Lock(ctx, s.AuthURL, s.APIKey); err == nil || ctx.Err() != nil {
			return unlock, err
		}
	}
	return s.lockIssuing(ctx)
}

// usableStored reports whether a token from the store may be used: usable
// now, and one an issued token could be (a store written by an earlier
// version, or by another program, may hold any string).
func (s *Auth) usableStored(t Token) bool {
	return t.Usable(s.now()) && tokenProblem(t.Token) == ""
}

// issue asks the token service for a token, to replace refused when that
// is not empty.
func (s *Auth) issue(ctx context.Context, refused string) (Token, error) {
	u, err := httpcore.JoinURL(s.AuthURL, "/v1/auth/issue")
	if err != nil {
		return Token{}, fmt.Errorf("token service: %w", err)
	}
	payload, _ := json.Marshal(map[string]string{"api_key": s.APIKey})
	// The body carries the API key: never to another origin.
	body, err := s.Transport.Do(httpcore.WithCredentials(ctx), "token service", func() (*http.Request, error) {
		req, err := http.NewRequest(http.MethodPost, u.String(), bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Cache-Control", "no-cache")
		return req, nil
	})
	var fe *httpcore.HTTPError
	if errors.As(err, &fe) && (fe.Status == http.StatusUnauthorized || fe.Status == http.StatusForbidden || fe.Status == http.StatusBadRequest) {
		return Token{}, fmt.Errorf("%w: the token service refused the API key: %v", ErrAuth, fe)
	}
	if err != nil {
		return Token{}, err
	}
	t, err := decodeToken(body, s.now())
	if err != nil {
		return Token{}, fmt.Errorf("token service %s: %v", httpcore.RedactURL(u), err)
	}
	t.Replaces = s.replacing(refused) // ours to say, not the token service's
	return t, nil
}

// decodeToken reads the token service's answer, {"token", "expires_at"},
// issued at now, and registers the token as a secret.
func decodeToken(body []byte, now time.Time) (Token, error) {
	var t Token
	if err := json.Unmarshal(body, &t); err != nil || t.Token == "" || t.ExpiresAt == 0 {
		return Token{}, errors.New(`the response is not {"token", "expires_at"}`)
	}
	if problem := tokenProblem(t.Token); problem != "" {
		return Token{}, errors.New("the token it issued " + problem)
	}
	httpcore.AddToken(t.Token)
	t.IssuedAt = now.Unix()
	if t.ExpiresAt <= t.IssuedAt {
		return Token{}, errors.New("the token it issued has already expired (check this machine's clock)")
	}
	return t, nil
}

// maxTokenLen bounds an issued token: servers refuse headers past 8 to 16
// KiB (nginx's large header buffer is 8 KiB; Go's server takes 1 MiB for
// all of them), and a token is kept with its escaped forms, about twenty
// times its size, for as long as it is remembered. A JWT is about 1 KiB.
const maxTokenLen = 16 << 10

// tokenProblem says why tok cannot follow "Bearer " in a header, "" when
// it can: at most maxTokenLen bytes of visible ASCII (RFC 6750's b64token
// is narrower still). Anything else no request could carry, and
// registering it as a secret would cost many times its size (every invalid
// UTF-8 byte is nine in its URL-escaped form; FuzzStateAnswers).
func tokenProblem(tok string) string {
	if len(tok) > maxTokenLen {
		return fmt.Sprintf("is %d bytes, more than a header carries (%d at most here)", len(tok), maxTokenLen)
	}
	for i := 0; i < len(tok); i++ {
		if tok[i] <= ' ' || tok[i] > '~' {
			return "is not one header value (visible ASCII)"
		}
	}
	return ""
}
