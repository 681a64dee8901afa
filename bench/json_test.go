package bench

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/golden/eosio"
)

// A get_table_rows response of eosio's producers table, 1,000 rows, as the
// generated code prints it (the nodeos dialect): the decoder an indexer or a
// dashboard runs on every poll.

// genRows decodes a response with the generated row decoder.
type genRows struct {
	Rows    []eosio.ProducerInfo
	More    bool
	NextKey string
}

func (g *genRows) DecodeJSON(r *antelope.JSONReader) error {
	if err := r.BeginObject(); err != nil {
		return err
	}
	g.Rows = g.Rows[:0]
	for {
		key, ok, err := r.NextKey()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		switch string(key) {
		case "rows":
			if err := r.BeginArray(); err != nil {
				return err
			}
			for {
				ok, err := r.NextElement()
				if err != nil {
					return err
				}
				if !ok {
					break
				}
				g.Rows = append(g.Rows, eosio.ProducerInfo{})
				if err := g.Rows[len(g.Rows)-1].DecodeJSON(r); err != nil {
					return err
				}
			}
		case "more":
			if g.More, err = r.Bool(); err != nil {
				return err
			}
		case "next_key":
			if g.NextKey, err = r.String(); err != nil {
				return err
			}
		default:
			if err := r.Skip(); err != nil {
				return err
			}
		}
	}
}

func (g *genRows) AppendJSON(b []byte) (_ []byte, err error) {
	b = append(b, `{"rows":[`...)
	for i := range g.Rows {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = g.Rows[i].AppendJSON(b); err != nil {
			return b, err
		}
	}
	b = append(b, `],"more":`...)
	b = antelope.AppendBoolJSON(b, g.More)
	b = append(b, `,"next_key":`...)
	return append(antelope.AppendStringJSON(b, g.NextKey), '}'), nil
}

// plainRows is what a user would write for encoding/json: names, keys,
// times and the double as strings, the authority variant left raw (so
// encoding/json does less work than the generated decoder, which checks
// and converts every value).
type plainRows struct {
	Rows []struct {
		Owner             string            `json:"owner"`
		TotalVotes        string            `json:"total_votes"`
		ProducerKey       string            `json:"producer_key"`
		IsActive          bool              `json:"is_active"`
		URL               string            `json:"url"`
		UnpaidBlocks      uint32            `json:"unpaid_blocks"`
		LastClaimTime     string            `json:"last_claim_time"`
		Location          uint16            `json:"location"`
		ProducerAuthority []json.RawMessage `json:"producer_authority,omitempty"`
	} `json:"rows"`
	More    bool   `json:"more"`
	NextKey string `json:"next_key"`
}

// producersResponse builds the response: each row is read by the generated
// decoder (which validates it) and printed again, in the nodeos dialect.
func producersResponse(tb testing.TB, n int) []byte {
	var rows genRows
	for i := range n {
		name := fmt.Sprintf("producer%c%c", 'a'+i/26%26, 'a'+i%26)
		row := fmt.Sprintf(`{"owner":%q,"total_votes":"%d.12345678901234567","producer_key":"EOS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV",`+
			`"is_active":%t,"url":"https://%s.example.com","unpaid_blocks":%d,"last_claim_time":"2024-05-%02dT12:34:56.500","location":%d,`+
			`"producer_authority":["block_signing_authority_v0",{"threshold":1,"keys":[{"key":"EOS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV","weight":1}]}]}`,
			name, 1000000000000000+i*1000000000, i%7 != 0, name, i*13, 1+i%28, i%1000)
		var p eosio.ProducerInfo
		if err := p.UnmarshalJSON([]byte(row)); err != nil {
			tb.Fatalf("row %d: %v", i, err)
		}
		rows.Rows = append(rows.Rows, p)
	}
	rows.More, rows.NextKey = true, "producerzz"
	out, err := rows.AppendJSON(nil)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func TestProducersResponse(t *testing.T) {
	data := producersResponse(t, 1000)
	var g genRows
	if err := antelope.UnmarshalJSON(data, &g); err != nil || len(g.Rows) != 1000 {
		t.Fatalf("generated: %d rows, %v", len(g.Rows), err)
	}
	var p plainRows
	if err := json.Unmarshal(data, &p); err != nil || len(p.Rows) != 1000 {
		t.Fatalf("encoding/json: %d rows, %v", len(p.Rows), err)
	}
	if p.Rows[999].Owner != g.Rows[999].Owner.String() || p.Rows[5].LastClaimTime == "" {
		t.Fatalf("the two decoders disagree: %+v", p.Rows[999])
	}
}

func BenchmarkJSONUnmarshal(b *testing.B) {
	data := producersResponse(b, 1000)
	b.Run("ProducersTable/generated", func(b *testing.B) {
		var g genRows
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if err := antelope.UnmarshalJSON(data, &g); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ProducersTable/encodingjson", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var p plainRows
			if err := json.Unmarshal(data, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkJSONMarshal(b *testing.B) {
	data := producersResponse(b, 1000)
	var g genRows
	var p plainRows
	if err := antelope.UnmarshalJSON(data, &g); err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(data, &p); err != nil {
		b.Fatal(err)
	}
	b.Run("ProducersTable/generated", func(b *testing.B) {
		buf := make([]byte, 0, len(data)+1024)
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var err error
			if buf, err = g.AppendJSON(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ProducersTable/encodingjson", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(&p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
