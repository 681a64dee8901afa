package chaintest_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
)

// A test of your own contract: a counter whose increment action requires
// the caller's authority and refuses to pass 3. The handler is ordinary Go
// over the action's bytes (with generated bindings you would Decode into
// the generated action type).
func Example_contractTest() {
	ctx := context.Background()
	node := chaintest.New()
	defer node.Close()
	counter, alice := antelope.MustName("counter"), antelope.MustName("alice")
	key := node.NewAccount(alice)
	const abi = `{"version":"eosio::abi/1.1","structs":[{"name":"inc","base":"","fields":[{"name":"who","type":"name"}]},` +
		`{"name":"count","base":"","fields":[{"name":"n","type":"uint64"}]}],` +
		`"actions":[{"name":"inc","type":"inc","ricardian_contract":""}],` +
		`"tables":[{"name":"counts","index_type":"i64","key_names":[],"key_types":[],"type":"count"}]}`
	counts := antelope.MustName("counts")
	err := node.SetContract(counter, []byte(abi), func(x *chaintest.Context) error {
		var who antelope.Name
		if err := x.Decode(&who); err != nil {
			return err
		}
		if err := x.RequireAuth(who); err != nil {
			return err
		}
		var n uint64
		if data, _, found := x.Get(who, counts, 0); found {
			n, _ = antelope.NewDecoder(data).Uint64()
		}
		if err := x.Assert(n < 3, "enough counting"); err != nil {
			return err
		}
		return x.Set(who, counts, 0, antelope.AppendUint64(nil, n+1), who)
	})
	if err != nil {
		panic(err)
	}
	c := node.Client()
	inc := antelope.Action{Account: counter, Name: antelope.MustName("inc"),
		Authorization: []antelope.PermissionLevel{antelope.Active(alice)},
		Data:          antelope.AppendUint64(nil, uint64(alice))}
	for i := range 4 {
		// The same action twice in one block would be the same transaction:
		// let the chain move on between sends.
		node.Produce()
		_, err := c.Transact(ctx, key, inc)
		if msg, refused := chain.AssertMessage(err); refused {
			fmt.Printf("send %d: refused: %s\n", i+1, msg)
			continue
		}
		if err != nil {
			panic(err)
		}
		fmt.Printf("send %d: ok\n", i+1)
	}
	// Output:
	// send 1: ok
	// send 2: ok
	// send 3: ok
	// send 4: refused: enough counting
}

// Testing code against the hostile node: a node that executes a
// transaction and then times out writing the answer, and one that refuses
// every retry as a lagging node would. chain.Client resends the same signed
// bytes and reports what the answers and the chain prove — executed
// (AlreadySubmitted: here the blocks since the send hold it, though the
// node has no get_transaction_status), or unknown with the id — never
// "refused", which would make a caller rebuild and pay twice. Your own
// send or retry logic can be run through the same misbehaviors.
func Example_hostileNode() {
	ctx := context.Background()
	node := chaintest.New(chaintest.WithoutTransactionStatus())
	defer node.Close()
	alice, pinger := antelope.MustName("alice"), antelope.MustName("pinger")
	key := node.NewAccount(alice)
	const abi = `{"version":"eosio::abi/1.1","structs":[{"name":"ping","base":"","fields":[]}],` +
		`"actions":[{"name":"ping","type":"ping","ricardian_contract":""}]}`
	if err := node.SetContract(pinger, []byte(abi), func(*chaintest.Context) error { return nil }); err != nil {
		panic(err)
	}
	ping := antelope.Action{Account: pinger, Name: antelope.MustName("ping"),
		Authorization: []antelope.PermissionLevel{antelope.Active(alice)}, Data: []byte{}}
	c := node.Client()

	before := node.Stats().Executions
	node.Misbehave(chaintest.TimeoutAfterExecuting, 1)
	res, err := c.Transact(ctx, key, ping)
	fmt.Println("timeout after executing:", err, res.AlreadySubmitted, node.Stats().Executions-before)

	node.Produce()
	before = node.Stats().Executions
	node.MisbehaveInTurn(chaintest.LoseAfterExecuting, chaintest.RefuseAsLagging, chaintest.RefuseAsLagging, chaintest.RefuseAsLagging)
	res, err = c.Transact(ctx, key, ping)
	var unknown *chain.UnknownOutcomeError
	fmt.Println("lost, then refused:", errors.As(err, &unknown), errors.Is(err, chain.ErrBadTAPoS), res != nil && res.AlreadySubmitted, node.Stats().Executions-before)
	// Output:
	// timeout after executing: <nil> true 1
	// lost, then refused: false false true 1
}
