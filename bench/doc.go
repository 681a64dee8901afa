// Package bench measures the generated codecs side by side with what a user
// would otherwise write or use: hand-written code on the same runtime, and
// github.com/eoscanada/eos-go, which encodes by reflection. It is a separate
// module so that eos-go and its dependencies never enter the main module.
//
// Run bench/run.sh: it runs every benchmark six times and prints a table of
// medians and ratios (see docs/performance.md).
//
// Benchmark names are Benchmark<Case>/<implementation>; the implementations
// are generated, hand (hand-written on the antelope runtime), eosgo and
// encodingjson (the standard library into an equivalent plain struct).
// BenchmarkChaintestTransfer compares chaintest's Go TokenContract with the
// real eosio.token.wasm (go, wasm), and BenchmarkWasmCompile times compiling
// each real contract (compiler, interpreter). BenchmarkMirror puts dense
// token blocks through ship/mirror into SQLite (and PostgreSQL when
// ABIGEN_TEST_POSTGRES names one) against the stream alone, and
// BenchmarkMirrorBackfill backfills them with 1, 2 and 4 readers: blocks/s
// and rows/s.
package bench
