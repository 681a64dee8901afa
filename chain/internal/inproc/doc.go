// Package inproc is the handoff between chain.Client and a chaintest chain
// in the same process (chaintest.WithoutNetwork): the chain answers a
// transaction over its in-process HTTP transport as it would over a
// network — the same bytes, the same faults — and also keeps the trace it
// built, decoded, so that the client need not decode those bytes again.
//
// The client takes the decoded trace only for an answer byte-for-byte
// equal to the one the trace was kept with: an answer a fault lost, cut or
// rewrote is decoded from what arrived, as any other. Decoding the kept
// bytes would give exactly the kept trace, which the chain's tests check.
package inproc
