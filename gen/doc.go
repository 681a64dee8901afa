// Package gen turns a resolved ABI (model.Model) into the files of a Go
// package: a pure function, Generate, from the model and Options to
// map[filename]contents. It writes nothing and reads nothing.
//
// The code is built with github.com/dave/jennifer, one file per concern:
//
//	doc.go      package documentation and ricardian clauses
//	types.go    typedefs, structs and variants, with their codecs, and
//	            NewValue (every struct and variant by ABI type name)
//	actions.go  action names, Contract and its builders, DecodeAction,
//	            action results
//	tables.go   table descriptions and DecodeTableRow
//	abi.go      the embedded ABI (abi.json), its sha256, error messages
//
// Generated codecs are static: no reflection, no panics. They call the
// antelope runtime for every built-in, and helper functions (binAppend…,
// jsonDecode…) for arrays, fixed arrays and optionals, one set per distinct
// composite type. Only the structs and variants that can contain themselves
// guard their decoding depth (recursion.go); every other type nests only as
// deep as its ABI spells it.
//
// Limits: a struct may have at most MaxStructFields fields (the Go compiler
// is quadratic in a function's length). Formatting (format.go) runs
// go/format once per file and imports.Process on the import block only:
// the output is byte-identical to imports.Process on the whole file, at
// half the cost.
//
// Adding a golden case that compiles means adding its package to
// internal/goldenpkgs, which the decoder tests, fuzz targets and the
// differential oracle run through; TestGoldenPackagesListed says so.
package gen
