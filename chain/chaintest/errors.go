package chaintest

import (
	"context"
	"time"

	"github.com/antelopego/abigen/chain/chaintest/internal/nodeosapi"
)

// nodeosError is an error answer as nodeos's http_plugin words it
// (nodeosapi.Error).
func nodeosError(status int, category string, code int64, name, what, detail string) (int, any) {
	return nodeosapi.Error(status, category, code, name, what, detail)
}

// badRequest is nodeos's answer to a body it cannot parse.
func badRequest(detail string) (int, any) { return nodeosapi.BadRequest(detail) }

func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }
