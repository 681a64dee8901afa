package bench

import (
	"bytes"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/randcontract"
	"github.com/antelopego/abigen/golden/atomicassets"
	"github.com/antelopego/abigen/golden/eosio"
	"github.com/antelopego/abigen/golden/eosiotoken"
	eos "github.com/eoscanada/eos-go"
)

// encoders and decoders of one case, by implementation. A nil entry is an
// implementation that cannot express the type.
type codecCase struct {
	name   string
	encode map[string]func(buf []byte) ([]byte, error)
	decode map[string]func(data []byte) error
}

func eosgoEncode(v any) func([]byte) ([]byte, error) {
	// eos-go has no append API: it always returns a new slice.
	return func([]byte) ([]byte, error) { return eos.MarshalBinary(v) }
}

func handDecode[T any](v *T, dec func(*T, *antelope.Decoder) error) func([]byte) error {
	var d antelope.Decoder
	return func(data []byte) error {
		d.Reset(data)
		if err := dec(v, &d); err != nil {
			return err
		}
		return d.Finish()
	}
}

// genDecode decodes as a caller with a stream of rows would: one reused
// Decoder, the generated DecodeBinary.
func genDecode(v antelope.BinaryDecodable) func([]byte) error {
	var d antelope.Decoder
	return func(data []byte) error {
		d.Reset(data)
		if err := v.DecodeBinary(&d); err != nil {
			return err
		}
		return d.Finish()
	}
}

var codecCases = []codecCase{
	{
		name: "JobsA",
		encode: map[string]func([]byte) ([]byte, error){
			"generated": genJobs.AppendBinary,
			"hand":      func(b []byte) ([]byte, error) { return handJobs.appendBinary(b), nil },
			"eosgo":     eosgoEncode(&eosJobs),
		},
		decode: map[string]func([]byte) error{
			"generated": genDecode(new(randcontract.JobsA)),
			"unmarshal": new(randcontract.JobsA).UnmarshalBinary,
			"hand":      handDecode(new(handJobsA), (*handJobsA).decodeBinary),
			"eosgo":     func(data []byte) error { var v eosgoJobsA; return eos.UnmarshalBinary(data, &v) },
		},
	},
	{
		name: "Transfer",
		encode: map[string]func([]byte) ([]byte, error){
			"generated": genTransfer.AppendBinary,
			"hand":      handTransfer_.appendBinary,
			"eosgo":     eosgoEncode(&eosTransfer),
		},
		decode: map[string]func([]byte) error{
			"generated": genDecode(new(eosiotoken.Transfer)),
			"unmarshal": new(eosiotoken.Transfer).UnmarshalBinary,
			"hand":      handDecode(new(handTransfer), (*handTransfer).decodeBinary),
			"eosgo":     func(data []byte) error { var v eosgoTransfer; return eos.UnmarshalBinary(data, &v) },
		},
	},
	{
		name: "BlockchainParamsV1",
		encode: map[string]func([]byte) ([]byte, error){
			"generated": genParams.AppendBinary,
			"hand":      func(b []byte) ([]byte, error) { return handParams_.appendBinary(b), nil },
			"eosgo":     eosgoEncode(&eosParams),
		},
		decode: map[string]func([]byte) error{
			"generated": genDecode(new(eosio.BlockchainParametersV1)),
			"unmarshal": new(eosio.BlockchainParametersV1).UnmarshalBinary,
			"hand":      handDecode(new(handParams), (*handParams).decodeBinary),
			"eosgo":     func(data []byte) error { var v eosgoParams; return eos.UnmarshalBinary(data, &v) },
		},
	},
	{
		name: "AtomicMintasset",
		encode: map[string]func([]byte) ([]byte, error){
			"generated": genMint.AppendBinary,
			"hand":      handMint_.appendBinary,
		},
		decode: map[string]func([]byte) error{
			"generated": genDecode(new(atomicassets.Mintasset)),
			"unmarshal": new(atomicassets.Mintasset).UnmarshalBinary,
			"hand":      handDecode(new(handMint), (*handMint).decodeBinary),
		},
	},
}

// unmarshal is the generated UnmarshalBinary, what a caller with one value
// calls: it must cost no more than DecodeBinary with a reused Decoder.
var impls = []string{"generated", "unmarshal", "hand", "eosgo"}

// TestSameBytes: every implementation of a case encodes the same bytes and
// decodes them, so the benchmarks compare equal work.
func TestSameBytes(t *testing.T) {
	for _, c := range codecCases {
		want, err := c.encode["generated"](nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, impl := range impls {
			enc, dec := c.encode[impl], c.decode[impl]
			if enc == nil {
				continue
			}
			got, err := enc(nil)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s/%s encodes %x, %v; generated encodes %x", c.name, impl, got, err, want)
			}
			if err := dec(want); err != nil {
				t.Errorf("%s/%s cannot decode the bytes: %v", c.name, impl, err)
			}
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, c := range codecCases {
		for _, impl := range impls {
			enc := c.encode[impl]
			if enc == nil {
				continue
			}
			b.Run(c.name+"/"+impl, func(b *testing.B) {
				buf := make([]byte, 0, 1024) // reused, as a caller encoding in a loop would
				b.ReportAllocs()
				for b.Loop() {
					var err error
					if buf, err = enc(buf[:0]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, c := range codecCases {
		data, err := c.encode["generated"](nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, impl := range impls {
			dec := c.decode[impl]
			if dec == nil {
				continue
			}
			b.Run(c.name+"/"+impl, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := dec(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
