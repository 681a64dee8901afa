package httpcore

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/antelopego/abigen/internal/allocs"
)

// FuzzErrorBody feeds error bodies (nodeos's envelope, the state service's,
// a proxy's page) to describeBody, which reads the code and message every
// HTTPError shows: no panic, allocation bounded by the body, a message for
// every body that is not JSON, and never one much longer than the body.
func FuzzErrorBody(f *testing.F) {
	f.Add([]byte(`{"code":500,"message":"Internal Service Error","error":{"code":3050003,"name":"eosio_assert_message_exception","what":"eosio_assert_message assertion failure","details":[{"message":"assertion failure with message: overdrawn balance","file":"cf_system.cpp","line_number":14,"method":"eosio_assert"}]}}`))
	f.Add([]byte(`{"code":"auth_invalid_token_error","trace_id":"x","message":"Unable to decode token."}`))
	f.Add([]byte(`{"code":400,"message":"Account lookup","error":{"code":3060002,"name":"account_query_exception","what":"Account Query Exception","details":[]}}`))
	f.Add([]byte(`<html><body>502 Bad Gateway</body></html>`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		allocs.CheckParse(t, "error body", body, func() error {
			_, msg, _ := describeBody(body)
			if msg == "" && !json.Valid(body) {
				t.Fatalf("no message for a body that is not JSON")
			}
			if len(msg) > 300+len(body) {
				t.Fatalf("a message longer than the body: %d", len(msg))
			}
			return errors.New("an error answer is an error")
		})
	})
}
