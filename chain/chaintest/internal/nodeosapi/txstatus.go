package nodeosapi

import (
	"encoding/json"

	"github.com/antelopego/abigen/antelope"
)

// GetTransactionStatus answers get_transaction_status as spring's
// transaction finality status does: an executed transaction is
// IRREVERSIBLE (every block is, at once, unless the chain was made
// WithManualFinality: IN_BLOCK above the last irreversible block), and any
// other UNKNOWN.
func GetTransactionStatus(c Chain, body []byte) (int, any) {
	if !c.TransactionStatusEnabled() {
		return Error(500, "Internal Service Error", 3100008, "unsupported_feature", "Feature is currently unsupported",
			"Transaction Status Interface not enabled.  To enable, configure nodeos with '--transaction-finality-status-max-storage-size-gb <size>'.")
	}
	var p struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return BadRequest("Unable to parse valid input from POST body: " + err.Error())
	}
	id, err := antelope.ParseChecksum256(p.ID)
	if err != nil {
		return Error(500, "Internal Service Error", 3010009, "transaction_id_type_exception", "Invalid transaction ID", err.Error())
	}
	c.Lock()
	defer c.Unlock()
	head := c.Head()
	lib := c.Irreversible()
	first, _ := c.Block(c.FirstBlock())
	out := map[string]any{"state": "UNKNOWN",
		"head_number": head.Num, "head_id": head.ID, "head_timestamp": timeText(head.Time),
		"irreversible_number": lib.Num, "irreversible_id": lib.ID, "irreversible_timestamp": timeText(lib.Time),
		"earliest_tracked_block_id": first.ID, "earliest_tracked_block_number": first.Num}
	if num, ok := c.TransactionBlock(id); ok {
		b, _ := c.Block(num)
		state := "IRREVERSIBLE"
		if num > lib.Num {
			state = "IN_BLOCK"
		}
		out["state"], out["block_number"], out["block_id"], out["block_timestamp"] = state, b.Num, b.ID, timeText(b.Time)
	}
	return 200, out
}
