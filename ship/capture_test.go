package ship

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/protocol"
)

// The captures in testdata are real state-history messages (see
// testdata/README.md) with abieos's decoding of each. Every part decodes
// with the generated protocol types to exactly what abieos read (abieos's
// JSON, read back by the same types, gives the same values), re-encodes to
// the same bytes, and the in-place walks see the same actions and rows.

type abieosCapture struct {
	Type         string            `json:"type"`
	Result       json.RawMessage   `json:"result"`
	Block        json.RawMessage   `json:"block"`
	Traces       []json.RawMessage `json:"traces"`
	Deltas       []json.RawMessage `json:"deltas"`
	Transactions []struct {
		Index       int             `json:"index"`
		Transaction json.RawMessage `json:"transaction"`
	} `json:"transactions"`
	DeltaRows []struct {
		Name string `json:"name"`
		Rows []struct {
			Present bool            `json:"present"`
			Data    json.RawMessage `json:"data"`
		} `json:"rows"`
	} `json:"delta_rows"`
}

func readCapture(t *testing.T, name string) ([]byte, abieosCapture) {
	t.Helper()
	bin, err := os.ReadFile(filepath.Join("testdata", name+".bin"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join("testdata", name+".abieos.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var c abieosCapture
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	return bin, c
}

type codec interface {
	antelope.BinaryDecodable
	antelope.BinaryAppender
	UnmarshalJSON([]byte) error
}

// sameAsAbieos decodes bin as v, abieos's JSON as a second value of v's
// type, and compares them; then re-encodes v.
func sameAsAbieos(t *testing.T, what string, bin []byte, abieos json.RawMessage, v codec) {
	t.Helper()
	d := antelope.NewDecoder(bin)
	d.SetLimits(antelope.DecodeLimits{MaxBytesLength: len(bin), MaxArrayElements: len(bin)})
	if err := v.DecodeBinary(d); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := d.Finish(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	want := reflect.New(reflect.TypeOf(v).Elem()).Interface().(codec)
	if err := want.UnmarshalJSON(abieos); err != nil {
		t.Fatalf("%s: abieos's JSON: %v", what, err)
	}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("%s: decoded value differs from abieos's", what)
	}
	again, err := v.AppendBinary(nil)
	if err != nil || !bytes.Equal(again, bin) {
		t.Errorf("%s: re-encoding differs (%v)", what, err)
	}
}

func decodeList[T any, P interface {
	*T
	antelope.BinaryDecodable
}](t *testing.T, bin []byte) []T {
	t.Helper()
	d := antelope.NewDecoder(bin)
	n, err := d.Length("list", 1)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]T, n)
	for i := range out {
		if err := P(&out[i]).DecodeBinary(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	return out
}

// elements splits a list's binary encoding into its elements' encodings.
func elements[T any, P interface {
	*T
	antelope.BinaryDecodable
}](t *testing.T, bin []byte) [][]byte {
	d := antelope.NewDecoder(bin)
	n, _ := d.Length("list", 1)
	var out [][]byte
	for range n {
		start := d.Offset()
		var v T
		if err := P(&v).DecodeBinary(d); err != nil {
			t.Fatal(err)
		}
		out = append(out, bin[start:d.Offset()])
	}
	return out
}

var captures = []string{"eos-279028468-result", "eosgo-block32-deltas-result", "eosgo-block32-table_deltas",
	"eosgo-block4-result", "eosgo-block5-bare-result", "eosgo-block5-result", "synthetic-blocks-bare-result",
	"synthetic-status-v0", "wax-40938911-result", "waxdev-25077-return_value-result"}

func TestCapturesEqualAbieos(t *testing.T) {
	p, err := negotiate(protocol.ABIJSON)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range captures {
		t.Run(name, func(t *testing.T) {
			bin, c := readCapture(t, name)
			var traces, deltas, block []byte
			switch c.Type {
			case "result":
				sameAsAbieos(t, "result", bin, c.Result, new(protocol.Result))
				kind, w, err := p.resultKind(bin)
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(kind, "get_status") {
					if _, err := parseStatus(kind, w.data[w.pos:]); err != nil {
						t.Fatal(err)
					}
					return
				}
				r, err := parseBlocks(w, kind == "get_blocks_result_v1")
				if err != nil {
					t.Fatal(err)
				}
				traces, deltas, block = r.traces, r.deltas, r.block
			case "table_delta[]":
				deltas = bin
			default:
				t.Fatalf("type %q", c.Type)
			}
			if block != nil {
				var sb protocol.SignedBlock
				sameAsAbieos(t, "block", block, c.Block, &sb)
				if len(c.Transactions) == 0 && len(sb.Transactions) > 0 {
					t.Error("abieos decoded no transactions")
				}
				for _, tx := range c.Transactions {
					pt, ok := sb.Transactions[tx.Index].Trx.Value.(*protocol.PackedTransaction)
					if !ok {
						t.Fatalf("transaction %d is not packed", tx.Index)
					}
					sameAsAbieos(t, "transaction", pt.PackedTrx, tx.Transaction, new(protocol.Transaction))
				}
			}
			if traces != nil {
				parts := elements[protocol.TransactionTrace](t, traces)
				if len(parts) != len(c.Traces) {
					t.Fatalf("%d traces, abieos %d", len(parts), len(c.Traces))
				}
				for i := range parts {
					sameAsAbieos(t, "trace", parts[i], c.Traces[i], new(protocol.TransactionTrace))
				}
				checkTraceWalk(t, p, traces)
			}
			if deltas != nil {
				parts := elements[protocol.TableDelta](t, deltas)
				if len(parts) != len(c.Deltas) || len(c.DeltaRows) != len(parts) {
					t.Fatalf("%d deltas, abieos %d", len(parts), len(c.Deltas))
				}
				for i := range parts {
					sameAsAbieos(t, "delta", parts[i], c.Deltas[i], new(protocol.TableDelta))
				}
				all := decodeList[protocol.TableDelta](t, deltas)
				for i, td := range all {
					v := td.Value.(*protocol.TableDeltaV0)
					for j, row := range v.Rows {
						got, err := protocol.DecodeTableRow(v.Name, row.Data)
						if err != nil {
							t.Fatalf("%s row %d: %v", v.Name, j, err)
						}
						sameAsAbieos(t, v.Name+" row", row.Data, c.DeltaRows[i].Rows[j].Data, got.(codec))
					}
				}
				checkDeltaWalk(t, p, deltas, all)
			}
		})
	}
}

type walked struct {
	contract, name, receiver antelope.Name
	seq                      uint64
	ordinal, creator         uint32
	data, console, ret       string
	receipt                  bool
	tx                       antelope.Checksum256
	auth                     []antelope.PermissionLevel
}

// checkTraceWalk compares the in-place walk with the generated decoding.
func checkTraceWalk(t *testing.T, p *protocolMap, traces []byte) {
	t.Helper()
	var want []walked
	for _, tt := range decodeList[protocol.TransactionTrace](t, traces) {
		tx := tt.Value.(*protocol.TransactionTraceV0)
		var acts []walked
		for _, at := range tx.ActionTraces {
			var w walked
			var receipt *protocol.ActionReceipt
			switch a := at.Value.(type) {
			case *protocol.ActionTraceV0:
				w = walked{contract: a.Act.Account, name: a.Act.Name, receiver: a.Receiver, ordinal: uint32(a.ActionOrdinal),
					creator: uint32(a.CreatorActionOrdinal), data: string(a.Act.Data), console: a.Console}
				receipt = a.Receipt
				for _, pl := range a.Act.Authorization {
					w.auth = append(w.auth, antelope.PermissionLevel{Actor: pl.Actor, Permission: pl.Permission})
				}
			case *protocol.ActionTraceV1:
				w = walked{contract: a.Act.Account, name: a.Act.Name, receiver: a.Receiver, ordinal: uint32(a.ActionOrdinal),
					creator: uint32(a.CreatorActionOrdinal), data: string(a.Act.Data), console: a.Console, ret: string(a.ReturnValue)}
				receipt = a.Receipt
				for _, pl := range a.Act.Authorization {
					w.auth = append(w.auth, antelope.PermissionLevel{Actor: pl.Actor, Permission: pl.Permission})
				}
			}
			if receipt != nil {
				w.receipt, w.seq = true, receipt.Value.(*protocol.ActionReceiptV0).GlobalSequence
			}
			w.tx = tx.ID
			w.auth = append([]antelope.PermissionLevel{}, w.auth...)
			acts = append(acts, w)
		}
		all := true
		for _, a := range acts {
			all = all && a.receipt
		}
		if all {
			slices.SortStableFunc(acts, func(a, b walked) int { return int(a.seq) - int(b.seq) })
		}
		want = append(want, acts...)
	}
	var got []walked
	b := &Block{p: p, Traces: traces}
	for a, err := range b.Actions(WithNotifications(), WithFailed()) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, walked{contract: a.Contract, name: a.Name, receiver: a.Receiver, seq: a.GlobalSequence,
			ordinal: a.ActionOrdinal, creator: a.CreatorActionOrdinal, data: string(a.Data), console: string(a.Console),
			ret: string(a.ReturnValue), receipt: a.HasReceipt, tx: a.TransactionID, auth: append([]antelope.PermissionLevel{}, a.Authorization()...)})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("walk: %d actions, decoding: %d; they differ", len(got), len(want))
	}
	if len(got) == 0 {
		t.Error("no actions walked")
	}
}

func checkDeltaWalk(t *testing.T, p *protocolMap, deltas []byte, all []protocol.TableDelta) {
	t.Helper()
	type row struct {
		table   string
		present bool
		data    string
	}
	var want, got []row
	var wantRows []RowChange
	for _, td := range all {
		v := td.Value.(*protocol.TableDeltaV0)
		for _, r := range v.Rows {
			want = append(want, row{v.Name, r.Present, string(r.Data)})
			if v.Name == "contract_row" {
				var cr protocol.ContractRow
				if err := cr.UnmarshalBinary(r.Data); err != nil {
					t.Fatal(err)
				}
				c := cr.Value.(*protocol.ContractRowV0)
				wantRows = append(wantRows, RowChange{Present: r.Present, Code: c.Code, Scope: c.Scope, Table: c.Table,
					PrimaryKey: c.PrimaryKey, Payer: c.Payer, Value: c.Value})
			}
		}
	}
	b := &Block{p: p, Deltas: deltas}
	for d, err := range b.TableDeltas() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, row{d.Table, d.Present, string(d.Data)})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("delta walk differs from decoding")
	}
	var gotRows []RowChange
	for r, err := range b.Rows() {
		if err != nil {
			t.Fatal(err)
		}
		c := *r
		c.Block = nil
		gotRows = append(gotRows, c)
	}
	if !reflect.DeepEqual(gotRows, wantRows) {
		t.Errorf("row walk: %v, decoding %v", gotRows, wantRows)
	}
}

// A real Telos traces array whose console is not valid UTF-8
// (testdata/README.md): it decodes, walks, prints as JSON and re-encodes.
func TestNonUTF8Console(t *testing.T) {
	traces, err := os.ReadFile("testdata/telos-nonutf8-console-traces.bin")
	if err != nil {
		t.Fatal(err)
	}
	console, err := os.ReadFile("testdata/telos-nonutf8-console.bin")
	if err != nil {
		t.Fatal(err)
	}
	list := decodeList[protocol.TransactionTrace](t, traces)
	var again []byte
	again = antelope.AppendVarUint32(again, uint32(len(list)))
	for i := range list {
		if again, err = list[i].AppendBinary(again); err != nil {
			t.Fatal(err)
		}
		if _, err := list[i].MarshalJSON(); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(again, traces) {
		t.Error("re-encoding differs")
	}
	p, _ := negotiate(protocol.ABIJSON)
	checkTraceWalk(t, p, traces)
	found := false
	for a, err := range (&Block{p: p, Traces: traces}).Actions(WithNotifications(), WithFailed()) {
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Console) > 0 {
			found = true
			if !bytes.Equal(a.Console, console) {
				t.Error("console differs")
			}
		}
	}
	if !found {
		t.Error("no console")
	}
}

func readFile(t *testing.T, name string) ([]byte, error) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b, nil
}
