package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/golden/atomicassets"
	"github.com/antelopego/abigen/golden/eosio"
	"github.com/bytedance/sonic"
	gojson "github.com/goccy/go-json"
)

// JSON on cold data: the same three row types as json_test.go, but every
// key, name, asset, time and double random (a fixed seed), and never the
// same page twice in a row. Each benchmark iteration reads or prints one
// page of 1,000 rows from a pool of coldPages pages, round robin. The
// runtime's key-text cache holds 2,048 keys; the pool holds 8,000 distinct
// producer keys, so by the time a page comes round again ~7,000 other keys
// have gone through the cache's 512 four-way sets and the page's keys are
// long evicted (a key survives with a probability under 0.1 %). The cache
// of parsed key texts has the same size and is defeated the same way.
// Within a producers row the key is there twice (producer_key and the
// authority), as on chain, and the second read or print hits — that is
// the real cost of a table read once.
//
// The untyped baselines decode and print the same pages into plain structs
// of strings (json_test.go's plainProducer, plainAccount, plainAsset) with
// encoding/json, github.com/goccy/go-json and github.com/bytedance/sonic
// (its default config: no HTML escaping, the fastest). Every codec decodes
// into a page it reuses, so slice capacity is kept alike for all.

const coldPages = 8

// coldRand is the generator of one row type's pool.
func coldRand(stream uint64) *rand.Rand { return rand.New(rand.NewPCG(34, stream)) }

// randName is a random valid name of 1–12 characters, no dots (a dot
// inside would print the same; trailing dots would not).
func randName(r *rand.Rand) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz12345"
	n := 1 + r.IntN(12)
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// randAsset is a random asset text: amount, precision 0–8, a code of 1–7
// capital letters.
func randAsset(r *rand.Rand) string {
	prec := r.IntN(9)
	amount := r.Int64N(1 << 62)
	code := make([]byte, 1+r.IntN(7))
	for i := range code {
		code[i] = byte('A' + r.IntN(26))
	}
	digits := strconv.FormatInt(amount, 10)
	if prec > 0 {
		for len(digits) <= prec {
			digits = "0" + digits
		}
		digits = digits[:len(digits)-prec] + "." + digits[len(digits)-prec:]
	}
	return digits + " " + string(code)
}

// randKey is a random K1 public key text (the point is not checked by the
// codecs, only the encoding and checksum).
func randKey(r *rand.Rand) string {
	data := make([]byte, 33)
	data[0] = 2 + byte(r.IntN(2))
	for i := 1; i < len(data); i++ {
		data[i] = byte(r.Uint32())
	}
	return antelope.PublicKey{Type: antelope.KeyK1, Data: data}.String()
}

// randTime is a random time_point text with milliseconds, 2018–2026.
func randTime(r *rand.Rand) string {
	ms := time.Date(2018, 6, 1, 0, 0, 0, 0, time.UTC).UnixMilli() + r.Int64N(8*365*24*3600*1000)
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000")
}

func coldProducer(r *rand.Rand) string {
	name, key := randName(r), randKey(r)
	votes := strconv.FormatFloat(r.Float64()*1e18, 'f', -1, 64)
	return fmt.Sprintf(`{"owner":%q,"total_votes":%q,"producer_key":%q,"is_active":%t,"url":"https://%s.example.com",`+
		`"unpaid_blocks":%d,"last_claim_time":%q,"location":%d,`+
		`"producer_authority":["block_signing_authority_v0",{"threshold":1,"keys":[{"key":%q,"weight":1}]}]}`,
		name, votes, key, r.IntN(8) != 0, name, r.Uint32N(100000), randTime(r), r.IntN(1000), key)
}

func coldAccount(r *rand.Rand) string { return fmt.Sprintf(`{"balance":%q}`, randAsset(r)) }

func coldAsset(r *rand.Rand) string {
	backed := make([]string, r.IntN(3))
	for i := range backed {
		backed[i] = strconv.Quote(randAsset(r))
	}
	hexOf := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return fmt.Sprintf("%x", b)
	}
	return fmt.Sprintf(`{"asset_id":"%d","collection_name":%q,"schema_name":%q,"template_id":%d,"ram_payer":%q,`+
		`"backed_tokens":[%s],"immutable_serialized_data":%q,"mutable_serialized_data":%q}`,
		r.Uint64(), randName(r), randName(r), r.Int32N(1<<20)-1, randName(r),
		strings.Join(backed, ","), hexOf(r.IntN(60)), hexOf(r.IntN(3)*r.IntN(20)))
}

// coldPool builds coldPages pages of jsonRows random rows: each row read by
// the generated decoder (which validates it) and the page printed in the
// nodeos dialect.
func coldPool[T any, P row[T]](tb testing.TB, stream uint64, rowJSON func(*rand.Rand) string) [][]byte {
	r := coldRand(stream)
	pages := make([][]byte, coldPages)
	for p := range pages {
		var g genPage[T, P]
		for i := range jsonRows {
			text := rowJSON(r)
			var v T
			if err := antelope.UnmarshalJSON([]byte(text), P(&v)); err != nil {
				tb.Fatalf("page %d row %d: %v\n%s", p, i, err, text)
			}
			g.Rows = append(g.Rows, v)
		}
		g.More, g.NextKey = true, strconv.Itoa((p+1)*jsonRows)
		out, err := g.AppendJSON(nil)
		if err != nil {
			tb.Fatal(err)
		}
		pages[p] = out
	}
	return pages
}

// coldCase is one row type's pool with its generated and plain pages.
type coldCase struct {
	name  string
	pages [][]byte
	gen   func() antelope.JSONDecodable
	plain func() any
}

func coldCases(tb testing.TB) []coldCase {
	return []coldCase{
		{"Producers", coldPool[eosio.ProducerInfo](tb, 1, coldProducer),
			func() antelope.JSONDecodable { return &genPage[eosio.ProducerInfo, *eosio.ProducerInfo]{} },
			func() any { return &plainPage[plainProducer]{} }},
		{"TokenAccounts", coldPool[eosiotoken.Account](tb, 2, coldAccount),
			func() antelope.JSONDecodable { return &genPage[eosiotoken.Account, *eosiotoken.Account]{} },
			func() any { return &plainPage[plainAccount]{} }},
		{"AtomicAssets", coldPool[atomicassets.AssetsS](tb, 3, coldAsset),
			func() antelope.JSONDecodable { return &genPage[atomicassets.AssetsS, *atomicassets.AssetsS]{} },
			func() any { return &plainPage[plainAsset]{} }},
	}
}

// untyped is one plain-struct JSON library.
type untyped struct {
	name      string
	unmarshal func([]byte, any) error
	marshal   func(any) ([]byte, error)
}

var untypedLibs = []untyped{
	{"encodingjson", json.Unmarshal, json.Marshal},
	{"gojson", gojson.Unmarshal, gojson.Marshal},
	{"sonic", sonic.Unmarshal, sonic.Marshal},
}

// TestJSONColdPages: every pool page is read by the generated decoder and
// printed back byte for byte, its keys are all distinct (no cache can
// help), and each untyped library reads the rows as encoding/json does.
func TestJSONColdPages(t *testing.T) {
	for _, c := range coldCases(t) {
		seen := map[string]bool{}
		for p, data := range c.pages {
			g := c.gen()
			if err := antelope.UnmarshalJSON(data, g); err != nil {
				t.Fatalf("%s page %d: generated: %v", c.name, p, err)
			}
			out, err := g.(appender).AppendJSON(nil)
			if err != nil || string(out) != string(data) {
				t.Fatalf("%s page %d: the generated page does not print what it read (%v)", c.name, p, err)
			}
			if prod, ok := g.(*genPage[eosio.ProducerInfo, *eosio.ProducerInfo]); ok {
				for _, row := range prod.Rows {
					k := string(row.ProducerKey.Data)
					if seen[k] {
						t.Fatalf("page %d: a producer key repeats", p)
					}
					seen[k] = true
				}
			}
			want := c.plain()
			if err := json.Unmarshal(data, want); err != nil {
				t.Fatalf("%s page %d: encoding/json: %v", c.name, p, err)
			}
			for _, lib := range untypedLibs[1:] {
				got := c.plain()
				if err := lib.unmarshal(data, got); err != nil {
					t.Fatalf("%s page %d: %s: %v", c.name, p, lib.name, err)
				}
				a, _ := json.Marshal(got)
				b, _ := json.Marshal(want)
				if string(a) != string(b) {
					t.Fatalf("%s page %d: %s reads the rows differently from encoding/json", c.name, p, lib.name)
				}
			}
		}
	}
}

// loopCPU runs op b.N times and reports, besides the wall time, the CPU
// time per operation (the process's, so the garbage collector's work is
// counted): on a shared machine a benchmark's wall time includes the time
// others had the core, its CPU time does not.
func loopCPU(b *testing.B, op func(i int) error) {
	start := cpuTime()
	i := 0
	for b.Loop() {
		if err := op(i); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(i), "cpu-ns/op")
}

// BenchmarkJSONColdUnmarshal reads one cold page per iteration.
func BenchmarkJSONColdUnmarshal(b *testing.B) {
	for _, c := range coldCases(b) {
		size := int64(len(c.pages[0]))
		b.Run(c.name+"/generated", func(b *testing.B) {
			g := c.gen()
			b.SetBytes(size)
			b.ReportAllocs()
			loopCPU(b, func(i int) error { return antelope.UnmarshalJSON(c.pages[i%coldPages], g) })
		})
		for _, lib := range untypedLibs {
			b.Run(c.name+"/"+lib.name, func(b *testing.B) {
				p := c.plain()
				b.SetBytes(size)
				b.ReportAllocs()
				loopCPU(b, func(i int) error { return lib.unmarshal(c.pages[i%coldPages], p) })
			})
		}
	}
}

// BenchmarkJSONColdMarshal prints one cold page per iteration, from values
// decoded before the timer starts.
func BenchmarkJSONColdMarshal(b *testing.B) {
	for _, c := range coldCases(b) {
		size := int64(len(c.pages[0]))
		gens, plains := make([]appender, coldPages), make([]any, coldPages)
		for p, data := range c.pages {
			g, pl := c.gen(), c.plain()
			if antelope.UnmarshalJSON(data, g) != nil || json.Unmarshal(data, pl) != nil {
				b.Fatalf("%s page %d does not decode", c.name, p)
			}
			gens[p], plains[p] = g.(appender), pl
		}
		b.Run(c.name+"/generated", func(b *testing.B) {
			buf := make([]byte, 0, 2*size)
			b.SetBytes(size)
			b.ReportAllocs()
			loopCPU(b, func(i int) (err error) {
				buf, err = gens[i%coldPages].AppendJSON(buf[:0])
				return err
			})
		})
		for _, lib := range untypedLibs {
			b.Run(c.name+"/"+lib.name, func(b *testing.B) {
				b.SetBytes(size)
				b.ReportAllocs()
				loopCPU(b, func(i int) error {
					_, err := lib.marshal(plains[i%coldPages])
					return err
				})
			})
		}
	}
}

// BenchmarkJSONColdKey reads and prints one cold public key per iteration,
// as a producers row's first key is read and printed: from a pool of
// coldKeys distinct keys, round robin, four times what the runtime's key
// caches hold, so every one misses. It is the floor validation sets under
// a cold producers row (base58, the RIPEMD-160 checksum, the caches'
// lookups), which bench/run.sh sets beside the fastest untyped library's
// cost of a whole row.
func BenchmarkJSONColdKey(b *testing.B) {
	const coldKeys = 8192
	r := coldRand(4)
	texts := make([][]byte, coldKeys)
	keys := make([]antelope.PublicKey, coldKeys)
	for i := range texts {
		texts[i] = []byte(strconv.Quote(randKey(r)))
		if err := antelope.UnmarshalJSON(texts[i], &keys[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("Read", func(b *testing.B) {
		var k antelope.PublicKey
		loopCPU(b, func(i int) error { return antelope.UnmarshalJSON(texts[i%coldKeys], &k) })
	})
	b.Run("Print", func(b *testing.B) {
		buf := make([]byte, 0, 64)
		loopCPU(b, func(i int) (err error) {
			buf, err = keys[i%coldKeys].AppendJSON(buf[:0])
			return err
		})
	})
}
