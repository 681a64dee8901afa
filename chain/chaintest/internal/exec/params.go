package exec

import (
	"encoding/binary"
)

// defaultParams is nodeos's default chain_config_v0, packed.
var defaultParams = func() []byte {
	b := binary.LittleEndian.AppendUint64(nil, 1024*1024) // max_block_net_usage
	for _, v := range []uint32{
		1000,       // target_block_net_usage_pct (10%)
		512 * 1024, // max_transaction_net_usage
		12,         // base_per_transaction_net_usage
		500,        // net_usage_leeway
		20, 100,    // context_free_discount_net_usage_num, _den
		200_000,        // max_block_cpu_usage
		1000,           // target_block_cpu_usage_pct
		150_000,        // max_transaction_cpu_usage
		100,            // min_transaction_cpu_usage
		3600,           // max_transaction_lifetime
		600,            // deferred_trx_expiration_window
		45 * 24 * 3600, // max_transaction_delay
		512 * 1024,     // max_inline_action_size
	} {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	b = binary.LittleEndian.AppendUint16(b, 4)    // max_inline_action_depth
	return binary.LittleEndian.AppendUint16(b, 6) // max_authority_depth
}()

// maxTransactionDelay is the chain's max_transaction_delay in seconds: in
// the packed chain_config, after max_block_net_usage (a uint64) and twelve
// uint32 fields.
func (c *Engine) maxTransactionDelay() uint32 {
	return binary.LittleEndian.Uint32(c.params[8+12*4:])
}
