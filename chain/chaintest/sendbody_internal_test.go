package chaintest

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// checkSendBody checks parseSendBodyFast against encoding/json on body:
// where it reads the body it reads what encoding/json reads, and it never
// reads one encoding/json refuses.
func checkSendBody(t *testing.T, body []byte, withTrace bool) bool {
	t.Helper()
	got, fast := parseSendBodyFast(body, withTrace)
	var want sendBody
	var err error
	if withTrace {
		err = json.Unmarshal(body, &want)
	} else {
		var c computeBody
		err = json.Unmarshal(body, &c)
		want.Transaction = c.Transaction
	}
	switch {
	case !fast:
	case err != nil:
		t.Fatalf("read %s, which encoding/json refuses (%v)", body, err)
	case !bytes.Equal(got.Transaction, want.Transaction) || (got.Transaction == nil) != (want.Transaction == nil):
		t.Fatalf("%s: transaction %q, encoding/json reads %q", body, got.Transaction, want.Transaction)
	case (got.ReturnFailureTrace == nil) != (want.ReturnFailureTrace == nil) ||
		got.ReturnFailureTrace != nil && *got.ReturnFailureTrace != *want.ReturnFailureTrace:
		t.Fatalf("%s: return_failure_trace %v, encoding/json reads %v", body, got.ReturnFailureTrace, want.ReturnFailureTrace)
	}
	return fast
}

var sendBodyKeys = []string{"transaction", "return_failure_trace", "retry_trx", "retry_trx_num_blocks", "Transaction",
	"RETURN_FAILURE_TRACE", "ſransaction", "transactio\\u006e", "x", ""}

var sendBodyValues = []string{`true`, `false`, `null`, `0`, `1`, `"true"`, `" "`, `{}`, `[]`,
	`{"signatures":["SIG_K1_x"],"compression":"none","packed_context_free_data":"","packed_trx":"00ff"}`,
	` { "a" : [ 1 , 2 ] } `, `{"a":"\u00e9\n"}`, `{"a":1,}`, `[1,2`, `"unterminated`, `1e5`, `-0`}

// TestParseSendBodyIsEncodingJSON compares the two readers on random
// bodies of send_transaction2 and compute_transaction.
func TestParseSendBodyIsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	fast := 0
	for range 20000 {
		var b strings.Builder
		b.WriteString([]string{"{", " {\n"}[rng.IntN(2)])
		for i := range rng.IntN(6) {
			if i > 0 {
				b.WriteString([]string{",", " , "}[rng.IntN(2)])
			}
			b.WriteString(`"` + sendBodyKeys[rng.IntN(len(sendBodyKeys))] + `":` + sendBodyValues[rng.IntN(len(sendBodyValues))])
		}
		b.WriteString([]string{"}", "} ", "}]", ""}[rng.IntN(4)])
		if checkSendBody(t, []byte(b.String()), rng.IntN(2) == 0) {
			fast++
		}
	}
	if fast == 0 {
		t.Fatal("no random body was read by the fast path: the comparison compared nothing")
	}
	body := []byte(`{"return_failure_trace":false,"retry_trx":false,"transaction":{"signatures":[],"compression":"none","packed_context_free_data":"","packed_trx":"00"}}`)
	if !checkSendBody(t, body, true) {
		t.Fatalf("a client's body left to encoding/json: %s", body)
	}
}

// FuzzParseSendBody compares parseSendBodyFast with encoding/json on any
// body (TestParseSendBodyIsEncodingJSON's rule).
func FuzzParseSendBody(f *testing.F) {
	for _, v := range sendBodyValues {
		f.Add([]byte(`{"transaction":`+v+`,"return_failure_trace":`+v+`}`), true)
	}
	f.Fuzz(func(t *testing.T, body []byte, withTrace bool) { checkSendBody(t, body, withTrace) })
}

// TestParseSendBodyErrorsAsBefore holds parseSendBody, fallback included,
// to what the endpoints did before it: encoding/json into an unnamed
// struct each. Its error is the client's answer ("Unable to parse valid
// input from POST body: …"), and encoding/json names the struct type in it.
func TestParseSendBodyErrorsAsBefore(t *testing.T) {
	old := func(body []byte, withTrace bool) (json.RawMessage, *bool, error) {
		if withTrace {
			var p struct {
				ReturnFailureTrace *bool           `json:"return_failure_trace"`
				Transaction        json.RawMessage `json:"transaction"`
			}
			err := json.Unmarshal(body, &p)
			return p.Transaction, p.ReturnFailureTrace, err
		}
		var p struct {
			Transaction json.RawMessage `json:"transaction"`
		}
		err := json.Unmarshal(body, &p)
		return p.Transaction, nil, err
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 5000 {
		var b strings.Builder
		b.WriteString("{")
		for i := range rng.IntN(4) {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"` + sendBodyKeys[rng.IntN(len(sendBodyKeys))] + `":` + sendBodyValues[rng.IntN(len(sendBodyValues))])
		}
		b.WriteString([]string{"}", "}]"}[rng.IntN(2)])
		body, withTrace := []byte(b.String()), rng.IntN(2) == 0
		if rng.IntN(10) == 0 { // not an object: the error names the whole type
			body = []byte([]string{`[]`, `"x"`, `5`, `null`, `[{"transaction":{}}]`}[rng.IntN(5)])
		}
		got, err := parseSendBody(body, withTrace)
		wantTx, wantTrace, wantErr := old(body, withTrace)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("%s (trace %v): error %v, before %v", body, withTrace, err, wantErr)
		}
		if !bytes.Equal(got.Transaction, wantTx) || (got.ReturnFailureTrace == nil) != (wantTrace == nil) ||
			wantTrace != nil && *got.ReturnFailureTrace != *wantTrace {
			t.Fatalf("%s (trace %v): read %q %v, before %q %v", body, withTrace, got.Transaction, got.ReturnFailureTrace, wantTx, wantTrace)
		}
	}
}
