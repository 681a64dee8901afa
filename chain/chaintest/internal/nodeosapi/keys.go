package nodeosapi

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
)

// ParseBound reads a get_table_rows lower_bound or upper_bound as nodeos
// (spring's chain_plugin) does for keyType and encodeType:
//
//   - i64 and name keys: with key_type "name" on the primary index, and for
//     "name" on a secondary index, the text is a name; otherwise a decimal
//     uint64 first, then a name, then a symbol ("4,EOS") or a symbol code
//     ("EOS") — so "12345" is the number 12345, not the name "12345";
//   - i128: a decimal or a "0x" hex number (a leading 0 is octal, as boost
//     reads it);
//   - float64, and float128 with encode_type dec: a decimal double;
//     float128 with encode_type hex: the binary128 bits as a 128-bit
//     number;
//   - sha256 (and i256 with encode_type hex): 64 hex digits, the checksum's
//     bytes; i256: a decimal or "0x" hex 256-bit number;
//   - ripemd160: 40 hex digits.
//
// The result is a TableKey of the index's type.
func ParseBound(keyType, encodeType, text string, primary bool) (antelope.TableKey, error) {
	bad := func(why string) (antelope.TableKey, error) {
		return antelope.TableKey{}, errors.New("could not convert bound '" + text + "' to key type " + keyType + ": " + why)
	}
	switch keyType {
	case "i64", "name", "":
		if keyType == "name" {
			n, err := antelope.ParseName(text)
			if err != nil {
				return bad(err.Error())
			}
			return antelope.KeyName(n), nil
		}
		v, err := convertToUint64(text)
		if err != nil {
			return bad(err.Error())
		}
		return antelope.KeyUint64(v), nil
	case "i128":
		n, err := boostUint(text, 128)
		if err != nil {
			return bad(err.Error())
		}
		var be [16]byte
		n.FillBytes(be[:])
		return antelope.KeyUint128(antelope.Uint128{Hi: binary.BigEndian.Uint64(be[:8]), Lo: binary.BigEndian.Uint64(be[8:])}), nil
	case "float64":
		v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || math.IsNaN(v) {
			return bad("not a number")
		}
		return antelope.KeyFloat64(v), nil
	case "float128":
		if encodeType == "hex" {
			n, err := boostUint(text, 128)
			if err != nil {
				return bad(err.Error())
			}
			var be [16]byte
			n.FillBytes(be[:])
			var f antelope.Float128
			for i := range f {
				f[i] = be[15-i]
			}
			return antelope.KeyFloat128(f), nil
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || math.IsNaN(v) {
			return bad("not a number")
		}
		return antelope.KeyFloat128(antelope.Float128FromFloat64(v)), nil
	case "sha256":
		c, err := antelope.ParseChecksum256(text)
		if err != nil {
			return bad(err.Error())
		}
		return antelope.KeySHA256(c), nil
	case "i256":
		if encodeType == "hex" {
			c, err := antelope.ParseChecksum256(text)
			if err != nil {
				return bad(err.Error())
			}
			return antelope.KeySHA256(c), nil
		}
		n, err := boostUint(text, 256)
		if err != nil {
			return bad(err.Error())
		}
		var c antelope.Checksum256
		n.FillBytes(c[:])
		return antelope.KeyI256(c), nil
	case "ripemd160":
		var c antelope.Checksum160
		if len(text) != 40 {
			return bad("expected 40 hex digits")
		}
		if err := c.UnmarshalJSON([]byte(`"` + text + `"`)); err != nil {
			return bad(err.Error())
		}
		return antelope.KeyRipemd160(c), nil
	}
	return bad("unsupported key type")
}

// convertToUint64 is nodeos's convert_to_type<uint64_t>: a decimal, a
// name, a symbol "4,EOS", a symbol code "EOS".
func convertToUint64(s string) (uint64, error) {
	if v, err := strconv.ParseUint(s, 10, 64); err == nil {
		return v, nil
	}
	if n, err := antelope.ParseName(strings.TrimSpace(s)); err == nil {
		return uint64(n), nil
	}
	if strings.Contains(s, ",") {
		if sym, err := antelope.ParseSymbol(s); err == nil {
			return sym.Uint64(), nil
		}
	}
	if sc, err := antelope.ParseSymbolCode(s); err == nil {
		return uint64(sc), nil
	}
	return 0, errors.New("not a uint64, a valid name, or a valid symbol (with or without the precision)")
}

// boostUint reads a number as boost::multiprecision does: "0x" hex, a
// leading "0" octal, else decimal.
func boostUint(s string, bits int) (*big.Int, error) {
	base := 10
	t := s
	switch {
	case strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X"):
		base, t = 16, t[2:]
	case len(t) > 1 && t[0] == '0':
		base, t = 8, t[1:]
	}
	n, ok := new(big.Int).SetString(t, base)
	if !ok || n.Sign() < 0 || n.BitLen() > bits {
		return nil, errors.New("not an unsigned " + strconv.Itoa(bits) + "-bit number")
	}
	return n, nil
}

// FormatNextKey prints a key as nodeos prints next_key: a decimal for
// 64-bit keys (names too) and i128, "%.17g" of the double for float64 and
// float128 (a float128 rounded to a double), the checksum's hex for sha256,
// "0x" and the hex for i256 with encode_type dec, and 40 hex digits for
// ripemd160.
func FormatNextKey(k antelope.TableKey, encodeType string) string {
	b := k.Bytes()
	switch k.Type() {
	case antelope.IndexI64:
		return strconv.FormatUint(k.Uint64(), 10)
	case antelope.IndexI128:
		return new(big.Int).SetBytes(b[16:]).String()
	case antelope.IndexFloat64:
		return formatDouble(k.Float64())
	case antelope.IndexFloat128:
		return formatDouble(antelope.Float128(b[16:]).Float64())
	case antelope.IndexSHA256:
		return hex.EncodeToString(b[:])
	case antelope.IndexI256:
		if encodeType == "hex" {
			return hex.EncodeToString(b[:])
		}
		return "0x" + hex.EncodeToString(b[:])
	case antelope.IndexRipemd160:
		return hex.EncodeToString(b[:20])
	}
	return ""
}

// formatDouble is fc's double printing: 17 significant digits.
func formatDouble(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }
