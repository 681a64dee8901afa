// The PowerUp oracle: fractions of the CPU and NET markets for wanted µs and
// bytes, as @wharfkit/resources 1.5.0 computes them, on the recorded EOS and
// Jungle powup.state rows and on random states; with wharfkit's price and
// the contract's fee (calc_powerup_fee transliterated line by line from
// eosio.system's powerup.cpp) for package powerup's TestPowerUpVectors.
//
//   node powerup.js <out-dir> <recorded-state.json>...  write <out-dir>/powerup.json.gz
//
// Deterministic: the same seed and states give the same file.
'use strict'

const fs = require('fs')
const path = require('path')
const zlib = require('zlib')
const {Serializer, Int64} = require('@wharfkit/antelope')
const {PowerUpState, Resources} = require('@wharfkit/resources')
const {rng, hashString, SEED} = require('./oracle.js')

const CASES_PER_STATE = 150
const RANDOM_STATES = 12
const FRAC = 1e15

// recordedState reads a get_table_rows recording of powup.state (binary or
// JSON rows) as wharfkit's PowerUpState.
function recordedState(file) {
    const rec = JSON.parse(fs.readFileSync(file, 'utf8'))
    const row = rec.json.rows[0]
    if (typeof row === 'string') return Serializer.decode({data: row, type: PowerUpState})
    return PowerUpState.from(row)
}

function randomResource(r, symbol) {
    const weight = BigInt(1 + r.int(1e6)) * 10n ** BigInt(8 + r.int(6))
    const util = (weight * BigInt(r.pick([0, 1, 10, 500, 900, 999, 1000]))) / 1000n
    const adjusted = r.int(2) === 0 ? util : util + ((weight - util) * BigInt(r.int(1000))) / 1000n
    const exponent = r.pick([1.0, 1.5, 2.0, 2.0, 3.25])
    const maxPrice = 1 + r.int(2e9)
    const minPrice = exponent === 1.0 ? maxPrice : r.int(maxPrice)
    const now = 1700000000
    const scheduled = r.int(3) === 0
    return {
        version: 0, weight: String(weight), weight_ratio: '10000000000000', assumed_stake_weight: String(BigInt(1 + r.int(1e6)) * 10n ** 6n),
        initial_weight_ratio: scheduled ? '1000000000000000' : '10000000000000', target_weight_ratio: '10000000000000',
        initial_timestamp: new Date((now - 86400 * 30) * 1000).toISOString().slice(0, 19),
        target_timestamp: new Date((now + (scheduled ? 86400 * 60 : -86400)) * 1000).toISOString().slice(0, 19),
        exponent, decay_secs: r.pick([1, 3600, 86400]),
        min_price: `${(minPrice / 1e4).toFixed(4)} ${symbol}`, max_price: `${(maxPrice / 1e4).toFixed(4)} ${symbol}`,
        utilization: String(util), adjusted_utilization: String(adjusted),
        utilization_timestamp: new Date((now - r.int(200000)) * 1000).toISOString().slice(0, 19),
    }
}

// sampleUsage runs wharfkit's getSampledUsage on an account with the given
// limits and weights.
async function sampleUsage(a) {
    const account = {cpu_limit: {max: Int64.from(a.cpu_limit_max)}, net_limit: {max: Int64.from(a.net_limit_max)},
        cpu_weight: Int64.from(a.cpu_weight), net_weight: Int64.from(a.net_weight)}
    const res = new Resources({api: {v1: {chain: {get_account: async () => account}}}})
    return res.getSampledUsage()
}

// The contract's computation, from powerup.cpp.
function updateUtilization(now, res) {
    if (now <= res.utilization_timestamp) return
    if (res.utilization >= res.adjusted_utilization) {
        res.adjusted_utilization = res.utilization
    } else {
        const diff = res.adjusted_utilization - res.utilization
        let delta = BigInt(Math.trunc(Number(diff) * Math.exp(-(now - res.utilization_timestamp) / res.decay_secs)))
        if (delta < 0n) delta = 0n
        if (delta > diff) delta = diff
        res.adjusted_utilization = res.utilization + delta
    }
    res.utilization_timestamp = now
}

function updateWeight(now, res) {
    if (now >= res.target_timestamp) res.weight_ratio = res.target_weight_ratio
    else res.weight_ratio = res.initial_weight_ratio + ((res.target_weight_ratio - res.initial_weight_ratio) * BigInt(now - res.initial_timestamp)) / BigInt(res.target_timestamp - res.initial_timestamp)
    res.weight = (res.assumed_stake_weight * BigInt(FRAC)) / res.weight_ratio - res.assumed_stake_weight
}

function calcPowerupFee(state, increase) {
    if (increase <= 0n) return 0n
    const weight = Number(state.weight)
    const minA = Number(state.min_price)
    const maxA = Number(state.max_price)
    const priceIntegralDelta = (start, end) => {
        const coefficient = (maxA - minA) / state.exponent
        const startU = Number(start) / weight
        const endU = Number(end) / weight
        return minA * endU - minA * startU + coefficient * Math.pow(endU, state.exponent) - coefficient * Math.pow(startU, state.exponent)
    }
    const priceFunction = (utilization) => {
        let price = minA
        const newExponent = state.exponent - 1.0
        if (newExponent <= 0.0) return maxA
        price += (maxA - minA) * Math.pow(Number(utilization) / weight, newExponent)
        return price
    }
    let fee = 0.0
    let start = state.utilization
    const end = start + increase
    if (start < state.adjusted_utilization) {
        const m = increase < state.adjusted_utilization - start ? increase : state.adjusted_utilization - start
        fee += (priceFunction(state.adjusted_utilization) * Number(m)) / weight
        start = state.adjusted_utilization
    }
    if (start < end) fee += priceIntegralDelta(start, end)
    return BigInt(Math.ceil(fee))
}

function contractResource(res) {
    const sec = (t) => t.toMilliseconds() / 1000
    return {
        weight: BigInt(String(res.weight)), weight_ratio: BigInt(String(res.weight_ratio)), assumed_stake_weight: BigInt(String(res.assumed_stake_weight)),
        initial_weight_ratio: BigInt(String(res.initial_weight_ratio)), target_weight_ratio: BigInt(String(res.target_weight_ratio)),
        initial_timestamp: sec(res.initial_timestamp), target_timestamp: sec(res.target_timestamp), exponent: Number(res.exponent.value),
        decay_secs: Number(res.decay_secs), min_price: BigInt(String(res.min_price.units)), max_price: BigInt(String(res.max_price.units)),
        utilization: BigInt(String(res.utilization)), adjusted_utilization: BigInt(String(res.adjusted_utilization)), utilization_timestamp: sec(res.utilization_timestamp),
    }
}

// contractFee is the powerup action's fee for one resource at now (no
// expired orders): process_powerup_queue's updates, then process().
function contractFee(res, now, frac) {
    const s = contractResource(res)
    updateUtilization(now, s)
    updateWeight(now, s)
    const amount = (BigInt(frac) * s.weight) / BigInt(FRAC)
    if (s.utilization + amount > s.weight) return {error: 'market does not have enough resources available'}
    return {amount: String(amount), fee: String(calcPowerupFee(s, amount))}
}

function price(fn) {
    try {
        return String(fn())
    } catch (e) {
        return 'error: ' + e.message
    }
}

async function main() {
    const [outDir, ...recorded] = process.argv.slice(2)
    const r = rng(SEED ^ hashString('powerup'))
    const states = recorded.map((f) => ({name: path.basename(f), state: recordedState(f)}))
    for (let i = 0; i < RANDOM_STATES; i++) {
        const symbol = r.pick(['EOS', 'A', 'TLOS'])
        const row = {version: 0, net: randomResource(r, symbol), cpu: randomResource(r, symbol), powerup_days: 1, min_powerup_fee: `0.0001 ${symbol}`}
        states.push({name: `random-${i}`, state: PowerUpState.from(row)})
    }
    const out = {seed: SEED, states: [], cases: []}
    for (const [si, {name, state}] of states.entries()) {
        out.states.push({name, hex: Serializer.encode({object: state}).hexString, json: Serializer.objectify(state)})
        const base = Math.max(state.cpu.utilization_timestamp.toMilliseconds(), state.net.utilization_timestamp.toMilliseconds()) / 1000
        for (let i = 0; i < CASES_PER_STATE; i++) {
            const account = {
                cpu_limit_max: String(1 + r.int(i % 10 === 0 ? 10 : 5e7)), cpu_weight: String(1 + r.int(i % 7 === 0 ? 3 : 5e12)),
                net_limit_max: String(1 + r.int(5e9)), net_weight: String(1 + r.int(5e12)),
            }
            const sample = await sampleUsage(account)
            const us = r.pick([0, 1, 100, 1000, 35868, 1e6, 1 + r.int(1e7)])
            const bytes = r.pick([0, 1, 1000, 1024 * 1024, 1 + r.int(1e8)])
            const timestamp = base + r.pick([0, 1, 60, 3600, 86400, 86400 * 30])
            const c = {state: si, account, sample_cpu: String(sample.cpu), sample_net: String(sample.net), us, bytes, timestamp}
            try {
                c.cpu_frac = String(state.cpu.frac(sample, us))
                c.net_frac = String(state.net.frac(sample, bytes))
            } catch (e) {
                c.frac_error = e.message
                out.cases.push(c)
                continue
            }
            const opts = {timestamp: new Date(timestamp * 1000)}
            c.wharfkit_cpu_price = price(() => state.cpu.price_per_us(sample, us, opts))
            c.wharfkit_net_price = price(() => state.net.price_per_byte(sample, bytes, opts))
            c.contract_cpu = contractFee(state.cpu, timestamp, c.cpu_frac)
            c.contract_net = contractFee(state.net, timestamp, c.net_frac)
            out.cases.push(c)
        }
    }
    fs.mkdirSync(outDir, {recursive: true})
    fs.writeFileSync(path.join(outDir, 'powerup.json.gz'), zlib.gzipSync(Buffer.from(JSON.stringify(out, null, 1) + '\n'), {level: 9}))
    console.log(`powerup oracle: ${out.cases.length} fractions on ${states.length} states (${recorded.length} recorded) by @wharfkit/resources`)
}

main().catch((e) => {
    console.error(e)
    process.exit(1)
})
