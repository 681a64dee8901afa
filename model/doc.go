// Package model is the ABI as data: it loads an Antelope contract ABI from any
// form users have (ABI JSON 1.0–1.3, a saved state API or nodeos response, a
// packed ABI in hex or binary), validates it, and resolves typedefs, bases,
// variants and the type suffixes []/?/$/[N] into a graph of *Type that gen
// walks.
//
// Validation is strict where nodeos and abieos disagree: everything either
// implementation rejects is rejected, with an error that names the element
// and the offending value, e.g.
//
//	structs[3] "jobs_a" field "assoc_id": unknown type "uint46"
//
// Nested suffixes written directly (int8[][], int8[]?, int8?[]) are accepted,
// as abieos and nodeos-through-typedefs accept them.
//
// MinSize gives the smallest binary encoding of a type (each struct's is
// computed once, at resolution), the bound generated decoders and abicodec
// check an array's claimed length against; the built-in types and their
// sizes are one table, BuiltinTypes.
//
// Model.RewriteNames walks an action's packed data by the ABI's types and
// rewrites its name values in place; Contracts (account → Model) is the
// antelope.ActionNameRewriter that resolving a signing request needs.
package model
