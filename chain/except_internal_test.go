package chain

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// A trace's "except" is fc's exception as JSON, whose stack entries carry
// their format's arguments in "data" as any JSON value: numbers (billed
// CPU, an assert's error code), objects (a permission level), strings. A
// trace that fails carries the typed refusal whatever the types of its
// arguments, formatted as fc formats them.
func TestTraceExceptionArguments(t *testing.T) {
	id := antelope.Checksum256{1, 2, 3}
	trace := func(except string) []byte {
		return []byte(fmt.Sprintf(`{"transaction_id":"%s","processed":{"id":"%s","block_num":0,"receipt":null,"action_traces":[],"except":%s}}`, id, id, except))
	}
	for _, tc := range []struct {
		except string
		kind   error
		msg    string
	}{
		{`{"code":3080004,"name":"tx_cpu_usage_exceeded","message":"Transaction exceeded the current CPU usage limit imposed on the transaction",
		  "stack":[{"context":{"level":"error","file":"transaction_context.cpp","line":568,"method":"validate_cpu_usage_to_bill","hostname":"","thread_name":"nodeos","timestamp":"2025-01-01T00:00:00.000"},
		  "format":"billed CPU time (${billed} us) is greater than the maximum billable CPU time for the transaction (${billable} us)","data":{"billed":1234,"billable":500}}]}`,
			ErrCPU, "billed CPU time (1234 us) is greater than the maximum billable CPU time for the transaction (500 us)"},
		{`{"code":3050004,"name":"eosio_assert_code_exception","message":"eosio_assert_code assertion failure",
		  "stack":[{"context":{"level":"error","file":"cf_system.cpp","line":18,"method":"eosio_assert_code"},"format":"assertion failure with error code: ${error_code}","data":{"error_code":"18446744073709551615"}},
		           {"context":{"level":"error","file":"apply_context.cpp","line":124,"method":"exec_one"},"format":"pending console output: ${console}","data":{"console":""}}]}`,
			ErrAssert, "18446744073709551615"},
		{`{"code":3050004,"name":"eosio_assert_code_exception","message":"eosio_assert_code assertion failure",
		  "stack":[{"context":{"file":"cf_system.cpp","line":18,"method":"eosio_assert_code"},"format":"assertion failure with error code: ${error_code}","data":{"error_code":1000}}]}`,
			ErrAssert, "1000"},
		{`{"code":3090004,"name":"missing_auth_exception","message":"Missing required authority",
		  "stack":[{"context":{"file":"apply_context.cpp","line":300,"method":"require_authorization"},"format":"missing authority of ${account}","data":{"account":"bob"}}]}`,
			ErrMissingAuthority, "missing authority of bob"},
		{`{"code":3090005,"name":"irrelevant_auth_exception","message":"Irrelevant authority included",
		  "stack":[{"context":{"file":"authorization_manager.cpp","line":500,"method":"check_authorization"},"format":"action declares irrelevant authority '${auth}'; minimum authority is ${min}","data":{"auth":{"actor":"bob","permission":"active"},"min":{"actor":"alice","permission":"active"}}}]}`,
			ErrMissingAuthority, `action declares irrelevant authority '{"actor":"bob","permission":"active"}'; minimum authority is {"actor":"alice","permission":"active"}`},
	} {
		res, err := decodeTrace(trace(tc.except), id)
		var ae *APIError
		if !errors.As(err, &ae) || !errors.Is(err, tc.kind) {
			t.Errorf("%s: got %v, want an *APIError matching %v", tc.msg, err, tc.kind)
			continue
		}
		if res == nil || res.ID != id {
			t.Errorf("%s: the failed trace's result %+v", tc.msg, res)
		}
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("got %q, want it to say %q", err, tc.msg)
		}
		if errors.Is(tc.kind, ErrAssert) && ae.AssertMessage() != tc.msg {
			t.Errorf("assert message %q, want %q", ae.AssertMessage(), tc.msg)
		}
	}
}
