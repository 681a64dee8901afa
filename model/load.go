package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/internal/rawabi"
)

// Source is an ABI as loaded, with what its container said about it.
type Source struct {
	ABI *ABI // the parsed ABI
	// JSON is the exact ABI JSON: the bytes of the ABI object as the input
	// gave them, or for a packed ABI a canonical rendering. Generated
	// packages embed it, and its sha256 identifies the ABI.
	JSON []byte
	// Account and BlockNum come from a saved API response; empty and
	// HasBlock=false when the input did not say.
	Account  string
	BlockNum uint64 // the block the saved response says the ABI is from
	HasBlock bool   // BlockNum was given
	// Form says what the input was, for messages: "ABI JSON", "state API
	// response", "nodeos get_abi response", "nodeos get_raw_abi response",
	// "packed ABI (hex)", "packed ABI (binary)".
	Form string
}

// SHA256 is the lowercase hex sha256 of JSON.
func (s *Source) SHA256() string {
	h := sha256.Sum256(s.JSON)
	return hex.EncodeToString(h[:])
}

// Load reads an ABI in any of the forms users have: ABI JSON; a saved state
// API response {block_num, account, abi} with abi as an object or as packed
// hex; a saved nodeos get_abi {account_name, abi} or get_raw_abi {account_name,
// abi (base64), abi_hash} response (also inside a recorded {status, json}
// wrapper); or a packed ABI as hex text or raw bytes.
func Load(data []byte) (*Source, error) {
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if len(trimmed) == 0 {
		return nil, errors.New("empty input: expected an ABI")
	}
	if trimmed[0] == '{' {
		src, err := loadJSON(trimmed)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// Say where, in the input as given (before trimming).
			start := len(data) - len(bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n"))
			return nil, newSyntaxError(data, start+int(se.Offset), se.Error())
		}
		return src, err
	}
	if looksLikeText(trimmed) && json.Valid(trimmed) {
		return nil, fmt.Errorf("JSON %s, not an object: expected an ABI (an object with \"version\") or a saved API response", jsonKind(trimmed[0]))
	}
	if isHexText(trimmed) {
		raw, err := hex.DecodeString(string(trimmed))
		if err != nil {
			return nil, fmt.Errorf("packed ABI hex: %v", err)
		}
		if !looksPacked(raw) {
			return nil, fmt.Errorf("hex text, but not a packed ABI: it decodes to %s, not the packed \"eosio::abi/1.x\" version string", showStart(raw))
		}
		return loadPacked(raw, "packed ABI (hex)")
	}
	if !looksPacked(data) {
		return nil, fmt.Errorf("neither JSON nor a packed ABI: the input starts with %s", showStart(data))
	}
	return loadPacked(data, "packed ABI (binary)")
}

// LoadABI reads an ABI that a service's answer held: ABI JSON (an object)
// or the packed bytes, as a client took them out of the answer. form names
// the answer in messages and in Source.Form ("nodeos get_abi response",
// "state API response (packed ABI)"…); what else the answer said (the
// account, the block) is the caller's to set.
func LoadABI(data []byte, form string) (*Source, error) {
	trimmed := bytes.TrimSpace(data)
	switch {
	case len(trimmed) == 0:
		return nil, fmt.Errorf("%s: the ABI is empty", form)
	case trimmed[0] == '{':
		return parseABIJSON(trimmed, form)
	}
	return loadPacked(data, form)
}

// SyntaxError is invalid JSON, with where it is in the input.
type SyntaxError struct {
	Line, Column int    // 1-based
	Msg          string // encoding/json's description
}

// Error gives the position and what encoding/json said.
func (e *SyntaxError) Error() string {
	return "invalid JSON at line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column) + ": " + e.Msg
}

// newSyntaxError locates byte offset off (just past the offending byte, as
// encoding/json reports it) in data.
func newSyntaxError(data []byte, off int, msg string) *SyntaxError {
	if off > len(data) {
		off = len(data)
	}
	at := off - 1 // the offending byte
	if strings.HasPrefix(msg, "unexpected end") {
		at = off // just past the end
	}
	if at < 0 {
		at = 0
	}
	line := 1 + bytes.Count(data[:at], []byte("\n"))
	col := at - bytes.LastIndexByte(data[:at], '\n')
	return &SyntaxError{Line: line, Column: col, Msg: msg}
}

// looksPacked reports whether data starts as a packed ABI does: a short
// varuint32 length, then "eosio::abi/".
func looksPacked(data []byte) bool {
	const prefix = "eosio::abi/"
	return len(data) > len(prefix) && data[0] >= byte(len(prefix)) && data[0] < 0x80 &&
		bytes.HasPrefix(data[1:], []byte(prefix))
}

func looksLikeText(b []byte) bool {
	switch b[0] {
	case '[', '"', 't', 'f', 'n', '-':
		return true
	}
	return b[0] >= '0' && b[0] <= '9'
}

func jsonKind(c byte) string {
	switch c {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// showStart quotes the first bytes of data, so a user sees what they gave
// (an HTML page, a text file) instead of a decoding error. Bytes outside
// printable ASCII are shown as \xNN.
func showStart(data []byte) string {
	const n = 24
	more := ""
	if len(data) > n {
		data, more = data[:n], "…"
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range data {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		default:
			b.WriteString(`\x`)
			b.WriteString(hex.EncodeToString([]byte{c}))
		}
	}
	b.WriteByte('"')
	return b.String() + more
}

func isHexText(b []byte) bool {
	if len(b)%2 != 0 {
		return false
	}
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func loadPacked(raw []byte, form string) (*Source, error) {
	abi, err := ParsePacked(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", form, err)
	}
	return &Source{ABI: abi, JSON: abi.canonicalJSON(), Form: form}, nil
}

func loadJSON(data []byte) (*Source, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if v, ok := top["version"]; ok {
		if err := notAnABI(top, v); err != nil {
			return nil, err
		}
		return parseABIJSON(data, "ABI JSON")
	}
	// A recorded HTTP exchange {api, headers, status, json, text}.
	if inner, ok := top["json"]; ok && len(bytes.TrimSpace(inner)) > 0 && bytes.TrimSpace(inner)[0] == '{' {
		if _, hasStatus := top["status"]; hasStatus {
			return loadJSON(bytes.TrimSpace(inner))
		}
	}
	abiRaw, hasABI := top["abi"]
	account := jsonString(top["account_name"])
	if _, ok := top["account_name"]; ok {
		if !hasABI || isNull(abiRaw) {
			return nil, fmt.Errorf("account %q has no ABI (the get_abi response has no \"abi\")", account)
		}
		if abiRaw[0] == '"' {
			return loadRawABI(top, account)
		}
		src, err := parseABIJSON(abiRaw, "nodeos get_abi response")
		if err != nil {
			return nil, err
		}
		src.Account = account
		return src, nil
	}
	if _, ok := top["block_num"]; ok || top["account"] != nil {
		if !hasABI || isNull(abiRaw) {
			return nil, errors.New("state API response has no \"abi\"")
		}
		var src *Source
		var err error
		if abiRaw[0] == '"' {
			var h string
			if err := json.Unmarshal(abiRaw, &h); err != nil {
				return nil, fmt.Errorf("state API response: abi: %v", err)
			}
			raw, err := hex.DecodeString(strings.TrimPrefix(h, "0x"))
			if err != nil {
				return nil, fmt.Errorf("state API response: abi is neither an object nor hex: %v", err)
			}
			src, err = loadPacked(raw, "state API response (packed ABI)")
			if err != nil {
				return nil, err
			}
		} else if src, err = parseABIJSON(abiRaw, "state API response"); err != nil {
			return nil, err
		}
		src.Account = jsonString(top["account"])
		if bn, ok := top["block_num"]; ok {
			n, err := strconv.ParseUint(strings.Trim(string(bn), `"`), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("state API response: block_num %s: not a block number", bn)
			}
			src.BlockNum, src.HasBlock = n, true
		}
		return src, nil
	}
	if msg, ok := top["message"]; ok {
		if _, ok := top["code"]; ok {
			return nil, fmt.Errorf("the input is an API error response, not an ABI: %s", jsonString(msg))
		}
	}
	return nil, errors.New(`unrecognized JSON: expected an ABI (an object with "version"), a state API response {"block_num","account","abi"}, or a nodeos get_abi/get_raw_abi response`)
}

// abiSections are the keys of an ABI besides "version".
var abiSections = []string{"types", "structs", "actions", "tables", "ricardian_clauses", "error_messages", "abi_extensions", "variants", "action_results"}

// notAnABI refuses a JSON object that has a "version" but is plainly not an
// ABI (a package.json, a manifest): the version is not an ABI's and none of
// an ABI's sections (arrays, all of them) is there. Anything else is read as
// an ABI, whose version Resolve then checks.
func notAnABI(top map[string]json.RawMessage, version json.RawMessage) error {
	var v string
	if json.Unmarshal(version, &v) == nil && strings.HasPrefix(v, "eosio::abi/") {
		return nil
	}
	for _, k := range abiSections {
		// Every ABI section is an array; a package.json's "types" (its
		// TypeScript declarations) is a string.
		if raw, ok := top[k]; ok && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
			return nil
		}
	}
	return fmt.Errorf(`the input is not an ABI: its "version" is %s (an ABI's is "eosio::abi/1.x") and it has none of an ABI's sections (arrays of structs, actions, tables…)`, bytes.TrimSpace(version))
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func jsonString(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// loadRawABI decodes get_raw_abi's base64 ABI, whose padding nodeos gets
// wrong, and checks it against abi_hash.
func loadRawABI(top map[string]json.RawMessage, account string) (*Source, error) {
	raw, err := rawabi.Decode(jsonString(top["abi"]), jsonString(top["abi_hash"]))
	if err != nil {
		return nil, fmt.Errorf("get_raw_abi response: %v", err)
	}
	if len(raw) == 0 {
		return nil, fmt.Errorf("account %q has no ABI (the get_raw_abi response's abi is empty)", account)
	}
	src, err := loadPacked(raw, "nodeos get_raw_abi response")
	if err != nil {
		return nil, err
	}
	src.Account = account
	return src, nil
}

func parseABIJSON(data []byte, form string) (*Source, error) {
	var abi ABI
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&abi); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("%s: %q should be %s, not a JSON %s", form, te.Field, te.Type, te.Value)
		}
		return nil, fmt.Errorf("%s: %v", form, err)
	}
	if ext := bytes.TrimSpace(abi.ABIExtensions); len(ext) > 0 && string(ext) != "[]" && string(ext) != "null" {
		return nil, fmt.Errorf("%s: abi_extensions must be empty; no extension is defined", form)
	}
	return &Source{ABI: &abi, JSON: bytes.TrimSpace(data), Form: form}, nil
}
