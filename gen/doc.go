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
// The generator's own files: gen.go (Options, the generator's state,
// Generate's pipeline), naming.go (GoName, the scopes that hand out
// identifiers, assignNames), comments.go (comment-safe ABI text, doc
// comments, ricardian summaries), types.go (typedefs, a struct's
// declaration and binary codec), structjson.go (a struct's JSON codec),
// variants.go, codec.go (the per-type encode and decode expressions),
// helpers.go (arrays, fixed arrays, optionals), typemap.go (built-ins),
// newvalue.go, recursion.go, actions.go, tables.go, format.go.
//
// Limits: a struct may have at most MaxStructFields fields (the Go compiler
// is quadratic in a function's length). Formatting (format.go) is most of
// generation's time — the same go/parser and go/printer work gofmt does —
// so it runs on every core: types.go is cut at marked declarations into
// pieces of about 64 KB, formatted side by side with the other files, and
// joined; go/format runs once per piece and imports.Process on the import
// block only. The output is byte-identical to imports.Process on the whole
// file (TestFormatPieces, the goldens).
//
// Adding a golden case that compiles means adding its package to
// internal/goldenpkgs, which the decoder tests, fuzz targets and the
// differential oracle run through; TestGoldenPackagesListed says so.
package gen
