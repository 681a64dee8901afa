package state

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/internal/allocs"
)

// Every parser of the state service's and the token service's answers,
// fuzzed as package chain fuzzes nodeos's: no input panics, none makes a
// parser allocate more than its size justifies, a malformed answer is an
// error, and a success is a whole answer.

// stateParsers are the parsers of the state service's answers: tables,
// rows, scopes, tables by scopes, the ABI (as JSON and packed), and the
// token service's token.
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
	{"tables by scopes", func(b []byte) error { return decodeTablesByScopes(b, map[antelope.Name][]Row{}) }},
	{"abi", func(b []byte) error { _, err := decodeABI(b, false); return err }},
	{"packed abi", func(b []byte) error { _, err := decodeABI(b, true); return err }},
	{"token", func(b []byte) error {
		tok, err := decodeToken(b, time.Unix(1_700_000_000, 0))
		if err == nil && (tok.Token == "" || tok.ExpiresAt <= tok.IssuedAt) {
			return fmt.Errorf("a partial token: %+v", tok)
		}
		return err
	}},
}

// FuzzStateAnswers feeds the state service's answers (table, row, scopes,
// tables by scopes, ABI) and the token service's to their parsers; sel
// picks the parser. The ABI inside the ABI answer is model.LoadABI's input,
// fuzzed by model's FuzzLoad.
func FuzzStateAnswers(f *testing.F) {
	f.Add(uint8(0), []byte(`{"up_to_block_num":5,"last_irreversible_block_num":5,"rows":[{"key":"1","payer":"alice","hex":"0a00"},{"key":"2","payer":"bob","hex":""}]}`))
	f.Add(uint8(1), []byte(`{"up_to_block_num":5,"row":{"key":"7","payer":"alice","hex":"00"}}`))
	f.Add(uint8(1), []byte(`{"row":null}`))
	f.Add(uint8(2), []byte(`{"block_num":9,"scopes":["alice","bob"]}`))
	f.Add(uint8(3), []byte(`{"tables":[{"scope":"alice","rows":[{"key":"5","payer":"alice","hex":"ff"}]}]}`))
	f.Add(uint8(4), []byte(`{"block_num":9135393,"account":"orng.wax","abi":{"version":"eosio::abi/1.1","structs":[]}}`))
	f.Add(uint8(5), []byte(`{"block_num":5,"account":"eosio.test","abi":"0e656f73696f3a3a6162692f312e30"}`))
	f.Add(uint8(6), []byte(`{"token":"eyJ.eyJ.sig","expires_at":1800000000}`))
	for i, name := range []string{"state-abi.orng.wax.json-true.json", "state-abi.eosio.test.json-false.json", "auth-issue.response.json"} {
		if body, err := os.ReadFile("../../testdata/fetch-responses/dfuse/" + name); err == nil {
			f.Add(uint8(4+i), body)
		}
	}
	f.Fuzz(func(t *testing.T, sel uint8, body []byte) {
		p := stateParsers[int(sel)%len(stateParsers)]
		allocs.CheckParse(t, p.name, body, func() error { return p.parse(body) })
	})
}
