package hyperionapi

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
)

// Hyperion's rewrites of the data it indexes, as its own source does them
// (eosrio/hyperion-history-api 4.0.7): the indexer modules in
// src/indexer/modules/action_data/*.ts move fields into an "@name" object,
// deleting some from the data, and the API merges that object back in
// front of what is left (mergeActionMeta: lodash _.merge(@name, data));
// the '*:accounts' handler of src/indexer/workers/deserializer.ts does the
// same to a token balance (mergeDeltaMeta). What a float loses stays lost,
// exactly as a client of a real Hyperion sees it.

var (
	hyEosio = antelope.MustName("eosio")
)

// field is one key of a JSON object, in order.
type field struct {
	key string
	val json.RawMessage
}

// objectFields reads a JSON object's fields in order; nil if it is not one.
func objectFields(j []byte) []field {
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []field
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil
		}
		k, _ := t.(string)
		var v json.RawMessage
		if d.Decode(&v) != nil {
			return nil
		}
		out = append(out, field{k, v})
	}
	return out
}

func get(fs []field, key string) (json.RawMessage, bool) {
	for _, f := range fs {
		if f.key == key {
			return f.val, true
		}
	}
	return nil, false
}

func without(fs []field, keys ...string) []field {
	var out []field
	for _, f := range fs {
		drop := false
		for _, k := range keys {
			drop = drop || f.key == k
		}
		if !drop {
			out = append(out, f)
		}
	}
	return out
}

// merged is lodash's merge of meta and data: meta's keys first, data's
// values winning.
func merged(meta, data []field) json.RawMessage {
	var out []field
	for _, m := range meta {
		if v, ok := get(data, m.key); ok {
			m.val = v
		}
		out = append(out, m)
	}
	for _, d := range data {
		if _, ok := get(meta, d.key); !ok {
			out = append(out, d)
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range out {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(f.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// jsFloat is JavaScript's parseFloat of an asset's amount, written as
// JSON.stringify writes the number.
func jsFloat(asset json.RawMessage) (json.RawMessage, float64) {
	var s string
	if json.Unmarshal(asset, &s) != nil {
		return json.RawMessage("0"), 0
	}
	x, _ := strconv.ParseFloat(strings.Fields(s + " 0")[0], 64)
	return jsNumber(x), x
}

// jsNumber writes x as JavaScript does: the shortest decimal that reads
// back as x, with an exponent below 1e-6 and from 1e21.
func jsNumber(x float64) json.RawMessage {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return json.RawMessage("null")
	}
	a := math.Abs(x)
	if a != 0 && (a < 1e-6 || a >= 1e21) {
		s := strconv.FormatFloat(x, 'e', -1, 64) // 1e-07
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		exp = strings.TrimLeft(exp[1:], "0")
		return json.RawMessage(mant + "e" + string(sign) + exp)
	}
	return json.RawMessage(strconv.FormatFloat(x, 'f', -1, 64))
}

func str(s string) json.RawMessage { b, _ := json.Marshal(s); return b }

// rewriteAction is what Hyperion's API answers for an action's data.
func rewriteAction(contract, name antelope.Name, j []byte) json.RawMessage {
	data := objectFields(j)
	if data == nil {
		return j
	}
	orNull := func(k string) json.RawMessage {
		if v, ok := get(data, k); ok {
			return v
		}
		return json.RawMessage("null")
	}
	switch n := name.String(); {
	case n == "transfer": // transfer.ts, for every contract
		q, ok := get(data, "quantity")
		if !ok || len(q) == 0 || q[0] != '"' {
			if q, ok = get(data, "value"); !ok || len(q) == 0 || q[0] != '"' {
				return j
			}
		}
		var s string
		_ = json.Unmarshal(q, &s)
		amount, _ := jsFloat(q)
		parts := strings.Split(s, " ")
		meta := []field{{"from", str(jsString(orNull("from")))}, {"to", str(jsString(orNull("to")))}, {"amount", amount}}
		if len(parts) > 1 {
			meta = append(meta, field{"symbol", str(parts[1])})
		}
		return merged(meta, without(data, "from", "to"))
	case contract != hyEosio:
		return j
	case n == "buyram": // eosio-buyram.ts: the data is deleted
		meta := []field{{"payer", orNull("payer")}, {"receiver", orNull("receiver")}}
		if q, ok := get(data, "quant"); ok {
			f, _ := jsFloat(q)
			meta = append(meta, field{"quant", f})
		}
		return merged(meta, nil)
	case n == "delegatebw", n == "undelegatebw": // the data is deleted
		prefix := "stake_"
		if n == "undelegatebw" {
			prefix = "unstake_"
		}
		cpu, net := 0.0, 0.0
		c, okC := get(data, prefix+"cpu_quantity")
		nq, okN := get(data, prefix+"net_quantity")
		if okC && okN {
			_, cpu = jsFloat(c)
			_, net = jsFloat(nq)
		}
		meta := []field{{"amount", jsNumber(cpu + net)}, {prefix + "cpu_quantity", jsNumber(cpu)}, {prefix + "net_quantity", jsNumber(net)},
			{"from", orNull("from")}, {"receiver", orNull("receiver")}}
		if n == "delegatebw" {
			meta = append(meta, field{"transfer", orNull("transfer")})
		}
		return merged(meta, nil)
	case n == "updateauth": // eosio-updateauth.ts: empty lists deleted
		auth, ok := get(data, "auth")
		af := objectFields(auth)
		if !ok || af == nil {
			return j
		}
		for _, k := range []string{"accounts", "keys", "waits"} {
			if v, ok := get(af, k); ok && string(v) == "[]" {
				af = without(af, k)
			}
		}
		return merged(nil, replace(data, "auth", merged(nil, af)))
	case n == "newaccount": // eosio-newaccount.ts: name becomes newact
		if v, ok := get(data, "name"); ok {
			if _, has := get(data, "newact"); !has {
				meta := []field{{"active", orNull("active")}, {"owner", orNull("owner")}, {"newact", v}}
				return merged(meta, without(data, "name"))
			}
		}
	}
	return j
}

// jsString is String(value) for a JSON string or other value.
func jsString(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

func replace(fs []field, key string, v json.RawMessage) []field {
	out := append([]field(nil), fs...)
	for i := range out {
		if out[i].key == key {
			out[i].val = v
		}
	}
	return out
}

// rewriteRow is what Hyperion's API answers for a contract row: an
// accounts row's balance split into a float amount and its symbol code.
func rewriteRow(table antelope.Name, j []byte) json.RawMessage {
	if table.String() != "accounts" {
		return j
	}
	data := objectFields(j)
	b, ok := get(data, "balance")
	if !ok || len(b) == 0 || b[0] != '"' {
		return j
	}
	var s string
	_ = json.Unmarshal(b, &s)
	amount, _ := jsFloat(b)
	parts := strings.Split(s, " ")
	if len(parts) != 2 {
		return j
	}
	return merged([]field{{"amount", amount}, {"symbol", str(parts[1])}}, without(data, "balance"))
}

func uintText(v uint64) string { return strconv.FormatUint(v, 10) }
