package chain

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/generated/randcontract"
	"github.com/antelopego/abigen/internal/allocs"
)

// Every parser of a node's answer, fuzzed: no input panics, none makes a
// parser allocate more than its size justifies, a malformed answer is an
// error, and a success is a whole answer — never a partial one (at the
// least, valid JSON; each parser's own invariants on top). The recorded
// answers in testdata/chain-responses are the seeds.

// seedRecordings adds the 2xx recordings of each endpoint directory to f
// through add, those up to maxSeed bytes: a whole block's recording
// (278 kB) made each execution slow enough that a target ran a few dozen
// times a minute and explored nothing. The replay tests read every
// recording whole.
func seedRecordings(f *testing.F, dirs []string, add func(i int, body []byte)) {
	for i, dir := range dirs {
		for _, rel := range recordings(f, dir) {
			if status, body := recording(f, rel); status/100 == 2 && len(body) <= maxSeed {
				add(i, body)
			}
		}
	}
}

// maxSeed is the largest recording a fuzz target is seeded with.
const maxSeed = 16 << 10

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
	{"get_raw_abi", func(b []byte, _ uint32) error { _, _, err := decodeRawABI(b, nameEosio); return err }},
	{"get_table_by_scope", func(b []byte, _ uint32) error { _, _, err := decodeScopes(b); return err }},
	{"get_transaction_status", func(b []byte, _ uint32) error {
		s, err := DecodeTransactionStatus(b)
		if err == nil && s.Executed() && s.BlockNum == 0 {
			return fmt.Errorf("executed in no block: %+v", s)
		}
		return err
	}},
	{"get_block", func(b []byte, num uint32) error { _, err := DecodeBlock(b, num); return err }},
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
		allocs.CheckParse(t, p.dir, body, func() error { return p.parse(body, num) })
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
		allocs.CheckParse(t, "get_table_rows", body, func() (err error) { p, err = DecodeTablePage(body); return err })
		if p == nil {
			return
		}
		decode := rowDecoders[int(sel)%len(rowDecoders)]
		for _, r := range p.Rows {
			allocs.CheckParse(t, "a row", r.Data, func() error { _ = decode(r.Data); return errors.New("rows are binary") })
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
		allocs.CheckParse(t, "transaction answer", body, func() error { res, err = decodeTrace(body, id); return err })
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
// service's, a proxy's page) to the code that reads them into errors
// (httpcore's FuzzErrorBody reads their code and message).
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
		allocs.CheckParse(t, "error body", body, func() error {
			err := apiError(&httpcore.HTTPError{Service: "nodeos", URL: "http://node/x", Status: int(status), Body: body}, "/x")
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
