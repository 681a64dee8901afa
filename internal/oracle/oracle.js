// The differential oracle: for every struct, variant, action and table type
// of an ABI it makes at least 50 values (edge values, then seeded random
// ones), encodes each with @wharfkit/antelope, checks that eosjs gives the
// same bytes, and records the hex with the JSON both libraries print back.
//
//   node oracle.js gen <out-dir> <case-dir>...   write <out-dir>/<case>.json.gz
//   node oracle.js check <go-json.json>          the Go side's MarshalJSON of
//                                                every vector must encode, in
//                                                both libraries, to its hex
//
// Run it through regen.sh, which also runs the Go half. Deterministic: the
// same ABIs and seed give the same files.
'use strict'

const fs = require('fs')
const path = require('path')
const zlib = require('zlib')
const {ABI, Serializer, Bytes} = require('@wharfkit/antelope')
const {Serialize} = require('eosjs')
const {TextEncoder, TextDecoder} = require('util')

const SEED = 20261121
const VALUES_PER_TYPE = 50
const LONG_STRING = 1 << 20 // one per ABI: "1 MiB-ish"
const MEDIUM_STRING = 20000 // needs a 3-byte length prefix, as 1 MiB does

// Builtins neither library knows, or knows wrongly: the types that use them
// are listed as skipped, and covered by hand-written vectors instead.
const UNSUPPORTED = {
    bitset: 'neither @wharfkit/antelope nor eosjs knows bitset',
    private_key: 'neither @wharfkit/antelope nor eosjs encodes private_key in an ABI',
}

// mulberry32: small, seedable, the same on every machine.
function rng(seed) {
    let a = seed >>> 0
    const next = () => {
        a = (a + 0x6d2b79f5) >>> 0
        let t = a
        t = Math.imul(t ^ (t >>> 15), t | 1)
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296
    }
    return {
        next,
        int: (n) => Math.floor(next() * n),
        pick: (list) => list[Math.floor(next() * list.length)],
        bytes: (n) => {
            const out = Buffer.alloc(n)
            for (let i = 0; i < n; i++) out[i] = Math.floor(next() * 256)
            return out
        },
    }
}

function hashString(s) {
    let h = 2166136261
    for (const c of Buffer.from(s)) h = Math.imul(h ^ c, 16777619) >>> 0
    return h
}

const NAME_CHARS = '.12345abcdefghijklmnopqrstuvwxyz'

function randomName(r, len) {
    if (len === undefined) len = 1 + r.int(12)
    let s = ''
    for (let i = 0; i < len; i++) {
        const last = i === len - 1
        // no trailing dots; the 13th character is one of .1-5a-j
        let pool = i === 12 ? NAME_CHARS.slice(1, 16) : NAME_CHARS.slice(last ? 1 : 0)
        s += r.pick(pool.split(''))
    }
    return s
}

function randomSymbolCode(r) {
    const len = 1 + r.int(7)
    let s = ''
    for (let i = 0; i < len; i++) s += String.fromCharCode(65 + r.int(26))
    return s
}

const UNICODE = ['a', 'Z', ' ', '"', '\\', '/', '\n', '\t', '\u0001', '\u001f', '\u007f', 'é', 'ß', '€', '中', '\u2028', '😀', '𝄞']

function randomString(r, len) {
    let s = ''
    while (s.length < len) s += r.pick(UNICODE)
    return s
}

// A string of about n bytes, built from a short random chunk so the vector
// files compress well.
function longString(r, n) {
    const chunk = randomString(r, 32)
    return chunk.repeat(Math.ceil(n / Buffer.byteLength(chunk))).slice(0, n)
}

const INT = {
    int8: [8, true], uint8: [8, false], int16: [16, true], uint16: [16, false],
    int32: [32, true], uint32: [32, false], int64: [64, true], uint64: [64, false],
    int128: [128, true], uint128: [128, false],
}

function intValue(r, bits, signed, mode) {
    const min = signed ? -(1n << BigInt(bits - 1)) : 0n
    const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n
    let v
    switch (mode) {
        case 'min': v = min; break
        case 'max': v = max; break
        case 'zero': v = 0n; break
        case 'minus1': v = signed ? -1n : max; break
        case 'p53': v = (1n << 53n) + 1n; break
        case 'm53': v = (1n << 53n) - 1n; break
        default: {
            const choice = r.int(4)
            if (choice === 0) v = BigInt(r.int(256)) - (signed ? 128n : 0n)
            else if (choice === 1) v = r.pick([min, max, 0n, 1n, signed ? -1n : 2n])
            else {
                let x = 0n
                for (let i = 0; i < bits; i += 16) x = (x << 16n) | BigInt(r.int(65536))
                v = min + (x % (max - min + 1n))
            }
        }
    }
    if (v > max) v = max
    if (v < min) v = min
    // 64- and 128-bit values as strings, which both libraries read exactly.
    return bits >= 64 ? v.toString() : Number(v)
}

function pad2(n) { return String(n).padStart(2, '0') }

function isoTime(ms, precision) {
    const d = new Date(ms)
    let s = `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`
    if (precision === 'ms') s += '.' + String(d.getUTCMilliseconds()).padStart(3, '0')
    return s
}

// builtinValue returns a JSON value both libraries accept for the builtin.
function builtinValue(ctx, type, mode) {
    const r = ctx.r
    if (INT[type]) return intValue(r, INT[type][0], INT[type][1], mode)
    switch (type) {
        case 'bool': return mode === 'min' || mode === 'zero' ? false : mode === 'max' ? true : r.int(2) === 1
        case 'varint32': return intValue(r, 32, true, mode)
        case 'varuint32': return intValue(r, 32, false, mode)
        case 'float32': {
            if (mode === 'real') return 'Infinity'
            const edges = [0, 1.5, -2.25, 3.4028234663852886e38, 1.1754943508222875e-38, 16777216]
            if (mode === 'min') return -3.4028234663852886e38
            if (mode === 'max') return 3.4028234663852886e38
            if (mode === 'zero') return 0
            return r.int(2) ? r.pick(edges) : Math.fround((r.next() - 0.5) * 1e6)
        }
        case 'float64': {
            if (mode === 'real') return 'NaN'
            const edges = [0, 1.5, -2.25, 1.7976931348623157e308, 5e-324, 9007199254740993, 0.1]
            if (mode === 'min') return -1.7976931348623157e308
            if (mode === 'max') return 1.7976931348623157e308
            if (mode === 'zero') return 0
            return r.int(2) ? r.pick(edges) : (r.next() - 0.5) * 1e12
        }
        case 'float128': return r.bytes(16).toString('hex')
        case 'name': {
            if (mode === 'min' || mode === 'zero' || mode === 'real') return ''
            if (mode === 'max') return 'zzzzzzzzzzzzj'
            const l = r.pick([1, 5, 12, 12, 13, 13, 8])
            return randomName(r, l)
        }
        case 'string': {
            if (mode === 'min' || mode === 'zero' || mode === 'real') return ''
            if (mode === 'long' && !ctx.longUsed) {
                ctx.longUsed = true
                return longString(r, LONG_STRING)
            }
            if (mode === 'long' && !ctx.mediumUsed) {
                ctx.mediumUsed = true // one long string per value keeps the files small
                return longString(r, MEDIUM_STRING)
            }
            if (mode === 'max') return randomString(r, 16)
            return randomString(r, r.int(24))
        }
        case 'bytes': {
            if (mode === 'min' || mode === 'zero' || mode === 'real') return ''
            if (mode === 'max') return r.bytes(200).toString('hex')
            return r.bytes(r.int(40)).toString('hex')
        }
        case 'checksum160': return r.bytes(20).toString('hex')
        case 'checksum256': return r.bytes(32).toString('hex')
        case 'checksum512': return r.bytes(64).toString('hex')
        case 'time_point': {
            // @wharfkit/antelope keeps only milliseconds; whole ms here.
            // 'real': the last whole millisecond wharfkit can encode
            // (2^53-1 microseconds; int64's end, 2262, it cannot, and eosjs
            // cannot encode the asset{} next to it in the same struct).
            if (mode === 'real') return '2255-06-05T23:47:34.740'
            const ms = mode === 'min' || mode === 'zero' ? 0 : mode === 'max' ? 4102444799999 : r.int(4102444800) * 1000 + r.int(1000)
            return isoTime(ms, 'ms')
        }
        case 'time_point_sec': {
            const s = mode === 'min' || mode === 'zero' ? 0 : mode === 'max' ? 4294967295 : r.int(4294967296)
            return isoTime(s * 1000, 's')
        }
        case 'block_timestamp_type': {
            const slot = mode === 'min' || mode === 'zero' ? 0 : mode === 'max' ? 4294967295 : r.int(4294967296)
            return isoTime(946684800000 + slot * 500, 'ms')
        }
        // The empty symbol_code alone is not made: eosjs refuses it and
        // wharfkit prints it as "\u0000" (antelope's TestSymbolValidityMatchesNodeos
        // covers it); inside a symbol and an asset both print it right.
        case 'symbol_code': return mode === 'max' ? 'ZZZZZZZ' : randomSymbolCode(r)
        case 'symbol': return mode === 'real' ? '0,' : `${symbolPrecision(r, mode)},${mode === 'max' ? 'ZZZZZZZ' : randomSymbolCode(r)}`
        case 'asset': return assetValue(r, mode)
        case 'extended_asset': return {quantity: assetValue(r, mode), contract: mode === 'real' ? '' : randomName(r)}
        case 'public_key': {
            const kind = r.int(2) // K1 or R1
            const key = Buffer.concat([Buffer.from([kind, 2 + r.int(2)]), r.bytes(32)])
            return String(Serializer.decode({data: Bytes.from(key), type: 'public_key'}))
        }
        case 'signature': {
            const kind = r.int(2)
            const sig = Buffer.concat([Buffer.from([kind, 27 + r.int(8)]), r.bytes(64)])
            return String(Serializer.decode({data: Bytes.from(sig), type: 'signature'}))
        }
    }
    throw new Error(`no value maker for builtin ${type}`)
}

function symbolPrecision(r, mode) {
    if (mode === 'min' || mode === 'zero') return 0
    if (mode === 'max') return 18
    return r.pick([0, 4, 8, 18, r.int(19)])
}

function assetValue(r, mode) {
    // asset{}, as in eosio.system's voters.reserved3: nodeos prints "0 ".
    if (mode === 'real') return '0 '
    const precision = symbolPrecision(r, mode)
    const maxAmount = (1n << 62n) - 1n
    let amount
    if (mode === 'max') amount = maxAmount
    else if (mode === 'min') amount = -maxAmount
    else if (mode === 'zero') amount = 0n
    else amount = BigInt(r.int(2) ? r.int(1000000) : Math.floor(r.next() * 2 ** 52)) * (r.int(4) === 0 ? -1n : 1n)
    const neg = amount < 0n
    let digits = (neg ? -amount : amount).toString().padStart(precision + 1, '0')
    const text = precision > 0 ? digits.slice(0, -precision) + '.' + digits.slice(-precision) : digits
    return `${neg ? '-' : ''}${text} ${mode === 'max' ? 'ZZZZZZZ' : randomSymbolCode(r)}`
}

// Resolver follows an ABI's typedefs, structs and variants.
class Resolver {
    constructor(abi) {
        this.aliases = new Map((abi.types || []).map((t) => [t.new_type_name, t.type]))
        this.structs = new Map((abi.structs || []).map((s) => [s.name, s]))
        this.variants = new Map((abi.variants || []).map((v) => [v.name, v.types]))
    }

    resolve(type) {
        for (let i = 0; i < 64 && this.aliases.has(type); i++) type = this.aliases.get(type)
        return type
    }

    // unsupported returns why a type cannot go through the oracles, or null.
    unsupported(type, seen = new Set()) {
        type = this.resolve(type)
        if (seen.has(type)) return null
        seen.add(type)
        if (type.endsWith('$')) return this.unsupported(type.slice(0, -1), seen)
        if (type.endsWith('?')) return this.unsupported(type.slice(0, -1), seen)
        if (type.endsWith('[]')) return this.unsupported(type.slice(0, -2), seen)
        const fixed = /^(.*)\[(\d+)\]$/.exec(type)
        if (fixed) return '@wharfkit/antelope decodes T[N] wrongly and eosjs does not know it'
        if (UNSUPPORTED[type]) return UNSUPPORTED[type]
        const s = this.structs.get(type)
        if (s) {
            if (s.base) {
                const why = this.unsupported(s.base, seen)
                if (why) return why
            }
            for (const f of s.fields) {
                const why = this.unsupported(f.type, seen)
                if (why) return why
            }
            return null
        }
        const v = this.variants.get(type)
        if (v) {
            for (const m of v) {
                const why = this.unsupported(m, seen)
                if (why) return why
            }
        }
        return null
    }

    // value makes one JSON value of type. mode is an edge mode for the
    // top level ('min', 'max', 'zero', 'minus1', 'p53', 'm53', 'long',
    // 'absent', 'present', 'real', 'variant:N') or 'random'.
    value(ctx, type, mode, depth, tailOK) {
        type = this.resolve(type)
        const r = ctx.r
        const deep = depth > 4
        if (type.endsWith('?')) {
            const inner = type.slice(0, -1)
            const present = deep ? false
                : mode === 'max' || mode === 'present' || mode === 'long' || mode === 'real' ? true
                : mode === 'min' || mode === 'zero' || mode === 'absent' ? false : r.int(2) === 1
            return present ? this.value(ctx, inner, this.childMode(mode), depth + 1, false) : null
        }
        if (type.endsWith('[]')) {
            const inner = type.slice(0, -2)
            let n
            if (mode === 'min' || mode === 'zero' || deep) n = 0 // deep: recursion ends
            else if (mode === 'max') n = depth < 2 ? 10 : 2
            else if (mode === 'long' || mode === 'real') n = 1
            else n = r.pick([0, 1, 1, 2, 3, depth < 2 ? 6 : 1])
            const out = []
            for (let i = 0; i < n; i++) out.push(this.value(ctx, inner, this.childMode(mode), depth + 1, false))
            return out
        }
        const s = this.structs.get(type)
        if (s) return this.structValue(ctx, s, mode, depth, tailOK)
        const v = this.variants.get(type)
        if (v) {
            let i
            const m = /^variant:(\d+)$/.exec(mode)
            if (m) i = Number(m[1]) % v.length
            else i = deep ? this.shallowestMember(v) : r.int(v.length)
            return [v[i], this.value(ctx, v[i], this.childMode(mode), depth + 1, tailOK)]
        }
        return builtinValue(ctx, type, this.childMode(mode))
    }

    childMode(mode) {
        return mode.startsWith('variant:') || mode === 'absent' || mode === 'present' ? 'random' : mode
    }

    // shallowestMember picks a variant member that ends recursion soonest:
    // a builtin if there is one.
    shallowestMember(types) {
        const i = types.findIndex((t) => !this.structs.has(this.resolve(t)) && !this.variants.has(this.resolve(t)))
        return i >= 0 ? i : 0
    }

    // structValue makes a struct's object. tailOK says whether the struct
    // ends the encoded value, the only place its binary extensions may be
    // left out (nodeos: the outermost value and, recursively, its last
    // field, through variants but not arrays or optionals; never a base).
    // @wharfkit/antelope would leave them out anywhere, making bytes nodeos
    // does not produce.
    structValue(ctx, s, mode, depth, tailOK) {
        const out = {}
        if (s.base) Object.assign(out, this.structValue(ctx, this.structs.get(this.resolve(s.base)), mode, depth, false))
        let absent = false
        s.fields.forEach((f, i) => {
            const last = i === s.fields.length - 1
            if (f.type.endsWith('$')) {
                // Once one is left out, all later ones are.
                if (!absent && tailOK) {
                    absent = depth > 4 ? true : mode === 'min' || mode === 'zero' || mode === 'absent' ? true
                        : mode === 'max' || mode === 'present' || mode === 'real' ? false : ctx.r.int(3) === 0
                }
                if (absent) return
                out[f.name] = this.value(ctx, f.type.slice(0, -1), this.childMode(mode), depth + 1, tailOK && last)
                return
            }
            out[f.name] = this.value(ctx, f.type, this.childMode(mode), depth + 1, tailOK && last)
        })
        return out
    }
}

// 'real' makes the values real contracts hold that random valid values
// almost never are: empty names, asset{} ("0 "), the symbol "0,", NaN and
// infinities, time_point's last millisecond, optionals present around them.
const EDGE_MODES = ['min', 'max', 'zero', 'minus1', 'p53', 'm53', 'long', 'absent', 'present', 'real']

function modesFor(resolver, type) {
    const modes = [...EDGE_MODES]
    const v = resolver.variants.get(resolver.resolve(type))
    if (v) for (let i = 0; i < v.length; i++) modes.push(`variant:${i}`)
    while (modes.length < VALUES_PER_TYPE) modes.push('random')
    return modes
}

// typesOf lists what the vectors cover: every struct and variant, then the
// action, table and action-result types that are not already listed.
function typesOf(abi) {
    const names = []
    const add = (n) => { if (n && !names.includes(n)) names.push(n) }
    for (const s of abi.structs || []) add(s.name)
    for (const v of abi.variants || []) add(v.name)
    for (const a of abi.actions || []) add(a.type)
    for (const t of abi.tables || []) add(t.type)
    for (const r of abi.action_results || []) add(r.result_type)
    return names
}

function eosjsTypes(abi) {
    // Types eosjs does not know get a stand-in that refuses to work, so
    // the rest of the ABI still loads; the types using them are skipped.
    const initial = Serialize.createInitialTypes()
    const standIns = {...UNSUPPORTED, fixed_array: 'eosjs does not know T[N]'}
    for (const [name, why] of Object.entries(standIns)) {
        const fail = () => { throw new Error(why) }
        initial.set(name, {...initial.get('string'), name, serialize: fail, deserialize: fail})
    }
    const fixed = (t) => /\[\d+\]/.test(t) ? 'fixed_array' : t
    abi = {...abi,
        types: abi.types.map((t) => ({...t, type: fixed(t.type)})),
        structs: abi.structs.map((s) => ({...s, fields: s.fields.map((f) => ({...f, type: fixed(f.type)}))})),
        variants: abi.variants.map((v) => ({...v, types: v.types.map(fixed)}))}
    return Serialize.getTypesFromAbi(initial, abi)
}

function eosjsEncode(types, type, value) {
    const buf = new Serialize.SerialBuffer({textEncoder: new TextEncoder(), textDecoder: new TextDecoder()})
    types.get(type).serialize(buf, value)
    return Buffer.from(buf.asUint8Array()).toString('hex')
}

function eosjsDecode(types, type, hex) {
    const buf = new Serialize.SerialBuffer({textEncoder: new TextEncoder(), textDecoder: new TextDecoder()})
    buf.pushArray(Buffer.from(hex, 'hex'))
    return types.get(type).deserialize(buf)
}

function wharfEncode(abi, type, value) {
    return Serializer.encode({object: value, abi, type}).hexString
}

function wharfJSON(abi, type, hex) {
    return Serializer.objectify(Serializer.decode({data: Bytes.from(hex, 'hex'), abi, type}))
}

// nonFinite reports whether a decoded JSON value holds a NaN or infinite
// number, which JSON text cannot carry (JSON.stringify makes it null): such
// JSON is lossy, and the Go side reads nodeos's "nan" and "inf" instead.
function nonFinite(v) {
    if (typeof v === 'number') return !Number.isFinite(v)
    if (v && typeof v === 'object') return Object.values(v).some(nonFinite)
    return false
}

function firstLine(err) {
    return String(err && err.message || err).split('\n')[0].slice(0, 200)
}

// attempt runs an encoder: {hex} when it works, {err} (its first line) when
// it throws.
function attempt(encode) {
    try {
        return {hex: encode()}
    } catch (err) {
        return {err: firstLine(err)}
    }
}

// encodeBoth encodes value with both libraries. The recorded hex is
// @wharfkit/antelope's, or eosjs's where wharfkit cannot; a value neither
// can encode is a bug in this program's value maker.
function encodeBoth(abi, types, type, value) {
    const w = attempt(() => wharfEncode(abi, type, value))
    const e = attempt(() => eosjsEncode(types, type, value))
    const out = {hex: w.hex, wharfErr: w.err, eosjsHex: e.hex, eosjsErr: e.err}
    if (out.hex === undefined) {
        if (out.eosjsHex === undefined) {
            throw new Error(`neither library encodes ${type} ${JSON.stringify(value).slice(0, 500)}: ${out.wharfErr}; ${out.eosjsErr}`)
        }
        out.hex = out.eosjsHex
    }
    return out
}

// vectorsFor builds the vector file of one ABI.
function vectorsFor(caseName, abiJSON) {
    const abi = ABI.from(abiJSON)
    const types = eosjsTypes(abiJSON)
    const resolver = new Resolver(abiJSON)
    const ctx = {longUsed: false}
    const out = {abi: caseName, seed: SEED, types: {}, skipped: {}, wharfkit_cannot: 0, eosjs_differs: 0, eosjs_cannot: 0}
    for (const type of typesOf(abiJSON)) {
        const why = resolver.unsupported(type)
        if (why) {
            out.skipped[type] = why
            continue
        }
        ctx.r = rng(SEED ^ hashString(caseName + '\0' + type))
        const seen = new Set()
        const values = []
        for (const mode of modesFor(resolver, type)) {
            ctx.mediumUsed = false
            let value = resolver.value(ctx, type, mode, 0, true)
            let enc = encodeBoth(abi, types, type, value)
            // Random values can repeat for small types; retry a few times
            // for a new one, then accept the repeat.
            for (let i = 0; seen.has(enc.hex) && mode === 'random' && i < 8; i++) {
                value = resolver.value(ctx, type, mode, 0, true)
                enc = encodeBoth(abi, types, type, value)
            }
            seen.add(enc.hex)
            const vec = {hex: enc.hex}
            if (enc.wharfErr) {
                vec.wharfkit = {cannot: enc.wharfErr}
                out.wharfkit_cannot++
            } else {
                vec.json = wharfJSON(abi, type, enc.hex)
                const back = attempt(() => wharfEncode(abi, type, vec.json)).hex
                // JSON that does not encode back is lossy (wharfkit prints a
                // float's -0 as 0): the Go side does not read it.
                if (back !== enc.hex || nonFinite(vec.json)) vec.json_lossy = true
            }
            if (enc.eosjsErr) {
                vec.eosjs = {cannot: enc.eosjsErr}
                out.eosjs_cannot++
            } else if (enc.eosjsHex !== enc.hex) {
                vec.eosjs = {differs: enc.eosjsHex}
                out.eosjs_differs++
            } else {
                const ej = eosjsDecode(types, type, enc.hex)
                const back = attempt(() => eosjsEncode(types, type, ej)).hex
                if (!vec.json) {
                    vec.json = ej
                    if (back !== enc.hex || nonFinite(ej)) vec.json_lossy = true
                } else if (JSON.stringify(ej) !== JSON.stringify(vec.json)) {
                    vec.eosjs = {json: ej}
                    if (back !== enc.hex || nonFinite(ej)) vec.eosjs.json_lossy = true
                }
            }
            values.push(vec)
        }
        out.types[type] = values
    }
    return out
}

// readABI reads an ABI with every section and every struct's fields present,
// as eosjs needs them.
function readABI(file) {
    const abi = {types: [], structs: [], actions: [], tables: [], variants: [], ...JSON.parse(fs.readFileSync(file, 'utf8'))}
    for (const k of ['types', 'structs', 'actions', 'tables', 'variants']) abi[k] = abi[k] || []
    abi.structs = abi.structs.map((s) => ({...s, base: s.base || '', fields: s.fields || []}))
    return abi
}

function writeVectors(outDir, caseDir) {
    const caseName = path.basename(caseDir)
    const abiJSON = readABI(path.join(caseDir, 'abi.json'))
    const vectors = vectorsFor(caseName, abiJSON)
    const text = JSON.stringify(vectors, null, 1) + '\n'
    fs.writeFileSync(path.join(outDir, caseName + '.json.gz'), zlib.gzipSync(Buffer.from(text), {level: 9}))
    const n = Object.values(vectors.types).reduce((a, v) => a + v.length, 0)
    const skipped = Object.keys(vectors.skipped).length
    process.stdout.write(`${caseName}: ${Object.keys(vectors.types).length} types, ${n} values` +
        `${skipped ? `, ${skipped} skipped` : ''}` +
        `${vectors.wharfkit_cannot ? `, @wharfkit/antelope cannot encode ${vectors.wharfkit_cannot}` : ''}` +
        `${vectors.eosjs_differs ? `, eosjs differs on ${vectors.eosjs_differs}` : ''}` +
        `${vectors.eosjs_cannot ? `, eosjs cannot encode ${vectors.eosjs_cannot}` : ''}\n`)
}

// check reads {case: {abi: path, values: [{type, hex, json}]}} written by the
// Go side and encodes each JSON with both libraries.
function check(file) {
    const input = JSON.parse(fs.readFileSync(file, 'utf8'))
    let n = 0
    let lossy = 0
    let eosjsFloat128 = 0
    const failures = []
    for (const [caseName, c] of Object.entries(input)) {
        const abiJSON = readABI(c.abi)
        const abi = ABI.from(abiJSON)
        const types = eosjsTypes(abiJSON)
        for (const v of c.values || []) {
            n++
            if (v.lossy) lossy++
            const show = (r) => r.err === undefined ? r.hex : 'error: ' + r.err
            let hex = show(attempt(() => wharfEncode(abi, v.type, v.json)))
            if (hex !== v.hex && !v.wharfkit_cannot) failures.push(`${caseName} ${v.type}: @wharfkit/antelope reads Go's JSON ${JSON.stringify(v.json).slice(0, 300)} as ${hex.slice(0, 200)}, want ${v.hex.slice(0, 200)}`)
            if (v.eosjs_differs) continue
            hex = show(attempt(() => eosjsEncode(types, v.type, v.json)))
            // eosjs reads float128 only as bare hex; nodeos prints it with
            // a 0x prefix, as the Go side does.
            if (hex === 'error: Expected hex string' && /"0x[0-9a-f]{32}"/.test(JSON.stringify(v.json))) {
                eosjsFloat128++
                continue
            }
            if (hex !== v.hex) failures.push(`${caseName} ${v.type}: eosjs reads Go's JSON ${JSON.stringify(v.json).slice(0, 300)} as ${hex.slice(0, 200)}, want ${v.hex.slice(0, 200)}`)
        }
    }
    for (const f of failures.slice(0, 30)) console.error(f)
    if (failures.length) {
        console.error(`${failures.length} of ${n} Go JSON values were not read as the Go side reads them`)
        process.exit(1)
    }
    console.log(`oracle check: ${n} values of Go's MarshalJSON read by @wharfkit/antelope and eosjs as the Go side reads them ` +
        `(${lossy} lossy by the nodeos dialect; eosjs cannot read float128 as 0x hex in ${eosjsFloat128})`)
}

module.exports = {Resolver, rng, hashString, readABI, wharfEncode, SEED}

if (require.main === module) {
    const [cmd, ...args] = process.argv.slice(2)
    if (cmd === 'gen') {
        const [outDir, ...cases] = args
        fs.mkdirSync(outDir, {recursive: true})
        for (const c of cases) writeVectors(outDir, c)
    } else if (cmd === 'check') {
        check(args[0])
    } else {
        console.error('usage: node oracle.js gen <out-dir> <case-dir>... | node oracle.js check <go-json.json>')
        process.exit(2)
    }
}
