package ship

import (
	"context"
	"errors"
	"time"
)

// The model's slow and silent connections. Their decisions come from a
// schedule's own timing choices, apart from its other decisions, so that a
// schedule without them replays as it did before they existed; a schedule
// with them runs the client under the tiny stall timeout modelStall, on a
// synctest bubble's clock (runModel), so that they cost no real time.
//
// A slow message arrives in pieces, each well within the stall timeout,
// over longer than it in all: the client must take it (a stall is no
// bytes for the timeout), not cut it and download it again forever. A
// silent connection sends nothing more (after a few pieces of a message,
// perhaps): the client must give it up and resume, without a skip or a
// double (the invariants of modelcheck_test.go).

const (
	modelStall = 20 * time.Millisecond
	// modelPiece is the time between two pieces of a slow message.
	modelPiece = modelStall / 8
	// modelPieces make a slow message last longer than the stall timeout.
	modelPieces = 12
	// maxDelays bounds a schedule's slow and silent messages.
	maxDelays = 2
	// modelHang is how long a silent connection may go without the
	// client giving it up: a hang, whatever the machine's load.
	modelHang = 10 * time.Second
)

type delay uint8

const (
	onTime delay = iota
	slow
	silent
	slowThenSilent
)

// delay decides how the next block message arrives.
func (w *modelWorld) delay() delay {
	if w.timing == nil || w.delays >= maxDelays {
		return onTime
	}
	// About one block message in seven is delayed. (A fuzzer's bytes
	// were read modulo 256, so that only 1 to 3 delayed one, while each
	// delay cost real time.)
	d := delay(w.timing.n(20))
	if d > slowThenSilent {
		return onTime
	}
	if d != onTime {
		w.delays++
		w.note("the next block message: %s", [...]string{"", "slow", "silent", "slow, then silent"}[d])
	}
	return d
}

// arrive returns msg as the connection delivers it under d, calling
// Progress as its pieces arrive. It fails the schedule when the client
// cuts a read as stalled although no gap between its bytes reached the
// stall timeout, or leaves a silent connection hanging.
func (c *modelConn) arrive(ctx context.Context, msg []byte, d delay) ([]byte, error) {
	if d == onTime {
		return msg, nil
	}
	// The watchdog started just before this read (session.read): the
	// first gap is measured from here.
	before := time.Now()
	var widest time.Duration // the longest gap from one reset to the next, at most
	pieces := modelPieces
	if d == slowThenSilent {
		pieces /= 2
	}
	for range pieces {
		if d == silent {
			break
		}
		time.Sleep(modelPiece)
		if ctx.Err() != nil {
			// A correct watchdog fires only after a gap of the stall
			// timeout between resets: before one (widest), or since the
			// last (now). Timers never fire early, so this is no timing
			// assumption; a loaded machine only makes gaps wider.
			if errors.Is(context.Cause(ctx), errStall) && widest < modelStall && time.Since(before) < modelStall {
				fail("a slow message cut as stalled though its bytes never paused for the stall timeout %v (the longest gap was %v)", modelStall, max(widest, time.Since(before)))
			}
			c.broken = true
			return nil, context.Cause(ctx)
		}
		next := time.Now()
		Progress(ctx)
		widest = max(widest, time.Since(before))
		before = next
	}
	if d == slow {
		return msg, nil
	}
	select {
	case <-ctx.Done():
	case <-time.After(modelHang):
		fail("a connection silent for %v is not given up (stall timeout %v)", modelHang, modelStall)
	}
	c.broken = true
	return nil, context.Cause(ctx)
}
