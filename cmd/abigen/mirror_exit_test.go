package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/antelopego/abigen/ship/mirror"
)

// TestMirrorExitABIChangeBeforeASignal: a Run that stopped on a changed ABI
// as a signal arrived returns an error that is both (mirror wraps the
// context's error into any error it returns once its context has ended);
// the command still exits with the bad-ABI code, not as a clean stop.
func TestMirrorExitABIChangeBeforeASignal(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	abi := fmt.Errorf("mirror: block 9: %w: %w", mirror.ErrABIChangedOnChain, context.Canceled)
	if got := mirrorExit(ctx, abi, io.Discard); got != exitBadABI {
		t.Errorf("a changed ABI with the context ended: exit %d, want %d", got, exitBadABI)
	}
	if got := mirrorExit(ctx, fmt.Errorf("mirror: backfill, block 3: driver: bad connection: %w", context.Canceled), io.Discard); got != exitOK {
		t.Errorf("a stop by the context: exit %d, want %d", got, exitOK)
	}
	if got := mirrorExit(context.Background(), errors.New("mirror: disk full"), io.Discard); got != 1 {
		t.Errorf("a failure: exit %d, want 1", got)
	}
}
