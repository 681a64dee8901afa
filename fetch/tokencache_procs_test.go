package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/antelopego/abigen/fetch"
)

// The helper process of TestTokenCacheProcessesModel: with
// ABIGEN_TOKENCACHE_HELPER=dir it takes dir's token-cache lock
// ABIGEN_TOKENCACHE_ROUNDS times, each time holding the marker file
// "inside" (made only where none is: a second holder finds it, and fails),
// or, with ABIGEN_TOKENCACHE_DIE set, takes it once and exits holding it.
func TestTokenCacheHelperProcess(t *testing.T) {
	dir := os.Getenv("ABIGEN_TOKENCACHE_HELPER")
	if dir == "" {
		t.Skip("a helper process of TestTokenCacheProcessesModel")
	}
	c := &fetch.TokenCache{Dir: dir}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if os.Getenv("ABIGEN_TOKENCACHE_DIE") != "" {
		if _, err := c.Lock(ctx, "https://auth.example", "key"); err != nil {
			fmt.Fprintln(os.Stderr, "lock:", err)
			os.Exit(2)
		}
		os.Exit(0) // dies holding it
	}
	rounds, _ := strconv.Atoi(os.Getenv("ABIGEN_TOKENCACHE_ROUNDS"))
	inside := filepath.Join(dir, "inside")
	for range rounds {
		unlock, err := c.Lock(ctx, "https://auth.example", "key")
		if err != nil {
			fmt.Fprintln(os.Stderr, "lock:", err)
			os.Exit(2)
		}
		f, err := os.OpenFile(inside, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			fmt.Fprintln(os.Stderr, "two processes hold the lock:", err)
			os.Exit(3)
		}
		f.Close()
		time.Sleep(time.Duration(rand.IntN(3)) * time.Millisecond)
		os.Remove(inside)
		unlock()
	}
}

// Processes sharing a cache directory take its lock one at a time, while
// others die holding it: each dead holder's lock is aged as the wait for
// it would age it, and the waiting processes, all polling it, break it
// together. No two processes hold the lock at once, and every process
// gets it. ABIGEN_TOKENCACHE_PROCS_RUNS sets the number of runs.
func TestTokenCacheProcessesModel(t *testing.T) {
	if os.Getenv("ABIGEN_TOKENCACHE_HELPER") != "" {
		t.Skip("in a helper")
	}
	runs := 1
	if n, err := strconv.Atoi(os.Getenv("ABIGEN_TOKENCACHE_PROCS_RUNS")); err == nil && n > 0 {
		runs = n
	}
	for seed := range uint64(runs) {
		rng := rand.New(rand.NewPCG(seed, 0x10c4))
		dir := t.TempDir()
		helper := func(env ...string) *exec.Cmd {
			cmd := exec.Command(os.Args[0], "-test.run=^TestTokenCacheHelperProcess$")
			cmd.Env = append(os.Environ(), append([]string{"ABIGEN_TOKENCACHE_HELPER=" + dir}, env...)...)
			cmd.Stderr = os.Stderr
			return cmd
		}
		procs := make([]*exec.Cmd, 2+rng.IntN(2))
		done := make(chan error, len(procs))
		for i := range procs {
			procs[i] = helper("ABIGEN_TOKENCACHE_ROUNDS=" + strconv.Itoa(20+rng.IntN(40)))
			if err := procs[i].Start(); err != nil {
				t.Fatal(err)
			}
			go func(cmd *exec.Cmd) { done <- cmd.Wait() }(procs[i])
		}
		for range 1 + rng.IntN(2) {
			die := helper("ABIGEN_TOKENCACHE_DIE=1")
			if err := die.Run(); err != nil {
				t.Fatalf("seed %d: a process that dies holding the lock: %v", seed, err)
			}
			// Its lock, the only one while it is not broken, aged as
			// 30 s of waiting would age it.
			locks, _ := filepath.Glob(filepath.Join(dir, "*.lock"))
			if len(locks) != 1 {
				t.Fatalf("seed %d: lock files %v after a holder died", seed, locks)
			}
			age(t, locks[0], time.Hour)
		}
		for range procs {
			if err := <-done; err != nil {
				var exit *exec.ExitError
				if errors.As(err, &exit) && exit.ExitCode() == 3 {
					t.Fatalf("seed %d: two processes held the lock at once", seed)
				}
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
		// The last dead holder's lock, if no process waited on it.
		unlock, err := (&fetch.TokenCache{Dir: dir}).Lock(t.Context(), "https://auth.example", "key")
		if err != nil {
			t.Fatalf("seed %d: the lock after every process: %v", seed, err)
		}
		unlock()
		if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
			t.Errorf("seed %d: files left: %v", seed, left)
		}
	}
}
