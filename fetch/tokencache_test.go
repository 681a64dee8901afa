package fetch_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
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

// A holder waiting on a slow token service longer than a lock may go
// unrefreshed keeps its lock: it refreshes it while it holds it, so that
// only a dead holder's lock goes stale. Another process broke it, and
// both issued tokens, one overwriting the other's in the cache. The lock
// is aged here as an hour's wait would age it; the holder then beats once.
func TestTokenCacheLiveHolderKeepsItsLock(t *testing.T) {
	beats := make(chan time.Time, 1)
	c := fetch.TokenCacheBeatingOn(t.TempDir(), beats)
	ctx := t.Context()
	unlockA, err := c.Lock(ctx, "https://auth.example", "key")
	if err != nil {
		t.Fatal(err)
	}
	lock := onlyLock(t, c.Dir)
	age(t, lock, time.Hour)
	beats <- time.Now()
	// The beat's refresh, awaited (a few seconds at most: without a
	// heartbeat it never comes, and the lock is broken below).
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if fi, err := os.Stat(lock); err == nil && time.Since(fi.ModTime()) < time.Minute {
			break
		}
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if unlockB, err := c.Lock(short, "https://auth.example", "key"); err == nil {
		unlockB()
		t.Fatal("another process broke the lock of a live holder: both issue a token")
	}
	unlockA()
	unlockC, err := c.Lock(ctx, "https://auth.example", "key")
	if err != nil {
		t.Fatalf("the lock after its holder let it go: %v", err)
	}
	unlockC()
}

// A holder that stopped beating (its process died, or was stopped) loses
// its lock once the lock is older than a lock may go unrefreshed.
func TestTokenCacheDeadHoldersLockIsBroken(t *testing.T) {
	c := fetch.TokenCacheBeatingOn(t.TempDir(), nil) // never beats
	ctx := t.Context()
	if _, err := c.Lock(ctx, "https://auth.example", "key"); err != nil { // never unlocked: dead
		t.Fatal(err)
	}
	age(t, onlyLock(t, c.Dir), time.Hour)
	unlock, err := c.Lock(ctx, "https://auth.example", "key")
	if err != nil {
		t.Fatalf("a dead holder's stale lock was not broken: %v", err)
	}
	unlock()
}

// onlyLock is the one lock file in dir.
func onlyLock(t *testing.T, dir string) string {
	t.Helper()
	locks, _ := filepath.Glob(filepath.Join(dir, "*.lock"))
	if len(locks) != 1 {
		t.Fatalf("lock files %v, want one", locks)
	}
	return locks[0]
}

// age sets path's modification time d ago.
func age(t *testing.T, path string, d time.Duration) {
	t.Helper()
	old := time.Now().Add(-d)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

// A holder whose lock was broken (its process stopped longer than a lock
// may go unrefreshed) neither refreshes nor removes, once it runs again,
// the lock the next process took: a beat that found the lock not its own
// stops.
func TestTokenCacheBrokenHolderLeavesTheNewLockAlone(t *testing.T) {
	dir := t.TempDir()
	beatsA := make(chan time.Time) // unbuffered: a send is a beat begun
	a := fetch.TokenCacheBeatingOn(dir, beatsA)
	b := fetch.TokenCacheBeatingOn(dir, nil)
	ctx := t.Context()
	unlockA, err := a.Lock(ctx, "https://auth.example", "key")
	if err != nil {
		t.Fatal(err)
	}
	age(t, onlyLock(t, dir), time.Hour) // A was stopped for an hour
	unlockB, err := b.Lock(ctx, "https://auth.example", "key")
	if err != nil {
		t.Fatal(err)
	}
	defer unlockB()
	lock := onlyLock(t, dir)
	age(t, lock, time.Hour) // so that a refresh by A would show
	beatsA <- time.Now()    // A runs again, and beats
	unlockA()               // returns once A's beat is over
	fi, err := os.Stat(lock)
	if err != nil {
		t.Fatalf("A removed B's lock: %v", err)
	}
	if time.Since(fi.ModTime()) < time.Minute {
		t.Error("A refreshed B's lock")
	}
}

// Two processes that find a dead holder's lock stale together both break
// it: the first removes it and takes its own, then the second, which saw
// the dead holder's lock stale a moment before, removes the first's (live,
// fresh) and takes its own too. Both issue a token. After a dead holder,
// the processes waiting on it (go generate's parallel runs) all poll the
// same lock and find it stale within one poll of each other.
func TestTokenCacheTwoBreakersOneHolder(t *testing.T) {
	dir := t.TempDir()
	dead := fetch.TokenCacheBeatingOn(dir, nil)
	ctx := t.Context()
	if _, err := dead.Lock(ctx, "https://auth.example", "key"); err != nil { // never unlocked
		t.Fatal(err)
	}
	age(t, onlyLock(t, dir), time.Hour)
	a := &fetch.TokenCache{Dir: dir}
	var unlockA func()
	var errA error
	b := fetch.TokenCacheBreaking(dir, func() {
		if unlockA == nil && errA == nil { // A breaks it first, between B's look and B's break
			unlockA, errA = a.Lock(ctx, "https://auth.example", "key")
		}
	})
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	unlockB, errB := b.Lock(short, "https://auth.example", "key")
	if errA != nil {
		t.Fatalf("A: %v", errA)
	}
	if errB == nil {
		unlockB()
		t.Fatal("B broke A's fresh lock, taken a moment after A broke the dead holder's: both hold it, both issue a token")
	}
	unlockA()
	unlockC, err := a.Lock(ctx, "https://auth.example", "key")
	if err != nil {
		t.Fatalf("the lock after its holder let it go: %v", err)
	}
	unlockC()
	if locks, _ := filepath.Glob(filepath.Join(dir, "*.lock*")); len(locks) != 0 {
		t.Errorf("files left: %v", locks)
	}
}

// A dead holder's lock dated in the future (this machine's clock was set
// back since, or the holder's machine's clock is ahead) is broken too,
// once it has gone unrefreshed for as long as a lock may: it never looked
// stale, and every run waited for it until its deadline, for good.
func TestTokenCacheDeadHoldersLockFromTheFutureIsBroken(t *testing.T) {
	dir := t.TempDir()
	dead := fetch.TokenCacheBeatingOn(dir, nil)
	ctx := t.Context()
	if _, err := dead.Lock(ctx, "https://auth.example", "key"); err != nil { // never unlocked
		t.Fatal(err)
	}
	age(t, onlyLock(t, dir), -time.Hour)
	var mu sync.Mutex
	clock := time.Now()
	c := fetch.TokenCacheClocked(dir, func() time.Time { // a second passes at each look
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Second)
		return clock
	})
	waiting, cancel := context.WithTimeout(ctx, 30*time.Second) // generous: a second a poll, a poll every 25 ms
	defer cancel()
	unlock, err := c.Lock(waiting, "https://auth.example", "key")
	if err != nil {
		t.Fatalf("a dead holder's lock dated an hour ahead was never broken: %v", err)
	}
	unlock()
}

// A holder letting go of a lock it held too long (its process stopped
// past staleLock) looks at it, finds it its own, and removes it: should
// another break it and take its own in between, that one must not be what
// is removed. Breaking and letting go take turns (the break lock); the
// other's Lock is given a moment here to get in between, and then, at the
// latest, the holder goes on.
func TestTokenCacheLateReleaseLeavesTheNextLockAlone(t *testing.T) {
	dir := t.TempDir()
	ctx := t.Context()
	b := &fetch.TokenCache{Dir: dir}
	var unlockB func()
	bDone := make(chan error, 1)
	late := fetch.TokenCacheReleasing(dir, func() {
		go func() {
			var err error
			unlockB, err = b.Lock(ctx, "https://auth.example", "key")
			bDone <- err
		}()
		select {
		case err := <-bDone:
			bDone <- err
		case <-time.After(100 * time.Millisecond):
		}
	})
	unlockA, err := late.Lock(ctx, "https://auth.example", "key")
	if err != nil {
		t.Fatal(err)
	}
	age(t, onlyLock(t, dir), time.Hour) // A's process was stopped for an hour
	unlockA()
	if err := <-bDone; err != nil {
		t.Fatal(err)
	}
	defer unlockB()
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if unlockC, err := b.Lock(short, "https://auth.example", "key"); err == nil {
		unlockC()
		t.Fatal("a third took the lock while B held it: A, letting go late, removed B's")
	}
}
