package randcontract_test

import (
	"context"
	"fmt"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/randcontract"
)

// Request a random number from orng.wax and read the job back, end to end
// against a local test chain whose orng.wax is a few lines of Go. Against
// WAX itself the client is chain.New("https://wax.example.io"), the key
// comes from the environment, and the rest is the same.
func Example_requestAndReadBack() {
	ctx := context.Background()
	node := chaintest.New()
	defer node.Close()
	game := antelope.MustName("mygamedapp")
	key := node.NewAccount(game)
	_ = node.SetContract(randcontract.DefaultAccount, randcontract.ABIJSON, fakeOracle)
	c := node.Client()

	act, err := randcontract.Default.Requestrand(randcontract.Requestrand{AssocID: 42, SigningValue: 0x1122334455667788, Caller: game},
		antelope.Active(game))
	if err != nil {
		panic(err)
	}
	res, err := c.Transact(ctx, key, act)
	if err != nil {
		panic(err)
	}
	fmt.Println("executed:", res.BlockNum > 0, len(res.Actions), "action")

	job, err := randcontract.TableJobsA.Get(ctx, c, randcontract.DefaultAccount, 0)
	if err != nil {
		panic(err)
	}
	fmt.Printf("job %d: assoc_id %d for %s\n", job.ID, job.AssocID, job.Caller)
	for job, err := range randcontract.TableJobsA.Rows(ctx, c, randcontract.DefaultAccount) {
		if err != nil {
			panic(err)
		}
		fmt.Println("pending:", job.ID)
	}
	// Output:
	// executed: true 1 action
	// job 0: assoc_id 42 for mygamedapp
	// pending: 0
}

// fakeOracle is a stand-in orng.wax: requestrand records a job.
func fakeOracle(ctx *chaintest.Context) error {
	if ctx.Action.Name != randcontract.ActionRequestrand {
		return nil
	}
	var req randcontract.Requestrand
	if err := ctx.Decode(&req); err != nil {
		return err
	}
	if err := ctx.RequireAuth(req.Caller); err != nil {
		return err
	}
	jobs := antelope.MustName("jobs.a")
	id := uint64(len(ctx.Rows(ctx.Receiver, jobs)))
	return ctx.SetValue(ctx.Receiver, jobs, id, &randcontract.JobsA{ID: id, AssocID: req.AssocID, SigningValue: req.SigningValue, Caller: req.Caller}, req.Caller)
}
