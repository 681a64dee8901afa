package bench

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/randcontract"
	eos "github.com/eoscanada/eos-go"
)

// A 1,000-row get_table_rows page of orng.wax's jobs.a, from the response
// body to typed rows: abigen (binary rows with payers, decoded by the
// generated type), eos-go (binary rows, decoded by reflection) and
// encoding/json (the json=true page into a plain struct).

const pageRows = 1000

func jobsRow(i int) randcontract.JobsA {
	return randcontract.JobsA{ID: uint64(i), AssocID: uint64(i) * 7, SigningValue: 0x1122334455667788 ^ uint64(i),
		Caller: antelope.MustName(fmt.Sprintf("caller%d", i%5+1))}
}

func pageBodies() (binaryWithPayer, binaryBare, jsonRows []byte) {
	var b, bare, js strings.Builder
	b.WriteString(`{"rows":[`)
	bare.WriteString(`{"rows":[`)
	js.WriteString(`{"rows":[`)
	for i := range pageRows {
		if i > 0 {
			b.WriteByte(',')
			bare.WriteByte(',')
			js.WriteByte(',')
		}
		r := jobsRow(i)
		data, _ := r.MarshalBinary()
		fmt.Fprintf(&b, `{"data":"%s","payer":"orng.wax"}`, hex.EncodeToString(data))
		fmt.Fprintf(&bare, `"%s"`, hex.EncodeToString(data))
		fmt.Fprintf(&js, `{"id":%d,"assoc_id":%d,"signing_value":"%d","caller":"%s"}`, r.ID, r.AssocID, r.SigningValue, r.Caller)
	}
	tail := `],"more":true,"next_key":"1000"}`
	b.WriteString(tail)
	bare.WriteString(tail)
	js.WriteString(tail)
	return []byte(b.String()), []byte(bare.String()), []byte(js.String())
}

// jobsJSON is what a hand-written encoding/json client decodes into.
type jobsJSON struct {
	ID           uint64 `json:"id"`
	AssocID      uint64 `json:"assoc_id"`
	SigningValue uint64 `json:"signing_value,string"`
	Caller       string `json:"caller"`
}

func decodeJobsPage(body []byte, out []randcontract.JobsA) ([]randcontract.JobsA, error) {
	p, err := chain.DecodeTablePage(body)
	if err != nil {
		return nil, err
	}
	out = out[:0]
	for _, r := range p.Rows {
		var j randcontract.JobsA
		if err := j.UnmarshalBinary(r.Data); err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, nil
}

func BenchmarkTablePage(b *testing.B) {
	withPayer, bare, jsonBody := pageBodies()
	b.Run("JobsA1000/abigen", func(b *testing.B) {
		out := make([]randcontract.JobsA, 0, pageRows)
		b.ReportAllocs()
		for b.Loop() {
			var err error
			if out, err = decodeJobsPage(withPayer, out); err != nil || len(out) != pageRows {
				b.Fatal(err)
			}
		}
	})
	b.Run("JobsA1000/eosgo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var resp eos.GetTableRowsResp
			if err := json.Unmarshal(bare, &resp); err != nil {
				b.Fatal(err)
			}
			var rows []eosgoJobsA
			if err := resp.BinaryToStructs(&rows); err != nil || len(rows) != pageRows {
				b.Fatal(err)
			}
		}
	})
	b.Run("JobsA1000/encodingjson", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var resp struct {
				Rows    []jobsJSON `json:"rows"`
				More    bool       `json:"more"`
				NextKey string     `json:"next_key"`
			}
			if err := json.Unmarshal(jsonBody, &resp); err != nil || len(resp.Rows) != pageRows {
				b.Fatal(err)
			}
		}
	})
}

// TestTablePageAllocations: decoding a 1,000-row page costs well under one
// allocation per row (the rows' bytes share one buffer; jobs_a has no
// strings of its own), and every implementation reads the same rows.
func TestTablePageAllocations(t *testing.T) {
	withPayer, bare, jsonBody := pageBodies()
	out := make([]randcontract.JobsA, 0, pageRows)
	allocs := testing.AllocsPerRun(5, func() { out, _ = decodeJobsPage(withPayer, out) })
	if allocs > pageRows/10 {
		t.Errorf("%v allocations for %d rows", allocs, pageRows)
	}
	for i, r := range out {
		if r != jobsRow(i) {
			t.Fatalf("row %d: %+v", i, r)
		}
	}
	if rows, err := decodeJobsPage(bare, nil); err != nil || len(rows) != pageRows {
		t.Fatalf("bare rows: %v", err)
	}
	var resp struct{ Rows []jobsJSON }
	if err := json.Unmarshal(jsonBody, &resp); err != nil || resp.Rows[7].SigningValue != out[7].SigningValue {
		t.Fatalf("JSON page: %v", err)
	}
}

// BenchmarkTransactCost is Transact without the network: building the
// transaction (TAPoS from a cached get_info), signing it with one K1 key,
// packing it and writing its JSON body.
func BenchmarkTransactCost(b *testing.B) {
	node := chaintest.New()
	defer node.Close()
	alice := antelope.MustName("alice")
	key := node.NewAccount(alice)
	c := chain.New(node.URL(), chain.WithInfoCache(time.Hour))
	ctx := context.Background()
	if _, err := c.GetInfo(ctx); err != nil {
		b.Fatal(err)
	}
	act, _ := randcontract.Default.Requestrand(randcontract.Requestrand{AssocID: 42, SigningValue: 7, Caller: alice},
		antelope.PermissionLevel{Actor: alice, Permission: antelope.MustName("active")})
	b.Run("requestrand/abigen", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			act.Data[0] = byte(i) // a new digest each time, as real sends have
			tx, chainID, err := c.BuildTransaction(ctx, act)
			if err != nil {
				b.Fatal(err)
			}
			signed, err := c.Sign(ctx, key, chainID, tx)
			if err != nil {
				b.Fatal(err)
			}
			packed, err := signed.Pack(antelope.CompressionNone)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := packed.MarshalJSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
