package chaintest

import (
	"encoding/json"

	"github.com/antelopego/abigen/antelope"
)

// WithoutTransactionStatus makes the chain answer get_transaction_status
// with unsupported_feature, as a node without
// transaction-finality-status-max-storage-size-gb does (nodeos's default).
// By default the chain tracks every transaction it executed.
func WithoutTransactionStatus() Option { return func(o *options) { o.noStatus = true } }

// getTransactionStatus answers get_transaction_status as spring's
// transaction finality status does: an executed transaction is
// IRREVERSIBLE (every block is, at once, unless the chain was made
// WithManualFinality: IN_BLOCK above the last irreversible block), and any
// other UNKNOWN.
func (c *Chain) getTransactionStatus(body []byte) (int, any) {
	if c.opts.noStatus {
		return nodeosError(500, "Internal Service Error", 3100008, "unsupported_feature", "Feature is currently unsupported",
			"Transaction Status Interface not enabled.  To enable, configure nodeos with '--transaction-finality-status-max-storage-size-gb <size>'.")
	}
	var p struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return badRequest("Unable to parse valid input from POST body: " + err.Error())
	}
	id, err := antelope.ParseChecksum256(p.ID)
	if err != nil {
		return nodeosError(500, "Internal Service Error", 3010009, "transaction_id_type_exception", "Invalid transaction ID", err.Error())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	head := c.blocks[len(c.blocks)-1]
	lib := c.block(c.lastIrreversible())
	out := map[string]any{"state": "UNKNOWN",
		"head_number": head.Num, "head_id": head.ID, "head_timestamp": timeText(head.Time),
		"irreversible_number": lib.Num, "irreversible_id": lib.ID, "irreversible_timestamp": timeText(lib.Time),
		"earliest_tracked_block_id": c.blocks[0].ID, "earliest_tracked_block_number": c.blocks[0].Num}
	if num, ok := c.seen[id]; ok {
		b := c.block(num)
		state := "IRREVERSIBLE"
		if num > lib.Num {
			state = "IN_BLOCK"
		}
		out["state"], out["block_number"], out["block_id"], out["block_timestamp"] = state, b.Num, b.ID, timeText(b.Time)
	}
	return 200, out
}
