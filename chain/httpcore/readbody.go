package httpcore

import (
	"io"
)

// maxBodyHint is the most readBody allocates at once on a response's word
// (its Content-Length): a larger answer grows as it arrives, so that a
// server claiming gigabytes and sending nothing costs nothing.
const maxBodyHint = 256 << 10

// readBody reads r to its end, at most limit+1 bytes (so that a body over
// the limit shows), into one buffer of the size the response announced
// (hint, its Content-Length, -1 when unknown) where that is plausible:
// io.ReadAll's buffer doubling from 512 bytes copied a transaction's
// answer four times over.
func readBody(r io.Reader, limit, hint int64) ([]byte, error) {
	size := int64(512)
	if hint >= 0 {
		size = min(hint, limit, maxBodyHint) + 1 // +1: the end is seen without growing
	}
	b := make([]byte, 0, size)
	// limit+1 overflows at math.MaxInt64, and a LimitedReader with N <= 0
	// reads nothing: that limit is no limit.
	lr := io.LimitedReader{R: r, N: max(limit+1, limit)}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF { // as io.ReadAll: EOF itself, never wrapped
				return b, nil
			}
			return b, err
		}
	}
}
