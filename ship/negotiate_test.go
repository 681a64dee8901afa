package ship

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/protocol"
)

// modifiedABI returns the protocol ABI changed by f.
func modifiedABI(t *testing.T, f func(abi map[string]any)) []byte {
	t.Helper()
	var abi map[string]any
	if err := json.Unmarshal(protocol.ABIJSON, &abi); err != nil {
		t.Fatal(err)
	}
	f(abi)
	out, err := json.Marshal(abi)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func setVariant(abi map[string]any, name string, types ...string) {
	for _, v := range abi["variants"].([]any) {
		m := v.(map[string]any)
		if m["name"] == name {
			var l []any
			for _, t := range types {
				l = append(l, t)
			}
			m["types"] = l
		}
	}
}

func setStruct(abi map[string]any, name string, fields ...string) {
	var fl []any
	for i := 0; i < len(fields); i += 2 {
		fl = append(fl, map[string]any{"name": fields[i], "type": fields[i+1]})
	}
	for _, s := range abi["structs"].([]any) {
		m := s.(map[string]any)
		if m["name"] == name {
			m["fields"] = fl
			return
		}
	}
	abi["structs"] = append(abi["structs"].([]any), map[string]any{"name": name, "base": "", "fields": fl})
}

func TestNegotiateSpring(t *testing.T) {
	p, err := negotiate(protocol.ABIJSON)
	if err != nil {
		t.Fatal(err)
	}
	if p.blocksRequest() != "get_blocks_request_v1" || p.requests["get_blocks_ack_request_v0"] != 2 || p.requests["get_blocks_request_v1"] != 3 {
		t.Errorf("%+v", p.requests)
	}
	if s, _ := p.statusRequest(); s != "get_status_request_v1" {
		t.Error(s)
	}
	if strings.Join(p.results, ",") != "get_status_result_v0,get_blocks_result_v0,get_blocks_result_v1,get_status_result_v1" {
		t.Error(p.results)
	}
}

// Indices come from the server's ABI, whatever their order.
func TestNegotiateReordered(t *testing.T) {
	p, err := negotiate(modifiedABI(t, func(abi map[string]any) {
		setVariant(abi, "request", "get_blocks_ack_request_v0", "get_blocks_request_v1", "get_status_request_v0", "get_blocks_request_v0")
		setVariant(abi, "action_trace", "action_trace_v1", "action_trace_v0")
	}))
	if err != nil {
		t.Fatal(err)
	}
	if p.requests["get_blocks_ack_request_v0"] != 0 || p.requests["get_blocks_request_v1"] != 1 || p.actTrace[0] != "action_trace_v1" {
		t.Errorf("%+v %v", p.requests, p.actTrace)
	}
}

// EOSIO 2.1 gave get_blocks_request_v1 another meaning (fetch_block_header)
// and result index 2 to get_blocks_result_v2: the client sends v0 and
// refuses result 2 with a message naming it.
func TestNegotiateEOSIO21(t *testing.T) {
	p, err := negotiate(modifiedABI(t, func(abi map[string]any) {
		setStruct(abi, "get_blocks_request_v1", "start_block_num", "uint32", "end_block_num", "uint32", "max_messages_in_flight", "uint32",
			"have_positions", "block_position[]", "irreversible_only", "bool", "fetch_block", "bool", "fetch_traces", "bool",
			"fetch_deltas", "bool", "fetch_block_header", "bool")
		setStruct(abi, "get_blocks_result_v2", "head", "block_position", "block_header", "bytes?")
		setVariant(abi, "request", "get_status_request_v0", "get_blocks_request_v0", "get_blocks_ack_request_v0", "get_blocks_request_v1")
		setVariant(abi, "result", "get_status_result_v0", "get_blocks_result_v0", "get_blocks_result_v2")
	}))
	if err != nil {
		t.Fatal(err)
	}
	if p.blocksRequest() != "get_blocks_request_v0" {
		t.Errorf("sends %s", p.blocksRequest())
	}
	if _, _, err := p.resultKind([]byte{2}); err == nil || !strings.Contains(err.Error(), "result 2") {
		t.Errorf("%v", err)
	}
	if s, _ := p.statusRequest(); s != "get_status_request_v0" {
		t.Error(s)
	}
}

func TestNegotiateNotSHiP(t *testing.T) {
	for _, abi := range []string{`not json`, `{"version":"eosio::abi/1.1","structs":[]}`} {
		if _, err := negotiate([]byte(abi)); err == nil || !strings.Contains(err.Error(), "state-history endpoint") {
			t.Errorf("%s: %v", abi, err)
		}
	}
}

// A trace variant the server defines differently is an error when it is
// met, not a misread.
func TestNegotiateChangedActionTrace(t *testing.T) {
	p, err := negotiate(modifiedABI(t, func(abi map[string]any) {
		setStruct(abi, "action_trace_v1", "action_ordinal", "varuint32", "extra", "uint64")
	}))
	if err != nil {
		t.Fatal(err)
	}
	if p.actTrace[1] != "" {
		t.Fatalf("%v", p.actTrace)
	}
	traces, _ := readFile(t, "testdata/waxdev-25077-return_value-result.bin")
	kind, w, _ := p.resultKind(traces)
	r, err := parseBlocks(w, kind == "get_blocks_result_v1")
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range (&Block{p: p, Traces: r.traces}).Actions(WithFailed(), WithNotifications()) {
		if err == nil || !strings.Contains(err.Error(), "action_trace variant 1") {
			t.Fatalf("%v", err)
		}
		return
	}
	t.Fatal("no error")
}

// EOSIO 2.0's get_status_result_v0 has no chain_id (2.1 added it as a
// binary extension): its status is still readable.
func TestNegotiateEOSIO20Status(t *testing.T) {
	abi := modifiedABI(t, func(abi map[string]any) {
		setStruct(abi, "get_status_result_v0", "head", "block_position", "last_irreversible", "block_position",
			"trace_begin_block", "uint32", "trace_end_block", "uint32", "chain_state_begin_block", "uint32", "chain_state_end_block", "uint32")
	})
	p, err := negotiate(abi)
	if err != nil {
		t.Fatal(err)
	}
	if member(p.results, 0) != "get_status_result_v0" {
		t.Fatalf("results %v", p.results)
	}
	if _, ok := p.statusRequest(); !ok {
		t.Fatal("no status request")
	}
	body := make([]byte, 2*36+4*4)
	body[0] = 9 // head 9
	st, err := parseStatus("get_status_result_v0", body)
	if err != nil || st.Head.Num != 9 || st.ChainID != (antelope.Checksum256{}) {
		t.Fatalf("%+v %v", st, err)
	}
	// A field missing in the middle, or one that is not an extension, is
	// another struct.
	for _, fields := range [][]string{
		{"head", "block_position", "last_irreversible", "block_position", "trace_begin_block", "uint32"},
		{"head", "block_position", "trace_begin_block", "uint32", "trace_end_block", "uint32", "chain_state_begin_block", "uint32",
			"chain_state_end_block", "uint32", "chain_id", "checksum256$"},
	} {
		p, err := negotiate(modifiedABI(t, func(abi map[string]any) { setStruct(abi, "get_status_result_v0", fields...) }))
		if err != nil || member(p.results, 0) != "" {
			t.Errorf("%v accepted: %v", fields, err)
		}
	}
}
