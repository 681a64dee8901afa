package chaintest

import (
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/faults"
	"github.com/antelopego/abigen/chain/chaintest/internal/nodeosapi"
)

// get_table_rows and get_table_by_scope are internal/nodeosapi's; this is
// the chain as they read it, and the public face of nodeos's key parsing.

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
	return nodeosapi.ParseBound(keyType, encodeType, text, primary)
}

// FormatNextKey prints a key as nodeos prints next_key: a decimal for
// 64-bit keys (names too) and i128, "%.17g" of the double for float64 and
// float128 (a float128 rounded to a double), the checksum's hex for sha256,
// "0x" and the hex for i256 with encode_type dec, and 40 hex digits for
// ripemd160.
func FormatNextKey(k antelope.TableKey, encodeType string) string {
	return nodeosapi.FormatNextKey(k, encodeType)
}

// tablesView is the chain as get_table_rows and get_table_by_scope read it
// (nodeosapi.Tables).
type tablesView struct{ c *Chain }

func (v tablesView) Lock()                    { v.c.mu.Lock() }
func (v tablesView) Unlock()                  { v.c.mu.Unlock() }
func (v tablesView) State() *db               { return v.c.engine.DB }
func (v tablesView) PageSize() int            { return v.c.opts.pageSize }
func (v tablesView) Faults() *faults.Injector { return v.c.faults }
func (v tablesView) CheckTable(code, table antelope.Name) (int, any) {
	return v.c.checkTable(code, table)
}

// checkTable answers as nodeos does for an account with no contract, or a
// table its ABI does not declare; 0 when the table may be read.
func (c *Chain) checkTable(code, table antelope.Name) (int, any) {
	if c.engine.Account(code) == nil {
		return nodeosError(400, "Account lookup", 3060002, "account_query_exception", "Account Query Exception",
			"Fail to retrieve account for "+code.String())
	}
	ct := c.engine.Contract(code)
	if ct == nil || !ct.Tables[table] {
		return nodeosapi.TableQueryError("Table " + table.String() + " is not specified in the ABI")
	}
	return 0, nil
}
