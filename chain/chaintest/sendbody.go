package chaintest

import (
	"encoding/json"
	"strings"

	"github.com/antelopego/abigen/antelope"
)

// sendBody is the body of send_transaction2, compute_transaction and
// send_read_only_transaction: the packed transaction, and whether a
// failure's trace is asked for (send_transaction2 only: the others read
// no such member). An alias of an unnamed struct, as the endpoints read
// it before: encoding/json names the struct type in a type error, which
// is the client's answer.
type sendBody = struct {
	ReturnFailureTrace *bool           `json:"return_failure_trace"`
	Transaction        json.RawMessage `json:"transaction"`
}

// computeBody is the body of compute_transaction and
// send_read_only_transaction, as they read it (unnamed, as sendBody).
type computeBody = struct {
	Transaction json.RawMessage `json:"transaction"`
}

// parseSendBody reads body as encoding/json reads it into a sendBody
// (which it did alone before: its reflection was a thirtieth of a
// one-transfer transaction in process), reading itself the bodies clients
// send and leaving to encoding/json anything else — a key matching a
// member only in another case, a null transaction — so that the result is
// the same.
// withTrace tells whether return_failure_trace is read (send_transaction2)
// or, as by the others, ignored.
func parseSendBody(body []byte, withTrace bool) (sendBody, error) {
	if p, ok := parseSendBodyFast(body, withTrace); ok {
		return p, nil
	}
	if !withTrace {
		var p computeBody
		err := json.Unmarshal(body, &p)
		return sendBody{Transaction: p.Transaction}, err
	}
	var p sendBody
	err := json.Unmarshal(body, &p)
	return p, err
}

func parseSendBodyFast(body []byte, withTrace bool) (p sendBody, ok bool) {
	if !json.Valid(body) {
		return p, false
	}
	r := antelope.NewJSONReader(body)
	if r.BeginObject() != nil {
		return p, false
	}
	for {
		key, more, err := r.NextKey()
		if err != nil {
			return p, false
		}
		if !more {
			break
		}
		switch k := string(key); {
		case k == "return_failure_trace" && withTrace:
			switch r.Peek() {
			case antelope.JSONNull:
				r.Null()
				p.ReturnFailureTrace = nil
			case antelope.JSONBool:
				v, err := r.Bool()
				if err != nil {
					return p, false
				}
				p.ReturnFailureTrace = &v
			default:
				return p, false
			}
		case k == "transaction":
			if r.Peek() == antelope.JSONNull {
				return p, false
			}
			start := r.Offset()
			if r.Skip() != nil {
				return p, false
			}
			end := r.Offset()
			p.Transaction = body[start:end:end]
		default:
			for _, c := range key {
				if c >= 0x80 {
					return p, false // Unicode's folding: encoding/json's to decide
				}
			}
			if withTrace && strings.EqualFold(k, "return_failure_trace") || strings.EqualFold(k, "transaction") {
				return p, false
			}
			if r.Skip() != nil {
				return p, false
			}
		}
	}
	return p, r.Finish() == nil
}
