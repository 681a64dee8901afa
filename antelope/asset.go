package antelope

import (
	"encoding/binary"
	"math/bits"
	"strconv"
)

// MaxAssetAmount is the largest magnitude of an asset's amount, 2^62−1
// (nodeos asset::max_amount).
const MaxAssetAmount = 1<<62 - 1

// Asset is a quantity of a token: an integer amount in units of
// 10^-precision, and a symbol. Binary: int64 amount little-endian, then the
// symbol (16 bytes). JSON: "1.2345 SYS"; asset{} is "0 ", as nodeos prints it.
type Asset struct {
	Amount int64  // in units of 10^-precision: 12345 at precision 4 is 1.2345
	Symbol Symbol // precision and code
}

// ParseAsset parses "amount CODE" as nodeos does: the number of decimals gives
// the precision (at most 18), |amount| must be at most 2^62−1, and the code at
// most 7 letters A–Z. White space around the asset and after the space before
// the code, and a '+' sign, are read as nodeos reads them. The space may be
// left out ("1.0SYS", as abieos accepts) unless the code is empty: "0 " is how
// nodeos prints asset{} (amount 0, the zero symbol), as in eosio.system's
// voters rows, and it reads back as asset{} (nodeos's own reader trims the
// space away and refuses it).
func ParseAsset(s string) (Asset, error) { return parseAsset([]byte(s)) }

// MustAsset parses an asset known to be valid, such as a constant
// ("1.0000 SYS"); it panics otherwise. Generated code never calls it.
func MustAsset(s string) Asset {
	a, err := ParseAsset(s)
	if err != nil {
		panic(err)
	}
	return a
}

func parseAsset(s []byte) (Asset, error) {
	if a, ok := parseAssetFast(s, 0, len(s)); ok {
		return a, nil
	}
	return parseAssetText(s)
}

// parseAssetText is parseAsset for any text: white space, a '+', every
// error.
func parseAssetText(s []byte) (Asset, error) {
	bad := func(msg string) (Asset, error) { return Asset{}, valueErr("asset", string(s), msg) }
	// nodeos trims every white-space character (boost::trim) and reads the
	// amount with boost::lexical_cast<int64_t>, which takes a '+' too.
	i, end := 0, len(s)
	for i < end && isCSpace(s[i]) {
		i++
	}
	for end > i && isCSpace(s[end-1]) {
		end--
	}
	neg := false
	if i < end && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	var mag uint64 // magnitude in units; checked against MaxAssetAmount as it grows
	digits, precision := 0, -1
	for ; i < end; i++ {
		c := s[i]
		if c == '.' {
			if precision >= 0 || digits == 0 {
				return bad("malformed amount")
			}
			precision = 0
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		digits++
		if precision >= 0 {
			precision++
			if precision > MaxPrecision {
				return bad("precision above 18")
			}
		}
		mag = mag*10 + uint64(c-'0')
		if mag > MaxAssetAmount {
			return bad("amount magnitude above 2^62-1")
		}
	}
	if digits == 0 {
		return bad("missing amount")
	}
	if precision == 0 {
		return bad("missing decimal fraction after decimal point")
	}
	if precision < 0 {
		precision = 0
	}
	if i == end && (i == len(s) || s[i] != ' ') {
		return bad("amount and symbol code must be separated by a space")
	}
	if i < end && s[i] == ' ' { // then nodeos trims the code
		for i < end && isCSpace(s[i]) {
			i++
		}
	}
	code, err := parseSymbolCode(s[i:end])
	if err != nil {
		return bad("symbol code must be at most 7 letters A-Z")
	}
	amount := int64(mag)
	if neg {
		amount = -amount
	}
	return Asset{Amount: amount, Symbol: Symbol{Precision: uint8(precision), Code: code}}, nil
}

// isCSpace is C's isspace in the "C" locale: the characters boost::trim
// removes.
func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

func (a Asset) check() error {
	if a.Amount > MaxAssetAmount || a.Amount < -MaxAssetAmount {
		return valueErr("asset", "", "amount "+strconv.FormatInt(a.Amount, 10)+" has a magnitude above 2^62-1")
	}
	return a.Symbol.check()
}

func (a Asset) appendText(b []byte) []byte {
	amount := a.Amount
	mag := uint64(amount)
	if amount < 0 {
		mag = uint64(-amount)
	}
	p := int(a.Symbol.Precision)
	if p > MaxPrecision { // only reachable for an invalid symbol; String must not panic
		p = MaxPrecision
	}
	// The whole text right to left into one buffer, two digits per step,
	// then one append: the code in out[32:], the space before it, the p
	// decimals, the point, the integer part (at least one digit), the sign.
	// A magnitude up to 2^63 (String prints invalid assets too) has at most
	// 19 digits; with the point and the sign 21 characters fit before 32.
	var out [40]byte
	code := uint64(a.Symbol.Code)
	binary.LittleEndian.PutUint64(out[32:], code)
	end := 32 + (bits.Len64(code)+7)/8
	out[31] = ' '
	i := 31
	for k := p; k >= 2; k -= 2 {
		q := mag / 100
		i -= 2
		copy(out[i:i+2], digitPairs[2*(mag-q*100):])
		mag = q
	}
	if p&1 == 1 {
		i--
		out[i] = byte('0' + mag%10)
		mag /= 10
	}
	if p > 0 {
		i--
		out[i] = '.'
	}
	for mag >= 100 {
		q := mag / 100
		i -= 2
		copy(out[i:i+2], digitPairs[2*(mag-q*100):])
		mag = q
	}
	if mag >= 10 {
		i -= 2
		copy(out[i:i+2], digitPairs[2*mag:])
	} else {
		i--
		out[i] = byte('0' + mag)
	}
	if amount < 0 {
		i--
		out[i] = '-'
	}
	return append(b, out[i:end]...)
}

// digitPairs holds "00" to "99", the two digits of n at 2n.
const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// String returns "amount CODE", e.g. "-1.2345 SYS".
func (a Asset) String() string { return string(a.appendText(nil)) }

// AppendBinary appends amount and symbol; an invalid asset is an error.
func (a Asset) AppendBinary(b []byte) ([]byte, error) {
	if err := a.check(); err != nil {
		return b, err
	}
	b = AppendInt64(b, a.Amount)
	return AppendUint64(b, a.Symbol.Uint64()), nil
}

// MarshalBinary returns the 16-byte encoding.
func (a Asset) MarshalBinary() ([]byte, error) { return a.AppendBinary(nil) }

// DecodeBinary reads 16 bytes and checks the amount range and the symbol, as
// nodeos does when it unpacks an asset.
func (a *Asset) DecodeBinary(d *Decoder) error {
	off := d.Offset()
	amount, err := d.Int64()
	if err != nil {
		return err
	}
	var sym Symbol
	if err := sym.DecodeBinary(d); err != nil {
		return err
	}
	if amount > MaxAssetAmount || amount < -MaxAssetAmount { // the symbol is checked already
		return d.errAt(off, "asset", Asset{Amount: amount, Symbol: sym}.check().Error())
	}
	*a = Asset{Amount: amount, Symbol: sym}
	return nil
}

// UnmarshalBinary decodes exactly 16 bytes.
func (a *Asset) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, a) }

// AppendJSON appends "amount CODE".
func (a Asset) AppendJSON(b []byte) ([]byte, error) {
	if err := a.check(); err != nil {
		return b, err
	}
	b = append(b, '"')
	b = a.appendText(b)
	return append(b, '"'), nil
}

// MarshalJSON returns "amount CODE".
func (a Asset) MarshalJSON() ([]byte, error) { return a.AppendJSON(nil) }

// DecodeJSON reads "amount CODE".
func (a *Asset) DecodeJSON(r *JSONReader) error {
	if r.Peek() != JSONString {
		return r.unexpected("a string")
	}
	start := r.pos + 1
	if v, end, ok := parseAssetQuoted(r.data, start); ok {
		*a = v
		r.pos = end + 1
		return nil
	}
	t, err := r.stringBytes()
	if err != nil {
		return err
	}
	// Without escapes, t is the input between the quotes, and the fast
	// path reads it in place.
	if end := r.pos - 1; end-start == len(t) {
		if v, ok := parseAssetFast(r.data, start, end); ok {
			*a = v
			return nil
		}
	}
	v, err := parseAssetText(t)
	if err == nil {
		*a = v
	}
	return err
}

// UnmarshalJSON reads "amount CODE".
func (a *Asset) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, a) }

// ExtendedAsset is an asset with the account of its token contract. Binary:
// asset then name (24 bytes). JSON: {"quantity":"1.0000 SYS","contract":"eosio.token"};
// input also accepts nodeos's ["1.0000 SYS","eosio.token"].
type ExtendedAsset struct {
	Quantity Asset // the amount and symbol
	Contract Name  // the token contract that issued it
}

// AppendBinary appends the asset, then the contract name.
func (e ExtendedAsset) AppendBinary(b []byte) ([]byte, error) {
	b, err := e.Quantity.AppendBinary(b)
	if err != nil {
		return b, AtField(err, "quantity")
	}
	return AppendUint64(b, uint64(e.Contract)), nil
}

// MarshalBinary returns the 24-byte encoding.
func (e ExtendedAsset) MarshalBinary() ([]byte, error) { return e.AppendBinary(nil) }

// DecodeBinary reads the asset, then the contract name.
func (e *ExtendedAsset) DecodeBinary(d *Decoder) error {
	if err := e.Quantity.DecodeBinary(d); err != nil {
		return AtField(err, "quantity")
	}
	return AtField(e.Contract.DecodeBinary(d), "contract")
}

// UnmarshalBinary decodes exactly 24 bytes.
func (e *ExtendedAsset) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, e) }

// AppendJSON appends {"quantity":…,"contract":…}.
func (e ExtendedAsset) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"quantity":`...)
	b, err := e.Quantity.AppendJSON(b)
	if err != nil {
		return b, AtField(err, "quantity")
	}
	b = append(b, `,"contract":`...)
	b, _ = e.Contract.AppendJSON(b)
	return append(b, '}'), nil
}

// MarshalJSON returns {"quantity":…,"contract":…}.
func (e ExtendedAsset) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// DecodeJSON reads {"quantity":…,"contract":…} (both required, unknown keys
// ignored) or [quantity, contract].
func (e *ExtendedAsset) DecodeJSON(r *JSONReader) error {
	if r.Peek() == JSONArray {
		return e.decodeJSONArray(r)
	}
	var v ExtendedAsset
	err := readObject(r, []objectField{
		{"quantity", func(r *JSONReader) error { return v.Quantity.DecodeJSON(r) }},
		{"contract", func(r *JSONReader) error { return v.Contract.DecodeJSON(r) }},
	})
	if err == nil {
		*e = v
	}
	return err
}

func (e *ExtendedAsset) decodeJSONArray(r *JSONReader) error {
	if err := r.BeginArray(); err != nil {
		return err
	}
	var v ExtendedAsset
	if ok, err := r.NextElement(); err != nil || !ok {
		return orErr(err, r.errorf("extended_asset array needs 2 elements"))
	}
	if err := v.Quantity.DecodeJSON(r); err != nil {
		return AtField(err, "quantity")
	}
	if ok, err := r.NextElement(); err != nil || !ok {
		return orErr(err, r.errorf("extended_asset array needs 2 elements"))
	}
	if err := v.Contract.DecodeJSON(r); err != nil {
		return AtField(err, "contract")
	}
	if ok, err := r.NextElement(); err != nil || ok {
		return orErr(err, r.errorf("extended_asset array needs exactly 2 elements"))
	}
	*e = v
	return nil
}

// OrErr returns err when it is set, else alt. Generated code uses it where
// a read either failed or found the wrong shape.
func OrErr(err, alt error) error { return orErr(err, alt) }

// orErr returns err when it is set, else alt.
func orErr(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}

// UnmarshalJSON reads an extended_asset.
func (e *ExtendedAsset) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, e) }
