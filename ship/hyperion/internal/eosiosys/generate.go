// This file is not generated: it holds the go:generate line that makes the
// package, bindings of the eosio system contract's actions that Hyperion
// rewrites (buyram, buyrambytes, delegatebw, undelegatebw, updateauth,
// newaccount), cut from testdata/abis/eosio.system.abi.json, for the
// tests of package hyperion.

package eosiosys

//go:generate go run ../../../../cmd/abigen --abi eosio.abi.json --account eosio --pkg eosiosys --out .
