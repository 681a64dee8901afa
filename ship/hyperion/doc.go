// Package hyperion is a client of the Hyperion v2 history API
// (/v2/history/get_actions, get_deltas, get_transaction, get_creator,
// get_created_accounts, /v2/state/get_tokens, /v2/health), the history
// service most public Antelope endpoints run, and the typed bridge from its
// answers to package ship's items.
//
// One handler serves history and the live stream: Actions and Rows yield
// the very ship.ActionEvent and ship.RowEvent that ship.Actions and
// ship.Rows yield, decoded by the generated bindings, so an application
// backfills from Hyperion and continues from state history at the next
// global sequence with no gap and no duplicate:
//
//	h := hyperion.New("https://eos.hyperion.example")
//	f := hyperion.ActionFilter{Account: alice, Order: hyperion.Desc}
//	for ev, err := range hyperion.Actions(ctx, h, eosiotoken.Actions.Transfer, f) {
//		… ev.Data.Quantity, ev.Trace.GlobalSequence …
//	}
//
// # Paging that neither drops nor repeats
//
// Hyperion pages with skip, which shifts under an index that grows while a
// client reads it. This client pages by the global sequence of the last
// action it yielded (a global_sequence range, which every Hyperion 3.x and
// 4.x accepts) and, for table deltas, which Hyperion sorts by block only, by
// block number with the rows of a page's last block read again and
// deduplicated by their key. A node that answers the same page again, goes
// backwards, breaks its own order, answers outside the range asked or sends
// more than it was asked for ends the sequence with a *MisbehaviorError.
// A page shorter than asked is not taken for the last (Hyperion caps
// get_deltas' limit silently, and answers a search that hit its timeout
// with what it found so far): a sequence ends at an empty page.
//
// # Hyperion's JSON as it is
//
// Hyperion stores an action's data as its deserializer wrote it, and some
// of its indexer modules rewrite it. Extra fields (a transfer's amount and
// symbol, unstaketorex's amount) are ignored; what was lost is recovered
// where it can be exactly, and otherwise the item is a *ship.ItemError
// carrying the raw JSON, never a guessed value:
//   - data Hyperion could not deserialize is stored as hex: decoded from
//     the bytes.
//   - eosio::updateauth with its empty keys, accounts or waits deleted:
//     the empty lists are put back.
//   - eosio::newaccount whose "name" was moved to "newact": moved back.
//   - eosio::buyram's quant, delegatebw's and undelegatebw's stake amounts
//     written as floats without their symbol: rebuilt with the core symbol
//     (WithCoreSymbol) when exactly one amount at its precision gives
//     that float (below 2^52 units, and formatting back to the same
//     float); an item error otherwise, or without a core symbol.
//   - a token accounts row whose balance became {amount, symbol}: the
//     precision comes from the token's stat (/v1/chain/get_currency_stats,
//     which Hyperion proxies to its node), with the same exactness rule.
//
// # Versions
//
// Hyperion 3.x (3.3) and 4.x (4.0) are supported. They differ in what this
// client sees: 4.x answers a bad request with 400 and 3.x with 500 (both
// with Fastify's {statusCode, error, message}); 4.x requires a range for
// sort=asc (this client always sends one); 4.x indexes no deleted rows
// (present 0), so Rows yields no removals from it; 4.x may hold an action
// once per notified account (its "broken dedup"), which is read as one
// action per receipt either way.
//
// # Errors and credentials
//
// Requests go through chain/httpcore: retries with backoff on connection
// errors, 5xx and 429 (honouring Retry-After and X-RateLimit-Reset), a
// response size cap, and errors scrubbed of credentials. API keys given
// with WithHeader, or in the base URL's query, are registered as secrets
// and never sent to another origin (a redirect elsewhere fails). A
// Hyperion error answer is an *Error with its status, message and, when it
// sent one, the rate limit's wait.
//
// The trace of an action read from Hyperion has the fields Hyperion keeps:
// block (number, id, time, producer), transaction id, contract, name,
// receiver, data, ordinals, global and receiver sequences, authorization
// (ev.Trace.Authorization()) and the receipt's auth_sequence
// (ev.Trace.AuthSequence()). Hyperion keeps no code or ABI sequence,
// digest, console or elapsed time, and only executed actions.
package hyperion
