package blocklog

import (
	"math/rand/v2"
	"testing"
)

// TestLogFinalityModel drives a Log with random produces, finality moves,
// forks and rollbacks against a model of what must hold: a block's state
// is kept exactly while it is at or above the last irreversible block
// (Rollback can go back to it), finality never moves back nor past the
// head, and no fork reaches below it.
func TestLogFinalityModel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 200 {
		first := uint32(1 + r.IntN(3))
		l := &Log[int, uint32]{Manual: round%4 != 0}
		head := first - 1
		produce := func() {
			head++
			s := head
			l.Append(Record[int, uint32]{State: &s}, first, head)
		}
		produce()
		lib := first // the model's last irreversible block
		for range 40 {
			if !l.Manual {
				lib = head
			}
			switch op := r.IntN(4); op {
			case 0:
				produce()
				if !l.Manual {
					lib = head
				}
			case 1:
				n := first + uint32(r.IntN(int(head-first)+2))
				err := l.SetLastIrreversible(n, first, head)
				if ok := l.Manual && n >= lib && n <= head; ok != (err == nil) {
					t.Fatalf("round %d: SetLastIrreversible(%d) with lib %d head %d manual %v: %v", round, n, lib, head, l.Manual, err)
				}
				if err == nil {
					lib = n
				}
			case 2, 3:
				n := first + uint32(r.IntN(int(head-first)+1))
				err := l.CheckFork("Rollback", n, first, head)
				if ok := l.Manual && n >= lib && n < head; ok != (err == nil) {
					t.Fatalf("round %d: CheckFork(%d) with lib %d head %d manual %v: %v", round, n, lib, head, l.Manual, err)
				}
				if err != nil {
					break
				}
				k := int(n - first)
				branch := l.Branch
				if op == 2 {
					if s := l.Records[k].State; s == nil || *s != n {
						t.Fatalf("round %d: rollback to %d finds state %v", round, n, s)
					}
					l.Truncate(k)
					head = n
				} else {
					l.Rebranch(k)
				}
				if l.Branch != branch+1 {
					t.Fatalf("round %d: branch %d after a fork from %d", round, l.Branch, branch)
				}
			}
			if got := l.LastIrreversible(first, head); got != lib {
				t.Fatalf("round %d: LastIrreversible %d, want %d", round, got, lib)
			}
			if len(l.Records) != int(head-first)+1 {
				t.Fatalf("round %d: %d records for blocks %d..%d", round, len(l.Records), first, head)
			}
			for i, rec := range l.Records {
				num := first + uint32(i)
				if kept := rec.State != nil; kept != (num >= lib) {
					t.Fatalf("round %d: block %d (lib %d) state kept %v", round, num, lib, kept)
				}
			}
		}
	}
}
