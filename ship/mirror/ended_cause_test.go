package mirror

import (
	"context"
	"database/sql/driver"
	"errors"
	"testing"
	"time"
)

// TestEndedByKeepsTheContextsError: a context ended with a cause of its
// own (context.WithCancelCause, WithTimeoutCause) still stops a mirror with
// an error that is context.Canceled or DeadlineExceeded, as Run and
// Backfill promise, and that also carries the cause.
func TestEndedByKeepsTheContextsError(t *testing.T) {
	cause := errors.New("shutting down")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	err := endedBy(ctx, driver.ErrBadConn)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, cause) || !errors.Is(err, driver.ErrBadConn) {
		t.Errorf("cancelled with a cause: %v, want context.Canceled, the cause and the driver's error", err)
	}
	tctx, tcancel := context.WithTimeoutCause(context.Background(), -time.Second, cause)
	defer tcancel()
	err = endedBy(tctx, driver.ErrBadConn)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, cause) {
		t.Errorf("timed out with a cause: %v, want context.DeadlineExceeded and the cause", err)
	}
	pctx, pcancel := context.WithCancel(context.Background())
	pcancel()
	if err := endedBy(pctx, driver.ErrBadConn); !errors.Is(err, context.Canceled) {
		t.Errorf("plain cancel: %v", err)
	}
}
