// Package gen turns a resolved ABI (model.Model) into the files of a Go
// package: a pure function, Generate, from the model and Options to
// map[filename]contents. It writes nothing and reads nothing.
//
// The code is built with github.com/dave/jennifer, one file per concern:
//
//	doc.go      package documentation and ricardian clauses
//	types.go    typedefs, structs and variants, with their codecs
//	actions.go  action names, Contract and its builders, DecodeAction,
//	            action results
//	tables.go   table descriptions and DecodeTableRow
//	abi.go      the embedded ABI (abi.json), its sha256, error messages
//
// Generated codecs are static: no reflection, no panics. They call the
// antelope runtime for every built-in, and helper functions (binAppend…,
// jsonDecode…) for arrays, fixed arrays and optionals, one set per distinct
// composite type.
package gen
