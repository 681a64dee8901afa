package bench

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/golden/atomicassets"
	"github.com/antelopego/abigen/golden/eosio"
)

// Whole get_table_rows JSON pages ({"rows":[…],"more":…,"next_key":…}) of
// 1,000 rows, as the generated code prints them (the nodeos dialect): what
// an indexer or a dashboard decodes on every poll, and what it writes out.
// Three row types, so that no one hot type carries the figure: eosio's
// producers (names, a double, public keys, a time, a variant), eosio.token's
// accounts (an asset) and atomicassets' assets (64-bit ids, names, assets,
// hex bytes).

const jsonRows = 1000

// row is a generated row type, through its pointer.
type row[T any] interface {
	*T
	antelope.JSONDecodable
	AppendJSON([]byte) ([]byte, error)
}

// genPage decodes and prints a page with the generated row codecs.
type genPage[T any, P row[T]] struct {
	Rows    []T
	More    bool
	NextKey string
}

func (g *genPage[T, P]) DecodeJSON(r *antelope.JSONReader) error {
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
				var zero T
				g.Rows = append(g.Rows, zero)
				if err := P(&g.Rows[len(g.Rows)-1]).DecodeJSON(r); err != nil {
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

func (g *genPage[T, P]) AppendJSON(b []byte) (_ []byte, err error) {
	b = append(b, `{"rows":[`...)
	for i := range g.Rows {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = P(&g.Rows[i]).AppendJSON(b); err != nil {
			return b, err
		}
	}
	b = append(b, `],"more":`...)
	b = antelope.AppendBoolJSON(b, g.More)
	b = append(b, `,"next_key":`...)
	return append(antelope.AppendStringJSON(b, g.NextKey), '}'), nil
}

// plainPage is what a user would write for encoding/json: every name, key,
// time, asset, 64-bit id and double as a string, the producers' authority
// variant left raw. encoding/json does less work than the generated decoder,
// which checks and converts every value.
type plainPage[T any] struct {
	Rows    []T    `json:"rows"`
	More    bool   `json:"more"`
	NextKey string `json:"next_key"`
}

type plainProducer struct {
	Owner             string            `json:"owner"`
	TotalVotes        string            `json:"total_votes"`
	ProducerKey       string            `json:"producer_key"`
	IsActive          bool              `json:"is_active"`
	URL               string            `json:"url"`
	UnpaidBlocks      uint32            `json:"unpaid_blocks"`
	LastClaimTime     string            `json:"last_claim_time"`
	Location          uint16            `json:"location"`
	ProducerAuthority []json.RawMessage `json:"producer_authority,omitempty"`
}

type plainAccount struct {
	Balance string `json:"balance"`
}

type plainAsset struct {
	AssetID                 string   `json:"asset_id"`
	CollectionName          string   `json:"collection_name"`
	SchemaName              string   `json:"schema_name"`
	TemplateID              int32    `json:"template_id"`
	RAMPayer                string   `json:"ram_payer"`
	BackedTokens            []string `json:"backed_tokens"`
	ImmutableSerializedData string   `json:"immutable_serialized_data"`
	MutableSerializedData   string   `json:"mutable_serialized_data"`
}

// testKey is a distinct, well-formed K1 public key per i (the point is not
// checked by the codecs, only the encoding and checksum).
func testKey(i int) string {
	sum := sha256.Sum256([]byte{byte(i), byte(i >> 8), 'k'})
	k := antelope.PublicKey{Type: antelope.KeyK1, Data: append([]byte{2 + sum[31]&1}, sum[:]...)}
	return k.String()
}

// rowName is a distinct valid name per i.
func rowName(prefix string, i int) string {
	return fmt.Sprintf("%s%c%c", prefix, 'a'+i/26%26, 'a'+i%26)
}

func producerRow(i int) string {
	name, key := rowName("producer", i), testKey(i)
	return fmt.Sprintf(`{"owner":%q,"total_votes":"%d.12345678901234567","producer_key":%q,`+
		`"is_active":%t,"url":"https://%s.example.com","unpaid_blocks":%d,"last_claim_time":"2024-05-%02dT12:34:56.500","location":%d,`+
		`"producer_authority":["block_signing_authority_v0",{"threshold":1,"keys":[{"key":%q,"weight":1}]}]}`,
		name, 1000000000000000+i*1000000000, key, i%7 != 0, name, i*13, 1+i%28, i%1000, key)
}

func accountRow(i int) string {
	symbols := []string{"4,EOS", "8,WAX", "4,TLOS", "0,NFT", "6,USDT"}
	sym := symbols[i%len(symbols)]
	amount := int64(i)*7919 + 13
	switch sym[0] {
	case '4':
		return fmt.Sprintf(`{"balance":"%d.%04d %s"}`, amount/10000, amount%10000, sym[2:])
	case '8':
		return fmt.Sprintf(`{"balance":"%d.%08d %s"}`, amount/1000, amount%1000*99991, sym[2:])
	case '6':
		return fmt.Sprintf(`{"balance":"%d.%06d %s"}`, amount, amount%1000000, sym[2:])
	}
	return fmt.Sprintf(`{"balance":"%d %s"}`, amount, sym[2:])
}

func assetRow(i int) string {
	backed := `[]`
	if i%4 == 0 {
		backed = fmt.Sprintf(`["%d.%08d WAX"]`, i%50, i*7)
	}
	immutable := fmt.Sprintf("%x", sha256.Sum256([]byte{byte(i), byte(i >> 8)}))[:20+2*(i%20)]
	mutable := ""
	if i%3 == 0 {
		mutable = "0403" + fmt.Sprintf("%06x", i)
	}
	return fmt.Sprintf(`{"asset_id":"%d","collection_name":%q,"schema_name":"cards","template_id":%d,"ram_payer":%q,`+
		`"backed_tokens":%s,"immutable_serialized_data":%q,"mutable_serialized_data":%q}`,
		1099511627776+i*977, rowName("collect", i%40), 1000+i%300, rowName("payer", i%90), backed, immutable, mutable)
}

// page builds a page: each row is read by the generated decoder (which
// validates it) and printed again, in the nodeos dialect.
func page[T any, P row[T]](tb testing.TB, rowJSON func(int) string) []byte {
	var g genPage[T, P]
	for i := range jsonRows {
		var v T
		if err := antelope.UnmarshalJSON([]byte(rowJSON(i)), P(&v)); err != nil {
			tb.Fatalf("row %d: %v", i, err)
		}
		g.Rows = append(g.Rows, v)
	}
	g.More, g.NextKey = true, "1000"
	out, err := g.AppendJSON(nil)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// jsonCase is one row type: its page, and the generated and encoding/json
// codecs of it.
type jsonCase struct {
	name  string
	data  []byte
	gen   func() antelope.JSONDecodable // a fresh generated page
	plain func() any                    // a fresh plain page
}

func jsonCases(tb testing.TB) []jsonCase {
	return []jsonCase{
		{"Producers", page[eosio.ProducerInfo](tb, producerRow),
			func() antelope.JSONDecodable { return &genPage[eosio.ProducerInfo, *eosio.ProducerInfo]{} },
			func() any { return &plainPage[plainProducer]{} }},
		{"TokenAccounts", page[eosiotoken.Account](tb, accountRow),
			func() antelope.JSONDecodable { return &genPage[eosiotoken.Account, *eosiotoken.Account]{} },
			func() any { return &plainPage[plainAccount]{} }},
		{"AtomicAssets", page[atomicassets.AssetsS](tb, assetRow),
			func() antelope.JSONDecodable { return &genPage[atomicassets.AssetsS, *atomicassets.AssetsS]{} },
			func() any { return &plainPage[plainAsset]{} }},
	}
}

// appender is a generated page's AppendJSON.
type appender interface {
	AppendJSON([]byte) ([]byte, error)
}

// TestJSONPages: both decoders read every page, the generated page prints
// exactly the text it read, and encoding/json agrees on the rows.
func TestJSONPages(t *testing.T) {
	for _, c := range jsonCases(t) {
		g, p := c.gen(), c.plain()
		if err := antelope.UnmarshalJSON(c.data, g); err != nil {
			t.Fatalf("%s: generated: %v", c.name, err)
		}
		if err := json.Unmarshal(c.data, p); err != nil {
			t.Fatalf("%s: encoding/json: %v", c.name, err)
		}
		out, err := g.(appender).AppendJSON(nil)
		if err != nil || string(out) != string(c.data) {
			t.Fatalf("%s: the generated page does not print what it read (%v)", c.name, err)
		}
		// encoding/json prints the same rows, but escapes & and < in strings
		// and drops nothing: compare decoded, not printed.
		again, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if json.Unmarshal(again, &a) != nil || json.Unmarshal(c.data, &b) != nil || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("%s: encoding/json disagrees with the generated page", c.name)
		}
	}
}

func BenchmarkJSONUnmarshal(b *testing.B) {
	for _, c := range jsonCases(b) {
		b.Run(c.name+"/generated", func(b *testing.B) {
			g := c.gen()
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := antelope.UnmarshalJSON(c.data, g); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/encodingjson", func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := json.Unmarshal(c.data, c.plain()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkJSONMarshal(b *testing.B) {
	for _, c := range jsonCases(b) {
		g, p := c.gen(), c.plain()
		if err := antelope.UnmarshalJSON(c.data, g); err != nil {
			b.Fatal(err)
		}
		if err := json.Unmarshal(c.data, p); err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/generated", func(b *testing.B) {
			buf := make([]byte, 0, len(c.data)+1024)
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if buf, err = g.(appender).AppendJSON(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/encodingjson", func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The producers page again, as if seen for the first time: every key is
	// new in every iteration (its x-coordinate takes the iteration number),
	// so the runtime's cache of key texts cannot help; each row's key is in
	// it twice, as on chain, so the second print of it does hit.
	c := jsonCases(b)[0]
	g, p := c.gen().(*genPage[eosio.ProducerInfo, *eosio.ProducerInfo]), c.plain()
	if antelope.UnmarshalJSON(c.data, g) != nil || json.Unmarshal(c.data, p) != nil {
		b.Fatal("the producers page does not decode")
	}
	b.Run("ProducersNewKeys/generated", func(b *testing.B) {
		buf := make([]byte, 0, len(c.data)+1024)
		b.SetBytes(int64(len(c.data)))
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			for r := range g.Rows {
				row := &g.Rows[r]
				auth := row.ProducerAuthority.Value.Value.(*eosio.BlockSigningAuthorityV0)
				binary.LittleEndian.PutUint64(row.ProducerKey.Data[1:], uint64(i)<<20|uint64(r))
				copy(auth.Keys[0].Key.Data, row.ProducerKey.Data)
			}
			var err error
			if buf, err = g.AppendJSON(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ProducersNewKeys/encodingjson", func(b *testing.B) {
		b.SetBytes(int64(len(c.data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
