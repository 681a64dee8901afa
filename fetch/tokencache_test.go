package fetch_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/fetch"
)

// A process that held the issuing lock longer than it may (its lock was
// taken for a dead process's and broken) must not remove, when it
// finishes, the lock the next process took meanwhile: a third would then
// issue a token beside the second.
func TestTokenCacheUnlockRemovesOnlyItsOwnLock(t *testing.T) {
	c := &fetch.TokenCache{Dir: t.TempDir()}
	ctx := t.Context()
	unlockA, err := c.Lock(ctx, "https://auth.example", "key")
	if err != nil {
		t.Fatal(err)
	}
	locks, _ := filepath.Glob(filepath.Join(c.Dir, "*.lock"))
	if len(locks) != 1 {
		t.Fatalf("lock files %v", locks)
	}
	long := time.Now().Add(-time.Hour)
	if err := os.Chtimes(locks[0], long, long); err != nil {
		t.Fatal(err)
	}
	unlockB, err := c.Lock(ctx, "https://auth.example", "key") // breaks A's lock, taken for stale
	if err != nil {
		t.Fatal(err)
	}
	unlockA() // A finishes late
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if unlockC, err := c.Lock(short, "https://auth.example", "key"); err == nil {
		unlockC()
		t.Fatal("a third process took the lock while the second held it: the first removed the second's lock")
	}
	unlockB()
	unlockC, err := c.Lock(ctx, "https://auth.example", "key")
	if err != nil {
		t.Fatalf("the lock after its holder let it go: %v", err)
	}
	unlockC()
}

// A stale lock that cannot be removed (another user's, in a shared
// directory) is an error that names it, at once — the wait spun without
// pausing, a core busy until the deadline, then said only that the
// deadline passed.
func TestTokenCacheStaleLockThatCannotBeRemoved(t *testing.T) {
	c := &fetch.TokenCache{Dir: t.TempDir()}
	unlock, err := c.Lock(t.Context(), "https://auth.example", "key")
	if err != nil {
		t.Fatal(err)
	}
	locks, _ := filepath.Glob(filepath.Join(c.Dir, "*.lock"))
	unlock()
	// A directory with a file in it: there, stale, and not removable.
	if err := os.MkdirAll(filepath.Join(locks[0], "held"), 0o700); err != nil {
		t.Fatal(err)
	}
	long := time.Now().Add(-time.Hour)
	if err := os.Chtimes(locks[0], long, long); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, err = c.Lock(ctx, "https://auth.example", "key")
	if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), filepath.Base(locks[0])) {
		t.Errorf("got %v, want an error naming the lock at once", err)
	}
}
