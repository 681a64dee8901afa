package chain

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/generated/randcontract"
	"github.com/antelopego/abigen/internal/allocs"
)

// Every parser of a node's answer, fuzzed: no input panics, none makes a
// parser allocate more than its size justifies, a malformed answer is an
// error, and a success is a whole answer — never a partial one (at the
// least, valid JSON; each parser's own invariants on top). The recorded
// answers in testdata/chain-responses are the seeds.

// checkParse runs parse on body and fails on an allocation out of
// proportion with body, or a success on a body that is not JSON.
func checkParse(t *testing.T, what string, body []byte, parse func() error) {
	t.Helper()
	var err error
	// Go values are larger than their JSON (a 2-byte "" is a 16-byte
	// header), but linearly so.
	bound := 64<<10 + 64*uint64(len(body))
	if ok, n := allocs.Within(bound, func() { err = parse() }); !ok {
		t.Fatalf("%s: allocated %d bytes for %d bytes of answer", what, n, len(body))
	}
	if err == nil && !json.Valid(body) {
		t.Fatalf("%s: accepted an answer that is not JSON: %q", what, body)
	}
}

// seedRecordings adds the 2xx recordings of each endpoint directory to f
// through add.
func seedRecordings(f *testing.F, dirs []string, add func(i int, body []byte)) {
	for i, dir := range dirs {
		for _, rel := range recordings(f, dir) {
			if status, body := recording(f, rel); status/100 == 2 {
				add(i, body)
			}
		}
	}
}

// nodeParsers are the parsers of nodeos's read answers, by endpoint; num
// is the block asked for, where one is.
var nodeParsers = []struct {
	dir   string
	parse func(body []byte, num uint32) error
}{
	{"get_info", func(b []byte, _ uint32) error {
		info, err := DecodeInfo(b)
		if err == nil && (info.ChainID == (antelope.Checksum256{}) || info.LastIrreversibleBlockNum > info.HeadBlockNum) {
			return fmt.Errorf("a partial get_info: %+v", info)
		}
		return err
	}},
	{"get_block_info", func(b []byte, num uint32) error {
		bi, err := DecodeBlockInfo(b, num)
		if err == nil && bi.BlockNum != num {
			return fmt.Errorf("block %d for block %d", bi.BlockNum, num)
		}
		return err
	}},
	{"get_account", func(b []byte, _ uint32) error {
		a, err := DecodeAccount(b)
		if err == nil && (a.AccountName == 0 || len(a.Permissions) == 0) {
			return fmt.Errorf("a partial account: %+v", a)
		}
		return err
	}},
	{"get_currency_balance", func(b []byte, _ uint32) error { _, err := decodeBalances(b); return err }},
	{"get_abi", func(b []byte, _ uint32) error { _, err := decodeABIAnswer(b); return err }},
	{"get_raw_abi", func(b []byte, _ uint32) error { _, _, err := decodeRawABI(b); return err }},
	{"get_table_by_scope", func(b []byte, _ uint32) error { _, _, err := decodeScopes(b); return err }},
	{"get_transaction_status", func(b []byte, _ uint32) error {
		s, err := DecodeTransactionStatus(b)
		if err == nil && s.Executed() && s.BlockNum == 0 {
			return fmt.Errorf("executed in no block: %+v", s)
		}
		return err
	}},
	{"get_block", func(b []byte, num uint32) error { _, err := DecodeBlockInfo(b, num); return err }},
}

// FuzzNodeAnswers feeds nodeos's read answers (get_info, blocks, accounts,
// balances, ABIs, scopes, transaction status) to their parsers; sel picks
// the parser, num is the block asked for.
func FuzzNodeAnswers(f *testing.F) {
	dirs := make([]string, len(nodeParsers))
	for i, p := range nodeParsers {
		dirs[i] = p.dir
	}
	seedRecordings(f, dirs, func(i int, body []byte) {
		var head struct {
			BlockNum uint32 `json:"block_num"`
		}
		_ = json.Unmarshal(body, &head)
		f.Add(uint8(i), head.BlockNum, body)
	})
	f.Add(uint8(0), uint32(0), []byte(`{}`))
	f.Add(uint8(7), uint32(0), []byte(`{"state":"IN_BLOCK","block_number":7,"block_id":"0000000700000000000000000000000000000000000000000000000000000000"}`))
	f.Fuzz(func(t *testing.T, sel uint8, num uint32, body []byte) {
		p := nodeParsers[int(sel)%len(nodeParsers)]
		checkParse(t, p.dir, body, func() error { return p.parse(body, num) })
	})
}

// FuzzTablePage feeds get_table_rows answers to DecodeTablePage — the JSON
// envelope — and the binary rows it finds to generated row decoders (sel
// picks one): neither may panic or allocate out of proportion.
func FuzzTablePage(f *testing.F) {
	seedRecordings(f, []string{"get_table_rows"}, func(_ int, body []byte) { f.Add(uint8(0), body) })
	f.Add(uint8(1), []byte(`{"rows":[{"data":"0100000000000000045741580000000000","payer":"alice"}],"more":true,"next_key":"5"}`))
	f.Add(uint8(2), []byte(`{"rows":["00ff"],"more":false}`))
	rowDecoders := []func([]byte) error{
		func(b []byte) error { return new(eosiotoken.Account).UnmarshalBinary(b) },
		func(b []byte) error { return new(eosiotoken.CurrencyStats).UnmarshalBinary(b) },
		func(b []byte) error { return new(randcontract.JobsA).UnmarshalBinary(b) },
		func(b []byte) error { return new(randcontract.SignvalsA).UnmarshalBinary(b) },
	}
	f.Fuzz(func(t *testing.T, sel uint8, body []byte) {
		var p *TablePage
		checkParse(t, "get_table_rows", body, func() (err error) { p, err = DecodeTablePage(body); return err })
		if p == nil {
			return
		}
		decode := rowDecoders[int(sel)%len(rowDecoders)]
		for _, r := range p.Rows {
			checkParse(t, "a row", r.Data, func() error { _ = decode(r.Data); return errors.New("rows are binary") })
		}
	})
}

// FuzzTransactionAnswer feeds send_transaction(2), push_transaction,
// compute_transaction and send_read_only_transaction answers — traces and
// their exceptions — to decodeTrace. A success is a whole trace of the
// transaction asked about; an error that comes with a result is nodeos's
// exception from the trace.
func FuzzTransactionAnswer(f *testing.F) {
	seedRecordings(f, []string{"send_transaction2", "send_transaction", "push_transaction", "compute_transaction", "send_read_only_transaction"},
		func(_ int, body []byte) { f.Add(body) })
	f.Add([]byte(`{"transaction_id":"0100000000000000000000000000000000000000000000000000000000000000","processed":{"except":{"code":3050003,"name":"eosio_assert_message_exception","stack":[{"format":"${m}","data":{"m":"x"}}]}}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		// The id asked about: the one the answer names, when it names one,
		// so that a decoding success is possible; else a fixed one.
		var head struct {
			TransactionID antelope.Checksum256 `json:"transaction_id"`
		}
		_ = json.Unmarshal(body, &head)
		id := head.TransactionID
		var res *TransactResult
		var err error
		checkParse(t, "transaction answer", body, func() error { res, err = decodeTrace(body, id); return err })
		var ae *APIError
		switch {
		case err == nil && (res == nil || res.ID != id || len(res.Actions) == 0 || id == (antelope.Checksum256{})):
			t.Fatalf("a partial trace taken for a result: %+v", res)
		case err != nil && res != nil && !errors.As(err, &ae):
			t.Fatalf("a result with an error that is no exception: %v", err)
		case ae != nil:
			_ = ae.Error() + ae.AssertMessage()
			_ = ProvesNotExecuted(ae)
		}
	})
}

// FuzzErrorAnswer feeds error bodies (nodeos's envelope, the state
// service's, a proxy's page) to the code that reads them into errors.
func FuzzErrorAnswer(f *testing.F) {
	for _, dir := range []string{"get_account", "get_table_rows", "push_transaction", "send_transaction", "get_block", "get_abi"} {
		for _, rel := range recordings(f, dir) {
			if status, body := recording(f, rel); status >= 400 {
				f.Add(uint16(status), body)
			}
		}
	}
	f.Add(uint16(401), []byte(`{"code":"auth_invalid_token_error","trace_id":"x","message":"Unable to decode token."}`))
	f.Add(uint16(502), []byte(`<html><body>502 Bad Gateway</body></html>`))
	f.Fuzz(func(t *testing.T, status uint16, body []byte) {
		checkParse(t, "error body", body, func() error {
			code, msg, _ := describeBody(body)
			err := apiError(&HTTPError{Service: "nodeos", URL: "http://node/x", Status: int(status), Body: body, Code: code, Message: msg}, "/x")
			if msg == "" && !json.Valid(body) {
				t.Fatalf("no message for a body that is not JSON")
			}
			if len(msg) > 300+len(body) {
				t.Fatalf("a message longer than the body: %d", len(msg))
			}
			var ae *APIError
			if errors.As(err, &ae) {
				if ae.Name == "" || ae.HTTPStatus != int(status) {
					t.Fatalf("an APIError without a name: %+v", ae)
				}
				_ = ae.AssertMessage()
				for _, target := range []error{ErrAssert, ErrMissingAuthority, ErrExpired, ErrUnknownAccount, ErrDuplicate} {
					_ = errors.Is(err, target)
				}
				_ = ProvesNotExecuted(ae)
			}
			_ = err.Error()
			return errors.New("an error answer is an error")
		})
		_ = http.StatusText(int(status))
	})
}

// stateParsers are the parsers of the state service's answers: tables,
// rows, scopes, tables by scopes, and the token service's token.
var stateParsers = []struct {
	name  string
	parse func(body []byte) error
}{
	{"table", func(b []byte) error {
		t, err := decodeStateTable(b)
		if err == nil {
			for i := 1; i < len(t.Rows); i++ {
				if t.Rows[i-1].Key > t.Rows[i].Key {
					return fmt.Errorf("rows out of key order: %+v", t.Rows)
				}
			}
		}
		return err
	}},
	{"row", func(b []byte) error { _, _, err := decodeStateRow(b); return err }},
	{"scopes", func(b []byte) error { _, err := decodeScopeList(b); return err }},
	{"tables by scopes", func(b []byte) error { return decodeTablesByScopes(b, map[antelope.Name][]StateRow{}) }},
	{"token", func(b []byte) error {
		tok, err := decodeToken(b, time.Unix(1_700_000_000, 0))
		if err == nil && (tok.Token == "" || tok.ExpiresAt <= tok.IssuedAt) {
			return fmt.Errorf("a partial token: %+v", tok)
		}
		return err
	}},
}

// FuzzStateAnswers feeds the state service's answers (table, row, scopes,
// tables by scopes) and the token service's to their parsers; sel picks
// the parser. The state service's ABI answer is model.Load's input, fuzzed
// by model's FuzzLoad.
func FuzzStateAnswers(f *testing.F) {
	f.Add(uint8(0), []byte(`{"up_to_block_num":5,"last_irreversible_block_num":5,"rows":[{"key":"1","payer":"alice","hex":"0a00"},{"key":"2","payer":"bob","hex":""}]}`))
	f.Add(uint8(1), []byte(`{"up_to_block_num":5,"row":{"key":"7","payer":"alice","hex":"00"}}`))
	f.Add(uint8(1), []byte(`{"row":null}`))
	f.Add(uint8(2), []byte(`{"block_num":9,"scopes":["alice","bob"]}`))
	f.Add(uint8(3), []byte(`{"tables":[{"scope":"alice","rows":[{"key":"5","payer":"alice","hex":"ff"}]}]}`))
	f.Add(uint8(4), []byte(`{"token":"eyJ.eyJ.sig","expires_at":1800000000}`))
	if body, err := os.ReadFile("../testdata/fetch-responses/dfuse/auth-issue.response.json"); err == nil {
		f.Add(uint8(4), body)
	}
	f.Fuzz(func(t *testing.T, sel uint8, body []byte) {
		p := stateParsers[int(sel)%len(stateParsers)]
		checkParse(t, p.name, body, func() error { return p.parse(body) })
	})
}
