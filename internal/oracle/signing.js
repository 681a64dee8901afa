// The signing oracle: K1 keys, signatures and transactions made by
// @wharfkit/antelope and checked against eosjs, for antelope's keys and
// transactions (TestSigningVectors, TestTransactionVectors).
//
//   node signing.js <out-dir> <case-dir>...
//
// writes <out-dir>/signing.json.gz (random keys and digests: key text forms,
// the signature, the recovered key) and <out-dir>/transactions.json.gz
// (random transactions whose actions are random payloads of the golden
// ABIs' actions: packed bytes, id, signing digest with and without
// context-free data, a signature, and the zlib-packed form). Deterministic:
// the same seed and ABIs give the same files.
'use strict'

const fs = require('fs')
const path = require('path')
const zlib = require('zlib')
const {PrivateKey, Checksum256, Checksum160, Transaction, SignedTransaction, PackedTransaction, Serializer, ABI, KeyType, Bytes,
    UInt64, UInt128, Name, Float64} = require('@wharfkit/antelope')
const eosjs = require('eosjs/dist/eosjs-jssig')
const {Resolver, rng, hashString, readABI, wharfEncode, SEED} = require('./oracle.js')

const SIGNATURES = 2000
const TRANSACTIONS = 600
const CURVE_N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141')

// randomSecret returns 32 random bytes that are a valid K1 secret.
function randomSecret(r) {
    for (;;) {
        const b = r.bytes(32)
        const n = BigInt('0x' + b.toString('hex'))
        if (n > 0n && n < CURVE_N) return b
    }
}

// edgeDigests are digests at the edges of the scalar range: zero, all ones
// (≥ n, reduced before signing), n itself and n−1.
const EDGE_DIGESTS = [
    '00'.repeat(32), 'ff'.repeat(32),
    'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141',
    'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140',
]
const EDGE_SECRETS = [
    '0000000000000000000000000000000000000000000000000000000000000001',
    'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140',
]

function signatureVectors() {
    const r = rng(SEED ^ hashString('signing'))
    const out = []
    for (let i = 0; i < SIGNATURES; i++) {
        const secret = i < EDGE_SECRETS.length ? Buffer.from(EDGE_SECRETS[i], 'hex') : randomSecret(r)
        const digest = i < EDGE_DIGESTS.length ? EDGE_DIGESTS[i] : r.bytes(32).toString('hex')
        const key = new PrivateKey(KeyType.K1, Bytes.from(secret))
        const pub = key.toPublic()
        const sig = key.signDigest(Checksum256.from(digest))
        const recovered = sig.recoverDigest(Checksum256.from(digest))
        // eosjs must agree on every text form and on the signature.
        const ek = eosjs.PrivateKey.fromString(key.toWif())
        const esig = ek.sign(Buffer.from(digest, 'hex'), false).toString()
        if (esig !== String(sig)) throw new Error(`eosjs signs ${digest} as ${esig}, wharfkit as ${sig}`)
        if (ek.getPublicKey().toLegacyString() !== pub.toLegacyString()) throw new Error('eosjs derives another public key')
        if (!sig.verifyDigest(Checksum256.from(digest), pub)) throw new Error('wharfkit does not verify its own signature')
        out.push({
            private_key: String(key), wif: key.toWif(), digest,
            public_key: String(pub), public_key_legacy: pub.toLegacyString(),
            signature: String(sig), recovered: recovered.toLegacyString(),
        })
    }
    return out
}

// actionPool lists, per golden ABI, the actions whose payload the oracles
// can encode.
function actionPool(caseDirs) {
    const pool = []
    for (const dir of caseDirs) {
        const abiJSON = readABI(path.join(dir, 'abi.json'))
        const resolver = new Resolver(abiJSON)
        const actions = (abiJSON.actions || []).filter((a) => !resolver.unsupported(a.type))
        if (actions.length) pool.push({name: path.basename(dir), abi: ABI.from(abiJSON), resolver, actions})
    }
    return pool
}

function randomAction(r, ctx, pool) {
    const c = r.pick(pool)
    const a = r.pick(c.actions)
    const value = c.resolver.value(ctx, a.type, 'random', 0, true)
    const data = wharfEncode(c.abi, a.type, value)
    const nAuth = r.pick([0, 1, 1, 2])
    const authorization = []
    for (let i = 0; i < nAuth; i++) authorization.push({actor: randomAccount(r), permission: r.pick(['active', 'owner', 'custom.perm'])})
    return {account: randomAccount(r), name: a.name, authorization, data, abi: c.name}
}

function randomAccount(r) {
    const chars = 'abcdefghijklmnopqrstuvwxyz12345.'
    const n = 1 + r.int(12)
    let s = ''
    for (let i = 0; i < n; i++) s += chars[r.int(i === n - 1 ? chars.length - 1 : chars.length)]
    return s
}

function transactionVectors(caseDirs) {
    const pool = actionPool(caseDirs)
    const r = rng(SEED ^ hashString('transactions'))
    const ctx = {r, longUsed: true, mediumUsed: true} // no megabyte strings in transactions
    const chainId = '1064487b3cd1a897ce03ae5b6a865651747e2e152090f99c1d19d44e01aea5a4'
    const out = []
    for (let i = 0; i < TRANSACTIONS; i++) {
        const withCFD = i % 3 === 0
        const nActions = 1 + r.int(3)
        const actions = []
        const abis = []
        for (let j = 0; j < nActions; j++) {
            const {abi, ...a} = randomAction(r, ctx, pool)
            actions.push(a)
            abis.push(abi)
        }
        const cfa = []
        const cfd = []
        if (withCFD) {
            const {abi, ...a} = randomAction(r, ctx, pool)
            cfa.push({...a, authorization: []})
            abis.push(abi)
            for (let j = 0, n = 1 + r.int(3); j < n; j++) cfd.push(r.bytes(r.int(40)).toString('hex'))
        }
        const fields = {
            expiration: new Date((1500000000 + r.int(2000000000)) * 1000).toISOString().slice(0, 19),
            ref_block_num: r.int(65536),
            ref_block_prefix: r.int(4294967296),
            max_net_usage_words: r.pick([0, 0, 1, 127, 128, 16384, 4294967295]),
            max_cpu_usage_ms: r.pick([0, 0, 1, 255]),
            delay_sec: r.pick([0, 0, 1, 300]),
            context_free_actions: cfa,
            actions,
            transaction_extensions: r.int(10) === 0 ? [{type: r.int(65536), data: r.bytes(r.int(8)).toString('hex')}] : [],
        }
        const tx = Transaction.from(fields)
        const packed = Serializer.encode({object: tx}).hexString
        const key = new PrivateKey(KeyType.K1, Bytes.from(randomSecret(r)))
        // Digest: eosjs covers context-free data (wharfkit's signingDigest
        // leaves it out); without it both must agree.
        const serializedCFD = cfd.length ? Buffer.from(Serializer.encode({object: cfd, type: 'bytes[]'}).array) : null
        const digest = Buffer.from(eosjs.digestFromSerializedData(chainId, Buffer.from(packed, 'hex'), serializedCFD)).toString('hex')
        if (!cfd.length && digest !== String(tx.signingDigest(chainId))) throw new Error('eosjs and wharfkit digests differ')
        const signature = String(key.signDigest(Checksum256.from(digest)))
        const signed = SignedTransaction.from({...fields, signatures: [signature], context_free_data: cfd})
        const zlibPacked = PackedTransaction.fromSigned(signed, 1)
        const back = zlibPacked.getTransaction()
        if (String(back.id) !== String(tx.id)) throw new Error('wharfkit zlib round trip changed the id')
        out.push({
            abis, chain_id: chainId, json: fields, packed, id: String(tx.id), signing_digest: digest,
            context_free_data: cfd, private_key: String(key), signature,
            zlib: Serializer.objectify(zlibPacked),
        })
    }
    return out
}

// boundVectors: how @wharfkit/antelope's get_table_rows sends a typed bound
// (key_type and lower_bound text) and reads next_key back, for random keys
// of every type it knows. The Go side checks that nodeos reads its own
// bound for the same key as the same key, and that it reads next_key as
// wharfkit does.
const BOUNDS_PER_TYPE = 200

function boundVectors() {
    const r = rng(SEED ^ hashString('bounds'))
    const out = []
    const u64 = () => BigInt('0x' + r.bytes(8).toString('hex'))
    const edges64 = [0n, 1n, 9007199254740993n, 18446744073709551615n]
    for (let i = 0; i < BOUNDS_PER_TYPE; i++) {
        const v = i < edges64.length ? edges64[i] : u64()
        const key = UInt64.from(v.toString())
        out.push({type: 'i64', value: key.toString(), wharfkit_key_type: 'i64', wharfkit_bound: String(key),
            next_key: v.toString(), wharfkit_next: String(Serializer.decode({object: v.toString(), type: UInt64}))})
    }
    for (let i = 0; i < BOUNDS_PER_TYPE; i++) {
        const n = Name.from(UInt64.from((i === 0 ? 0n : u64()).toString()))
        // nodeos prints a name key's next_key as its uint64 value.
        const raw = n.value.toString()
        out.push({type: 'name', value: raw, wharfkit_key_type: 'name', wharfkit_bound: String(n),
            next_key: raw, wharfkit_next: String(Name.from(Serializer.decode({object: raw, type: UInt64})))})
    }
    for (let i = 0; i < BOUNDS_PER_TYPE; i++) {
        const v = i === 0 ? 0n : i === 1 ? (1n << 128n) - 1n : (u64() << 64n) | u64()
        const key = UInt128.from(v.toString())
        out.push({type: 'i128', value: v.toString(), wharfkit_key_type: 'i128', wharfkit_bound: String(key),
            next_key: v.toString(), wharfkit_next: String(Serializer.decode({object: v.toString(), type: UInt128}))})
    }
    const floats = [0, -0, 0.1, -1.5, 1e21, 1e-7, 5e-324, -1.7976931348623157e308, 123456789.125]
    for (let i = 0; i < BOUNDS_PER_TYPE; i++) {
        const f = i < floats.length ? floats[i] : r.bytes(8).readDoubleLE(0)
        if (!Number.isFinite(f)) continue
        const key = Float64.from(f)
        const nk = f.toPrecision(17) // nodeos prints 17 significant digits
        out.push({type: 'float64', value: Buffer.from(new Float64Array([f]).buffer).toString('hex'), wharfkit_key_type: 'float64',
            wharfkit_bound: String(key), next_key: nk, wharfkit_next: Serializer.encode({object: Float64.from(Number(nk))}).hexString})
    }
    for (let i = 0; i < BOUNDS_PER_TYPE; i++) {
        const c = Checksum256.from(r.bytes(32))
        out.push({type: 'sha256', value: c.hexString, wharfkit_key_type: 'sha256', wharfkit_bound: String(c),
            next_key: c.hexString, wharfkit_next: String(Checksum256.from(c.hexString))})
    }
    for (let i = 0; i < BOUNDS_PER_TYPE; i++) {
        const c = Checksum160.from(r.bytes(20))
        out.push({type: 'ripemd160', value: c.hexString, wharfkit_key_type: 'ripemd160', wharfkit_bound: String(c),
            next_key: c.hexString, wharfkit_next: String(Checksum160.from(c.hexString))})
    }
    return out
}

function write(outDir, name, value) {
    const text = JSON.stringify(value, null, 1) + '\n'
    fs.writeFileSync(path.join(outDir, name), zlib.gzipSync(Buffer.from(text), {level: 9}))
}

module.exports = {actionPool, randomAccount, randomSecret}

if (require.main === module) {
    const [outDir, ...cases] = process.argv.slice(2)
    if (!outDir) {
        console.error('usage: node signing.js <out-dir> <case-dir>...')
        process.exit(2)
    }
    fs.mkdirSync(outDir, {recursive: true})
    const sigs = signatureVectors()
    write(outDir, 'signing.json.gz', {seed: SEED, signatures: sigs})
    const txs = transactionVectors(cases)
    write(outDir, 'transactions.json.gz', {seed: SEED, transactions: txs})
    const bounds = boundVectors()
    write(outDir, 'bounds.json.gz', {seed: SEED, bounds})
    console.log(`signing oracle: ${bounds.length} table bounds, ${sigs.length} signatures and ${txs.length} transactions (${txs.filter((t) => t.context_free_data.length).length} with context-free data), wharfkit and eosjs agree`)
}
