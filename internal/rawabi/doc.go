// Package rawabi decodes the "abi" of nodeos's get_raw_abi answer: the
// packed ABI in base64, which older nodes pad wrongly (EOSIO/eos#8161),
// checked against the answer's "abi_hash". The nodeos client
// (chain.Client.GetRawABI) and model.Load (a saved answer) share it, so the
// quirk is handled in one place.
package rawabi
