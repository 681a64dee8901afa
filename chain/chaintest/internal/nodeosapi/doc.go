// Package nodeosapi is chaintest's nodeos chain API (/v1/chain/*) but for
// its sends: the read handlers as spring's chain_plugin answers them —
// get_table_rows and get_table_by_scope (GetTableRows, GetTableByScope:
// nodeos's bound parsing, ParseBound, and next_key printing,
// FormatNextKey; its limits and time-limited pages), get_info, get_block
// and get_block_info, get_abi and get_raw_abi, get_code,
// get_code_hash and get_raw_code_and_abi, get_account,
// get_currency_balance, get_required_keys and get_transaction_status —
// and nodeos's error envelope every answer of the chain API fails in
// (Error, Envelope).
//
// It is a served API of chaintest's top layer and reads the chain only
// through two narrow interfaces: Tables (the chain's lock, its tables —
// the state store —, whether a table may be read, the page size, and the
// fault injector that bends pages as a hostile node does), and Chain,
// which adds the chain's blocks, finality, accounts and contracts as
// plain values (Block, Account, Contract), the transactions a block holds
// as get_block lists them, and execution's authority check for
// get_required_keys. The sends (push_transaction, send_transaction,
// send_transaction2, compute_transaction, send_read_only_transaction)
// execute, and stay in package chaintest.
package nodeosapi
