package exec

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/internal/inproc"
)

// A transaction's answer, written straight into bytes: the JSON
// encoding/json made of the maps nodeos's trace once was here (keys in
// sorted order, its string escaping), without building the maps. The
// differential test (tracejson_internal_test.go) holds the two equal.

// AppendAnswer appends the answer to transaction id: {"processed":
// trace,"transaction_id":id}, and returns where the trace is. trx is the
// run (nil when it failed before running: no action traces); ex the
// exception that failed it (nil: executed, with its receipt).
func AppendAnswer(b []byte, id antelope.Checksum256, blockNum uint32, blockTime time.Time, trx *TrxContext, ex *Exception) (out []byte, start, end int) {
	b = append(b, `{"processed":`...)
	start = len(b)
	b = appendTrace(b, id, blockNum, blockTime, trx, ex)
	end = len(b)
	b = append(b, `,"transaction_id":`...)
	b = antelope.AppendHexJSON(b, id[:])
	return append(b, '}'), start, end
}

// appendTrace appends the transaction trace nodeos returns as
// "processed": an executed one with its receipt (the billed CPU and NET,
// as state history and get_block serve them: usage), a failed one with
// the exception in "except".
func appendTrace(b []byte, id antelope.Checksum256, blockNum uint32, blockTime time.Time, trx *TrxContext, ex *Exception) []byte {
	b = append(b, `{"account_ram_delta":null,"action_traces":[`...)
	if trx != nil {
		for i, tr := range trx.Traces {
			if i > 0 {
				b = append(b, ',')
			}
			b = tr.appendJSON(b, trx)
		}
	}
	b = append(b, `],"block_num":`...)
	b = strconv.AppendUint(b, uint64(blockNum), 10)
	b = append(b, `,"block_time":"`...)
	b = appendTimeText(b, blockTime)
	var cpu, net uint32
	elapsed, netUsage := int64(100), uint64(128)
	if ex == nil {
		cpu, net, elapsed = trx.Usage()
		netUsage = uint64(net) * 8
	}
	b = append(b, `","elapsed":`...)
	b = strconv.AppendInt(b, elapsed, 10)
	b = append(b, `,"error_code":`...)
	b = appendErrorCode(b, ex)
	b = append(b, `,"except":`...)
	b = appendExcept(b, ex)
	b = append(b, `,"id":`...)
	b = antelope.AppendHexJSON(b, id[:])
	b = append(b, `,"net_usage":`...)
	b = strconv.AppendUint(b, netUsage, 10)
	b = append(b, `,"producer_block_id":null,"receipt":`...)
	if ex == nil {
		b = append(b, `{"cpu_usage_us":`...)
		b = strconv.AppendUint(b, uint64(cpu), 10)
		b = append(b, `,"net_usage_words":`...)
		b = strconv.AppendUint(b, uint64(net), 10)
		b = append(b, `,"status":"executed"}`...)
	} else {
		b = append(b, "null"...)
	}
	return append(b, `,"scheduled":false}`...)
}

// appendJSON appends the action trace as nodeos returns it, with its
// receipt's global sequence in execution order (none for an action not
// executed) and the exception where it failed.
func (tr *ActionTrace) appendJSON(b []byte, t *TrxContext) []byte {
	a := &tr.Action
	b = append(b, `{"account_ram_deltas":[`...)
	if len(tr.RAMDeltas) > 0 {
		names := make([]antelope.Name, 0, len(tr.RAMDeltas))
		for n, d := range tr.RAMDeltas {
			if d != 0 {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		for i, n := range names {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"account":`...)
			b = appendName(b, n)
			b = append(b, `,"delta":`...)
			b = strconv.AppendInt(b, tr.RAMDeltas[n], 10)
			b = append(b, '}')
		}
	}
	b = append(b, `],"act":{"account":`...)
	b = appendName(b, a.Account)
	b = append(b, `,"authorization":[`...)
	for i, l := range a.Authorization {
		if i > 0 {
			b = append(b, ',')
		}
		b, _ = l.AppendJSON(b)
	}
	b = append(b, `],"data":`...)
	dataAt := len(b)
	b = antelope.AppendHexJSON(b, a.Data)
	b = append(b, `,"hex_data":`...)
	b = append(b, b[dataAt:len(b)-len(`,"hex_data":`)]...)
	b = append(b, `,"name":`...)
	b = appendName(b, a.Name)
	b = append(b, `},"action_ordinal":`...)
	b = strconv.AppendUint(b, uint64(tr.Ordinal), 10)
	b = append(b, `,"block_num":`...)
	b = strconv.AppendUint(b, uint64(t.blockNum), 10)
	b = append(b, `,"block_time":"`...)
	b = appendTimeText(b, t.blockTime)
	b = append(b, `","closest_unnotified_ancestor_action_ordinal":`...)
	b = strconv.AppendUint(b, uint64(tr.closestUnnotified), 10)
	b = append(b, `,"console":`...)
	b = appendString(b, tr.Console.String())
	b = append(b, `,"context_free":`...)
	b = strconv.AppendBool(b, tr.ContextFree)
	b = append(b, `,"creator_action_ordinal":`...)
	b = strconv.AppendUint(b, uint64(tr.Creator), 10)
	b = append(b, `,"elapsed":`...)
	b = strconv.AppendInt(b, tr.Elapsed.Microseconds(), 10)
	var ex *Exception
	if tr.failed {
		ex = t.Failure
	}
	b = append(b, `,"error_code":`...)
	b = appendErrorCode(b, ex)
	b = append(b, `,"except":`...)
	b = appendExcept(b, ex)
	b = append(b, `,"producer_block_id":null,"receipt":`...)
	if tr.GlobalSeq != 0 {
		b = tr.appendReceipt(b)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"receiver":`...)
	b = appendName(b, tr.Receiver)
	b = append(b, `,"return_value_hex_data":`...)
	b = antelope.AppendHexJSON(b, tr.ReturnValue)
	b = append(b, `,"trx_id":`...)
	b = antelope.AppendHexJSON(b, t.ID[:])
	return append(b, '}')
}

// appendReceipt appends the action's receipt as nodeos prints it in a
// trace (receipts.go numbers it).
func (tr *ActionTrace) appendReceipt(b []byte) []byte {
	b = append(b, `{"abi_sequence":`...)
	b = strconv.AppendUint(b, tr.Seq.ABI, 10)
	b = append(b, `,"act_digest":`...)
	b = antelope.AppendHexJSON(b, tr.Seq.Digest[:])
	b = append(b, `,"auth_sequence":[`...)
	for i, a := range tr.Seq.Auth {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = appendName(b, a.Account)
		b = append(b, ',')
		b = strconv.AppendUint(b, a.Seq, 10)
		b = append(b, ']')
	}
	b = append(b, `],"code_sequence":`...)
	b = strconv.AppendUint(b, tr.Seq.Code, 10)
	b = append(b, `,"global_sequence":`...)
	b = strconv.AppendUint(b, tr.GlobalSeq, 10)
	b = append(b, `,"receiver":`...)
	b = appendName(b, tr.Receiver)
	b = append(b, `,"recv_sequence":`...)
	b = strconv.AppendUint(b, tr.Seq.Recv, 10)
	return append(b, '}')
}

// appendExcept appends an exception as a trace's "except" (null for
// none).
func appendExcept(b []byte, ex *Exception) []byte {
	if ex == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"code":`...)
	b = strconv.AppendInt(b, ex.code, 10)
	b = append(b, `,"message":`...)
	b = appendString(b, ex.what)
	b = append(b, `,"name":`...)
	b = appendString(b, ex.name)
	b = append(b, `,"stack":[`...)
	for i, d := range append([]string{ex.detail}, ex.more...) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"context":{"file":"chaintest","level":"error","line":1,"method":`...)
		b = appendString(b, ex.name)
		b = append(b, `},"data":{},"format":`...)
		b = appendString(b, d)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// appendErrorCode appends a failed trace's error_code (errorCodeJSON).
func appendErrorCode(b []byte, ex *Exception) []byte {
	switch v := errorCodeJSON(ex).(type) {
	case uint64:
		return strconv.AppendUint(b, v, 10)
	case string:
		return appendString(b, v)
	}
	return append(b, "null"...)
}

// appendTimeText appends timeText(t) without allocating.
func appendTimeText(b []byte, t time.Time) []byte {
	return t.UTC().AppendFormat(b, "2006-01-02T15:04:05.000")
}

// appendString appends s quoted as encoding/json quotes it (HTML
// characters, U+2028 and U+2029 escaped, invalid UTF-8 replaced): the
// common printable ASCII directly, anything else through encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Decoded is the trace chain.Client would decode from answer (see
// internal/inproc), or nil when the answer is not an executed trace it
// would take as one: a failure, or console output that is not valid
// UTF-8 (which decoding changes). Each slice is the trace's own.
func (t *TrxContext) Decoded(answer []byte, start, end int) *inproc.Trace {
	if len(t.Traces) == 0 || t.ID == (antelope.Checksum256{}) {
		return nil
	}
	out := &inproc.Trace{Answer: answer, ProcessedStart: start, ProcessedEnd: end, ID: t.ID, BlockNum: t.blockNum}
	if err := out.BlockTime.UnmarshalJSON(strconv.AppendQuote(nil, timeText(t.blockTime))); err != nil {
		return nil
	}
	out.Actions = make([]inproc.Action, len(t.Traces))
	for i, tr := range t.Traces {
		console := tr.Console.String()
		if !utf8.ValidString(console) {
			return nil
		}
		a := &out.Actions[i]
		a.Ordinal, a.Creator, a.Receiver, a.Console, a.ElapsedUS = tr.Ordinal, tr.Creator, tr.Receiver, console, tr.Elapsed.Microseconds()
		a.Act = antelope.Action{Account: tr.Action.Account, Name: tr.Action.Name,
			Authorization: append([]antelope.PermissionLevel{}, tr.Action.Authorization...),
			Data:          append([]byte{}, tr.Action.Data...)}
		a.ReturnValue = append([]byte{}, tr.ReturnValue...)
	}
	return out
}

// appendName appends n as a JSON string, as appendString(b, n.String())
// does, without the string.
func appendName(b []byte, n antelope.Name) []byte {
	b, _ = n.AppendJSON(b)
	return b
}
