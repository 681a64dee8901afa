package antelope

import (
	"strconv"
	"strings"
)

// DecodeError reports why binary decoding failed and at which byte offset of
// the input.
type DecodeError struct {
	Offset int    // byte offset in the input where the failing read started
	What   string // what was being read, e.g. "name" or "array length"
	Msg    string // what went wrong
}

// Error says what was being read, where, and what went wrong.
func (e *DecodeError) Error() string {
	return "decoding " + e.What + " at byte " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// JSONError reports why JSON decoding failed and at which byte offset.
type JSONError struct {
	Offset int    // byte offset in the JSON input
	Msg    string // what went wrong
}

// Error gives the message and the byte offset.
func (e *JSONError) Error() string {
	return e.Msg + " (at JSON byte " + strconv.Itoa(e.Offset) + ")"
}

// ValueError reports an invalid value: a name, asset, key… that does not parse
// or is out of range. It carries no position; PathError adds one.
type ValueError struct {
	Type  string // the ABI type, e.g. "name"
	Input string // the offending input, shortened when long
	Msg   string // why it is invalid
}

// Error names the type, quotes the input when there is one, and says why.
func (e *ValueError) Error() string {
	if e.Input == "" {
		return "invalid " + e.Type + ": " + e.Msg
	}
	return "invalid " + e.Type + " " + strconv.Quote(e.Input) + ": " + e.Msg
}

// Not inlined: an error path, called from every field of every generated
// codec; inlining it there cost 40 % of the compile time of bindings
// (golden/: 67 → 40 CPU-s) and gained nothing at run time.
//
//go:noinline
func valueErr(typ, input, msg string) error {
	if len(input) > 80 {
		input = input[:77] + "..."
	}
	return &ValueError{Type: typ, Input: input, Msg: msg}
}

// PathError locates an error inside a value, by field names and array
// indexes: "requestrand.caller: invalid name \"ABC\"".
type PathError struct {
	Path string // dotted field names and [index]es, outermost first
	Err  error  // what went wrong there
}

// Error is the path, a colon, and the error.
func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns the error at the path, for errors.Is and errors.As.
func (e *PathError) Unwrap() error { return e.Err }

// AtField says that err happened inside the field or type called name. Calls
// nest from the inside out, so the outermost caller's name comes first.
func AtField(err error, name string) error { return withPathSegment(err, name) }

// AtIndex says that err happened inside element i of an array.
func AtIndex(err error, i int) error {
	if err == nil {
		return nil
	}
	return withPathSegment(err, "["+strconv.Itoa(i)+"]")
}

// Not inlined: an error path, called from every field of every generated
// codec; inlining it there cost 40 % of the compile time of bindings
// (golden/: 67 → 40 CPU-s) and gained nothing at run time.
//
//go:noinline
func withPathSegment(err error, seg string) error {
	if err == nil {
		return nil
	}
	pe, ok := err.(*PathError)
	if !ok {
		return &PathError{Path: seg, Err: err}
	}
	if strings.HasPrefix(pe.Path, "[") {
		return &PathError{Path: seg + pe.Path, Err: pe.Err}
	}
	return &PathError{Path: seg + "." + pe.Path, Err: pe.Err}
}
