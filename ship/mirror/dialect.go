package mirror

import (
	"strconv"
	"strings"
)

// Dialect is the SQL a database speaks where SQLite and PostgreSQL differ:
// column types and parameter markers. The mirror writes everything else in
// the SQL both accept.
type Dialect int

// The dialects.
const (
	SQLite   Dialect = iota // SQLite 3.35 or later (github.com/ncruces/go-sqlite3)
	Postgres                // PostgreSQL 12 or later (github.com/jackc/pgx/v5)
)

// String names the dialect.
func (d Dialect) String() string {
	if d == Postgres {
		return "postgres"
	}
	return "sqlite"
}

// class is what a column holds, before a dialect names its SQL type.
type class uint8

const (
	cBool    class = iota // bool
	cInt                  // fits a signed 64-bit integer
	cUint64               // uint64: beyond BIGINT's range
	cInt128               // int128 and uint128
	cFloat32              // float32
	cFloat64              // float64
	cText                 // names, symbols, keys, checksums, strings…
	cBytes                // bytes, packed data
	cJSON                 // nested values in nodeos's JSON dialect
)

// sqlType is the column type of c. SQLite keeps 64-bit unsigned and 128-bit
// integers as decimal text, the only lossless form it has (an INTEGER column
// would turn values above 2^63−1 into inexact REALs); PostgreSQL as NUMERIC.
func (d Dialect) sqlType(c class) string {
	switch c {
	case cBool:
		if d == Postgres {
			return "BOOLEAN"
		}
		return "INTEGER"
	case cInt:
		if d == Postgres {
			return "BIGINT"
		}
		return "INTEGER"
	case cUint64:
		if d == Postgres {
			return "NUMERIC(20,0)"
		}
		return "TEXT"
	case cInt128:
		if d == Postgres {
			return "NUMERIC(39,0)"
		}
		return "TEXT"
	case cFloat32, cFloat64:
		if d == Postgres {
			if c == cFloat32 {
				return "REAL"
			}
			return "DOUBLE PRECISION"
		}
		// No declared type: a column of REAL (or NUMERIC) affinity stores
		// a float with no fractional part as an integer, so -0 comes back
		// as 0; without affinity SQLite keeps the double as given.
		return ""
	case cBytes:
		if d == Postgres {
			return "BYTEA"
		}
		return "BLOB"
	case cJSON:
		// PostgreSQL's json (not jsonb) keeps the text as written: key
		// order and number spelling are nodeos's.
		if d == Postgres {
			return "JSON"
		}
		return "TEXT"
	}
	return "TEXT"
}

// param is the marker of the n-th (1-based) statement parameter, cast
// where PostgreSQL cannot infer the type from a Go string.
func (d Dialect) param(n int, c class) string {
	if d != Postgres {
		return "?"
	}
	p := "$" + strconv.Itoa(n)
	switch c {
	case cUint64, cInt128:
		return "CAST(" + p + " AS NUMERIC)"
	case cJSON:
		return "CAST(" + p + " AS JSON)"
	}
	return p
}

// quote quotes an identifier: whatever the ABI named it, it stays one
// identifier ("" doubles a quote; sanitize has removed what neither
// database accepts inside quotes).
func quote(ident string) string {
	return `"` + strings.ReplaceAll(ident, `"`, `""`) + `"`
}
