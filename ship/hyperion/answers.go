package hyperion

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// The answers of Hyperion v2 as its API serializes them (its Fastify
// response schemas in src/api/routes), parsed leniently where Hyperion's
// own types are loose: numbers may come as JSON numbers or strings (its
// deserializer writes 64-bit integers as strings when they pass 32 bits),
// present as 0/1 or a bool.

// Action is one action document of get_actions or get_transaction.
type Action struct {
	Timestamp            time.Time                  // @timestamp: the block's time (UTC)
	BlockNum             uint32                     // block_num
	BlockID              antelope.Checksum256       // block_id
	TrxID                antelope.Checksum256       // trx_id
	Producer             antelope.Name              // producer
	Contract             antelope.Name              // act.account
	Name                 antelope.Name              // act.name
	Authorization        []antelope.PermissionLevel // act.authorization
	Data                 json.RawMessage            // act.data as Hyperion wrote it: an object, or hex (a string) when it could not deserialize it
	Receipts             []Receipt                  // one per account that ran it: the contract and each notified account
	GlobalSequence       uint64                     // the first receipt's
	ActionOrdinal        uint32                     // its position in the transaction (1-based)
	CreatorActionOrdinal uint32                     // the action that sent it; 0 for a top-level action
	CPUUsageUs           uint32                     // the transaction's CPU (µs)
	NetUsageWords        uint32                     // the transaction's NET (8-byte words)
	Signatures           []string                   // the transaction's signatures, when Hyperion kept them
}

// Receipt is one account's execution of an action.
type Receipt struct {
	Receiver       antelope.Name  // the account that ran it
	GlobalSequence uint64         // the chain-wide execution order
	RecvSequence   uint64         // the receiver's own action counter
	AuthSequence   []AuthSequence // each authorizer's sequence
}

// AuthSequence is an authorizer's sequence number.
type AuthSequence struct {
	Account  antelope.Name // the authorizer
	Sequence uint64        // its sequence number
}

// Delta is one row change of get_deltas: a contract table row as of the end
// of its block.
type Delta struct {
	Timestamp  time.Time            // the block's time
	BlockNum   uint32               // block_num
	BlockID    antelope.Checksum256 // block_id
	Present    bool                 // false: the row was removed
	Code       antelope.Name        // the contract
	Scope      antelope.Name        // the table's scope
	Table      antelope.Name        // the table
	PrimaryKey uint64               // the row's primary key
	Payer      antelope.Name        // the account paying for its RAM
	Data       json.RawMessage      // the row as Hyperion wrote it; nil when it could not
	Value      []byte               // the packed row, when Hyperion kept it (it could not deserialize it)
}

// Total is Elasticsearch's hit count: Relation "gte" means at least Value.
type Total struct {
	Value    uint64 // the count
	Relation string // "eq", or "gte" for a lower bound
}

// Meta is what every answer carries about the index.
type Meta struct {
	QueryTimeMS          float64 // query_time_ms
	Cached               bool    // answered from Hyperion's cache
	LastIndexedBlock     uint32  // last_indexed_block: the index is complete up to here
	LastIndexedBlockTime string  // last_indexed_block_time
	LIB                  uint32  // lib: the last irreversible block, when Hyperion said (checkLib)
	Total                Total   // the hits of the query, all pages
}

// ActionsPage is a get_actions answer.
type ActionsPage struct {
	Meta
	Actions []Action // the page's actions, in the order asked
}

// DeltasPage is a get_deltas answer.
type DeltasPage struct {
	Meta
	Deltas []Delta // the page's row changes, by block
}

// flex is an integer Hyperion may write as a JSON number or a string.
type flex string

func (f *flex) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return fmt.Errorf("empty value")
	case string(b) == "null":
		*f = ""
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = flex(s)
	case b[0] == '-' || b[0] >= '0' && b[0] <= '9':
		// Hyperion is JavaScript: a number it writes was a float64, and
		// from 2^53 on neighbouring integers share one, so such a number
		// may not be the value the chain has.
		if x, err := strconv.ParseFloat(string(b), 64); err == nil && math.Abs(x) >= 1<<53 {
			return fmt.Errorf("%s is a JSON number at or above 2^53, which a JavaScript server may have rounded", truncate(b))
		}
		*f = flex(b)
	case string(b) == "true":
		*f = "1"
	case string(b) == "false":
		*f = "0"
	default:
		return fmt.Errorf("%s is not a number", truncate(b))
	}
	return nil
}

func (f flex) uint(bits int, what string) (uint64, error) {
	if f == "" {
		return 0, nil
	}
	v, err := strconv.ParseUint(string(f), 10, bits)
	if err != nil {
		// A JSON number may be written 1e3 or 1000.0.
		if x, ferr := strconv.ParseFloat(string(f), 64); ferr == nil && x >= 0 && x == float64(uint64(x)) && x < 1<<53 && (bits == 64 || uint64(x) < 1<<bits) {
			return uint64(x), nil
		}
		return 0, fmt.Errorf("%s %q is not a %d-bit unsigned integer", what, string(f), bits)
	}
	return v, nil
}

// jsFloat is a float Hyperion may write as a JSON number or a string: kept
// as its text, at any size.
type jsFloat string

func (f *jsFloat) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*f = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = jsFloat(s)
	case len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9'):
		*f = jsFloat(b)
	default:
		return fmt.Errorf("%s is not a number", truncate(b))
	}
	return nil
}

func (f jsFloat) float() float64 {
	x, _ := strconv.ParseFloat(string(f), 64)
	return x
}

// jsonName is a name that may be empty.
type jsonName string

func (n jsonName) name(what string) (antelope.Name, error) {
	if n == "" {
		return 0, nil
	}
	v, err := antelope.ParseName(string(n))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

type wireMeta struct {
	QueryTimeMS          jsFloat `json:"query_time_ms"`
	Cached               bool    `json:"cached"`
	LastIndexedBlock     flex    `json:"last_indexed_block"`
	LastIndexedBlockTime string  `json:"last_indexed_block_time"`
	LIB                  flex    `json:"lib"`
	Total                *struct {
		Value    flex   `json:"value"`
		Relation string `json:"relation"`
	} `json:"total"`
}

func (w *wireMeta) meta() (Meta, error) {
	m := Meta{QueryTimeMS: w.QueryTimeMS.float(), Cached: w.Cached, LastIndexedBlockTime: w.LastIndexedBlockTime}
	var errs [3]error
	var lib, last uint64
	last, errs[0] = w.LastIndexedBlock.uint(32, "last_indexed_block")
	lib, errs[1] = w.LIB.uint(32, "lib")
	m.LastIndexedBlock, m.LIB = uint32(last), uint32(lib)
	if w.Total != nil {
		m.Total.Relation = w.Total.Relation
		m.Total.Value, errs[2] = w.Total.Value.uint(64, "total")
	}
	for _, err := range errs {
		if err != nil {
			return m, err
		}
	}
	return m, nil
}

type wireAction struct {
	Timestamp  string   `json:"@timestamp"`
	Timestamp2 string   `json:"timestamp"`
	BlockNum   flex     `json:"block_num"`
	BlockID    string   `json:"block_id"`
	TrxID      string   `json:"trx_id"`
	Producer   jsonName `json:"producer"`
	Act        struct {
		Account       jsonName `json:"account"`
		Name          jsonName `json:"name"`
		Authorization []struct {
			Actor      jsonName `json:"actor"`
			Permission jsonName `json:"permission"`
		} `json:"authorization"`
		Data json.RawMessage `json:"data"`
	} `json:"act"`
	Receipts []struct {
		Receiver       jsonName `json:"receiver"`
		GlobalSequence flex     `json:"global_sequence"`
		RecvSequence   flex     `json:"recv_sequence"`
		AuthSequence   []struct {
			Account  jsonName `json:"account"`
			Sequence flex     `json:"sequence"`
		} `json:"auth_sequence"`
	} `json:"receipts"`
	GlobalSequence       flex     `json:"global_sequence"`
	ActionOrdinal        flex     `json:"action_ordinal"`
	CreatorActionOrdinal flex     `json:"creator_action_ordinal"`
	CPUUsageUs           flex     `json:"cpu_usage_us"`
	NetUsageWords        flex     `json:"net_usage_words"`
	Signatures           []string `json:"signatures"`
}

// errs collects the first error of a conversion.
type errs struct{ err error }

func (e *errs) u(f flex, bits int, what string) uint64 {
	v, err := f.uint(bits, what)
	if e.err == nil {
		e.err = err
	}
	return v
}

func (e *errs) n(n jsonName, what string) antelope.Name {
	v, err := n.name(what)
	if e.err == nil {
		e.err = err
	}
	return v
}

func (e *errs) id(s, what string) antelope.Checksum256 {
	var c antelope.Checksum256
	if s == "" {
		return c
	}
	b, err := hex.DecodeString(s)
	if (err != nil || len(b) != len(c)) && e.err == nil {
		e.err = fmt.Errorf("%s %q is not 32 bytes of hex", what, truncate([]byte(s)))
	}
	copy(c[:], b)
	return c
}

func (e *errs) time(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := parseTime(s)
	if err != nil && e.err == nil {
		e.err = err
	}
	return t
}

// parseTime reads Hyperion's @timestamp: ISO 8601 in UTC, with or without
// the zone and milliseconds.
func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("timestamp %q is not an ISO 8601 time", truncate([]byte(s)))
}

func (w *wireAction) action() (Action, error) {
	var e errs
	a := Action{
		BlockNum:             uint32(e.u(w.BlockNum, 32, "block_num")),
		BlockID:              e.id(w.BlockID, "block_id"),
		TrxID:                e.id(w.TrxID, "trx_id"),
		Producer:             e.n(w.Producer, "producer"),
		Contract:             e.n(w.Act.Account, "act.account"),
		Name:                 e.n(w.Act.Name, "act.name"),
		Data:                 w.Act.Data,
		GlobalSequence:       e.u(w.GlobalSequence, 64, "global_sequence"),
		ActionOrdinal:        uint32(e.u(w.ActionOrdinal, 32, "action_ordinal")),
		CreatorActionOrdinal: uint32(e.u(w.CreatorActionOrdinal, 32, "creator_action_ordinal")),
		CPUUsageUs:           uint32(e.u(w.CPUUsageUs, 32, "cpu_usage_us")),
		NetUsageWords:        uint32(e.u(w.NetUsageWords, 32, "net_usage_words")),
		Signatures:           w.Signatures,
	}
	ts := w.Timestamp
	if ts == "" {
		ts = w.Timestamp2
	}
	a.Timestamp = e.time(ts)
	for _, p := range w.Act.Authorization {
		a.Authorization = append(a.Authorization, antelope.PermissionLevel{Actor: e.n(p.Actor, "actor"), Permission: e.n(p.Permission, "permission")})
	}
	for _, r := range w.Receipts {
		rc := Receipt{Receiver: e.n(r.Receiver, "receiver"), GlobalSequence: e.u(r.GlobalSequence, 64, "receipt global_sequence"),
			RecvSequence: e.u(r.RecvSequence, 64, "recv_sequence")}
		for _, s := range r.AuthSequence {
			rc.AuthSequence = append(rc.AuthSequence, AuthSequence{Account: e.n(s.Account, "auth_sequence account"), Sequence: e.u(s.Sequence, 64, "auth_sequence")})
		}
		a.Receipts = append(a.Receipts, rc)
	}
	if e.err == nil && (a.Contract == 0 || a.Name == 0) {
		e.err = fmt.Errorf("an action without act.account or act.name")
	}
	if e.err != nil {
		return a, fmt.Errorf("action of block %d: %w", a.BlockNum, e.err)
	}
	return a, nil
}

// parseActions is ParseActions before its error is scrubbed.
func parseActions(body []byte) (*ActionsPage, error) {
	var w struct {
		wireMeta
		Actions       *[]wireAction     `json:"actions"`
		SimpleActions *[]map[string]any `json:"simple_actions"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, answerErr("get_actions", body, err)
	}
	if w.Actions == nil {
		if w.SimpleActions != nil {
			return nil, fmt.Errorf("hyperion: get_actions answered simple_actions, which this client does not ask for")
		}
		return nil, answerErr("get_actions", body, fmt.Errorf("no actions list"))
	}
	m, err := w.meta()
	if err != nil {
		return nil, answerErr("get_actions", body, err)
	}
	p := &ActionsPage{Meta: m, Actions: make([]Action, 0, len(*w.Actions))}
	for i := range *w.Actions {
		a, err := (*w.Actions)[i].action()
		if err != nil {
			return nil, answerErr("get_actions", nil, err)
		}
		p.Actions = append(p.Actions, a)
	}
	return p, nil
}

type wireDelta struct {
	Timestamp  string          `json:"@timestamp"`
	Timestamp2 string          `json:"timestamp"`
	BlockNum   flex            `json:"block_num"`
	BlockID    string          `json:"block_id"`
	Present    flex            `json:"present"`
	Code       jsonName        `json:"code"`
	Scope      jsonName        `json:"scope"`
	Table      jsonName        `json:"table"`
	PrimaryKey flex            `json:"primary_key"`
	Payer      jsonName        `json:"payer"`
	Data       json.RawMessage `json:"data"`
	Value      string          `json:"value"`
}

func (w *wireDelta) delta() (Delta, error) {
	var e errs
	d := Delta{
		BlockNum:   uint32(e.u(w.BlockNum, 32, "block_num")),
		BlockID:    e.id(w.BlockID, "block_id"),
		Code:       e.n(w.Code, "code"),
		Scope:      e.scope(w.Scope),
		Table:      e.n(w.Table, "table"),
		PrimaryKey: e.u(w.PrimaryKey, 64, "primary_key"),
		Payer:      e.n(w.Payer, "payer"),
	}
	if len(w.Data) > 0 && string(w.Data) != "null" {
		d.Data = w.Data
	}
	ts := w.Timestamp
	if ts == "" {
		ts = w.Timestamp2
	}
	d.Timestamp = e.time(ts)
	switch w.Present {
	case "1", "true":
		d.Present = true
	case "0", "false", "":
	default:
		if e.err == nil {
			e.err = fmt.Errorf("present %q is neither 0 nor 1", string(w.Present))
		}
	}
	if w.Value != "" {
		v, err := hex.DecodeString(w.Value)
		if err != nil && e.err == nil {
			e.err = fmt.Errorf("value: %w", err)
		}
		d.Value = v
	}
	if e.err == nil && (d.Code == 0 || d.Table == 0) {
		e.err = fmt.Errorf("a delta without code or table")
	}
	if e.err != nil {
		return d, fmt.Errorf("delta of block %d: %w", d.BlockNum, e.err)
	}
	return d, nil
}

// scope reads a table scope: a name, or a number Hyperion's deserializer
// wrote as such (a scope is a uint64 that need not be a valid name text).
func (e *errs) scope(n jsonName) antelope.Name {
	if n == "" {
		return 0
	}
	if v, err := antelope.ParseName(string(n)); err == nil {
		return v
	}
	if v, err := strconv.ParseUint(string(n), 10, 64); err == nil {
		return antelope.Name(v)
	}
	return e.n(n, "scope")
}

// parseDeltas is ParseDeltas before its error is scrubbed.
func parseDeltas(body []byte) (*DeltasPage, error) {
	var w struct {
		wireMeta
		Deltas *[]wireDelta `json:"deltas"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, answerErr("get_deltas", body, err)
	}
	if w.Deltas == nil {
		return nil, answerErr("get_deltas", body, fmt.Errorf("no deltas list"))
	}
	m, err := w.meta()
	if err != nil {
		return nil, answerErr("get_deltas", body, err)
	}
	p := &DeltasPage{Meta: m, Deltas: make([]Delta, 0, len(*w.Deltas))}
	for i := range *w.Deltas {
		d, err := (*w.Deltas)[i].delta()
		if err != nil {
			return nil, answerErr("get_deltas", nil, err)
		}
		p.Deltas = append(p.Deltas, d)
	}
	return p, nil
}

// answerErr is an answer this client cannot read. A get_deltas error in
// Hyperion 4.x is a bare JSON string ("invalid limit parameter") with
// status 200: its text is shown.
func answerErr(route string, body []byte, err error) error {
	var s string
	if json.Unmarshal(body, &s) == nil && s != "" {
		return &Error{Route: route, Status: 200, Message: s}
	}
	if body != nil {
		return fmt.Errorf("hyperion %s: unexpected answer (%v): %s", route, err, truncate(body))
	}
	return fmt.Errorf("hyperion %s: %w", route, err)
}

func truncate(b []byte) string {
	s := strings.ToValidUTF8(string(b), "?")
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

var errNoList = errors.New("no accounts list")
