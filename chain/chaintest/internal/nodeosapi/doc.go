// Package nodeosapi is the part of chaintest's nodeos chain API
// (/v1/chain/*) that reads only the state store: get_table_rows and
// get_table_by_scope as spring's chain_plugin answers them (GetTableRows,
// GetTableByScope: nodeos's bound parsing, ParseBound, and next_key
// printing, FormatNextKey; its limits and time-limited pages), and nodeos's
// error envelope every answer of the chain API fails in (Error, Envelope).
//
// It is a served API of chaintest's top layer and reads the chain only
// through the narrow Tables interface: the chain's lock, its tables (the
// state store), whether a table may be read (an account's ABI declares
// it), the page size, and the fault injector that bends pages as a
// hostile node does. The rest of the chain API (get_info, get_account,
// get_block, get_abi, get_code, get_required_keys, the sends) reads
// accounts, contracts and blocks, or executes, and stays in package
// chaintest.
package nodeosapi
