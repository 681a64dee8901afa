// The signing-request oracle: random EOSIO signing requests (ESR, EEP-7)
// made, encoded and resolved by @wharfkit/signing-request, for antelope's
// ESR (TestESRVectors), and the check of antelope's own requests the other
// way round.
//
//   node esr.js gen <out-dir> <case-dir>...   write <out-dir>/esr.json.gz
//   node esr.js check <go-esr.json>           wharfkit must decode, re-encode
//                                             and resolve every request the
//                                             Go side made to the same bytes
//
// Each generated vector holds the arguments given to SigningRequest.create,
// the uncompressed and compressed URIs, and the request resolved for a
// random signer (packed transaction, id, signing digest), its callback and,
// for a version 3 identity request, the identity proof. Actions are random
// payloads of the golden ABIs' actions, some of their name values replaced
// by the signer placeholders. Deterministic: the same seed and ABIs give the
// same file.
'use strict'

const fs = require('fs')
const path = require('path')
const zlib = require('zlib')
const {ABI, Bytes, Name, PrivateKey, KeyType, Serializer} = require('@wharfkit/antelope')
const {SigningRequest, PlaceholderName, PlaceholderPermission} = require('@wharfkit/signing-request')
const {rng, hashString, readABI, wharfEncode, SEED} = require('./oracle.js')
const {actionPool, randomAccount, randomSecret} = require('./signing.js')

const REQUESTS = 600

const zlibProvider = {
    deflateRaw: (data) => new Uint8Array(zlib.deflateRawSync(Buffer.from(data))),
    inflateRaw: (data) => new Uint8Array(zlib.inflateRawSync(Buffer.from(data), {maxOutputLength: 1 << 20})),
}

const KNOWN_CHAINS = [
    'aca376f206b8fc25a6ed44dbdc66547c36c6c33e3a119ffbeaef943642f0e906', // EOS
    '1064487b3cd1a897ce03ae5b6a865651747e2e152090f99c1d19d44e01aea5a4', // WAX
    'e70aaab8997e1dfce58fbfac80cbbb8fecec7b99cf982a9444273cbc64c41473', // Jungle 4
    '4667b205c6838ef70ff7988f6e8257e8be0e1284a2f59699054a018f743b1d11', // Telos
    '21dcae42c0182200e93f954a074011f9048a7624c6fe81d3c9541a614a88bd1c', // FIO
]
function randomKey(r) {
    return new PrivateKey(KeyType.K1, Bytes.from(randomSecret(r)))
}

const randomName = randomAccount

// withPlaceholders replaces some of the name values in a decoded value by
// the signer placeholders.
function withPlaceholders(r, value) {
    if (value instanceof Name) {
        const x = r.int(4)
        return x === 0 ? PlaceholderName : x === 1 ? PlaceholderPermission : value
    }
    if (Array.isArray(value)) return value.map((v) => withPlaceholders(r, v))
    if (value && typeof value === 'object' && value.constructor && value.constructor.structFields) {
        for (const f of value.constructor.structFields) value[f.name] = withPlaceholders(r, value[f.name])
    }
    return value
}

function randomAuth(r) {
    const auth = []
    for (let i = 0, n = r.pick([0, 1, 1, 2]); i < n; i++) {
        const x = r.int(5)
        auth.push(x === 0 ? {actor: PlaceholderName, permission: PlaceholderPermission}
            : x === 1 ? {actor: PlaceholderName, permission: PlaceholderName}
                : x === 2 ? {actor: randomName(r), permission: PlaceholderPermission}
                    : {actor: randomName(r), permission: r.pick(['active', 'owner', 'custom.perm'])})
    }
    return auth
}

// randomAction: a random payload of a golden action; some of its names are
// placeholders. used maps account names to the golden case they stand for
// in this request, so that each account has one ABI.
function randomAction(r, ctx, pool, used) {
    const c = r.pick(pool)
    const a = r.pick(c.actions)
    let hex = wharfEncode(c.abi, a.type, c.resolver.value(ctx, a.type, 'random', 0, true))
    if (r.int(2) === 0) {
        try {
            const decoded = Serializer.decode({data: Bytes.from(hex, 'hex'), abi: c.abi, type: a.type})
            hex = Serializer.encode({object: withPlaceholders(r, decoded), abi: c.abi, type: a.type}).hexString
        } catch (e) {
            // a type wharfkit cannot decode into objects: keep the payload
        }
    }
    let account
    do account = randomName(r); while (used.has(account) && used.get(account) !== c.name)
    used.set(account, c.name)
    return {account, name: a.name, authorization: randomAuth(r), data: hex}
}

function randomInfo(r) {
    const info = {}
    for (let i = 0, n = r.pick([0, 0, 1, 2]); i < n; i++) {
        const key = r.pick(['memo', 'return_path', 'x', 'ünïcode', 'empty', 'req_id']) + (i ? String(i) : '')
        info[key] = r.int(2) === 0 ? r.pick(['', 'hello', 'ünïcode ✓', 'a'.repeat(70)]) : Bytes.from(r.bytes(r.int(12)))
    }
    return info
}

function hexInfo(info) {
    const out = []
    for (const k of Object.keys(info)) {
        const v = info[k]
        out.push({key: k, value: typeof v === 'string' ? Buffer.from(v, 'utf8').toString('hex') : v.hexString, string: typeof v === 'string'})
    }
    return out
}

function randomTimestamp(r) {
    return new Date((1600000000 + r.int(500000000)) * 1000 + r.pick([0, 500, 499, 501, 999])).toISOString().slice(0, -1)
}

function randomRequest(r, ctx, pool, i) {
    const used = new Map()
    const args = {}
    const desc = {}
    // the chain: an alias, an id of no alias, or any chain (multi-chain)
    const chain = r.int(8)
    if (chain === 0) {
        args.chainId = null
        desc.chain = null
        if (r.int(2) === 0) {
            desc.chain_ids = KNOWN_CHAINS.filter(() => r.int(2) === 0)
            if (r.int(3) === 0) desc.chain_ids.push(r.bytes(32).toString('hex'))
            args.chainIds = desc.chain_ids
        }
    } else if (chain === 1) {
        desc.chain = r.bytes(32).toString('hex')
        args.chainId = desc.chain
    } else {
        desc.chain = r.pick(KNOWN_CHAINS)
        args.chainId = desc.chain
    }
    const kind = i < 8 ? i % 4 : r.pick([0, 0, 1, 1, 2, 2, 3])
    if (kind === 0) {
        args.action = randomAction(r, ctx, pool, used)
        desc.kind = 'action'
        desc.actions = [args.action]
    } else if (kind === 1) {
        args.actions = []
        for (let j = 0, n = r.pick([0, 2, 2, 3]); j < n; j++) args.actions.push(randomAction(r, ctx, pool, used))
        desc.kind = args.actions.length === 1 ? 'action' : 'action[]'
        desc.actions = args.actions
    } else if (kind === 2) {
        const tapos = r.int(3) === 0
        const tx = {
            max_net_usage_words: r.pick([0, 0, 1, 128]),
            max_cpu_usage_ms: r.pick([0, 0, 255]),
            delay_sec: r.pick([0, 0, 300]),
            actions: [],
        }
        if (tapos) Object.assign(tx, {expiration: randomTimestamp(r).slice(0, 19), ref_block_num: r.int(65536), ref_block_prefix: r.int(4294967296)})
        for (let j = 0, n = r.pick([0, 1, 2]); j < n; j++) tx.actions.push(randomAction(r, ctx, pool, used))
        if (r.int(5) === 0) tx.context_free_actions = [{...randomAction(r, ctx, pool, used), authorization: []}]
        if (r.int(8) === 0) tx.transaction_extensions = [{type: r.int(65536), data: r.bytes(r.int(6)).toString('hex')}]
        args.transaction = tx
        desc.kind = 'transaction'
        desc.transaction = JSON.parse(JSON.stringify(tx))
    } else {
        const id = {}
        // version 3 (a multi-chain request is one) needs a scope
        if (r.int(2) === 0 || args.chainId === null) id.scope = randomName(r)
        if (r.int(2) === 0) id.permission = {actor: randomName(r), permission: r.pick(['active', 'owner'])}
        args.identity = id
        desc.kind = 'identity'
        desc.identity = id
    }
    if (kind !== 3) {
        const b = r.int(3)
        if (b < 2) args.broadcast = b === 0
    } else {
        args.broadcast = false
    }
    const cb = r.int(4)
    const templates = ['https://example.com/cb', 'https://example.com/cb?tx={{tx}}&sig={{sig}}', 'myapp://login={{cid}}&sa={{sa}}&sp={{sp}}',
        'https://x.io/{{sig0}}/{{bn}}/{{rbn}}/{{rid}}/{{ex}}/{{nope}}']
    if (cb === 1) args.callback = r.pick(templates)
    else if (cb >= 2) args.callback = {url: r.pick(templates), background: r.int(2) === 0}
    args.info = randomInfo(r)
    desc.broadcast = args.broadcast === undefined ? null : args.broadcast
    desc.callback = args.callback === undefined ? null : args.callback
    desc.info = hexInfo(args.info)
    const options = {zlib: zlibProvider}
    if (r.int(6) === 0) {
        const key = randomKey(r)
        const signer = randomName(r)
        options.signatureProvider = {sign: (digest) => ({signer, signature: key.signDigest(digest)})}
        desc.request_key = String(key)
        desc.request_signer = signer
    }
    desc.abis = Object.fromEntries(used)
    return {req: SigningRequest.createSync(args, options), desc, used, pool}
}

function resolveVector(r, req, used, pool) {
    const abis = new Map()
    for (const [account, name] of used) abis.set(account, pool.find((c) => c.name === name).abi)
    const signer = {actor: randomName(r), permission: r.pick(['active', 'owner', 'custom'])}
    const ctx = {}
    const out = {signer}
    if (r.int(2) === 0) {
        ctx.expiration = randomTimestamp(r).slice(0, 19)
        ctx.ref_block_num = r.int(65536)
        ctx.ref_block_prefix = r.int(4294967296)
        out.context = {...ctx}
    } else {
        const id = r.bytes(32)
        ctx.block_num = id.readUInt32BE(0)
        ctx.ref_block_prefix = id.readUInt32LE(8)
        ctx.timestamp = randomTimestamp(r)
        ctx.expire_seconds = r.pick([60, 3600, 30])
        out.context = {block_id: id.toString('hex'), timestamp: ctx.timestamp, expire_seconds: ctx.expire_seconds}
    }
    if (req.isMultiChain()) {
        const ids = req.getChainIds()
        ctx.chainId = ids && ids.length ? String(r.pick(ids)) : r.pick(KNOWN_CHAINS)
        out.context.chain_id = ctx.chainId
    }
    let resolved
    try {
        resolved = req.resolve(abis, signer, ctx)
    } catch (e) {
        return {...out, error: e.message}
    }
    const digest = resolved.signingDigest
    const sigs = []
    for (let i = 0, n = 1 + r.int(3); i < n; i++) sigs.push(String(randomKey(r).signDigest(digest)))
    const blockNum = r.int(2) === 0 ? 1 + r.int(100000000) : undefined
    const cb = resolved.getCallback(sigs, blockNum)
    out.packed = Buffer.from(resolved.serializedTransaction).toString('hex')
    out.id = String(resolved.transaction.id)
    out.signing_digest = String(digest)
    out.chain_id = String(resolved.chainId)
    out.signatures = sigs
    out.block_num = blockNum || 0
    out.callback = cb
    if (req.isIdentity() && req.version >= 3) out.identity_proof = String(resolved.getIdentityProof(sigs[0]))
    return out
}

function generate(caseDirs) {
    const pool = actionPool(caseDirs)
    const r = rng(SEED ^ hashString('esr'))
    const ctx = {r, longUsed: true, mediumUsed: true}
    const out = []
    for (let i = 0; i < REQUESTS; i++) {
        const {req, desc, used} = randomRequest(r, ctx, pool, i)
        const plain = req.encode(false, r.int(2) === 0)
        const compressed = req.encode(true)
        // wharfkit must read both forms back to the same request
        for (const uri of [plain, compressed]) {
            const back = SigningRequest.from(uri, {zlib: zlibProvider})
            if (back.encode(false, false) !== req.encode(false, false)) throw new Error(`wharfkit does not round-trip ${uri}`)
        }
        out.push({...desc, version: req.version, uri: plain, compressed, resolved: resolveVector(r, req, used, pool)})
    }
    return out
}

// check reads the requests the Go side made (TestESRVectors with
// ORACLE_GO_ESR set) and fails unless wharfkit decodes each to the fields
// Go meant, re-encodes it to the same bytes, and resolves it to the same
// transaction.
function check(file, caseRoot) {
    const list = JSON.parse(fs.readFileSync(file, 'utf8'))
    const abiCache = new Map()
    let failures = 0
    const fail = (i, msg) => {
        if (failures++ < 20) console.error(`go request ${i}: ${msg}`)
    }
    for (const [i, v] of list.entries()) {
        let req
        try {
            req = SigningRequest.from(v.uri, {zlib: zlibProvider})
        } catch (e) {
            fail(i, `wharfkit cannot decode ${v.uri}: ${e.message}`)
            continue
        }
        const again = req.encode(false, false)
        const plainPayload = (s) => Buffer.from(SigningRequest.from(s, {zlib: zlibProvider}).encode(false, false).slice(4), 'base64url')
        if (again.slice(4) !== v.uri.replace(/^esr:(\/\/)?/, '')) fail(i, `re-encodes as ${again}, Go wrote ${v.uri}`)
        // Go's compressed form (Go's deflate) inflates to the same request.
        try {
            if (!plainPayload(v.compressed).equals(plainPayload(v.uri))) fail(i, `compressed ${v.compressed} inflates to another request`)
        } catch (e) {
            fail(i, `wharfkit cannot inflate Go's ${v.compressed}: ${e.message}`)
        }
        if (req.version !== v.version) fail(i, `version ${req.version}, want ${v.version}`)
        if (req.data.req.variantName !== v.kind) fail(i, `kind ${req.data.req.variantName}, want ${v.kind}`)
        if (Number(req.data.flags) !== v.flags) fail(i, `flags ${req.data.flags}, want ${v.flags}`)
        if (req.data.callback !== v.callback) fail(i, `callback ${req.data.callback}, want ${v.callback}`)
        if (!req.isMultiChain() && String(req.getChainId()) !== v.chain_id) fail(i, `chain ${req.getChainId()}, want ${v.chain_id}`)
        if (v.request_signer && (!req.signature || String(req.signature.signer) !== v.request_signer)) fail(i, 'request signature lost')
        if (v.resolved) {
            const abis = new Map()
            for (const a of req.getRequiredAbis()) {
                const file = path.join(caseRoot, v.abis[String(a)], 'abi.json')
                if (!abiCache.has(file)) abiCache.set(file, ABI.from(readABI(file)))
                abis.set(String(a), abiCache.get(file))
            }
            try {
                const res = req.resolve(abis, v.resolved.signer, v.resolved.context)
                const packed = Buffer.from(res.serializedTransaction).toString('hex')
                if (packed !== v.resolved.packed) fail(i, `resolves to\n ${packed}\nGo: ${v.resolved.packed}`)
                if (String(res.signingDigest) !== v.resolved.signing_digest) fail(i, 'signing digest differs')
            } catch (e) {
                fail(i, `wharfkit cannot resolve: ${e.message}`)
            }
        }
    }
    if (failures) {
        console.error(`esr check: ${failures} failures in ${list.length} Go requests`)
        process.exit(1)
    }
    console.log(`esr check: wharfkit decodes, re-encodes and resolves all ${list.length} of the Go side's signing requests identically`)
}

function write(outDir, name, value) {
    const text = JSON.stringify(value, null, 1) + '\n'
    fs.writeFileSync(path.join(outDir, name), zlib.gzipSync(Buffer.from(text), {level: 9}))
}

const [cmd, ...args] = process.argv.slice(2)
if (cmd === 'gen') {
    const [outDir, ...cases] = args
    fs.mkdirSync(outDir, {recursive: true})
    const vectors = generate(cases)
    write(outDir, 'esr.json.gz', {seed: SEED, requests: vectors})
    const resolved = vectors.filter((v) => v.resolved.packed).length
    console.log(`esr oracle: ${vectors.length} signing requests (${resolved} resolved) made by @wharfkit/signing-request`)
} else if (cmd === 'check') {
    check(args[0], args[1])
} else {
    console.error('usage: node esr.js gen <out-dir> <case-dir>... | node esr.js check <go-esr.json> <golden-dir>')
    process.exit(2)
}
