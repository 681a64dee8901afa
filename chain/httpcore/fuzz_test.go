package httpcore

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/antelopego/abigen/internal/allocs"
)

// FuzzErrorBody feeds error bodies (nodeos's envelope, the state service's,
// a proxy's page) to describeBody, which reads the code and message every
// HTTPError shows: no panic, allocation bounded by the body, a message for
// every body that is not JSON, and never one longer than maxMessage (and
// "…"): quoting control characters made a 97-byte body a 396-byte message.
func FuzzErrorBody(f *testing.F) {
	f.Add([]byte(`{"code":500,"message":"Internal Service Error","error":{"code":3050003,"name":"eosio_assert_message_exception","what":"eosio_assert_message assertion failure","details":[{"message":"assertion failure with message: overdrawn balance","file":"cf_system.cpp","line_number":14,"method":"eosio_assert"}]}}`))
	f.Add([]byte(`{"code":"auth_invalid_token_error","trace_id":"x","message":"Unable to decode token."}`))
	f.Add([]byte(`{"code":400,"message":"Account lookup","error":{"code":3060002,"name":"account_query_exception","what":"Account Query Exception","details":[]}}`))
	f.Add([]byte(`<html><body>502 Bad Gateway</body></html>`))
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{1}, 97)) // quoted, four times as long
	f.Add([]byte(`{"message":"` + strings.Repeat("\xff", 300) + `"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		allocs.CheckParse(t, "error body", body, func() error {
			code, msg, _ := describeBody(body)
			if msg == "" && !json.Valid(body) {
				t.Fatalf("no message for a body that is not JSON")
			}
			if len(msg) > maxMessage+len("…") || len(code) > maxMessage+len("…") {
				t.Fatalf("a message of %d bytes, a code of %d, for a body of %d", len(msg), len(code), len(body))
			}
			if !utf8.ValidString(msg) {
				t.Fatalf("a message cut inside a character: %q", msg)
			}
			return errors.New("an error answer is an error")
		})
	})
}
