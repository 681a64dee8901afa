package antelope

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// scanJSONName against the general reading (the string up to its closing
// quote, then parseName) on random texts over name characters, the quote,
// a backslash and characters outside the alphabet, of every length around
// 12 and 13, at any offset and cut anywhere (no spare capacity: a read
// past the input panics): where it takes a name, the general reading
// takes the same name and ends at the same offset; a valid unescaped name
// the general reading takes, it takes too.
func TestScanJSONNameAsGeneralReading(t *testing.T) {
	const chars = `.12345abcdefghijklmnopqrstuvwxyz".\6A`
	r := rand.New(rand.NewPCG(12, 13))
	general := func(data []byte, i int) (Name, int, bool) {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 || bytes.IndexByte(data[i:i+q], '\\') >= 0 {
			return 0, 0, false
		}
		n, err := parseName(data[i : i+q])
		return n, i + q + 1, err == nil
	}
	for range 200000 {
		n := r.IntN(17)
		if r.IntN(2) == 0 {
			n = 11 + r.IntN(4)
		}
		data := make([]byte, 0, n+3)
		data = append(data, []byte(`x"`)[:r.IntN(3)]...)
		start := len(data)
		for range n {
			c := chars[r.IntN(len(chars))]
			if r.IntN(3) > 0 {
				c = chars[r.IntN(32)] // mostly name characters
			}
			data = append(data, c)
		}
		if r.IntN(4) > 0 {
			data = append(data, '"')
		}
		data = data[:len(data):len(data)]
		got, end, ok := scanJSONName(data, start)
		want, wend, wok := general(data, start)
		if ok && (!wok || got != want || end != wend) {
			t.Fatalf("scanJSONName(%q, %d) = %v, %d; the general reading %v, %d, %v", data, start, got, end, want, wend, wok)
		}
		if !ok && wok {
			t.Fatalf("scanJSONName(%q, %d) refused %v, a plain name", data, start, want)
		}
	}
}
