package bench

import (
	"context"
	"os"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/protocol"
	"github.com/antelopego/abigen/ship/shiptest"
)

// SHiP: the client's cost per block, on one core, through the real stream
// (negotiation, envelope, fork tracking, events) over a replaying
// connection instead of a websocket. The dense block is made of real
// captures (../ship/testdata): the transaction traces of EOS, WAX and the
// eos-go chain replicated to 108 transactions, and the table deltas of
// eos-go's block 5 (without its code and ABI rows) to 476 rows — about what
// a dense WAX block carries (~478 deltas) — plus 20 eosio.token transfers
// with their notifications and balance rows, the one contract followed.

const denseTransfers = 20

func readCapture(tb testing.TB, name string) *protocol.GetBlocksResultV0 {
	data, err := os.ReadFile("../ship/testdata/" + name + ".bin")
	if err != nil {
		tb.Fatal(err)
	}
	var r protocol.Result
	if err := r.UnmarshalBinary(data); err != nil {
		tb.Fatal(err)
	}
	return r.Value.(*protocol.GetBlocksResultV0)
}

func decodeList[T any, P interface {
	*T
	antelope.BinaryDecodable
}](tb testing.TB, data []byte) []T {
	d := antelope.NewDecoder(data)
	n, err := d.Length("list", 1)
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]T, n)
	for i := range out {
		if err := P(&out[i]).DecodeBinary(d); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

func encodeList[T any, P interface {
	*T
	antelope.BinaryAppender
}](list []T) []byte {
	b := antelope.AppendVarUint32(nil, uint32(len(list)))
	for i := range list {
		b, _ = P(&list[i]).AppendBinary(b)
	}
	return b
}

var (
	benchToken = antelope.MustName("eosio.token")
	benchBob   = antelope.MustName("bob")
)

// blockMessage builds a get_blocks_result_v0 with this_block and prev_block
// present (the replay rewrites them), from traces and deltas.
func blockMessage(tb testing.TB, traces, deltas []byte) []byte {
	block := readCapture(tb, "eos-279028468-result").Block
	r := protocol.Result{Value: &protocol.GetBlocksResultV0{ThisBlock: &protocol.BlockPosition{}, PrevBlock: &protocol.BlockPosition{},
		Block: block, Traces: &traces, Deltas: &deltas}}
	msg, err := r.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return msg
}

func tokenTransfers(tb testing.TB, n int) ([]shiptest.Transaction, []shiptest.Row) {
	var txs []shiptest.Transaction
	var rows []shiptest.Row
	alice, xfer := antelope.MustName("alice"), antelope.MustName("transfer")
	for i := range n {
		q := antelope.MustAsset("1.0000 WAX")
		q.Amount += int64(i)
		data, _ := (&eosiotoken.Transfer{From: alice, To: benchBob, Quantity: q, Memo: "deposit 12345"}).MarshalBinary()
		auth := []antelope.PermissionLevel{antelope.Active(alice)}
		txs = append(txs, shiptest.Transaction{Actions: []shiptest.Action{
			{Contract: benchToken, Name: xfer, Data: data, Authorization: auth},
			{Contract: benchToken, Name: xfer, Receiver: alice, Data: data, Authorization: auth},
			{Contract: benchToken, Name: xfer, Receiver: benchBob, Data: data, Authorization: auth}}})
		bal, _ := (&eosiotoken.Account{Balance: q}).MarshalBinary()
		rows = append(rows, shiptest.Row{Code: benchToken, Scope: benchBob, Table: antelope.MustName("accounts"),
			PrimaryKey: uint64(q.Symbol.Code), Payer: benchBob, Value: bal})
	}
	return txs, rows
}

// denseMessage is the dense block described above.
func denseMessage(tb testing.TB) []byte {
	var txs []protocol.TransactionTrace
	b5 := readCapture(tb, "eosgo-block5-result")
	b5traces := decodeList[protocol.TransactionTrace](tb, *b5.Traces)
	real := []protocol.TransactionTrace{b5traces[0], b5traces[2]}
	for _, name := range []string{"eos-279028468-result", "wax-40938911-result", "waxdev-25077-return_value-result"} {
		real = append(real, decodeList[protocol.TransactionTrace](tb, *readCapture(tb, name).Traces)...)
	}
	for len(txs) < 108 {
		txs = append(txs, real...)
	}
	var deltas []protocol.TableDelta
	for _, d := range decodeList[protocol.TableDelta](tb, *b5.Deltas) {
		if n := d.Value.(*protocol.TableDeltaV0).Name; n != "code" && n != "account" {
			deltas = append(deltas, d)
		}
	}
	rows := 0
	for _, d := range deltas {
		rows += len(d.Value.(*protocol.TableDeltaV0).Rows)
	}
	var all []protocol.TableDelta
	for n := 0; n < 476; n += rows {
		all = append(all, deltas...)
	}
	tt, tr := tokenTransfers(tb, denseTransfers)
	synthTraces := decodeList[protocol.TransactionTrace](tb, shiptest.EncodeTraces(1, 1, tt...))
	synthDeltas := decodeList[protocol.TableDelta](tb, shiptest.EncodeDeltas(tr, nil))
	for i := range synthTraces {
		txs = append(txs[:i*6], append([]protocol.TransactionTrace{synthTraces[i]}, txs[i*6:]...)...)
	}
	all = append(all, synthDeltas...)
	return blockMessage(tb, encodeList(txs), encodeList(all))
}

// transfersMessage is a block of denseTransfers eosio.token transfers and
// nothing else.
func transfersMessage(tb testing.TB) []byte {
	txs, _ := tokenTransfers(tb, denseTransfers)
	return blockMessage(tb, shiptest.EncodeTraces(1, 1, txs...), shiptest.EncodeDeltas(nil, nil))
}

// sparseMessage has one transaction and one row, of another contract.
func sparseMessage(tb testing.TB) []byte {
	r := readCapture(tb, "wax-40938911-result")
	deltas := shiptest.EncodeDeltas([]shiptest.Row{{Code: antelope.MustName("other"), Table: 1, Value: []byte{1}}}, nil)
	return blockMessage(tb, *r.Traces, deltas)
}

// replay is a Dialer whose connections send the SHiP ABI, then the same
// block message again and again, as consecutive linked blocks.
type replay struct{ msg []byte }

func (r replay) Dial(context.Context, string, int64) (ship.Conn, error) {
	return &replayConn{msg: r.msg}, nil
}

type replayConn struct {
	msg     []byte
	sentABI bool
	status  bool // a get_status request is to be answered
	n       uint32
}

func blockID(n uint32) (id antelope.Checksum256) {
	id[0], id[1], id[2], id[3] = byte(n>>24), byte(n>>16), byte(n>>8), byte(n)
	id[31] = 1
	return id
}

func putPosition(b []byte, n uint32) {
	b[0], b[1], b[2], b[3] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
	id := blockID(n)
	copy(b[4:36], id[:])
}

func (c *replayConn) ReadMessage(_ context.Context, buf []byte) (bool, []byte, error) {
	if !c.sentABI {
		c.sentABI = true
		return true, append(buf[:0], protocol.ABIJSON...), nil
	}
	if c.status {
		c.status = false
		st := protocol.GetStatusResultV0{Head: protocol.BlockPosition{BlockNum: 1 << 30, BlockID: blockID(1 << 30)}, TraceBeginBlock: 1, TraceEndBlock: 1 << 30,
			ChainStateBeginBlock: 1, ChainStateEndBlock: 1 << 30}
		st.ChainID = antelope.NewExt(antelope.Checksum256{1})
		msg, err := st.AppendBinary(append(buf[:0], 0)) // result index 0: get_status_result_v0
		return false, msg, err
	}
	c.n++
	buf = append(buf[:0], c.msg...)
	// variant index (1), head (36), last_irreversible (36), then this_block
	// and prev_block, each after its presence flag.
	putPosition(buf[1:], c.n)
	putPosition(buf[37:], max(c.n, 3)-2)
	putPosition(buf[74:], c.n)
	putPosition(buf[111:], c.n-1)
	return false, buf, nil
}

// WriteMessage notes a get_status request (request index 0 for v0, 4 for
// v1), which the stream sends on every connection before get_blocks.
func (c *replayConn) WriteMessage(_ context.Context, msg []byte) error {
	c.status = len(msg) > 0 && (msg[0] == 0 || msg[0] == 4)
	return nil
}
func (c *replayConn) Close() error { return nil }

// stream runs fn on b.N blocks of msg.
func stream(b *testing.B, msg []byte, fn func(*ship.Block)) {
	client := ship.NewClient("replay", ship.WithDialer(replay{msg}))
	b.ReportAllocs()
	n := 0
	for ev, err := range client.Stream(context.Background(), ship.Request{Start: 1, End: uint32(b.N) + 1}) {
		if err != nil {
			b.Fatal(err)
		}
		if n == 0 {
			b.ResetTimer()
		}
		n++
		fn(ev.Block)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "blocks/s")
}

var sink int64

// followToken is what a deposit watcher does per block: its typed
// transfers and balance rows.
func followToken(b testing.TB) func(*ship.Block) {
	return func(blk *ship.Block) {
		for t, err := range ship.Actions(blk, eosiotoken.Actions.Transfer) {
			if err != nil {
				b.Fatal(err)
			}
			sink += t.Data.Quantity.Amount
		}
		for r, err := range ship.Rows(blk, eosiotoken.TableAccounts) {
			if err != nil {
				b.Fatal(err)
			}
			sink += r.New.Balance.Amount
		}
	}
}

// otherContract walks every action and row for a contract that has none.
func otherContract(b testing.TB) func(*ship.Block) {
	other := ship.OfContract(antelope.MustName("nobody"))
	return func(blk *ship.Block) {
		for _, err := range blk.Actions(other) {
			if err != nil {
				b.Fatal(err)
			}
		}
		for _, err := range blk.Rows(other) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkSHiP(b *testing.B) {
	dense, sparse := denseMessage(b), sparseMessage(b)
	b.Run("Dense/followToken", func(b *testing.B) { stream(b, dense, followToken(b)) })
	b.Run("Dense/otherContract", func(b *testing.B) { stream(b, dense, otherContract(b)) })
	b.Run("Sparse/otherContract", func(b *testing.B) { stream(b, sparse, otherContract(b)) })
	// A block of transfers only: what the typed sequence adds to the walk
	// per match, against the generated decoder alone.
	transfers := transfersMessage(b)
	b.Run("Transfers/typed", func(b *testing.B) {
		stream(b, transfers, func(blk *ship.Block) {
			for t, err := range ship.Actions(blk, eosiotoken.Actions.Transfer) {
				if err != nil {
					b.Fatal(err)
				}
				sink += t.Data.Quantity.Amount
			}
		})
	})
	b.Run("Transfers/walkOnly", func(b *testing.B) {
		stream(b, transfers, func(blk *ship.Block) {
			for a, err := range blk.Actions(ship.OfContract(benchToken), ship.Named(antelope.MustName("transfer"))) {
				if err != nil {
					b.Fatal(err)
				}
				sink += int64(len(a.Data))
			}
		})
	})
	// The generated decoder alone on the same transfers: what a typed match
	// costs beyond the walk ((followToken - otherContract) / transfers).
	txs, _ := tokenTransfers(b, denseTransfers)
	b.Run("Dense/generatedDecode", func(b *testing.B) {
		b.ReportAllocs()
		var v eosiotoken.Transfer
		for range b.N {
			for _, tx := range txs {
				if err := v.UnmarshalBinary(tx.Actions[0].Data); err != nil {
					b.Fatal(err)
				}
				sink += v.Quantity.Amount
			}
		}
	})
}

// An action or row of another contract costs no allocation: a dense block
// and a sparse one cost the same allocations, those of the per-block
// iterators.
func TestSHiPOtherContractsAllocateNothing(t *testing.T) {
	count := func(msg []byte) float64 {
		var blocks []*ship.Block
		client := ship.NewClient("replay", ship.WithDialer(replay{msg}))
		walk := otherContract(t)
		allocs := -1.0
		for ev, err := range client.Stream(context.Background(), ship.Request{Start: 1, End: 3}) {
			if err != nil {
				t.Fatal(err)
			}
			walk(ev.Block)
			allocs = testing.AllocsPerRun(20, func() { walk(ev.Block) })
			blocks = append(blocks, ev.Block)
		}
		return allocs
	}
	dense, sparse := count(denseMessage(t)), count(sparseMessage(t))
	if dense != sparse || dense > 12 {
		t.Errorf("allocations per block: dense %v, sparse %v", dense, sparse)
	}
}
