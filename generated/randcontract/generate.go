// This file is not generated: it holds the go:generate line that regenerates
// the package from the saved state API response for orng.wax (WAX, block
// 9135393). CI runs it and fails if anything changes.

package randcontract

//go:generate go run ../../cmd/abigen --abi ../../testdata/fetch-responses/dfuse/state-abi.orng.wax.json-true.json --pkg randcontract --out .
