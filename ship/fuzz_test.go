package ship

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/protocol"
)

// The fuzz targets feed the in-place walks hostile bytes: they must not
// panic, and wherever the generated protocol decoders accept the bytes,
// the walks must accept them too and see the same actions and rows.

func fuzzProtocol(f *testing.F) *protocolMap {
	p, err := negotiate(protocol.ABIJSON)
	if err != nil {
		f.Fatal(err)
	}
	return p
}

// seeds adds every capture, and its traces and deltas, to the corpus.
func seeds(f *testing.F, p *protocolMap, part func(r blocksResult) []byte) {
	files, _ := filepath.Glob("testdata/*.bin")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		if part == nil {
			f.Add(data)
			continue
		}
		kind, w, err := p.resultKind(data)
		if err != nil || (kind != "get_blocks_result_v0" && kind != "get_blocks_result_v1") {
			continue
		}
		if r, err := parseBlocks(w, kind == "get_blocks_result_v1"); err == nil && part(r) != nil {
			f.Add(part(r))
		}
	}
}

// decodesWhole reports whether the generated decoders read data as a list
// of T, and how many elements.
func decodesWhole[T any, P interface {
	*T
	antelope.BinaryDecodable
}](data []byte) ([]T, bool) {
	d := antelope.NewDecoder(data)
	d.SetLimits(antelope.DecodeLimits{MaxBytesLength: len(data) + 1, MaxArrayElements: len(data) + 1})
	n, err := d.Length("list", 1)
	if err != nil {
		return nil, false
	}
	out := make([]T, n)
	for i := range out {
		if P(&out[i]).DecodeBinary(d) != nil {
			return nil, false
		}
	}
	return out, d.Finish() == nil
}

func walkAllTraces(p *protocolMap, data []byte) (int, error) {
	n := 0
	var err error
	for _, e := range (&Block{p: p, Traces: data}).Actions(WithNotifications(), WithFailed()) {
		if e != nil {
			err = e
			break
		}
		n++
	}
	// A filtered walk reads the same bytes.
	for range (&Block{p: p, Traces: data}).Actions(OfContract(1)) {
	}
	return n, err
}

func walkAllDeltas(p *protocolMap, data []byte) (rows, contractRows int, err error) {
	b := &Block{p: p, Deltas: data}
	for _, e := range b.TableDeltas() {
		if e != nil {
			return 0, 0, e
		}
		rows++
	}
	for _, e := range b.Rows() {
		if e != nil {
			return 0, 0, e
		}
		contractRows++
	}
	for range b.Rows(OfContract(1)) {
	}
	return rows, contractRows, nil
}

// allocationBound is what a walk of n input bytes may allocate: the
// scratch of the actions kept (a few hundred bytes each, from at least 40
// encoded bytes each, grown by doubling) and a fixed part.
func allocationBound(n int) uint64 { return uint64(32*n) + 64<<10 }

// allocated is the heap allocation f makes: runtime/metrics first (it does
// not stop the world), and runtime.ReadMemStats to confirm a high reading.
func allocated(f func()) uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	f()
	metrics.Read(sample)
	return sample[0].Value.Uint64() - before
}

func allocatedExactly(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func checkAllocation(t *testing.T, data []byte, walk func()) {
	if a := allocated(walk); a > allocationBound(len(data)) {
		if a = allocatedExactly(walk); a > allocationBound(len(data)) {
			t.Fatalf("a walk of %d bytes allocated %d", len(data), a)
		}
	}
}

func FuzzTraces(f *testing.F) {
	p := fuzzProtocol(f)
	seeds(f, p, func(r blocksResult) []byte { return r.traces })
	if b, err := os.ReadFile("testdata/telos-nonutf8-console-traces.bin"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAllocation(t, data, func() { walkAllTraces(p, data) })
		n, err := walkAllTraces(p, data)
		list, ok := decodesWhole[protocol.TransactionTrace](data)
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("the generated decoder reads the traces, the walk fails: %v", err)
		}
		want := 0
		for _, tt := range list {
			want += len(tt.Value.(*protocol.TransactionTraceV0).ActionTraces)
		}
		if n != want {
			t.Fatalf("walked %d actions, decoded %d", n, want)
		}
	})
}

func FuzzDeltas(f *testing.F) {
	p := fuzzProtocol(f)
	seeds(f, p, func(r blocksResult) []byte { return r.deltas })
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAllocation(t, data, func() { walkAllDeltas(p, data) })
		rows, contractRows, err := walkAllDeltas(p, data)
		list, ok := decodesWhole[protocol.TableDelta](data)
		if !ok {
			return
		}
		wantRows, wantContract := 0, 0
		for _, td := range list {
			v := td.Value.(*protocol.TableDeltaV0)
			wantRows += len(v.Rows)
			if v.Name == "contract_row" {
				for _, r := range v.Rows {
					var cr protocol.ContractRow
					if cr.UnmarshalBinary(r.Data) != nil {
						return // a row the walk may refuse
					}
					wantContract++
				}
			}
		}
		if err != nil {
			t.Fatalf("the generated decoder reads the deltas, the walk fails: %v", err)
		}
		if rows != wantRows || contractRows != wantContract {
			t.Fatalf("walked %d rows (%d contract rows), decoded %d (%d)", rows, contractRows, wantRows, wantContract)
		}
	})
}

// FuzzResult walks whole messages: the envelope, then the traces and
// deltas in it.
func FuzzResult(f *testing.F) {
	p := fuzzProtocol(f)
	seeds(f, p, nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		kind, w, err := p.resultKind(data)
		if err != nil {
			return
		}
		var whole protocol.Result
		decoded := whole.UnmarshalBinary(data) == nil
		switch kind {
		case "get_status_result_v0", "get_status_result_v1":
			_, err := parseStatus(kind, w.data[w.pos:])
			if decoded && err != nil {
				t.Fatalf("status: %v", err)
			}
			return
		}
		r, err := parseBlocks(w, kind == "get_blocks_result_v1")
		if decoded && err != nil {
			t.Fatalf("the generated decoder reads the result, the envelope walk fails: %v", err)
		}
		if err != nil {
			return
		}
		walkAllTraces(p, r.traces)
		walkAllDeltas(p, r.deltas)
		var tr tracker
		tr.accept(&r)
	})
}

func FuzzCursor(f *testing.F) {
	c := Cursor{held: []Position{{Num: 1, ID: [32]byte{1}}, {Num: 2}}}
	b, _ := c.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Cursor
		if c.UnmarshalBinary(data) != nil {
			return
		}
		again, _ := c.MarshalBinary()
		var c2 Cursor
		if err := c2.UnmarshalBinary(again); err != nil || c2.String() != c.String() {
			t.Fatalf("round trip: %v", err)
		}
	})
}
