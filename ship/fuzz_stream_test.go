package ship

import (
	"encoding/binary"
	"errors"
	"strconv"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/protocol"
	"github.com/antelopego/abigen/ship/shiptest"
)

// FuzzCursorText: any text either is refused with an error or loads into
// a cursor whose text loads back the same.
func FuzzCursorText(f *testing.F) {
	c := Cursor{held: []Position{{Num: 7, ID: [32]byte{7}}, {Num: 8, ID: [32]byte{8}}}, chain: [32]byte{0xaa}, lib: 6, start: 3}
	f.Add(c.String())
	f.Add("ship1:" + "AQIHAAAA")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		var c Cursor
		if c.UnmarshalText([]byte(text)) != nil {
			return
		}
		if len(c.held) > maxHeld {
			t.Fatalf("%d positions loaded", len(c.held))
		}
		for i := 1; i < len(c.held); i++ {
			if c.held[i].Num != c.held[i-1].Num+1 || c.held[i].Num == 0 {
				t.Fatalf("positions not consecutive: %v", c.held)
			}
		}
		var back Cursor
		if err := back.UnmarshalText([]byte(c.String())); err != nil || back.String() != c.String() {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// FuzzNegotiate: the server's ABI is untrusted text. negotiate refuses it
// or maps only members this package knows, never panicking.
func FuzzNegotiate(f *testing.F) {
	// Small seeds: a whole protocol ABI (35 KB) makes each minimization
	// slow. The first is an EOSIO 2.0-like subset: v0 requests, a status
	// result.
	f.Add([]byte(`{"version":"eosio::abi/1.1","types":[],"structs":[{"name":"get_status_request_v0","fields":[]},{"name":"block_position","fields":[{"name":"block_num","type":"uint32"},{"name":"block_id","type":"checksum256"}]},{"name":"get_status_result_v0","fields":[{"name":"head","type":"block_position"},{"name":"last_irreversible","type":"block_position"},{"name":"trace_begin_block","type":"uint32"},{"name":"trace_end_block","type":"uint32"},{"name":"chain_state_begin_block","type":"uint32"},{"name":"chain_state_end_block","type":"uint32"},{"name":"chain_id","type":"checksum256$"}]},{"name":"get_blocks_request_v0","fields":[{"name":"start_block_num","type":"uint32"},{"name":"end_block_num","type":"uint32"},{"name":"max_messages_in_flight","type":"uint32"},{"name":"have_positions","type":"block_position[]"},{"name":"irreversible_only","type":"bool"},{"name":"fetch_block","type":"bool"},{"name":"fetch_traces","type":"bool"},{"name":"fetch_deltas","type":"bool"}]},{"name":"get_blocks_ack_request_v0","fields":[{"name":"num_messages","type":"uint32"}]}],"variants":[{"name":"request","types":["get_status_request_v0","get_blocks_request_v0","get_blocks_ack_request_v0"]},{"name":"result","types":["get_status_result_v0"]}]}`))
	f.Add([]byte(`{"variants":[{"name":"request","types":["get_blocks_request_v0"]},{"name":"result","types":["x"]}],"structs":[{"name":"get_blocks_request_v0","base":"get_blocks_request_v0","fields":[{"name":"a","type":"get_blocks_request_v0[]?$"}]}],"types":[{"new_type_name":"a","type":"a"}]}`))
	f.Fuzz(func(t *testing.T, text []byte) {
		p, err := negotiate(text)
		if err != nil {
			return
		}
		for name := range p.requests {
			if !containsString(ours().variants["request"], name) {
				t.Fatalf("request %q mapped", name)
			}
		}
		for _, name := range p.results {
			if name != "" && !containsString(ours().variants["result"], name) {
				t.Fatalf("result %q mapped", name)
			}
		}
		p.statusRequest()
		p.blocksRequest()
	})
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// FuzzABIChanges: the ABI tracking path reads account deltas and setabi
// data from the node; hostile bytes are an error, never a panic or an
// allocation the input does not justify.
func FuzzABIChanges(f *testing.F) {
	p := fuzzProtocol(f)
	f.Add(shiptest.EncodeDeltas(nil, []shiptest.ABIChange{{Account: eosio, ABI: []byte("abi")}}))
	f.Add(setabiAction(eosio, "abi").Data)
	f.Fuzz(func(t *testing.T, data []byte) {
		b := &Block{p: p, Deltas: data}
		checkAllocation(t, data, func() { abiChanges(p, b, data, func(abiChange) {}) })
		h := newABIHistory(nil)
		h.record(b)
		setabiData(data)
	})
}

// FuzzABIHistory: the ABI history against a reference that keeps every
// version forever, over sequences of blocks setting ABIs, undos and the
// last irreversible block moving, as a stream makes them.
func FuzzABIHistory(f *testing.F) {
	f.Add([]byte{1, 1, 2, 3, 1, 9, 4, 1, 2, 5, 1, 1})
	f.Fuzz(func(t *testing.T, ops []byte) {
		accts := []antelope.Name{antelope.MustName("a"), antelope.MustName("b")}
		h := newABIHistory(map[antelope.Name][]byte{accts[0]: []byte("given")})
		h.dateGiven(0)
		type set struct {
			num  uint32
			acct antelope.Name
			abi  string
		}
		var ref []set
		refAt := func(acct antelope.Name, num uint32) string {
			for i := len(ref) - 1; i >= 0; i-- {
				if ref[i].acct == acct && ref[i].num < num {
					return ref[i].abi
				}
			}
			if acct == accts[0] {
				return "given"
			}
			return ""
		}
		cur, lib := uint32(0), uint32(0)
		for i, op := range ops {
			switch op % 4 {
			case 0, 1: // the next block, perhaps setting an ABI
				cur++
				if op&4 != 0 {
					acct, abi := accts[op>>3&1], strconv.Itoa(i)
					h.set(acct, cur, []byte(abi))
					ref = append(ref, set{cur, acct, abi})
				}
			case 2: // a fork back to a block above the last irreversible one
				if cur > lib {
					n := lib + 1 + uint32(op>>2)%(cur-lib)
					h.undo(n)
					for len(ref) > 0 && ref[len(ref)-1].num >= n {
						ref = ref[:len(ref)-1]
					}
					cur = n - 1
				}
			case 3: // the last irreversible block moves (perhaps past the block)
				lib = max(lib, min(cur+uint32(op>>2)%4, cur+3))
			}
			if cur > 0 {
				h.prune(min(lib, cur-1)) // as the stream does once block cur is recorded
			}
			for _, acct := range accts {
				// What the stream asks: the ABI at the start and end of
				// the block just delivered, and at the start of the next.
				for _, num := range []uint32{cur, cur + 1} {
					if num == 0 || num == cur && op%4 >= 2 {
						continue
					}
					got, _ := h.at(acct, uint64(num))
					if string(got) != refAt(acct, num) {
						t.Fatalf("op %d: %s at %d: %q, want %q", i, acct, num, got, refAt(acct, num))
					}
				}
				if p := min(lib, max(cur, 1)-1); len(h.versions[acct]) > int(cur-p)+1 {
					t.Fatalf("op %d: %d versions of %s held, %d blocks above the last pruned", i, len(h.versions[acct]), acct, cur-p)
				}
			}
		}
	})
}

// FuzzTrackerSequence feeds the tracker sequences of block results as a
// broken or hostile node might send them: whatever it accepts keeps the
// invariants — held positions consecutive and bounded by the reversible
// window, an undo naming the newest held blocks and none at or below a
// last irreversible block reported.
func FuzzTrackerSequence(f *testing.F) {
	f.Add(uint8(0), []byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 1, 2, 1, 0, 1, 3, 1, 1, 1})
	f.Fuzz(func(t *testing.T, start uint8, ops []byte) {
		tr := &tracker{start: uint32(start % 8)}
		for i := 0; i+4 <= len(ops); i += 4 {
			n, br, prevBr, lib := uint32(ops[i]%32), ops[i+1]%3, ops[i+2]%3, uint32(ops[i+3]%32)
			r := result(n, br, prevBr, lib, 40)
			r.hasThis = n != 0
			r.hasPrev = n > 1 && ops[i+3] < 250
			before := tr.lib
			held := append([]Position(nil), tr.held...)
			undo, deliver, err := tr.accept(&r)
			if err != nil {
				if !errors.Is(err, errRelink) && !errors.Is(err, ErrBrokenNode) {
					return // terminal
				}
				continue
			}
			for j, p := range undo {
				if p.Num <= before {
					t.Fatalf("undo of %d, last irreversible %d reported", p.Num, before)
				}
				if k := len(held) - 1 - j; k < 0 || held[k] != p {
					t.Fatalf("undo %v is not the newest held %v", undo, held)
				}
			}
			if undo != nil {
				tr.undo(len(undo))
			}
			if deliver {
				tr.delivered(r.this, r.lib.Num)
			}
			c := tr.cursor()
			for j := 1; j < len(c.held); j++ {
				if c.held[j].Num != c.held[j-1].Num+1 {
					t.Fatalf("held %v", c.held)
				}
			}
			if last := c.Last(); len(c.held) > max(1, int(last.Num)-int(c.lib)+1) {
				t.Fatalf("%d held, last %d, last irreversible %d", len(c.held), last.Num, c.lib)
			}
		}
	})
}

// The negotiation accepts the fuzz seed: it exercises the success path.
func TestNegotiateFuzzSeed(t *testing.T) {
	if _, err := negotiate(protocol.ABIJSON); err != nil {
		t.Fatal(err)
	}
}

// FuzzAuthorizations: an action's authorization and auth_sequence lists
// are decoded on demand from the node's bytes: no panic, no allocation the
// input does not justify, and a well-formed list reads as written.
func FuzzAuthorizations(f *testing.F) {
	f.Add([]byte{1, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		a := &ActionTrace{auth: data, authSeq: data}
		checkAllocation(t, data, func() { a.Authorization(); a.AuthSequence() })
		auth := a.Authorization()
		if len(data) > 0 && int(data[0]) < 0x80 && len(data) == 1+16*int(data[0]) {
			if len(auth) != int(data[0]) {
				t.Fatalf("%d levels read, %d written", len(auth), data[0])
			}
			for i, l := range auth {
				at := data[1+16*i:]
				if uint64(l.Actor) != binary.LittleEndian.Uint64(at) || uint64(l.Permission) != binary.LittleEndian.Uint64(at[8:]) {
					t.Fatalf("level %d read as %v", i, l)
				}
			}
		}
		if len(auth) > len(data)/16 {
			t.Fatalf("%d levels from %d bytes", len(auth), len(data))
		}
	})
}
