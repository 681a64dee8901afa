// Package shiptest is a fake nodeos state-history (SHiP) endpoint for
// tests of code that follows a chain with package ship: a local websocket
// server that sends the state-history ABI, then serves blocks from a
// BlockSource as spring's state_history_plugin does — credits and acks,
// have_positions, exclusive end, irreversible only, forks — and injects the
// faults real nodes show (a connection dropped in the middle of a message,
// a stall).
//
//	chain := shiptest.NewChain()
//	srv := shiptest.NewServer(chain)
//	defer srv.Close()
//	chain.Produce(shiptest.BlockData{Transactions: []shiptest.Transaction{{Actions: []shiptest.Action{transfer}}}})
//	chain.Fork(3)                     // replace the blocks above 3 by a new branch
//	client := ship.NewClient(srv.URL)
//
// Chain is an in-memory chain; any BlockSource (block n → its id, previous
// id, traces and deltas) can be served instead. EncodeTraces and
// EncodeDeltas build the traces and deltas of actions and row changes.
package shiptest
