// Package fetch gets a contract's ABI from where it lives, for the CLI: the
// state API (a token service turning an API key into a short-lived JWT, and
// a state service returning the ABI at a block), a nodeos chain API, or a
// file.
//
// It asks through the clients of the chain packages — state.Client.ABI
// and PackedABI, chain.Client.GetABI and GetRawABI — over their one HTTP
// core (httpcore.Transport), and adds what only the CLI needs: the words
// of its errors (ErrNotFound, state.ErrAuth), provenance with no
// credentials in it, the state service's version history (History), and
// the on-disk token cache (TokenCache), so that go generate running abigen
// many times issues one token and parallel runs do not issue a storm.
//
// Every source returns a Fetched: the ABI as the service gave it and what
// the service said about it (the account, the block it was set in), which
// Fetched.Load turns into a model.Source. Requests are bounded by the
// caller's context (Within adds the CLI's timeout and progress note); the
// API key and tokens never appear in errors or in provenance.
//
// Tests run against chain/chaintest, whose state service, token service
// (at its own address) and nodeos chain API are the ones fetch talks to.
package fetch
