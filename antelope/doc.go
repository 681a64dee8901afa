// Package antelope is the runtime under every package abigen generates: the
// Antelope (EOSIO) built-in ABI types, a binary encoder and decoder that are
// byte-exact with nodeos and abieos, a JSON reader and writer, and Action.
//
// # Binary
//
// Encoding is append-style: AppendX(b, v) and the AppendBinary methods add the
// encoding of a value to b and return the extended slice, so a caller that
// reuses a buffer encodes with no allocation. Decoding goes through a Decoder,
// which checks every read against the remaining input: a length prefix that
// claims more than the input holds is an error before anything is allocated,
// a varuint32 longer than five bytes is an error, and nesting is limited to
// MaxDepth structs and variants. Decoding never panics on any input. Errors
// say what was being read and at which byte offset.
//
// Non-canonical encodings are rejected rather than normalised, so that a
// decoded value always re-encodes to the bytes it came from: a bool or an
// optional flag other than 0 or 1, an over-long varuint32, unused high bits in
// a bitset, an asset amount outside ±(2^62−1), an invalid symbol.
//
// # JSON
//
// Output is what the nodeos chain API prints (64-bit integers as numbers up
// to 2^32−1 and as strings above, floats as quoted strings with 17 fixed
// decimals, or the shortest exact decimal where those would lose bits,
// lowercase hex, time_point_sec without a fraction, K1 public keys
// in the legacy EOS… form), with one deliberate exception: bool is true/false,
// not nodeos's 1/0, because abieos rejects 1 and @wharfkit/antelope reads it
// as false. Input accepts the nodeos, abieos and wharfkit forms of every type.
// Out-of-range values, invalid names, bad key checksums and invalid assets are
// errors, never silently truncated. docs/runtime.md has the full dialect table.
//
// # Keys, signatures and transactions
//
// Transaction, SignedTransaction and PackedTransaction are the chain's
// transaction types with their ids and signing digests; PrivateKey signs K1
// digests byte for byte as @wharfkit/antelope and eosjs do (deterministic
// nonces, the canonical retry loop), Signature.RecoverPublicKey recovers as
// nodeos does, and Signer is the interface through which a key, a KMS, an
// HSM or a wallet signs. A PrivateKey never prints its secret. The curve
// arithmetic is github.com/decred/dcrd/dcrec/secp256k1/v4.
//
// # Signing requests
//
// ESR is an EOSIO signing request (EEP-7, esr: URIs), versions 2 and 3,
// byte for byte as @wharfkit/signing-request encodes it: NewESR,
// NewESRTransaction and NewESRIdentity build one, URI and ParseESR convert
// it, Resolve turns it into the transaction a wallet signs (the signer
// placeholders replaced, TAPoS filled in; names inside action data through
// an ActionNameRewriter such as model.ContractsOf's, from generated packages'
// ABIJSON or any ABI bytes), and ResolvedESR gives the
// callback payload and the identity proof of a login.
//
// # Generated code
//
// Generated packages use plain Go types where Go has one (bool, sized
// integers, float32/64, string, []byte) and call the package-level
// AppendX/AppendXJSON functions and the Decoder/JSONReader methods for them;
// for every other built-in they use the named types of this package, which
// implement encoding.BinaryMarshaler, encoding.BinaryAppender,
// encoding.BinaryUnmarshaler, json.Marshaler and json.Unmarshaler.
package antelope
