package chain

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Token is an issued JWT and its expiry, as the token service returns them.
type Token struct {
	Token     string `json:"token"`               // the JWT; never printed
	ExpiresAt int64  `json:"expires_at"`          // Unix seconds
	IssuedAt  int64  `json:"issued_at,omitempty"` // Unix seconds, recorded by abigen
}

// Usable reports whether the token may still be used at now: it is renewed
// max(60 s, 5 % of its lifetime) before it expires, so that a request never
// races the expiry; a token that lives no longer than that margin (a
// service issuing 30-second tokens) is renewed halfway through its life,
// not on every read.
func (t Token) Usable(now time.Time) bool {
	if t.Token == "" {
		return false
	}
	margin := int64(60)
	if life := t.ExpiresAt - t.IssuedAt; t.IssuedAt > 0 {
		margin = max(margin, life/20)
		if margin >= life {
			margin = life / 2
		}
	}
	return now.Unix() < t.ExpiresAt-margin
}

// TokenCache keeps tokens on disk, one file per auth URL and API key (by
// sha256; the key itself is never written), mode 0600, written atomically.
// A lock file serialises issuing between concurrent abigen processes.
type TokenCache struct {
	Dir string // where token files live
}

// DefaultTokenCache is the cache under the user's cache directory.
func DefaultTokenCache() (*TokenCache, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil, fmt.Errorf("token cache: %w", err)
	}
	return &TokenCache{Dir: filepath.Join(dir, "abigen", "tokens")}, nil
}

func (c *TokenCache) file(authURL, apiKey string) string {
	k := sha256.Sum256([]byte(apiKey))
	h := sha256.Sum256([]byte(authURL + "\n" + hex.EncodeToString(k[:])))
	return filepath.Join(c.Dir, hex.EncodeToString(h[:16])+".json")
}

// Get returns the cached token, if there is one that can be read.
func (c *TokenCache) Get(authURL, apiKey string) (Token, bool) {
	data, err := os.ReadFile(c.file(authURL, apiKey))
	if err != nil {
		return Token{}, false
	}
	var t Token
	if json.Unmarshal(data, &t) != nil || t.Token == "" {
		return Token{}, false
	}
	return t, true
}

// Put stores a token atomically.
func (c *TokenCache) Put(authURL, apiKey string, t Token) error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return fmt.Errorf("token cache: %w", err)
	}
	data, _ := json.Marshal(t)
	tmp, err := os.CreateTemp(c.Dir, ".token.*.tmp")
	if err != nil {
		return fmt.Errorf("token cache: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o600)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("token cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), c.file(authURL, apiKey)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("token cache: %w", err)
	}
	return nil
}

// Drop forgets the cached token (after the state service refused it).
func (c *TokenCache) Drop(authURL, apiKey string) {
	os.Remove(c.file(authURL, apiKey))
}

// staleLock is how old a lock file may be before it is taken to belong to
// a process that died.
const staleLock = 30 * time.Second

// Lock takes the issuing lock for a key, waiting for another process that
// holds it (it will usually have issued a token by then).
func (c *TokenCache) Lock(ctx context.Context, authURL, apiKey string) (unlock func(), err error) {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("token cache: %w", err)
	}
	path := c.file(authURL, apiKey) + ".lock"
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("token cache: %w", err)
		}
		if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) > staleLock {
			os.Remove(path)
			continue
		}
		t := time.NewTimer(25 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("token cache: waiting for another abigen to issue a token: %w", context.Cause(ctx))
		case <-t.C:
		}
	}
}
