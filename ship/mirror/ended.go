package mirror

import (
	"context"
	"errors"
	"fmt"
)

// endedBy makes an error that came of ctx's end say so. pgx reports a
// statement whose context ended before it was sent as driver.ErrBadConn
// ("driver: bad connection", for database/sql to retry elsewhere), and
// database/sql passes that on within a transaction: a mirror stopped by
// its context read as one whose database had failed, and a caller
// checking errors.Is(err, context.Canceled) took a clean stop for a fault.
// Every exported method that takes a context returns through it.
func endedBy(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil || errors.Is(err, ctx.Err()) {
		return err
	}
	// ctx.Err() is what callers test for; a cause of the caller's own
	// (WithCancelCause, WithTimeoutCause) need not be it, so both go in.
	if cause := context.Cause(ctx); cause != ctx.Err() && !errors.Is(err, cause) {
		return fmt.Errorf("%w: %w (%w)", err, ctx.Err(), cause)
	}
	return fmt.Errorf("%w: %w", err, ctx.Err())
}
