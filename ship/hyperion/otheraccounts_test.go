package hyperion_test

import (
	"context"
	"encoding/binary"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/hyperion"
)

// pocket is the row of a contract's own "accounts" table that is no token
// balance: {amount uint64, symbol symbol_code}, as a generated binding
// would decode it.
type pocket struct {
	Amount uint64
	Symbol antelope.SymbolCode
}

func (v *pocket) AppendBinary(b []byte) ([]byte, error) {
	b = binary.LittleEndian.AppendUint64(b, v.Amount)
	return binary.LittleEndian.AppendUint64(b, uint64(v.Symbol)), nil
}

func (v *pocket) DecodeBinary(d *antelope.Decoder) (err error) {
	if v.Amount, err = d.Uint64(); err != nil {
		return err
	}
	s, err := d.Uint64()
	v.Symbol = antelope.SymbolCode(s)
	return err
}

func (v *pocket) DecodeJSON(r *antelope.JSONReader) error {
	if err := r.BeginObject(); err != nil {
		return err
	}
	var seen [2]bool
	for {
		key, ok, err := r.NextKey()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch string(key) {
		case "amount":
			seen[0] = true
			if v.Amount, err = r.Uint64(); err != nil {
				return err
			}
		case "symbol":
			seen[1] = true
			s, err := r.String()
			if err != nil {
				return err
			}
			if v.Symbol, err = antelope.ParseSymbolCode(s); err != nil {
				return err
			}
		default:
			if err := r.Skip(); err != nil {
				return err
			}
		}
	}
	if !seen[0] {
		return r.MissingField("amount")
	}
	if !seen[1] {
		return r.MissingField("symbol")
	}
	return nil
}

// TestOtherAccountsTables: Hyperion splits the balance of an "accounts"
// row only when the row has a string balance (deserializer.ts,
// '*:accounts'); a contract's own accounts table whose fields happen to be
// amount and symbol is kept as it is, and must decode as it is: not be
// taken for a split balance (an item error, and a stat lookup for a token
// that is none).
func TestOtherAccountsTables(t *testing.T) {
	var stats atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v2/history/get_deltas":
			if r.URL.Query().Get("after") == "1" {
				w.Write([]byte(`{"deltas":[{"timestamp":"2024-05-01T12:00:00.000","present":1,"code":"game","scope":"alice","table":"accounts","primary_key":"1","payer":"alice","block_num":5,"block_id":"` + zeros64 + `","data":{"amount":"42","symbol":"GEM"}}]}`))
				return
			}
			w.Write([]byte(`{"deltas":[]}`))
		case "/v1/chain/get_currency_stats":
			stats.Add(1)
			w.WriteHeader(500)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	h := hyperion.New(srv.URL)
	table := antelope.TableOf[pocket, *pocket]{Table: antelope.Table{Name: "accounts"}, Code: antelope.MustName("game")}
	n := 0
	for ev, err := range hyperion.Rows(context.Background(), h, table, hyperion.DeltaFilter{}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if ev.New == nil || ev.New.Amount != 42 || ev.New.Symbol != antelope.MustSymbolCode("GEM") {
			t.Errorf("row %+v", ev.New)
		}
	}
	if n != 1 || stats.Load() != 0 {
		t.Errorf("%d rows, %d stat lookups", n, stats.Load())
	}
}

const zeros64 = "0000000000000000000000000000000000000000000000000000000000000000"
