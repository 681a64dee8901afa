package chain_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// Paying for resources against chaintest: an account without CPU or NET,
// a cosigner, and the fake resource provider in each of its modes.

var (
	dapp, fuel = antelope.MustName("dapp"), antelope.MustName("fuel")
	tokenAcct  = eosioToken
	noopAcct   = antelope.MustName("greymassnoop")
	sys        = antelope.MustSymbol("4,SYS")
)

func sysAmount(units int64) antelope.Asset { return antelope.Asset{Amount: units, Symbol: sys} }

// payChain is a chain with eosio.token and SYS, alice holding 100 SYS and
// no CPU or NET at all, bob, and dapp, whose permission paybw (payKey)
// pays through greymassnoop::noop.
type payChain struct {
	node   *chaintest.Chain
	c      *chain.Client
	alice  antelope.PrivateKey
	payKey antelope.PrivateKey
}

func newPayChain(t *testing.T, opts ...chaintest.Option) *payChain {
	t.Helper()
	node := chaintest.New(append([]chaintest.Option{chaintest.WithoutNetwork()}, opts...)...)
	t.Cleanup(node.Close)
	p := &payChain{node: node, c: node.Client()}
	p.alice = node.NewAccount(alice)
	node.NewAccount(bob)
	node.NewAccount(dapp)
	tokenKey := node.NewAccount(tokenAcct)
	if err := node.DeployToken(tokenAcct); err != nil {
		t.Fatal(err)
	}
	tok := eosiotoken.Contract{Account: tokenAcct}
	create, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: sysAmount(1_000_000_0000)}, antelope.Active(tokenAcct))
	issue, _ := tok.Issue(eosiotoken.Issue{To: alice, Quantity: sysAmount(100_0000)}, antelope.Active(alice))
	for _, step := range []struct {
		key antelope.PrivateKey
		act antelope.Action
	}{{tokenKey, create}, {p.alice, issue}} {
		if _, err := p.c.Transact(t.Context(), step.key, step.act); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	if p.payKey, err = antelope.GeneratePrivateKey(nil); err != nil {
		t.Fatal(err)
	}
	pub, _ := p.payKey.PublicKey()
	if err := node.SetPermission(dapp, antelope.MustName("paybw"), 0, chain.Authority{Threshold: 1, Keys: []chain.KeyWeight{{Key: pub, Weight: 1}}}); err != nil {
		t.Fatal(err)
	}
	if err := node.DeployNoop(noopAcct); err != nil {
		t.Fatal(err)
	}
	// As on WAX: paybw may authorize the noop contract's actions, nothing
	// else (an unlinked paybw is refused, as nodeos refuses it).
	if err := node.LinkPermission(dapp, noopAcct, 0, antelope.MustName("paybw")); err != nil {
		t.Fatal(err)
	}
	if err := node.SetResources(alice, 0, 0); err != nil {
		t.Fatal(err)
	}
	return p
}

// payTransfer is alice's transfer of units to bob.
func payTransfer(t *testing.T, units int64, memo string) antelope.Action {
	t.Helper()
	act, err := eosiotoken.Contract{Account: tokenAcct}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: sysAmount(units), Memo: memo}, antelope.Active(alice))
	if err != nil {
		t.Fatal(err)
	}
	return act
}

func (p *payChain) balance(t *testing.T, owner antelope.Name) int64 {
	t.Helper()
	bals, err := p.c.GetCurrencyBalance(t.Context(), tokenAcct, owner, "SYS")
	if err != nil {
		t.Fatal(err)
	}
	if len(bals) == 0 {
		return 0
	}
	return bals[0].Amount
}

func (p *payChain) used(t *testing.T, acct antelope.Name) chaintest.Resources {
	t.Helper()
	r, err := p.node.Resources(acct)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (p *payChain) cosigner() *chain.Cosigner {
	return &chain.Cosigner{Permission: antelope.PermissionLevel{Actor: dapp, Permission: antelope.MustName("paybw")}, Signer: p.payKey, NoopContract: noopAcct}
}

// watchedSigner counts its Sign calls and runs after() after each.
type watchedSigner struct {
	antelope.Signer
	mu    sync.Mutex
	calls int
	after func()
}

func (s *watchedSigner) Sign(ctx context.Context, req *antelope.SigningRequest) ([]antelope.Signature, error) {
	sigs, err := s.Signer.Sign(ctx, req)
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	if s.after != nil {
		s.after()
	}
	return sigs, err
}

func (s *watchedSigner) signed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

func TestNoCPUNoNETSaysWhoAndWhatToDo(t *testing.T) {
	p := newPayChain(t)
	for _, tc := range []struct {
		cpu, net int64
		want     error
		resource string
	}{{0, -1, chain.ErrCPU, "CPU"}, {-1, 0, chain.ErrNET, "NET"}, {0, 0, chain.ErrNET, "NET"}} {
		if err := p.node.SetResources(alice, tc.cpu, tc.net); err != nil {
			t.Fatal(err)
		}
		before := p.node.Stats().Executions
		_, err := p.c.Transact(t.Context(), p.alice, payTransfer(t, 1_0000, "lunch"))
		var re *chain.ResourceError
		if !errors.Is(err, tc.want) || !errors.As(err, &re) {
			t.Fatalf("cpu %d net %d: %v, want a ResourceError matching %v", tc.cpu, tc.net, err, tc.want)
		}
		if re.Account != alice || re.Resource != tc.resource || re.Err == nil {
			t.Errorf("%+v", re)
		}
		for _, advice := range []string{"alice", "power it up", "Cosigner", "ResourceProvider"} {
			if !strings.Contains(err.Error(), advice) {
				t.Errorf("%q does not say %q", err, advice)
			}
		}
		if p.node.Stats().Executions != before || p.balance(t, bob) != 0 {
			t.Error("the refused transfer was executed")
		}
		if u := p.used(t, alice); u.CPUUsed != 0 || u.NETUsed != 0 {
			t.Errorf("a refused transaction billed %+v", u)
		}
	}
}

func TestCosignerPaysAndIsBilled(t *testing.T) {
	p := newPayChain(t)
	ctx := t.Context()
	// Two keys on each side: get_required_keys must be asked about each
	// side's own actions, or a key the transaction does not need signs
	// (tx_irrelevant_sig).
	spare, _ := antelope.GeneratePrivateKey(nil)
	cos := p.cosigner()
	cos.Signer = antelope.PrivateKeys{spare, p.payKey}
	res, err := p.c.TransactWith(ctx, antelope.PrivateKeys{p.alice, spare}, chain.TransactOptions{Payer: cos}, payTransfer(t, 2_5000, "cosigned"))
	if err != nil {
		t.Fatal(err)
	}
	if p.balance(t, bob) != 2_5000 {
		t.Errorf("bob has %d", p.balance(t, bob))
	}
	first := res.Actions[0].Action
	if first.Account != noopAcct || first.Name != antelope.MustName("noop") || first.Authorization[0] != cos.Permission {
		t.Errorf("first action %+v, want the payer's noop", first)
	}
	if res.Payment == nil || res.Payment.Payer != cos.Permission || res.Payment.Fee.Amount != 0 || res.Payment.Declined != nil {
		t.Errorf("payment %+v", res.Payment)
	}
	if u := p.used(t, dapp); u.CPUUsed != 100 || u.NETUsed == 0 {
		t.Errorf("the payer was billed %+v", u)
	}
	if u := p.used(t, alice); u.CPUUsed != 0 || u.NETUsed != 0 {
		t.Errorf("alice was billed %+v", u)
	}
	// The payer's usage as get_account reports it.
	if err := p.node.SetResources(dapp, 10_000, 100_000); err != nil {
		t.Fatal(err)
	}
	if _, err := p.c.TransactWith(ctx, p.alice, chain.TransactOptions{Payer: p.cosigner()}, payTransfer(t, 1, "again")); err != nil {
		t.Fatal(err)
	}
	acct, err := p.c.GetAccount(ctx, dapp)
	if err != nil {
		t.Fatal(err)
	}
	if acct.CPULimit.Used != 100 || acct.CPULimit.Available != 9_900 || acct.CPULimit.Max != 10_000 || acct.CPUWeight != 10_000 ||
		acct.NETLimit.Used == 0 || acct.NETLimit.Max != 100_000 || acct.NETWeight != 100_000 {
		t.Errorf("get_account: cpu %+v weight %d, net %+v weight %d", acct.CPULimit, acct.CPUWeight, acct.NETLimit, acct.NETWeight)
	}
	if _, err := acct.PowerUpSample(); err != nil {
		t.Error(err)
	}
	// Two signatures, each key once, in nodeos's order (by key).
	sigs := res.Transaction.Signatures
	digest, _ := res.Transaction.SigningDigest(p.node.ChainID())
	if len(sigs) != 2 {
		t.Fatalf("%d signatures", len(sigs))
	}
	k0, _ := sigs[0].RecoverPublicKey(digest)
	k1, _ := sigs[1].RecoverPublicKey(digest)
	if k0.Type > k1.Type || k0.Type == k1.Type && bytes.Compare(k0.Data, k1.Data) >= 0 {
		t.Errorf("signatures not in key order: %s, %s", k0, k1)
	}
}

func TestCosignerKnownNoop(t *testing.T) {
	waxID, _ := antelope.ParseChecksum256("1064487b3cd1a897ce03ae5b6a865651747e2e152090f99c1d19d44e01aea5a4")
	p := newPayChain(t, chaintest.WithChainID(waxID))
	if err := p.node.DeployNoop(antelope.MustName("boost.wax")); err != nil {
		t.Fatal(err)
	}
	if err := p.node.LinkPermission(dapp, antelope.MustName("boost.wax"), antelope.MustName("noop"), antelope.MustName("paybw")); err != nil {
		t.Fatal(err)
	}
	cos := p.cosigner()
	cos.NoopContract = 0
	res, err := p.c.TransactWith(t.Context(), p.alice, chain.TransactOptions{Payer: cos}, payTransfer(t, 1_0000, "on WAX"))
	if err != nil {
		t.Fatal(err)
	}
	if a := res.Actions[0].Action; a.Account != antelope.MustName("boost.wax") || a.Name != antelope.MustName("noop") {
		t.Errorf("first action %s::%s, want boost.wax::noop", a.Account, a.Name)
	}

	// A chain without a known noop: an error before anything is signed.
	q := newPayChain(t)
	before := q.node.Stats().Executions
	_, err = q.c.TransactWith(t.Context(), q.alice, chain.TransactOptions{Payer: cos}, payTransfer(t, 1_0000, "nowhere"))
	if err == nil || !strings.Contains(err.Error(), "NoopContract") || q.node.Stats().Executions != before {
		t.Errorf("%v", err)
	}
}

func TestCosignedLostAnswerExecutesOnce(t *testing.T) {
	p := newPayChain(t)
	// The answer to the send is lost (the chain executes it): the retry
	// resends the same signed bytes, and the payer is not asked again.
	user := &watchedSigner{Signer: p.alice, after: func() { p.node.LoseNextAnswers(1) }}
	before := p.node.Stats().Executions
	res, err := p.c.TransactWith(t.Context(), user, chain.TransactOptions{Payer: p.cosigner()}, payTransfer(t, 3_0000, "once"))
	if err != nil {
		t.Fatal(err)
	}
	if !res.AlreadySubmitted || res.Attempts < 2 {
		t.Errorf("attempts %d, already submitted %v", res.Attempts, res.AlreadySubmitted)
	}
	if n := p.node.Stats().Executions - before; n != 1 || user.signed() != 1 {
		t.Errorf("executed %d times, signed %d times", n, user.signed())
	}
	if p.balance(t, bob) != 3_0000 || p.used(t, dapp).CPUUsed != 100 {
		t.Errorf("bob %d, payer %+v", p.balance(t, bob), p.used(t, dapp))
	}
}

// provider is the fake provider on p's chain, with its payer fuel.
func (p *payChain) provider(t *testing.T) *chaintest.ResourceProvider {
	t.Helper()
	fp, err := p.node.NewResourceProvider(fuel)
	if err != nil {
		t.Fatal(err)
	}
	return fp
}

func TestResourceProviderFree(t *testing.T) {
	p := newPayChain(t)
	fp := p.provider(t)
	rp := &chain.ResourceProvider{URL: p.node.URL(), OnRefusal: chain.FailWhenRefused}
	res, err := p.c.TransactWith(t.Context(), p.alice, chain.TransactOptions{Payer: rp}, payTransfer(t, 1_0000, "free"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Payment.Payer != fp.Payer() || res.Payment.Fee.Amount != 0 || fp.Requests() != 1 {
		t.Errorf("payment %+v, %d requests", res.Payment, fp.Requests())
	}
	if p.balance(t, bob) != 1_0000 || p.used(t, fuel).CPUUsed != 100 || p.used(t, alice).CPUUsed != 0 {
		t.Errorf("bob %d, fuel %+v, alice %+v", p.balance(t, bob), p.used(t, fuel), p.used(t, alice))
	}
}

func TestResourceProviderFee(t *testing.T) {
	p := newPayChain(t)
	fp := p.provider(t)
	fp.ChargeFee(antelope.ExtendedAsset{Quantity: sysAmount(10), Contract: tokenAcct}) // 0.0010 SYS
	ctx := t.Context()

	// Within the maximum: paid, the fee included.
	rp := &chain.ResourceProvider{URL: p.node.URL(), MaxFee: sysAmount(100), OnRefusal: chain.FailWhenRefused}
	res, err := p.c.TransactWith(ctx, p.alice, chain.TransactOptions{Payer: rp}, payTransfer(t, 1_0000, "for a fee"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Payment.Fee != sysAmount(10) || p.balance(t, fuel) != 10 || p.balance(t, bob) != 1_0000 || p.used(t, fuel).CPUUsed != 100 {
		t.Errorf("fee %s, fuel %d, bob %d", res.Payment.Fee, p.balance(t, fuel), p.balance(t, bob))
	}

	// Over the maximum, or no fee allowed: refused before anything is
	// signed, and the policy decides.
	for _, maxFee := range []antelope.Asset{sysAmount(9), {}} {
		user := &watchedSigner{Signer: p.alice}
		rp := &chain.ResourceProvider{URL: p.node.URL(), MaxFee: maxFee, OnRefusal: chain.FailWhenRefused}
		before := p.node.Stats().Executions
		_, err := p.c.TransactWith(ctx, user, chain.TransactOptions{Payer: rp}, payTransfer(t, 1_0000, "too dear"))
		var pe *chain.ProviderError
		if !errors.Is(err, chain.ErrFeeTooHigh) || !errors.Is(err, chain.ErrProviderRefused) || !errors.As(err, &pe) || pe.Status != 402 {
			t.Fatalf("max %v: %v", maxFee, err)
		}
		if user.signed() != 0 || p.node.Stats().Executions != before {
			t.Errorf("max %v: signed %d times", maxFee, user.signed())
		}
	}

	// SendUnchanged: the signer pays instead (alice now has resources).
	if err := p.node.SetResources(alice, 1_000, 10_000); err != nil {
		t.Fatal(err)
	}
	rp = &chain.ResourceProvider{URL: p.node.URL(), MaxFee: sysAmount(9), OnRefusal: chain.SendUnchanged}
	res, err = p.c.TransactWith(ctx, p.alice, chain.TransactOptions{Payer: rp}, payTransfer(t, 1_0000, "unchanged"))
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.Payment.Declined, chain.ErrFeeTooHigh) || res.Payment.Transaction != nil || res.Actions[0].Action.Account != tokenAcct {
		t.Errorf("payment %+v, first action %s", res.Payment, res.Actions[0].Action.Account)
	}
	if p.used(t, alice).CPUUsed != 100 || p.balance(t, fuel) != 10 {
		t.Errorf("alice %+v, fuel %d", p.used(t, alice), p.balance(t, fuel))
	}
}

func TestResourceProviderRefuses(t *testing.T) {
	p := newPayChain(t)
	fp := p.provider(t)
	fp.Refuse()
	rp := &chain.ResourceProvider{URL: p.node.URL(), OnRefusal: chain.FailWhenRefused}
	_, err := p.c.TransactWith(t.Context(), p.alice, chain.TransactOptions{Payer: rp}, payTransfer(t, 1_0000, "refused"))
	var pe *chain.ProviderError
	if !errors.Is(err, chain.ErrProviderRefused) || errors.Is(err, chain.ErrFeeTooHigh) || !errors.As(err, &pe) || pe.Status != 400 {
		t.Fatalf("%v", err)
	}
	// SendUnchanged sends it as it was: billed to alice, who has nothing.
	rp.OnRefusal = chain.SendUnchanged
	_, err = p.c.TransactWith(t.Context(), p.alice, chain.TransactOptions{Payer: rp}, payTransfer(t, 1_0000, "refused"))
	var re *chain.ResourceError
	if !errors.As(err, &re) || re.Account != alice || !errors.Is(re.Declined, chain.ErrProviderRefused) || !strings.Contains(err.Error(), "did not pay") {
		t.Fatalf("%v, want alice's ResourceError saying the provider refused", err)
	}
	// No provider at that address: refused too (404).
	rp = &chain.ResourceProvider{URL: p.node.URL() + "/nothing", OnRefusal: chain.FailWhenRefused}
	if _, err := p.c.TransactWith(t.Context(), p.alice, chain.TransactOptions{Payer: rp}, payTransfer(t, 1_0000, "nobody")); !errors.Is(err, chain.ErrProviderRefused) {
		t.Errorf("%v", err)
	}
}

// TestResourceProviderDefaultFailsWhenRefused: a provider left at its zero
// policy that does not pay is an error, and nothing is signed or sent —
// even for a signer who could pay: a refusal never passes as err == nil.
func TestResourceProviderDefaultFailsWhenRefused(t *testing.T) {
	p := newPayChain(t)
	fp := p.provider(t)
	fp.Refuse()
	if err := p.node.SetResources(alice, 1_000, 10_000); err != nil {
		t.Fatal(err)
	}
	user := &watchedSigner{Signer: p.alice}
	before := p.node.Stats().Executions
	res, err := p.c.TransactWith(t.Context(), user, chain.TransactOptions{Payer: &chain.ResourceProvider{URL: p.node.URL()}}, payTransfer(t, 1_0000, "default"))
	var pe *chain.ProviderError
	if !errors.As(err, &pe) || !errors.Is(err, chain.ErrProviderRefused) || res != nil {
		t.Fatalf("default policy: result %v, %v; want the *ProviderError", res != nil, err)
	}
	if user.signed() != 0 || p.node.Stats().Executions != before || p.used(t, alice).CPUUsed != 0 {
		t.Errorf("signed %d times, %d executions, alice %+v", user.signed(), p.node.Stats().Executions-before, p.used(t, alice))
	}
}

func TestResourceProviderTamperingRefusedBeforeSigning(t *testing.T) {
	swap := func(a []antelope.Action) []antelope.Action { return []antelope.Action{a[1], a[0]} }
	drop := func(a []antelope.Action) []antelope.Action { return a[:1] }
	extraAuth := func(a []antelope.Action) []antelope.Action {
		a[0].Authorization = append(a[0].Authorization, antelope.Active(fuel))
		return a
	}
	steal := func(a []antelope.Action) []antelope.Action {
		issue, _ := eosiotoken.Contract{Account: tokenAcct}.Issue(eosiotoken.Issue{To: alice, Quantity: sysAmount(1), Memo: ""}, antelope.Active(alice))
		return append(a, issue)
	}
	signerNoop := func(a []antelope.Action) []antelope.Action {
		return append(a, antelope.Action{Account: antelope.MustName("greymassnoop"), Name: antelope.MustName("noop"), Authorization: []antelope.PermissionLevel{antelope.Active(alice)}, Data: []byte{}})
	}
	// sandwichbot::noop before and after the signer's actions: an atomic
	// sandwich, or a conditional abort.
	sandwich := func(a []antelope.Action) []antelope.Action {
		bot := antelope.Action{Account: antelope.MustName("sandwichbot"), Name: antelope.MustName("noop"), Authorization: []antelope.PermissionLevel{{Actor: fuel, Permission: antelope.MustName("cosign")}}, Data: []byte{}}
		return append(append([]antelope.Action{bot}, a...), bot)
	}
	// A "free" answer (200) that charges the signer a fee within MaxFee.
	freeButCharged := func(a []antelope.Action) []antelope.Action {
		fee, _ := eosiotoken.Contract{Account: tokenAcct}.Transfer(eosiotoken.Transfer{From: alice, To: fuel, Quantity: sysAmount(1), Memo: "fee"}, antelope.Active(alice))
		return append(a, fee)
	}
	// RAM bought for another account: tampering, however it prices.
	ramForOther := func(a []antelope.Action) []antelope.Action {
		buy := antelope.AppendUint64(antelope.AppendUint64(nil, uint64(alice)), uint64(fuel))
		buy = antelope.AppendUint32(buy, 0xffffffff) // more than the market has: cannot be priced
		return append(a, antelope.Action{Account: antelope.MustName("eosio"), Name: antelope.MustName("buyrambytes"), Authorization: []antelope.PermissionLevel{antelope.Active(alice)}, Data: buy})
	}
	feeFromOther := func(a []antelope.Action) []antelope.Action {
		fee, _ := eosiotoken.Contract{Account: tokenAcct}.Transfer(eosiotoken.Transfer{From: bob, To: fuel, Quantity: sysAmount(1), Memo: "fee"}, antelope.Active(alice))
		return append(a, fee)
	}
	for name, tc := range map[string]struct {
		f    func([]antelope.Action) []antelope.Action
		want string // in the error: why
	}{
		"redirect":                      {nil, "action 0 (eosio.token::transfer) is not in its transaction"},
		"swap":                          {swap, "action 1 (eosio.token::transfer) is not in its transaction"},
		"drop":                          {drop, "action 1 (eosio.token::transfer) is not in its transaction"},
		"extra authorization":           {extraAuth, "action 0 (eosio.token::transfer) is not in its transaction"},
		"added issue":                   {steal, "it added eosio.token::issue: an action the protocol does not allow"},
		"noop authorized by the signer": {signerNoop, "it added greymassnoop::noop: the only noop allowed is greymassnoop::noop, first"},
		"another contract's noop around the actions": {sandwich, "it added sandwichbot::noop: the only noop allowed is greymassnoop::noop"},
		"a fee in a free answer":                     {freeButCharged, "may not charge the signer: a fee comes only with HTTP 402"},
		"RAM for another account, unpriceable":       {ramForOther, "a RAM purchase must be for the signer alice, not"},
		"fee from another account":                   {feeFromOther, "it added eosio.token::transfer: a fee must be a positive transfer from the signer alice"},
	} {
		t.Run(name, func(t *testing.T) {
			p := newPayChain(t)
			fp := p.provider(t)
			fp.Tamper(tc.f)
			user := &watchedSigner{Signer: p.alice}
			before := p.node.Stats().Executions
			// Tampering is never skipped, whatever the refusal policy.
			rp := &chain.ResourceProvider{URL: p.node.URL(), MaxFee: sysAmount(1_0000), OnRefusal: chain.SendUnchanged}
			_, err := p.c.TransactWith(t.Context(), user, chain.TransactOptions{Payer: rp}, payTransfer(t, 1_0000, "one"), payTransfer(t, 2_0000, "two"))
			if !errors.Is(err, chain.ErrProviderTampered) || errors.Is(err, chain.ErrProviderRefused) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%v, want ErrProviderTampered: %s", err, tc.want)
			}
			if user.signed() != 0 || p.node.Stats().Executions != before || fp.Requests() != 1 {
				t.Errorf("signed %d times, executed %d", user.signed(), p.node.Stats().Executions-before)
			}
		})
	}
}

// rammarket is eosio's RAM market: 64 GB of RAM against 1,000,000 SYS.
const rammarketABI = `{"version":"eosio::abi/1.1","structs":[{"name":"connector","base":"","fields":[{"name":"balance","type":"asset"},{"name":"weight","type":"float64"}]},` +
	`{"name":"exchange_state","base":"","fields":[{"name":"supply","type":"asset"},{"name":"base","type":"connector"},{"name":"quote","type":"connector"}]}],` +
	`"actions":[],"tables":[{"name":"rammarket","index_type":"i64","key_names":[],"key_types":[],"type":"exchange_state"}]}`

func TestResourceProviderRAMPurchase(t *testing.T) {
	p := newPayChain(t)
	eosio := antelope.MustName("eosio")
	if err := p.node.SetContract(eosio, []byte(rammarketABI), nil); err != nil {
		t.Fatal(err)
	}
	row, _ := antelope.MustAsset("10000000000.0000 RAMCORE").AppendBinary(nil)
	row, _ = antelope.MustAsset("64000000000 RAM").AppendBinary(row)
	row = antelope.AppendFloat64(row, 0.5)
	row, _ = antelope.MustAsset("1000000.0000 SYS").AppendBinary(row)
	row = antelope.AppendFloat64(row, 0.5)
	ramcore := antelope.MustSymbol("4,RAMCORE")
	p.node.SetTableRow(eosio, eosio, antelope.MustName("rammarket"), uint64(ramcore.Code)<<8|uint64(ramcore.Precision), row, eosio)
	p.node.Produce()
	fp := p.provider(t)
	fp.ChargeRAM(1000)
	// buyrambytes of 1000 bytes: floor(10^10 × 1000 / (64×10^9 − 1000)) =
	// 156 units, then floor(156 / 0.995) = 156: 0.0156 SYS.
	rp := &chain.ResourceProvider{URL: p.node.URL(), MaxFee: sysAmount(156), OnRefusal: chain.FailWhenRefused}
	res, err := p.c.TransactWith(t.Context(), p.alice, chain.TransactOptions{Payer: rp}, payTransfer(t, 1_0000, "ram"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Payment.Fee != sysAmount(156) {
		t.Errorf("fee %s, want 0.0156 SYS", res.Payment.Fee)
	}
	rp.MaxFee = sysAmount(155)
	if _, err := p.c.TransactWith(t.Context(), p.alice, chain.TransactOptions{Payer: rp}, payTransfer(t, 1_0000, "ram")); !errors.Is(err, chain.ErrFeeTooHigh) {
		t.Errorf("%v, want ErrFeeTooHigh", err)
	}
}

func TestResourceProviderLostAnswerExecutesOnce(t *testing.T) {
	p := newPayChain(t)
	fp := p.provider(t)
	fp.ChargeFee(antelope.ExtendedAsset{Quantity: sysAmount(10), Contract: tokenAcct})
	user := &watchedSigner{Signer: p.alice, after: func() { p.node.LoseNextAnswers(1) }}
	before := p.node.Stats().Executions
	rp := &chain.ResourceProvider{URL: p.node.URL(), MaxFee: sysAmount(10), OnRefusal: chain.FailWhenRefused}
	res, err := p.c.TransactWith(t.Context(), user, chain.TransactOptions{Payer: rp}, payTransfer(t, 1_0000, "once"))
	if err != nil {
		t.Fatal(err)
	}
	if n := p.node.Stats().Executions - before; n != 1 || !res.AlreadySubmitted || fp.Requests() != 1 {
		t.Errorf("executed %d times, already submitted %v, %d provider requests", n, res.AlreadySubmitted, fp.Requests())
	}
	if p.balance(t, fuel) != 10 || p.balance(t, bob) != 1_0000 {
		t.Errorf("fuel %d, bob %d: the fee or the transfer ran twice", p.balance(t, fuel), p.balance(t, bob))
	}
}

// TestCosignerNeedsPermission: a Cosigner without the permission that pays
// is refused before anything is signed, the error naming the field.
func TestCosignerNeedsPermission(t *testing.T) {
	p := newPayChain(t)
	cos := &chain.Cosigner{Signer: p.payKey, NoopContract: noopAcct}
	_, err := p.c.TransactWith(t.Context(), p.alice, chain.TransactOptions{Payer: cos}, payTransfer(t, 1_0000, "no payer"))
	if err == nil || !strings.Contains(err.Error(), "Permission") {
		t.Fatalf("%v, want the missing Permission named", err)
	}
}
