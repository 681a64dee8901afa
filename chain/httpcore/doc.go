// Package httpcore is the one HTTP core of abigen's clients: the nodeos
// client (package chain), the state service client (package chain/state)
// and the CLI's ABI fetching (package fetch) all send their requests
// through a Transport, and none has a second one.
//
// A Transport retries what is worth retrying — connection errors, 5xx and
// 429, with backoff and jitter, honouring Retry-After and
// X-RateLimit-Reset up to a cap — and nothing else: a nodeos error answer
// (its JSON envelope) was handled by the node and is final. It caps
// response bodies (MaxResponseSize), stops at the caller's context, and
// reports failures as *HTTPError with the service's own code and message
// and no credentials (RedactURL drops query strings and user info).
package httpcore
