package antelope

import "testing"

// Hand-written codecs for two real payloads, written against the runtime the
// way generated code should be. They are the baseline generated code is
// measured against (bench/ compares them side by side).

// jobsA is orng.wax's jobs_a row: three uint64 and a name.
type jobsA struct {
	ID           uint64
	AssocID      uint64
	SigningValue uint64
	Caller       Name
}

func (j *jobsA) appendBinary(b []byte) []byte {
	b = AppendUint64(b, j.ID)
	b = AppendUint64(b, j.AssocID)
	b = AppendUint64(b, j.SigningValue)
	return AppendUint64(b, uint64(j.Caller))
}

func (j *jobsA) decodeBinary(d *Decoder) (err error) {
	if j.ID, err = d.Uint64(); err != nil {
		return AtField(err, "id")
	}
	if j.AssocID, err = d.Uint64(); err != nil {
		return AtField(err, "assoc_id")
	}
	if j.SigningValue, err = d.Uint64(); err != nil {
		return AtField(err, "signing_value")
	}
	return AtField(j.Caller.DecodeBinary(d), "caller")
}

// transfer is eosio.token's transfer action payload.
type transfer struct {
	From     Name
	To       Name
	Quantity Asset
	Memo     string
}

func (t *transfer) appendBinary(b []byte) ([]byte, error) {
	b = AppendUint64(b, uint64(t.From))
	b = AppendUint64(b, uint64(t.To))
	b, err := t.Quantity.AppendBinary(b)
	if err != nil {
		return b, AtField(err, "quantity")
	}
	b, err = AppendString(b, t.Memo)
	return b, AtField(err, "memo")
}

func (t *transfer) decodeBinary(d *Decoder) (err error) {
	if err = t.From.DecodeBinary(d); err != nil {
		return AtField(err, "from")
	}
	if err = t.To.DecodeBinary(d); err != nil {
		return AtField(err, "to")
	}
	if err = t.Quantity.DecodeBinary(d); err != nil {
		return AtField(err, "quantity")
	}
	t.Memo, err = d.String()
	return AtField(err, "memo")
}

var (
	benchJob      = jobsA{ID: 1234567, AssocID: 42, SigningValue: 0xdeadbeefcafe, Caller: MustName("orng.wax")}
	benchTransfer = transfer{From: MustName("useraaaaaaaa"), To: MustName("useraaaaaaab"),
		Quantity: Asset{Amount: 1, Symbol: Symbol{4, SymbolCode(0x535953)}}, Memo: "benchmark memo"}
)

func BenchmarkHandJobsAEncode(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = benchJob.appendBinary(buf[:0])
	}
}

func BenchmarkHandJobsADecode(b *testing.B) {
	data := benchJob.appendBinary(nil)
	var d Decoder
	var j jobsA
	b.ReportAllocs()
	for b.Loop() {
		d.Reset(data)
		if err := j.decodeBinary(&d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHandTransferEncode(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = benchTransfer.appendBinary(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHandTransferDecode(b *testing.B) {
	data, _ := benchTransfer.appendBinary(nil)
	var d Decoder
	var t transfer
	b.ReportAllocs()
	for b.Loop() {
		d.Reset(data)
		if err := t.decodeBinary(&d); err != nil {
			b.Fatal(err)
		}
	}
}

func TestHandWrittenBaselineRoundTrips(t *testing.T) {
	data, err := benchTransfer.appendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	var back transfer
	d := NewDecoder(data)
	if err := back.decodeBinary(d); err != nil || d.Finish() != nil || back != benchTransfer {
		t.Fatalf("transfer round trip: %+v, %v", back, err)
	}
	var job jobsA
	d = NewDecoder(benchJob.appendBinary(nil))
	if err := job.decodeBinary(d); err != nil || job != benchJob {
		t.Fatalf("jobs_a round trip: %+v, %v", job, err)
	}
}
