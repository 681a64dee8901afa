// Package chaintest runs an Antelope chain in process, with nodeos's rules,
// so that code that reads tables and sends transactions is tested in go
// test with no network — the way go-ethereum's simulated backend tests
// Ethereum code.
//
//	node := chaintest.New()
//	defer node.Close()
//	key := node.NewAccount(antelope.MustName("alice"))      // an account and its key
//	node.DeployToken(antelope.MustName("eosio.token"))       // eosio.token, in Go
//	node.SetContract(myAccount, mypkg.ABIJSON, myHandler)   // your contract, in Go
//	c := node.Client()                                       // a chain.Client of it
//
// # What it checks
//
// Every transaction is checked as a node checks it: its expiration (past,
// or more than an hour ahead, is refused with expired_tx_exception or
// tx_exp_too_far_exception), its reference block (TAPoS:
// invalid_ref_block_exception), its id (tx_duplicate), and its signatures,
// recovered from the signing digest and weighed against each authorizing
// permission's keys, weights, threshold and delegated accounts
// (unsatisfied_authorization, tx_irrelevant_sig). Each transaction that
// passes is executed in a block of its own (real ids, 500 ms apart); a
// failed one changes nothing. Errors come back in nodeos's envelope with its
// exception names, codes and HTTP statuses, so chain's typed errors work.
//
// # Contracts
//
// A contract is a Handler written on generated bindings: ctx.Decode reads
// the action's payload, ctx.Get/Set/Delete read and write the contract's
// tables (with secondary index keys, checked against the ABI's key_names
// and key_types), GetRow reads a row as its generated type,
// ctx.RequireAuth, ctx.Assert and ctx.RequireRecipient behave as their CDT
// namesakes, ctx.SendInline queues an inline action and ctx.Return sets an
// action result. TokenContract is eosio.token written that way:
//
//	acct, payer, found, err := chaintest.GetRow(ctx, eosiotoken.TableAccounts, owner, uint64(sym.Code))
//	…
//	return ctx.SetValue(owner, antelope.MustName("accounts"), uint64(sym.Code), &acct, payer)
//
// A handler that returns an error fails the transaction, and so does one
// that panics: the chain answers once, as nodeos answers a contract that
// traps (wasm_execution_error, the panic value in the message and its
// stack in the details), and undoes the transaction's writes; a client
// does not retry it.
//
// # Reading
//
// get_table_rows serves binary rows of every index and key type with
// nodeos's bound parsing (ParseBound), reverse, limits and next_key
// (FormatNextKey); WithPageSize cuts pages short as nodeos's time limit
// does, including its quirk of a next_key that repeats the last row. The
// state service (/v0/state/*, tokens from /v1/auth/issue) serves every table
// and ABI as it was at every block.
//
// # Faults
//
// FailNext, LoseNextAnswers (the work is done, the answer lost),
// TruncateNext and Delay reproduce what networks and proxies do, so a
// client's retries — and yours — can be tested; Stats counts executions.
//
// # Without a network
//
// New serves the chain on an httptest server (a loopback port). With
// WithoutNetwork it starts none: Client, State and HTTPClient call the
// chain directly in process, with the same API and the same faults (a lost
// answer is a transport error, a truncated one a body ending early) — for
// sandboxes without sockets and for many chains in one test binary.
package chaintest
