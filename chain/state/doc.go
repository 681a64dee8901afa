// Package state is the client of the state service (/v0/state/*): a
// contract's tables and ABI as they were at any block, which no nodeos can
// give.
//
//	st := state.New("https://wax.example.io", &state.Auth{AuthURL: "https://auth.example.io", APIKey: key})
//	for row, err := range st.At(9135393).TableRows(ctx, q) { … } // a table at block 9,135,393
//	abi, err := st.At(9135393).ABI(ctx, account)                  // the ABI in force there, and the block it was set in
//
// Client implements antelope.TableReader (and ScopeReader), so generated
// table code reads from it as from a nodeos chain.Client. Requests carry a
// token from the token service, a second address: Auth exchanges the API
// key for a short-lived JWT, keeps it (in memory, or in a TokenStore such
// as the CLI's on-disk fetch.TokenCache) until shortly before it expires,
// and issues a new one, once, when the service refuses it (ErrAuth when
// that fails too). A token the service refused is never sent again: it is
// dropped from memory and from the store (unless the store holds a newer
// one by then).
//
// Requests go through the one HTTP core, httpcore.Transport: retries, size
// caps, deadlines, and errors (*httpcore.HTTPError with the service's
// code, such as data_abi_not_found_error) with no key or token in them.
// chain/chaintest serves the state service and its token service for
// tests.
package state
