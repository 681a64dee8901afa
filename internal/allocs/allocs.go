// Package allocs measures what a piece of code allocates, for the tests and
// fuzz targets that hold a decoder or a parser to allocations bounded by its
// input.
package allocs

import (
	"encoding/json"
	"runtime"
	"runtime/metrics"
	"testing"
)

// Within reports whether f allocates at most bound bytes on the heap, and
// how many it allocated. It reads runtime/metrics, which does not stop the
// world as runtime.ReadMemStats does and so keeps fuzz targets fast, but
// sees small objects only when their spans are flushed, which a GC in the
// window does for earlier work too: a reading above bound is confirmed by
// running f again under Exactly before it counts. f must do the same work
// each time.
func Within(bound uint64, f func()) (bool, uint64) {
	if n := Approximately(f); n <= bound {
		return true, n
	}
	n := Exactly(f)
	return n <= bound, n
}

// Approximately returns the bytes f allocates on the heap, as
// runtime/metrics sees them.
func Approximately(f func()) uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	f()
	metrics.Read(sample)
	return sample[0].Value.Uint64() - before
}

// Exactly returns the bytes f allocates on the heap, through
// runtime.ReadMemStats, which stops the world and counts every allocation.
func Exactly(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// CheckParse runs parse, a parser of a service's answer, on body, and
// fails t on an allocation out of proportion with body or on a success
// with a body that is not JSON: the bar every answer parser's fuzz target
// (package chain's, chain/state's, chain/httpcore's) holds it to.
func CheckParse(t testing.TB, what string, body []byte, parse func() error) {
	t.Helper()
	var err error
	// Go values are larger than their JSON (a 2-byte "" is a 16-byte
	// header), but linearly so.
	bound := 64<<10 + 64*uint64(len(body))
	if ok, n := Within(bound, func() { err = parse() }); !ok {
		t.Fatalf("%s: allocated %d bytes for %d bytes of answer", what, n, len(body))
	}
	if err == nil && !json.Valid(body) {
		t.Fatalf("%s: accepted an answer that is not JSON: %q", what, body)
	}
}
