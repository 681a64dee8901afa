package antelope

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestTimeTextMatchesTimeFormat: times in years 0–9999 (the fixed-layout
// path) and just outside print as Go's time package prints them, to the
// millisecond for time_point and to the second for time_point_sec.
func TestTimeTextMatchesTimeFormat(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 39))
	lo := time.Date(-2, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	hi := time.Date(10001, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	edges := []int64{0, -1, 1, 999, 1000, time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli() - 1, time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC).UnixMilli(),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()}
	for i := range 100000 {
		ms := lo + rng.Int64N(hi-lo)
		if i < len(edges) {
			ms = edges[i]
		}
		tm := time.UnixMilli(ms).UTC()
		want := tm.Format("2006-01-02T15:04:05.000")
		if tm.Year() < 0 || tm.Year() > 9999 {
			continue // time.Format's own layout differs there; TestTimes covers them
		}
		if got := TimePoint(ms * 1000).String(); got != want {
			t.Fatalf("time_point %d ms: %q, want %q", ms, got, want)
		}
		if ms >= 0 && ms/1000 <= 1<<32-1 {
			if got := TimePointSec(ms / 1000).String(); got != want[:19] {
				t.Fatalf("time_point_sec %d: %q, want %q", ms/1000, got, want[:19])
			}
		}
	}
}
