package chain

import (
	"context"
	"time"
)

// noSleep replaces the backoff in tests: the retry logic runs, the clock
// does not.
func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }
