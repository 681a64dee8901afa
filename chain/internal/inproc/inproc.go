package inproc

import "github.com/antelopego/abigen/antelope"

// Trace is an executed transaction's answer as the chain wrote it, and
// what chain.Client would decode from it: every field is what decoding
// Answer gives.
type Trace struct {
	// Answer is the whole answer: {"processed":…,"transaction_id":…}.
	Answer []byte
	// Processed is where the trace ("processed") is in Answer.
	ProcessedStart, ProcessedEnd int

	ID        antelope.Checksum256
	BlockNum  uint32
	BlockTime antelope.TimePoint
	Actions   []Action // in the answer's order (by action ordinal)
}

// Action is one action trace of a Trace.
type Action struct {
	Ordinal, Creator uint32
	Receiver         antelope.Name
	// Act is the action; its Authorization and Data are never nil, as
	// decoding gives them.
	Act         antelope.Action
	ReturnValue []byte // never nil
	Console     string
	ElapsedUS   int64
}

// Source is what the http.RoundTripper of a chain made WithoutNetwork
// offers chain.Client.
type Source interface {
	// TakeTrace returns the trace of transaction id kept with an answer
	// equal to answer, and forgets it; nil when there is none (another
	// client took it, a fault changed the answer, it was not kept).
	TakeTrace(id antelope.Checksum256, answer []byte) *Trace
}
