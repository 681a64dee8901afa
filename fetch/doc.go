// Package fetch gets a contract's ABI from where it lives, for the CLI: the
// state API (a token service turning an API key into a short-lived JWT, and
// a state service returning the ABI at a block), a nodeos chain API, or a
// file. The HTTP core, the token flow and the nodeos client are package
// chain's, shared rather than copied (Client, Error, Token and TokenCache
// here are its types).
//
// Every source returns the response body as it came, which model.Load
// understands, and a description of where it came from with no credentials
// in it. Requests are bounded: retries with backoff and jitter on connection
// errors, 5xx and 429 (honouring Retry-After and X-RateLimit-Reset up to a
// cap), a response size cap, and the caller's context for the whole fetch.
//
// Tokens are cached on disk (TokenCache) so that go generate running abigen
// many times issues one token, and parallel runs do not issue a storm.
// The API key and tokens never appear in errors or in provenance.
//
// fetchtest has in-process fakes of the three services for tests.
package fetch
