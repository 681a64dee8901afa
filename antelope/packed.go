package antelope

import (
	"bytes"
	"compress/zlib"
	"io"
	"strconv"
)

// Compression is how a PackedTransaction's bytes are stored: a uint8, and in
// JSON "none"/"zlib" (nodeos) or 0/1 (wharfkit requests).
type Compression uint8

// The compressions nodeos knows.
const (
	CompressionNone Compression = 0
	CompressionZlib Compression = 1
)

// MaxInflatedSize is the most a zlib-compressed packed transaction or
// context-free data may inflate to, as nodeos limits it (1 MiB): a larger
// one is refused, not inflated, so a small decompression bomb cannot take
// memory.
const MaxInflatedSize = 1 << 20

// String returns "none" or "zlib".
func (c Compression) String() string {
	switch c {
	case CompressionNone:
		return "none"
	case CompressionZlib:
		return "zlib"
	}
	return "compression(" + strconv.Itoa(int(c)) + ")"
}

// AppendJSON appends "none" or "zlib", as nodeos prints it.
func (c Compression) AppendJSON(b []byte) ([]byte, error) {
	if c > CompressionZlib {
		return b, valueErr("compression", c.String(), "must be none (0) or zlib (1)")
	}
	return AppendStringJSON(b, c.String()), nil
}

// DecodeJSON reads "none"/"zlib" or 0/1.
func (c *Compression) DecodeJSON(r *JSONReader) error {
	if r.Peek() == JSONString {
		s, err := r.StringBytes()
		if err != nil {
			return err
		}
		switch string(s) {
		case "none":
			*c = CompressionNone
		case "zlib":
			*c = CompressionZlib
		default:
			return valueErr("compression", string(s), `must be "none" or "zlib"`)
		}
		return nil
	}
	v, err := r.Uint8()
	if err != nil {
		return err
	}
	if Compression(v) > CompressionZlib {
		return valueErr("compression", strconv.Itoa(int(v)), "must be 0 (none) or 1 (zlib)")
	}
	*c = Compression(v)
	return nil
}

// PackedTransaction is a signed transaction as it is sent to nodeos
// (push_transaction, send_transaction, send_transaction2) and stored in
// blocks: the signatures, then the transaction and its context-free data as
// bytes, optionally zlib-compressed.
type PackedTransaction struct {
	Signatures            []Signature // the transaction's signatures
	Compression           Compression // how the two byte fields are stored
	PackedContextFreeData []byte      // the packed context-free data; empty when there is none
	PackedTrx             []byte      // the packed transaction
}

// Pack packs a signed transaction with the given compression. Context-free
// data, when there is some, is packed as a vector of bytes; none packs as
// empty bytes, as nodeos does.
func (t *SignedTransaction) Pack(c Compression) (*PackedTransaction, error) {
	trx, err := t.Transaction.AppendBinary(nil)
	if err != nil {
		return nil, err
	}
	var cfd []byte
	if len(t.ContextFreeData) > 0 {
		if cfd, err = packContextFreeData(t.ContextFreeData); err != nil {
			return nil, AtField(err, "context_free_data")
		}
	}
	switch c {
	case CompressionNone:
	case CompressionZlib:
		trx = deflate(trx)
		if len(cfd) > 0 {
			cfd = deflate(cfd)
		}
	default:
		return nil, valueErr("compression", c.String(), "must be none or zlib")
	}
	sigs := t.Signatures
	if sigs == nil {
		sigs = []Signature{}
	}
	return &PackedTransaction{Signatures: sigs, Compression: c, PackedContextFreeData: cfd, PackedTrx: trx}, nil
}

func deflate(b []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	_, _ = w.Write(b) // a bytes.Buffer does not fail
	_ = w.Close()
	return buf.Bytes()
}

// inflate decompresses zlib data, refusing output beyond MaxInflatedSize
// before producing it.
func inflate(what string, b []byte) ([]byte, error) {
	zr, err := zlib.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, valueErr(what, "", "not zlib data: "+err.Error())
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, MaxInflatedSize+1))
	if err != nil {
		return nil, valueErr(what, "", "inflating: "+err.Error())
	}
	if len(out) > MaxInflatedSize {
		return nil, valueErr(what, "", "inflates past "+strconv.Itoa(MaxInflatedSize)+" bytes, nodeos's limit")
	}
	return out, nil
}

// TransactionBytes returns the packed transaction, inflated if compressed.
func (p *PackedTransaction) TransactionBytes() ([]byte, error) {
	switch p.Compression {
	case CompressionNone:
		return p.PackedTrx, nil
	case CompressionZlib:
		return inflate("packed_trx", p.PackedTrx)
	}
	return nil, valueErr("compression", p.Compression.String(), "must be none or zlib")
}

// ContextFreeData returns the unpacked context-free data (none when
// PackedContextFreeData is empty or an empty vector).
func (p *PackedTransaction) ContextFreeData() ([][]byte, error) {
	raw := p.PackedContextFreeData
	if len(raw) == 0 {
		return [][]byte{}, nil
	}
	if p.Compression == CompressionZlib {
		var err error
		if raw, err = inflate("packed_context_free_data", raw); err != nil {
			return nil, err
		}
	}
	d := Decoder{data: raw}
	cfd, err := decodeContextFreeData(&d)
	if err == nil {
		err = d.Finish()
	}
	if err != nil {
		return nil, AtField(err, "packed_context_free_data")
	}
	return cfd, nil
}

// transaction decodes packed_trx. Like nodeos it reads one transaction and
// ignores bytes after it: blocks hold packed_trx with trailing padding, and
// the id is of the transaction, not of the padded bytes.
func (p *PackedTransaction) transaction() (*Transaction, error) {
	raw, err := p.TransactionBytes()
	if err != nil {
		return nil, err
	}
	t := &Transaction{}
	d := Decoder{data: raw}
	if err := t.DecodeBinary(&d); err != nil {
		return nil, AtField(err, "packed_trx")
	}
	return t, nil
}

// Unpack returns the signed transaction.
func (p *PackedTransaction) Unpack() (*SignedTransaction, error) {
	t, err := p.transaction()
	if err != nil {
		return nil, err
	}
	st := &SignedTransaction{Transaction: *t}
	if st.ContextFreeData, err = p.ContextFreeData(); err != nil {
		return nil, err
	}
	st.Signatures = append([]Signature{}, p.Signatures...)
	return st, nil
}

// ID returns the transaction id: the sha256 of the transaction packed anew
// from the (inflated) packed_trx, as nodeos computes it.
func (p *PackedTransaction) ID() (Checksum256, error) {
	t, err := p.transaction()
	if err != nil {
		return Checksum256{}, err
	}
	return t.ID()
}

// SigningDigest returns what the signatures sign on chain chainID.
func (p *PackedTransaction) SigningDigest(chainID Checksum256) (Checksum256, error) {
	t, err := p.transaction()
	if err != nil {
		return Checksum256{}, err
	}
	cfd, err := p.ContextFreeData()
	if err != nil {
		return Checksum256{}, err
	}
	return t.signingDigest(chainID, cfd)
}

// AppendBinary appends the packed transaction's binary form.
func (p *PackedTransaction) AppendBinary(b []byte) ([]byte, error) {
	b, err := appendBinarySlice(b, p.Signatures)
	if err != nil {
		return b, AtField(err, "signatures")
	}
	if p.Compression > CompressionZlib {
		return b, valueErr("compression", p.Compression.String(), "must be none or zlib")
	}
	b = AppendUint8(b, uint8(p.Compression))
	if b, err = AppendBytes(b, p.PackedContextFreeData); err != nil {
		return b, AtField(err, "packed_context_free_data")
	}
	b, err = AppendBytes(b, p.PackedTrx)
	return b, AtField(err, "packed_trx")
}

// MarshalBinary returns the binary form.
func (p *PackedTransaction) MarshalBinary() ([]byte, error) { return p.AppendBinary(nil) }

// DecodeBinary reads a packed transaction. The payload is not inflated here:
// Unpack, ID and SigningDigest do that, under MaxInflatedSize.
func (p *PackedTransaction) DecodeBinary(d *Decoder) error {
	var v PackedTransaction
	var err error
	if v.Signatures, err = decodeBinarySlice[Signature](d, "signatures", 66); err != nil {
		return err
	}
	off := d.Offset()
	c, err := d.Uint8()
	if err != nil {
		return AtField(err, "compression")
	}
	if Compression(c) > CompressionZlib {
		return d.errAt(off, "compression", "must be 0 (none) or 1 (zlib), not "+strconv.Itoa(int(c)))
	}
	v.Compression = Compression(c)
	if v.PackedContextFreeData, err = d.Bytes(); err != nil {
		return AtField(err, "packed_context_free_data")
	}
	if v.PackedTrx, err = d.Bytes(); err != nil {
		return AtField(err, "packed_trx")
	}
	*p = v
	return nil
}

// UnmarshalBinary decodes exactly one packed transaction.
func (p *PackedTransaction) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, p) }

// AppendJSON appends the push_transaction request body nodeos reads:
// {"signatures","compression","packed_context_free_data","packed_trx"}.
func (p *PackedTransaction) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"signatures":`...)
	b, err := appendJSONSlice(b, p.Signatures)
	if err != nil {
		return b, AtField(err, "signatures")
	}
	b = append(b, `,"compression":`...)
	if b, err = p.Compression.AppendJSON(b); err != nil {
		return b, err
	}
	b = append(b, `,"packed_context_free_data":`...)
	b = AppendHexJSON(b, p.PackedContextFreeData)
	b = append(b, `,"packed_trx":`...)
	b = AppendHexJSON(b, p.PackedTrx)
	return append(b, '}'), nil
}

// MarshalJSON returns the push_transaction request body.
func (p *PackedTransaction) MarshalJSON() ([]byte, error) { return p.AppendJSON(nil) }

// DecodeJSON reads the nodeos or wharfkit JSON of a packed transaction.
// packed_trx is required; the others default to none and empty. Other
// members (nodeos's get_block adds "id" and "transaction") are ignored.
func (p *PackedTransaction) DecodeJSON(r *JSONReader) error {
	var v PackedTransaction
	err := readObjectRequiring(r, []objectField{
		{"packed_trx", func(r *JSONReader) (err error) { v.PackedTrx, err = r.Bytes(); return }},
		{"signatures", func(r *JSONReader) (err error) { v.Signatures, err = decodeJSONSlice[Signature](r); return }},
		{"compression", func(r *JSONReader) error { return v.Compression.DecodeJSON(r) }},
		{"packed_context_free_data", func(r *JSONReader) (err error) { v.PackedContextFreeData, err = r.Bytes(); return }},
	}, 1)
	if err != nil {
		return err
	}
	if v.Signatures == nil {
		v.Signatures = []Signature{}
	}
	*p = v
	return nil
}

// UnmarshalJSON reads the JSON of a packed transaction.
func (p *PackedTransaction) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, p) }
