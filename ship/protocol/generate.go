// This file is not generated: it holds the go:generate line that regenerates
// the package from the state-history ABI next to it (abieos's
// src/ship.abi.cpp at e951b75, the ABI spring's state_history_plugin sends
// as its first message). --off-chain: its table names ("account_metadata",
// "contract_index_long_double") are not names, as no on-chain ABI's may be.
// CI runs it and fails if anything changes.

package protocol

//go:generate go run ../../cmd/abigen --off-chain --abi ship.abi.json --pkg protocol --out .
