// Command chaintest serves an in-process Antelope chain (package
// chain/chaintest) on local ports, fresh or forked from a live chain at a
// block, so that cleos, wharfkit or a program in any language can test
// against it: the nodeos chain API, the state service and state history
// (SHiP) at one address, the state service's token service at another.
//
//	chaintest --account alice --account bob --keys-file keys.txt
//	chaintest --fork-url https://node --state-url https://state --auth-url https://auth \
//	    --block 400000000 --cache testdata/fork --account alice --keys-file keys.txt
//
// Each --account gets a new key for its owner and active permissions — a
// new account, or on a fork the live chain's account with its permissions
// replaced, so that the test can act as it. The private keys are written to
// --keys-file (mode 0600), never printed; the addresses, the chain id, the
// fork and head blocks and the public keys are.
// The state service's API key is read from the environment variable named
// by --api-key-env. Ctrl-C (SIGINT) or SIGTERM stops it cleanly.
package main
