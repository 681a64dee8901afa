package hyperion

import (
	"context"
	"errors"
	"fmt"
)

// ErrNoHandoff is Handoff's answer when no block is final, indexed and
// margin blocks below the last indexed one yet (a young chain, or a margin
// larger than the chain): there is no history to read, and following the
// chain from its first block misses nothing.
var ErrNoHandoff = errors.New("hyperion: no block is final and indexed, less the margin, yet")

// DefaultHandoffMargin is how many blocks below Hyperion's last indexed
// block Handoff stays by default. Hyperion reports a block indexed when it
// is deserialized, before its actions are searchable (they go through a
// queue of their own and the index's one-second refresh), so the last few
// indexed blocks can still miss actions; 240 blocks is two minutes.
const DefaultHandoffMargin = 240

// Handoff is the block to read history up to before following the chain
// live from the next block (ship.Request{Start: handoff + 1}): final, so no
// fork can undo what history gave; indexed; and margin blocks below the
// last indexed block (DefaultHandoffMargin, for the reason it gives). It is
// never 0 (a ToBlock of 0 is no bound at all): ErrNoHandoff when no block
// is old enough yet. It is another error when /v2/health gives no last
// irreversible or no last indexed block: Hyperion could not reach its node
// or its index, and a guess could hand over at a block a fork may still
// undo.
func (c *Client) Handoff(ctx context.Context, margin uint32) (uint32, error) {
	health, err := c.Health(ctx)
	if err != nil {
		return 0, err
	}
	if health.LastIrreversible == 0 || health.LastIndexedBlock == 0 {
		return 0, fmt.Errorf("hyperion: its health gives no last irreversible block (%d) or last indexed block (%d): its node or index is unreachable, so there is no final block to hand over at", health.LastIrreversible, health.LastIndexedBlock)
	}
	handoff := min(health.LastIndexedBlock, health.LastIrreversible)
	if handoff <= margin {
		return 0, ErrNoHandoff
	}
	return handoff - margin, nil
}
