// Package oracle holds the differential conformance tests: values of every
// struct, variant, action and table type of every golden ABI, encoded by two
// independent implementations, @wharfkit/antelope and eosjs, and checked
// byte for byte against the generated code.
//
// The vectors are in testdata/oracle, one gzipped JSON file per golden ABI,
// and the Go tests read them with no Node installed. Node runs only to make
// them:
//
//	go generate ./internal/oracle
//
// runs regen.sh: npm ci, oracle.js gen (the vectors), this package's test
// with ORACLE_GO_JSON set (the generated code's MarshalJSON of every vector),
// and oracle.js check (both libraries must read that JSON back to the same
// bytes). CI runs it and fails if the vectors differ from the committed ones.
// See testdata/oracle/README.md for the oracles' known limits.
package oracle

//go:generate ./regen.sh
