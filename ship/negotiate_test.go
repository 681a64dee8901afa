package ship

import (
	"encoding/json"
	"strings"
	"testing"

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
