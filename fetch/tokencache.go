package fetch

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/antelopego/abigen/chain/state"
	"github.com/antelopego/abigen/internal/atomicfile"
)

var _ state.TokenStore = (*TokenCache)(nil)

// TokenCache keeps tokens on disk, one file per auth URL and API key (by
// sha256; the key itself is never written), mode 0600, written atomically.
// A lock file serialises issuing between concurrent abigen processes: its
// holder refreshes it (a heartbeat) for as long as it holds it, however
// long the token service takes, and a lock left unrefreshed for 30 seconds
// is taken for a dead process's and broken. It is the state.TokenStore of
// the CLI's state API fetches.
type TokenCache struct {
	Dir string // where token files live

	beats     <-chan time.Time // the heartbeat's ticks (tests); nil: every heartbeat
	breaking  func()           // called when a lock was found stale, before it is broken (tests)
	now       func() time.Time // the clock (tests); nil: time.Now
	releasing func()           // called when a holder found its lock its own, before removing it (tests)
	readOnly  bool             // as if Dir were read-only (tests)
}

// errReadOnly is what a readOnly cache's writes fail with.
var errReadOnly = errors.New("read-only file system")

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

// Get returns the cached token, if there is one that can be read and this
// process was not asked to drop it.
func (c *TokenCache) Get(authURL, apiKey string) (state.Token, bool) {
	path := c.file(authURL, apiKey)
	t, ok := readToken(path)
	if !ok {
		return state.Token{}, false
	}
	if p, ok := undropped.Load(path); ok && p == tokenPrint(t.Token) {
		return state.Token{}, false
	}
	return t, true
}

func readToken(path string) (state.Token, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return state.Token{}, false
	}
	var t state.Token
	if json.Unmarshal(data, &t) != nil || t.Token == "" {
		return state.Token{}, false
	}
	return t, true
}

// undropped maps a cache file to the token (a hash prefix, not the token)
// this process was asked to drop from it and could not (a directory made
// read-only), so that Get does not hand it out again: fetch.StateAPI makes
// an Auth per fetch, and each new Auth, knowing nothing of the last one's
// refusal, sent the refused token again.
var undropped sync.Map

// tokenPrint names a token without giving it away.
func tokenPrint(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:8])
}

// Put stores a token atomically.
func (c *TokenCache) Put(authURL, apiKey string, t state.Token) error {
	if c.readOnly {
		return fmt.Errorf("token cache: %w", errReadOnly)
	}
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return fmt.Errorf("token cache: %w", err)
	}
	data, _ := json.Marshal(t)
	if err := atomicfile.Write(c.file(authURL, apiKey), data, 0o600); err != nil {
		return fmt.Errorf("token cache: %w", err)
	}
	return nil
}

// Drop forgets the cached token (after the state service refused it); one
// it cannot remove, this process's Gets no longer return.
func (c *TokenCache) Drop(authURL, apiKey string) {
	path := c.file(authURL, apiKey)
	t, held := readToken(path)
	err := errReadOnly
	if !c.readOnly {
		err = os.Remove(path)
	}
	if held && err != nil && !errors.Is(err, os.ErrNotExist) {
		undropped.Store(path, tokenPrint(t.Token))
	}
}

// A lock's holder refreshes its modification time every heartbeat while
// it holds it, so that a lock unrefreshed for staleLock belongs to a
// process that died (or was stopped) and may be broken. The lock's age is
// its modification time against the reader's clock: on a disk shared
// between machines, their clocks may differ by up to staleLock-heartbeat
// (20 s) before a live holder's lock looks stale. A lock dated ahead of
// the reader's clock is judged by the reader's watch instead (lockWatch).
// A lock holding its holder's pid instead would mean nothing on another
// machine, and a pid is reused.
const (
	staleLock = 30 * time.Second
	heartbeat = staleLock / 3
)

// Lock takes the issuing lock for a key, waiting for another process that
// holds it (it will usually have issued a token by then). The holder keeps
// its lock fresh until it unlocks, however long it waits on the token
// service; a lock left unrefreshed for 30 seconds is taken for a dead
// process's and broken. Unlocking removes only the caller's own lock.
func (c *TokenCache) Lock(ctx context.Context, authURL, apiKey string) (unlock func(), err error) {
	if c.readOnly {
		return nil, fmt.Errorf("token cache: %w", errReadOnly)
	}
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("token cache: %w", err)
	}
	path := c.file(authURL, apiKey) + ".lock"
	// The lock file holds a nonce: a holder whose lock was broken as stale
	// must not remove, when it finishes, the lock another took since.
	var nonce [16]byte
	_, _ = rand.Read(nonce[:])
	mine := hex.EncodeToString(nonce[:])
	watch := lockWatch{now: c.clock}
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			_, werr := f.WriteString(mine)
			if err := errors.Join(werr, f.Close()); err != nil {
				os.Remove(path)
				return nil, fmt.Errorf("token cache: %w", err)
			}
			stop, stopped := make(chan struct{}), make(chan struct{})
			go c.beat(path, mine, stop, stopped)
			var once sync.Once
			return func() {
				once.Do(func() {
					close(stop)
					<-stopped // no beat after the lock is let go
					c.release(path, mine)
				})
			}, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("token cache: %w", err)
		}
		if watch.stale(path) {
			if c.breaking != nil {
				c.breaking()
			}
			if err := c.breakStale(ctx, path, &watch); err != nil {
				return nil, err
			}
			continue
		}
		if err := pause(ctx); err != nil {
			return nil, fmt.Errorf("token cache: waiting for another abigen to issue a token: %w", err)
		}
	}
}

func (c *TokenCache) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

// lockWatch watches a lock file for its holder's heartbeat.
type lockWatch struct {
	now   func() time.Time
	held  string    // the lock's content when last looked at
	mod   time.Time // its modification time then
	since time.Time // when it was first seen so, on this process's clock
}

// stale reports whether the lock at path went unrefreshed for staleLock:
// by its date, or — a date this machine's clock cannot judge, from the
// future (this clock was set back since, or the holder's machine's is
// ahead) — by this process's own watch, having seen it unchanged that
// long. By its date alone, such a lock, its holder dead, was never broken
// and every run waited on it until its deadline.
func (w *lockWatch) stale(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	held, _ := os.ReadFile(path)
	now := w.now()
	if w.since.IsZero() || !fi.ModTime().Equal(w.mod) || string(held) != w.held {
		w.held, w.mod, w.since = string(held), fi.ModTime(), now
	}
	return now.Sub(fi.ModTime()) > staleLock || now.Sub(w.since) > staleLock
}

// pause waits a poll's length, or until ctx ends.
func pause(ctx context.Context) error {
	t := time.NewTimer(25 * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}

// breakStale removes the lock at path if it is still stale, under its
// break lock. Looking and removing are two steps: two processes that found
// a dead holder's lock stale together both removed "it", the second
// removing the lock the first had just taken, and both issued. Every
// removal of a lock (breaking it, or its holder letting it go) happens
// under the break lock, after looking again; a lock is taken only where
// none is, so what was looked at is what is removed.
func (c *TokenCache) breakStale(ctx context.Context, path string, watch *lockWatch) error {
	return c.underBreakLock(ctx, path, func() error {
		if !watch.stale(path) {
			return nil // let go, or taken and fresh, since
		}
		// A stale lock we cannot remove (another user's, in a shared
		// directory) would be retried at once forever: say so instead.
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("token cache: breaking the stale lock %s: %w", path, err)
		}
		return nil
	})
}

// release removes the lock at path if it still holds mine (it was not
// broken as stale and taken by another since), under its break lock.
func (c *TokenCache) release(path, mine string) {
	removeMine := func() error {
		if held, err := os.ReadFile(path); err == nil && string(held) == mine {
			if c.releasing != nil {
				c.releasing()
			}
			os.Remove(path)
		}
		return nil
	}
	// Without a break lock (it could not be made), the lock is still let
	// go, as before break locks: left, it would stall others for staleLock.
	if c.underBreakLock(context.Background(), path, removeMine) != nil {
		_ = removeMine()
	}
}

// underBreakLock runs fn holding path's break lock, a file held only for
// the few file operations of breaking or releasing a lock, never across a
// request. A break lock older than staleLock is its holder's, killed in
// those few operations, and is removed (looking and removing again: two
// processes that found such a one together may both go on, which takes a
// process killed within microseconds and two breaking at once after).
func (c *TokenCache) underBreakLock(ctx context.Context, path string, fn func() error) error {
	bpath := path + ".break"
	watch := lockWatch{now: c.clock}
	for {
		f, err := os.OpenFile(bpath, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			defer os.Remove(bpath)
			return fn()
		}
		if !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("token cache: %w", err)
		}
		if watch.stale(bpath) {
			if err := os.Remove(bpath); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("token cache: breaking the stale lock %s: %w", bpath, err)
			}
			continue
		}
		if err := pause(ctx); err != nil {
			return fmt.Errorf("token cache: waiting for another abigen to issue a token: %w", err)
		}
	}
}

// beat refreshes the lock at path, holding the nonce mine, every heartbeat
// until stop is closed, then closes stopped. It stops early once the lock
// is no longer its holder's (broken after its process was stopped for
// longer than staleLock): a refresh racing that check touches at worst the
// new holder's lock, which is fresh already.
func (c *TokenCache) beat(path, mine string, stop <-chan struct{}, stopped chan<- struct{}) {
	defer close(stopped)
	ticks := c.beats
	if ticks == nil {
		t := time.NewTicker(heartbeat)
		defer t.Stop()
		ticks = t.C
	}
	for {
		select {
		case <-stop:
			return
		case <-ticks:
			if held, err := os.ReadFile(path); err != nil || string(held) != mine {
				return
			}
			now := time.Now()
			// A failed refresh (the directory made read-only meanwhile)
			// leaves the lock to go stale, as before heartbeats.
			_ = os.Chtimes(path, now, now)
		}
	}
}
