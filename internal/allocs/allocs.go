// Package allocs measures what a piece of code allocates, for the tests and
// fuzz targets that hold a decoder or a parser to allocations bounded by its
// input.
package allocs

import (
	"runtime"
	"runtime/metrics"
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
