// This file is not generated: it holds the go:generate line that regenerates
// the package from the eosio.token ABI next to it (the reference token
// contract, as deployed at eosio.token on EOS, WAX, Telos and Jungle). CI
// runs it and fails if anything changes. chain/chaintest's token contract
// and examples/tokenwatch are written on it.

package eosiotoken

//go:generate go run ../../cmd/abigen --abi eosio.token.abi.json --account eosio.token --pkg eosiotoken --out .
