// Package wasm runs Antelope contract WebAssembly for chaintest with
// wazero (pure Go, no cgo), with nodeos's intrinsics.
//
// An Engine compiles each contract once per code hash for its whole life
// and runs every action in a fresh-looking instance, as nodeos does: memory
// at its initial size, zero but for the data segments, globals at their
// initial values. Like nodeos it resets rather than allocates: an instance
// is reused once reset, unless its run grew its memory, passed its
// deadline or the module cannot be reset exactly (reuse.go). Every nodeos intrinsic is bound by name and signature, so any
// contract links; the few chaintest does not implement trap with an error
// naming them when called, never a silent zero. The intrinsics that need
// the chain (authorization, tables, inline actions, privileged calls) go
// through the Host interface, which chaintest implements with nodeos's
// semantics; the pure ones (memory, hashing, key recovery, the compiler's
// 128-bit integer and binary128 float builtins, console formatting) live
// here.
//
// Failures are nodeos's exceptions: an *Exception with nodeos's name, code
// and message ("assertion failure with message: overdrawn balance",
// "access violation", "memcpy can only accept non-aliasing pointers"), or
// the error a Host method returned, unchanged. A run past its deadline ends
// with an *Exception of tx_cpu_usage_exceeded.
package wasm
