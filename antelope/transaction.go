package antelope

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"time"
)

// TransactionHeader is the part of a transaction that says when and where it
// is valid: its expiration, and TAPoS, the reference to a recent block that
// ties it to one chain and one fork.
type TransactionHeader struct {
	Expiration       TimePointSec // the transaction is refused after this time
	RefBlockNum      uint16       // low 16 bits of the referenced block's number
	RefBlockPrefix   uint32       // bytes 8–11 of the referenced block's id, little-endian
	MaxNetUsageWords uint32       // varuint32; 0: no limit beyond the chain's
	MaxCPUUsageMS    uint8        // 0: no limit beyond the chain's
	DelaySec         uint32       // varuint32; a delayed transaction waits this long
}

// Extension is one transaction extension: a type and its packed data. JSON:
// nodeos prints the pair [type, "hex"]; {"type","data"} is read too.
type Extension struct {
	Type uint16 // the extension's id
	Data []byte // its packed data
}

// Transaction is an unsigned transaction. Binary and JSON as nodeos and
// abieos define "transaction"; JSON is the nodeos push_transaction shape.
type Transaction struct {
	TransactionHeader
	ContextFreeActions []Action    // actions that read no state and need no authorization
	Actions            []Action    // the actions, executed in order
	Extensions         []Extension // transaction_extensions
}

// SignedTransaction is a transaction with its signatures and context-free
// data ("signed_transaction").
type SignedTransaction struct {
	Transaction
	Signatures      []Signature // one per key the authorizations need
	ContextFreeData [][]byte    // data for the context-free actions, signed by digest
}

// TaposFromBlockID returns the ref_block_num and ref_block_prefix that refer
// to the block with this id: the low 16 bits of the block number (the id's
// first four bytes, big-endian) and the id's bytes 8–11 read little-endian.
func TaposFromBlockID(id Checksum256) (refBlockNum uint16, refBlockPrefix uint32) {
	return uint16(binary.BigEndian.Uint32(id[:4])), binary.LittleEndian.Uint32(id[8:12])
}

// SetReferenceBlock sets RefBlockNum and RefBlockPrefix from a block id.
func (h *TransactionHeader) SetReferenceBlock(id Checksum256) {
	h.RefBlockNum, h.RefBlockPrefix = TaposFromBlockID(id)
}

// SetExpiration sets Expiration to t, truncated to the second.
func (h *TransactionHeader) SetExpiration(t time.Time) {
	h.Expiration = TimePointSec(uint32(t.Unix()))
}

// AppendBinary appends the header.
func (h TransactionHeader) AppendBinary(b []byte) ([]byte, error) {
	b = AppendUint32(b, uint32(h.Expiration))
	b = AppendUint16(b, h.RefBlockNum)
	b = AppendUint32(b, h.RefBlockPrefix)
	b = AppendVarUint32(b, h.MaxNetUsageWords)
	b = AppendUint8(b, h.MaxCPUUsageMS)
	return AppendVarUint32(b, h.DelaySec), nil
}

// DecodeBinary reads the header.
func (h *TransactionHeader) DecodeBinary(d *Decoder) error {
	var v TransactionHeader
	var err error
	var exp uint32
	if exp, err = d.Uint32(); err != nil {
		return AtField(err, "expiration")
	}
	v.Expiration = TimePointSec(exp)
	if v.RefBlockNum, err = d.Uint16(); err != nil {
		return AtField(err, "ref_block_num")
	}
	if v.RefBlockPrefix, err = d.Uint32(); err != nil {
		return AtField(err, "ref_block_prefix")
	}
	if v.MaxNetUsageWords, err = d.VarUint32(); err != nil {
		return AtField(err, "max_net_usage_words")
	}
	if v.MaxCPUUsageMS, err = d.Uint8(); err != nil {
		return AtField(err, "max_cpu_usage_ms")
	}
	if v.DelaySec, err = d.VarUint32(); err != nil {
		return AtField(err, "delay_sec")
	}
	*h = v
	return nil
}

func (h TransactionHeader) appendJSONFields(b []byte) []byte {
	b = append(b, `"expiration":`...)
	b, _ = h.Expiration.AppendJSON(b)
	b = append(b, `,"ref_block_num":`...)
	b = AppendUintJSON(b, uint64(h.RefBlockNum))
	b = append(b, `,"ref_block_prefix":`...)
	b = AppendUintJSON(b, uint64(h.RefBlockPrefix))
	b = append(b, `,"max_net_usage_words":`...)
	b = AppendUintJSON(b, uint64(h.MaxNetUsageWords))
	b = append(b, `,"max_cpu_usage_ms":`...)
	b = AppendUintJSON(b, uint64(h.MaxCPUUsageMS))
	b = append(b, `,"delay_sec":`...)
	return AppendUintJSON(b, uint64(h.DelaySec))
}

// AppendBinary appends the extension.
func (e Extension) AppendBinary(b []byte) ([]byte, error) {
	b = AppendUint16(b, e.Type)
	return AppendBytes(b, e.Data)
}

// DecodeBinary reads one extension.
func (e *Extension) DecodeBinary(d *Decoder) error {
	t, err := d.Uint16()
	if err != nil {
		return AtField(err, "type")
	}
	data, err := d.Bytes()
	if err != nil {
		return AtField(err, "data")
	}
	e.Type, e.Data = t, data
	return nil
}

// AppendJSON appends nodeos's [type, "hex"].
func (e Extension) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '[')
	b = AppendUintJSON(b, uint64(e.Type))
	b = append(b, ',')
	b = AppendHexJSON(b, e.Data)
	return append(b, ']'), nil
}

// DecodeJSON reads [type, "hex"] (nodeos) or {"type","data"} (abieos,
// wharfkit).
func (e *Extension) DecodeJSON(r *JSONReader) error {
	var v Extension
	if r.Peek() == JSONObject {
		err := readObject(r, []objectField{
			{"type", func(r *JSONReader) (err error) { v.Type, err = r.Uint16(); return }},
			{"data", func(r *JSONReader) (err error) { v.Data, err = r.Bytes(); return }},
		})
		if err == nil {
			*e = v
		}
		return err
	}
	shape := `transaction extension: expected [type, "hex"] or {"type","data"}`
	if err := r.BeginArray(); err != nil {
		return err
	}
	if ok, err := r.NextElement(); err != nil || !ok {
		return orErr(err, r.errorf(shape))
	}
	var err error
	if v.Type, err = r.Uint16(); err != nil {
		return AtField(err, "type")
	}
	if ok, err := r.NextElement(); err != nil || !ok {
		return orErr(err, r.errorf(shape))
	}
	if v.Data, err = r.Bytes(); err != nil {
		return AtField(err, "data")
	}
	if ok, err := r.NextElement(); err != nil || ok {
		return orErr(err, r.errorf(shape))
	}
	*e = v
	return nil
}

// AppendBinary appends the transaction as nodeos packs it: the bytes whose
// sha256 is the transaction id.
func (t *Transaction) AppendBinary(b []byte) ([]byte, error) {
	b = slices.Grow(b, t.binarySizeHint())
	b, _ = t.TransactionHeader.AppendBinary(b)
	b, err := appendBinarySlice(b, t.ContextFreeActions)
	if err != nil {
		return b, AtField(err, "context_free_actions")
	}
	if b, err = appendBinarySlice(b, t.Actions); err != nil {
		return b, AtField(err, "actions")
	}
	b, err = appendBinarySlice(b, t.Extensions)
	return b, AtField(err, "transaction_extensions")
}

// binarySizeHint is about the size of t's binary form, so that
// AppendBinary grows its buffer once, not once per field that outgrows it
// (a transaction is packed for its id, its digest and its JSON).
func (t *Transaction) binarySizeHint() int {
	n := 32
	for _, acts := range [2][]Action{t.ContextFreeActions, t.Actions} {
		for i := range acts {
			n += 16 + 5 + 16*len(acts[i].Authorization) + 5 + len(acts[i].Data)
		}
	}
	for i := range t.Extensions {
		n += 2 + 5 + len(t.Extensions[i].Data)
	}
	return n
}

// MarshalBinary returns the packed transaction bytes.
func (t *Transaction) MarshalBinary() ([]byte, error) { return t.AppendBinary(nil) }

// DecodeBinary reads a transaction.
func (t *Transaction) DecodeBinary(d *Decoder) error {
	var v Transaction
	if err := v.TransactionHeader.DecodeBinary(d); err != nil {
		return err
	}
	var err error
	if v.ContextFreeActions, err = decodeBinarySlice[Action](d, "context_free_actions", minActionSize); err != nil {
		return err
	}
	if v.Actions, err = decodeBinarySlice[Action](d, "actions", minActionSize); err != nil {
		return err
	}
	if v.Extensions, err = decodeBinarySlice[Extension](d, "transaction_extensions", 3); err != nil {
		return err
	}
	*t = v
	return nil
}

// UnmarshalBinary decodes exactly one transaction.
func (t *Transaction) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, t) }

func (t *Transaction) appendJSONFields(b []byte) ([]byte, error) {
	b = t.TransactionHeader.appendJSONFields(b)
	b = append(b, `,"context_free_actions":`...)
	b, err := appendJSONSlice(b, t.ContextFreeActions)
	if err != nil {
		return b, AtField(err, "context_free_actions")
	}
	b = append(b, `,"actions":`...)
	if b, err = appendJSONSlice(b, t.Actions); err != nil {
		return b, AtField(err, "actions")
	}
	b = append(b, `,"transaction_extensions":`...)
	return appendJSONSlice(b, t.Extensions)
}

// AppendJSON appends the nodeos JSON of the transaction, action data as hex.
func (t *Transaction) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	b, err := t.appendJSONFields(b)
	return append(b, '}'), err
}

// MarshalJSON returns the nodeos JSON of the transaction.
func (t *Transaction) MarshalJSON() ([]byte, error) { return t.AppendJSON(nil) }

// transactionFields are the JSON members of a transaction; the first three
// are required, the rest default to zero or empty as nodeos lets them.
func (t *Transaction) transactionFields() []objectField {
	return []objectField{
		{"expiration", func(r *JSONReader) error { return t.Expiration.DecodeJSON(r) }},
		{"ref_block_num", func(r *JSONReader) (err error) { t.RefBlockNum, err = r.Uint16(); return }},
		{"ref_block_prefix", func(r *JSONReader) (err error) { t.RefBlockPrefix, err = r.Uint32(); return }},
		{"actions", func(r *JSONReader) (err error) { t.Actions, err = decodeJSONSlice[Action](r); return }},
		{"max_net_usage_words", func(r *JSONReader) (err error) { t.MaxNetUsageWords, err = r.Uint32(); return }},
		{"max_cpu_usage_ms", func(r *JSONReader) (err error) { t.MaxCPUUsageMS, err = r.Uint8(); return }},
		{"delay_sec", func(r *JSONReader) (err error) { t.DelaySec, err = r.Uint32(); return }},
		{"context_free_actions", func(r *JSONReader) (err error) {
			t.ContextFreeActions, err = decodeJSONSlice[Action](r)
			return
		}},
		{"transaction_extensions", func(r *JSONReader) (err error) {
			t.Extensions, err = decodeJSONSlice[Extension](r)
			return
		}},
	}
}

const requiredTransactionFields = 4

// DecodeJSON reads the nodeos, abieos or wharfkit JSON of a transaction.
// expiration, ref_block_num, ref_block_prefix and actions are required.
func (t *Transaction) DecodeJSON(r *JSONReader) error {
	var v Transaction
	if err := readObjectRequiring(r, v.transactionFields(), requiredTransactionFields); err != nil {
		return err
	}
	v.normalize()
	*t = v
	return nil
}

// UnmarshalJSON reads the JSON of a transaction.
func (t *Transaction) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, t) }

// normalize makes absent lists empty, so that a decoded transaction prints
// [] rather than differing from one built in Go by nil versus empty.
func (t *Transaction) normalize() {
	if t.ContextFreeActions == nil {
		t.ContextFreeActions = []Action{}
	}
	if t.Actions == nil {
		t.Actions = []Action{}
	}
	if t.Extensions == nil {
		t.Extensions = []Extension{}
	}
}

// ID returns the transaction id: the sha256 of the packed transaction.
func (t *Transaction) ID() (Checksum256, error) {
	packed, err := t.AppendBinary(nil)
	if err != nil {
		return Checksum256{}, err
	}
	return sha256.Sum256(packed), nil
}

// SigningDigest returns what a key signs for this transaction on the chain
// chainID when it carries no context-free data: sha256(chain_id ‖ packed
// transaction ‖ 32 zero bytes). SignedTransaction.SigningDigest covers the
// context-free data.
func (t *Transaction) SigningDigest(chainID Checksum256) (Checksum256, error) {
	return t.signingDigest(chainID, nil)
}

func (t *Transaction) signingDigest(chainID Checksum256, cfd [][]byte) (Checksum256, error) {
	packed, err := t.AppendBinary(nil)
	if err != nil {
		return Checksum256{}, err
	}
	var cfdHash Checksum256
	if len(cfd) > 0 {
		p, err := packContextFreeData(cfd)
		if err != nil {
			return Checksum256{}, err
		}
		cfdHash = sha256.Sum256(p)
	}
	return SigningDigest(chainID, packed, cfdHash), nil
}

// SigningDigest is sha256(chainID ‖ packedTrx ‖ cfdHash), where cfdHash is
// the sha256 of the packed context-free data, or 32 zero bytes when there is
// none.
func SigningDigest(chainID Checksum256, packedTrx []byte, cfdHash Checksum256) Checksum256 {
	h := sha256.New()
	h.Write(chainID[:])
	h.Write(packedTrx)
	h.Write(cfdHash[:])
	var out Checksum256
	h.Sum(out[:0])
	return out
}

// packContextFreeData packs the context-free data as a vector of bytes.
func packContextFreeData(cfd [][]byte) ([]byte, error) {
	b, err := AppendLength(nil, len(cfd))
	if err != nil {
		return nil, err
	}
	for i, d := range cfd {
		if b, err = AppendBytes(b, d); err != nil {
			return nil, AtIndex(err, i)
		}
	}
	return b, nil
}

func decodeContextFreeData(d *Decoder) ([][]byte, error) {
	n, err := d.Length("context_free_data", 1)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, n)
	for i := range out {
		if out[i], err = d.Bytes(); err != nil {
			return nil, AtIndex(err, i)
		}
	}
	return out, nil
}

// SigningDigest returns what a key signs for this transaction on the chain
// chainID, including its context-free data.
func (t *SignedTransaction) SigningDigest(chainID Checksum256) (Checksum256, error) {
	return t.Transaction.signingDigest(chainID, t.ContextFreeData)
}

// AppendBinary appends the signed transaction.
func (t *SignedTransaction) AppendBinary(b []byte) ([]byte, error) {
	b, err := t.Transaction.AppendBinary(b)
	if err != nil {
		return b, err
	}
	if b, err = appendBinarySlice(b, t.Signatures); err != nil {
		return b, AtField(err, "signatures")
	}
	cfd, err := packContextFreeData(t.ContextFreeData)
	return append(b, cfd...), AtField(err, "context_free_data")
}

// MarshalBinary returns the signed transaction's bytes.
func (t *SignedTransaction) MarshalBinary() ([]byte, error) { return t.AppendBinary(nil) }

// DecodeBinary reads a signed transaction.
func (t *SignedTransaction) DecodeBinary(d *Decoder) error {
	var v SignedTransaction
	if err := v.Transaction.DecodeBinary(d); err != nil {
		return err
	}
	var err error
	if v.Signatures, err = decodeBinarySlice[Signature](d, "signatures", 66); err != nil {
		return err
	}
	if v.ContextFreeData, err = decodeContextFreeData(d); err != nil {
		return AtField(err, "context_free_data")
	}
	*t = v
	return nil
}

// UnmarshalBinary decodes exactly one signed transaction.
func (t *SignedTransaction) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, t) }

// AppendJSON appends the nodeos JSON: the transaction's members, then
// "signatures" and "context_free_data" (hex strings).
func (t *SignedTransaction) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	b, err := t.Transaction.appendJSONFields(b)
	if err != nil {
		return b, err
	}
	b = append(b, `,"signatures":`...)
	if b, err = appendJSONSlice(b, t.Signatures); err != nil {
		return b, AtField(err, "signatures")
	}
	b = append(b, `,"context_free_data":[`...)
	for i, d := range t.ContextFreeData {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendHexJSON(b, d)
	}
	return append(b, "]}"...), nil
}

// MarshalJSON returns the nodeos JSON of the signed transaction.
func (t *SignedTransaction) MarshalJSON() ([]byte, error) { return t.AppendJSON(nil) }

// DecodeJSON reads a signed transaction; signatures and context_free_data
// may be left out.
func (t *SignedTransaction) DecodeJSON(r *JSONReader) error {
	var v SignedTransaction
	fields := v.Transaction.transactionFields()
	fields = append(fields,
		objectField{"signatures", func(r *JSONReader) (err error) { v.Signatures, err = decodeJSONSlice[Signature](r); return }},
		objectField{"context_free_data", func(r *JSONReader) (err error) {
			v.ContextFreeData, err = decodeJSONSliceOf(r, func(r *JSONReader) ([]byte, error) { return r.Bytes() })
			return
		}},
	)
	if err := readObjectRequiring(r, fields, requiredTransactionFields); err != nil {
		return err
	}
	v.normalize()
	if v.Signatures == nil {
		v.Signatures = []Signature{}
	}
	if v.ContextFreeData == nil {
		v.ContextFreeData = [][]byte{}
	}
	*t = v
	return nil
}

// UnmarshalJSON reads the JSON of a signed transaction.
func (t *SignedTransaction) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, t) }

// minActionSize is the smallest encoded action: two names and two empty
// lists.
const minActionSize = 8 + 8 + 1 + 1
