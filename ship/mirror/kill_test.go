package mirror

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"

	"github.com/antelopego/abigen/ship"
)

// The child process's settings: the test binary started again runs
// TestMirrorChild as a mirror process, which kills itself with SIGKILL at
// the event childKill names — inside the block's database transaction
// (its rows written, the cursor not) or just after the commit.
const (
	childURL   = "MIRROR_CHILD_URL"
	childDSN   = "MIRROR_CHILD_DSN"
	childStart = "MIRROR_CHILD_START"
	childEnd   = "MIRROR_CHILD_END"
	childKill  = "MIRROR_CHILD_KILL" // "N:inside" or "N:after"; empty: never
)

// TestMirrorChild is the mirror process of TestKilledProcess; on its own
// it does nothing.
func TestMirrorChild(t *testing.T) {
	url := os.Getenv(childURL)
	if url == "" {
		t.Skip("the child process of TestKilledProcess")
	}
	var killAt int
	var point string
	if v := os.Getenv(childKill); v != "" {
		fmt.Sscanf(v, "%d:%s", &killAt, &point)
	}
	events := 0
	kill := func(at string) {
		if killAt > 0 && events >= killAt && point == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	}
	ctx := context.Background()
	db, d, err := OpenDB(ctx, os.Getenv(childDSN))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Open(ctx, db, d, tokenABI(t), Options{Contract: token, Actions: true,
		Hook: func(ctx context.Context, tx *sql.Tx, ev ship.Event) error {
			events++
			kill("inside")
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	start, _ := strconv.Atoi(os.Getenv(childStart))
	end, _ := strconv.Atoi(os.Getenv(childEnd))
	err = m.Run(ctx, ship.NewClient(url), ship.Request{Start: uint32(start), End: uint32(end)}, func(Progress) { kill("after") })
	if err != nil {
		t.Fatal(err)
	}
}

// A mirror process killed with SIGKILL at random events — inside a
// block's transaction or right after its commit — and started again, while
// the chain forks in between, ends equal to the chain.
func TestKilledProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			t.Parallel()
			tc := newTokenChain(t)
			if err := tc.node.SetLastIrreversible(tc.node.Head().Num); err != nil {
				t.Fatal(err)
			}
			k := 0
			for range 20 {
				tc.block(k)
				k++
			}
			dsn := dbk.dsn(t)
			rng := rand.New(rand.NewPCG(uint64(len(dbk.name)), 9))
			kills0 := rounds() * 2 / 3 // each run starts a process: few by default
			kills := 0
			for run := 1; ; run++ {
				if run > 40 {
					t.Fatal("no end")
				}
				cmd := exec.Command(os.Args[0], "-test.run=^TestMirrorChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), childURL+"="+tc.node.SHiPURL(), childDSN+"="+dsn,
					childStart+"="+strconv.Itoa(int(tc.start)), childEnd+"="+strconv.Itoa(int(tc.node.Head().Num+1)))
				if run <= kills0 {
					point := []string{"inside", "after"}[rng.IntN(2)]
					cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d:%s", childKill, 1+rng.IntN(6), point))
				}
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				err := cmd.Run()
				var exit *exec.ExitError
				if errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL {
					kills++
				} else if err != nil {
					t.Fatalf("run %d: %v\n%s", run, err, out.String())
				} else if run > kills0 {
					break
				}
				// Meanwhile the chain forks above the last irreversible
				// block and goes on.
				head, lib := tc.node.Head().Num, tc.node.LastIrreversible().Num
				if run%2 == 0 && head > lib+2 {
					at := lib + 1 + uint32(rng.IntN(int(head-lib-1)))
					if err := tc.node.Rollback(at); err != nil {
						t.Fatal(err)
					}
					k += 2
					for tc.node.Head().Num <= head {
						tc.block(k)
						k++
					}
				}
				tc.block(k)
				k++
				if err := tc.node.SetLastIrreversible(lib + uint32(rng.IntN(2))); err != nil {
					t.Fatal(err)
				}
			}
			if kills < kills0*2/3 {
				t.Errorf("only %d kills landed", kills)
			}
			db, d := openDSN(t, dsn)
			m, err := Open(context.Background(), db, d, tokenABI(t), Options{Contract: token, Actions: true})
			if err != nil {
				t.Fatal(err)
			}
			checkTables(t, tc, m)
			if got, want := actionsOf(t, m, "transfer"), chainTransfers(t, tc); !equalLists(got, want) {
				t.Errorf("transfers: mirror %d, chain %d", len(got), len(want))
			}
			t.Logf("%d kills", kills)
		})
	}
}
