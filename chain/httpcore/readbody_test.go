package httpcore

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/iotest"
)

// readBody reads what io.ReadAll of the limited body read, with the same
// error, whatever the Content-Length claims and however the body arrives.
func TestReadBodyIsReadAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	broken := errors.New("connection reset")
	for range 20000 {
		body := make([]byte, rng.IntN(3000))
		for i := range body {
			body[i] = byte(rng.Uint32())
		}
		limit := int64(rng.IntN(3500))
		hint := []int64{-1, 0, int64(len(body)), int64(len(body)) - 1, int64(len(body)) + 1, int64(rng.IntN(1 << 30)), limit}[rng.IntN(7)]
		failAt := rng.IntN(2)
		reader := func() io.Reader {
			var r io.Reader = bytes.NewReader(body)
			switch rng.IntN(4) {
			case 1:
				r = iotest.OneByteReader(r)
			case 2:
				r = iotest.HalfReader(r)
			case 3:
				r = iotest.DataErrReader(r)
			}
			if failAt == 1 {
				r = io.MultiReader(r, iotest.ErrReader(broken))
			}
			return r
		}
		seed := rng.Uint64()
		rng = rand.New(rand.NewPCG(seed, 0))
		want, werr := io.ReadAll(io.LimitReader(reader(), limit+1))
		rng = rand.New(rand.NewPCG(seed, 0))
		got, gerr := readBody(reader(), limit, hint)
		if !bytes.Equal(got, want) || !errors.Is(gerr, werr) && gerr != werr {
			t.Fatalf("body %d bytes, limit %d, hint %d: read %d bytes (%v), io.ReadAll %d (%v)", len(body), limit, hint, len(got), gerr, len(want), werr)
		}
	}
}

// With its Content-Length, an answer is read into one buffer; a claimed
// length far beyond what arrives allocates no more than maxBodyHint.
func TestReadBodyAllocatesOnce(t *testing.T) {
	body := bytes.Repeat([]byte("x"), 1500)
	r := bytes.NewReader(body)
	if n := testing.AllocsPerRun(100, func() { r.Reset(body); _, _ = readBody(r, 1<<20, int64(len(body))) }); n != 1 {
		t.Errorf("%v allocations reading an answer of announced length, want 1", n)
	}
	b, _ := readBody(bytes.NewReader(body[:10]), 1<<40, 1<<40)
	if cap(b) > maxBodyHint+1 {
		t.Errorf("a claimed length of 1 TB allocated %d bytes for 10", cap(b))
	}
}

// A limit of math.MaxInt64 (no limit to speak of) still reads the body:
// limit+1 overflows, and a LimitedReader with a negative N reads nothing,
// so every answer came back empty, as a success.
func TestReadBodyLimitMaxInt64(t *testing.T) {
	for _, hint := range []int64{-1, 5} {
		got, err := readBody(bytes.NewReader([]byte("hello")), math.MaxInt64, hint)
		if err != nil || string(got) != "hello" {
			t.Errorf("hint %d: read %q (%v), want hello", hint, got, err)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{"ok":1}`)) }))
	defer srv.Close()
	tr := &Transport{MaxResponseSize: math.MaxInt64}
	body, err := tr.Do(t.Context(), "test", func() (*http.Request, error) { return http.NewRequest(http.MethodGet, srv.URL, nil) })
	if err != nil || string(body) != `{"ok":1}` {
		t.Errorf("MaxResponseSize math.MaxInt64: answer %q (%v)", body, err)
	}
}
