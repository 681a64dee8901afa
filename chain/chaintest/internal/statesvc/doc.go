// Package statesvc is chaintest's state service: its token service
// (Tokens: /v1/auth/issue, real HS256 JWTs checked for signature, expiry
// and revocation) and the /v0/state endpoints that serve ABIs and tables
// as they were at any block (Serve), in the service's own error shape
// {code, trace_id, message, details} (Error).
//
// It is a served API of chaintest's top layer and reads the chain only
// through the narrow Chain interface: the head, a block's id, finality,
// the tables as of a block (the state store's snapshots, store.DB) and an
// account's ABI as of a block. It never sees execution.
package statesvc
