package chaintest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
)

// linkChain has alice, with a permission hot below active holding its own
// key, and a contract svc whose ping and pong require the named account.
type linkChain struct {
	node             *chaintest.Chain
	c                *chain.Client
	aliceKey, hotKey antelope.PrivateKey
	alice, svc, hot  antelope.Name
}

func newLinkChain(t *testing.T) *linkChain {
	t.Helper()
	l := &linkChain{node: chaintest.New(), alice: antelope.MustName("alice"), svc: antelope.MustName("svc"), hot: antelope.MustName("hot")}
	t.Cleanup(l.node.Close)
	l.aliceKey = l.node.NewAccount(l.alice)
	var err error
	if l.hotKey, err = antelope.GeneratePrivateKey(nil); err != nil {
		t.Fatal(err)
	}
	pub, _ := l.hotKey.PublicKey()
	if err := l.node.SetPermission(l.alice, l.hot, antelope.MustName("active"), chain.Authority{Threshold: 1, Keys: []chain.KeyWeight{{Key: pub, Weight: 1}}}); err != nil {
		t.Fatal(err)
	}
	const abi = `{"version":"eosio::abi/1.1","structs":[{"name":"who","base":"","fields":[{"name":"who","type":"name"}]}],` +
		`"actions":[{"name":"ping","type":"who","ricardian_contract":""},{"name":"pong","type":"who","ricardian_contract":""}]}`
	err = l.node.SetContract(l.svc, []byte(abi), func(x *chaintest.Context) error {
		var who antelope.Name
		if err := x.Decode(&who); err != nil {
			return err
		}
		return x.RequireAuth(who)
	})
	if err != nil {
		t.Fatal(err)
	}
	l.c = l.node.Client()
	return l
}

// call sends svc::action authorized by alice@perm, signed by key.
func (l *linkChain) call(t *testing.T, key antelope.Signer, action string, perm antelope.Name) error {
	t.Helper()
	l.node.Produce() // the same action again is another transaction
	_, err := l.c.Transact(t.Context(), key, antelope.Action{Account: l.svc, Name: antelope.MustName(action),
		Authorization: []antelope.PermissionLevel{{Actor: l.alice, Permission: perm}},
		Data:          antelope.AppendUint64(nil, uint64(l.alice))})
	return err
}

// native sends one of eosio's permission actions, authorized by
// alice@perm.
func (l *linkChain) native(t *testing.T, key antelope.Signer, action string, perm antelope.Name, names ...antelope.Name) error {
	t.Helper()
	var data []byte
	for _, n := range names {
		data = antelope.AppendUint64(data, uint64(n))
	}
	l.node.Produce()
	_, err := l.c.Transact(t.Context(), key, antelope.Action{Account: antelope.MustName("eosio"), Name: antelope.MustName(action),
		Authorization: []antelope.PermissionLevel{{Actor: l.alice, Permission: perm}}, Data: data})
	return err
}

func wantIrrelevant(t *testing.T, err error, what string, min string) {
	t.Helper()
	var api *chain.APIError
	if !errors.As(err, &api) || api.Name != "irrelevant_auth_exception" || !errors.Is(err, chain.ErrMissingAuthority) ||
		!strings.Contains(err.Error(), "minimum authority is "+min) {
		t.Errorf("%s: %v, want irrelevant_auth_exception with the minimum %s", what, err, min)
	}
}

// Without a link an action needs active (or owner): a lower permission is
// refused as nodeos refuses it, even with its key — chaintest accepted it.
// A link (LinkPermission or eosio::linkauth) lets it, and what is above it,
// authorize exactly the linked actions.
func TestLinkedPermissions(t *testing.T) {
	l := newLinkChain(t)
	active, owner := antelope.MustName("active"), antelope.MustName("owner")
	minActive := `{"actor":"alice","permission":"active"}`
	wantIrrelevant(t, l.call(t, l.hotKey, "ping", l.hot), "hot, unlinked", minActive)
	if err := l.call(t, l.aliceKey, "ping", active); err != nil {
		t.Errorf("active, unlinked: %v", err)
	}
	if err := l.call(t, l.aliceKey, "ping", owner); err != nil {
		t.Errorf("owner, unlinked: %v", err)
	}

	// Linked through the chain's own action.
	if err := l.native(t, l.aliceKey, "linkauth", active, l.alice, l.svc, antelope.MustName("ping"), l.hot); err != nil {
		t.Fatal(err)
	}
	if err := l.call(t, l.hotKey, "ping", l.hot); err != nil {
		t.Errorf("hot, linked to ping: %v", err)
	}
	if err := l.call(t, l.aliceKey, "ping", active); err != nil {
		t.Errorf("active, above the linked hot: %v", err)
	}
	wantIrrelevant(t, l.call(t, l.hotKey, "pong", l.hot), "hot on pong, linked to ping only", minActive)

	// A link to the whole contract covers pong; ping's own link stays.
	if err := l.node.LinkPermission(l.alice, l.svc, 0, l.hot); err != nil {
		t.Fatal(err)
	}
	if err := l.call(t, l.hotKey, "pong", l.hot); err != nil {
		t.Errorf("hot on pong, linked to svc: %v", err)
	}

	// unlinkauth undoes ping's link, and the contract-wide one still holds.
	if err := l.native(t, l.aliceKey, "unlinkauth", active, l.alice, l.svc, antelope.MustName("ping")); err != nil {
		t.Fatal(err)
	}
	if err := l.call(t, l.hotKey, "ping", l.hot); err != nil {
		t.Errorf("hot on ping, linked to svc: %v", err)
	}
	if err := l.node.LinkPermission(l.alice, l.svc, 0, 0); err != nil {
		t.Fatal(err)
	}
	wantIrrelevant(t, l.call(t, l.hotKey, "ping", l.hot), "hot, every link removed", minActive)

	// eosio.any: every permission of alice will do.
	if err := l.node.LinkPermission(l.alice, l.svc, antelope.MustName("ping"), antelope.MustName("eosio.any")); err != nil {
		t.Fatal(err)
	}
	if err := l.call(t, l.hotKey, "ping", l.hot); err != nil {
		t.Errorf("hot, ping linked to eosio.any: %v", err)
	}
}

// eosio's permission actions have their own rules: one authorization, by
// the account concerned, at or above the permission touched (for linkauth,
// the linked action's current minimum), and the native actions cannot be
// linked at all.
func TestNativeActionsDeclaredPermissions(t *testing.T) {
	l := newLinkChain(t)
	active := antelope.MustName("active")
	ping := antelope.MustName("ping")

	err := l.native(t, l.hotKey, "linkauth", l.hot, l.alice, l.svc, ping, l.hot)
	wantIrrelevant(t, err, "linkauth by hot", `{"actor":"alice","permission":"active"}`)
	if err == nil || !strings.Contains(err.Error(), "link action declares irrelevant authority") {
		t.Errorf("linkauth by hot: %v", err)
	}

	err = l.native(t, l.aliceKey, "linkauth", active, l.alice, antelope.MustName("eosio"), antelope.MustName("updateauth"), l.hot)
	if err == nil || !strings.Contains(err.Error(), "Cannot link eosio::updateauth to a minimum permission") {
		t.Errorf("linking updateauth: %v", err)
	}
	if err := l.node.LinkPermission(l.alice, antelope.MustName("eosio"), antelope.MustName("linkauth"), l.hot); err == nil {
		t.Error("LinkPermission linked eosio::linkauth")
	}

	// deleteauth of hot by hot itself is allowed (hot satisfies hot);
	// deleting active is refused by the action, but the declared hot is
	// refused first.
	err = l.native(t, l.hotKey, "deleteauth", l.hot, l.alice, active)
	wantIrrelevant(t, err, "deleteauth of active by hot", `{"actor":"alice","permission":"active"}`)
	if err == nil || !strings.Contains(err.Error(), "deleteauth action declares irrelevant authority") {
		t.Errorf("deleteauth of active by hot: %v", err)
	}

	// Another account cannot declare alice's authority changes.
	bobKey := l.node.NewAccount(antelope.MustName("bob"))
	l.node.Produce()
	_, err = l.c.Transact(t.Context(), bobKey, antelope.Action{Account: antelope.MustName("eosio"), Name: antelope.MustName("unlinkauth"),
		Authorization: []antelope.PermissionLevel{antelope.Active(antelope.MustName("bob"))},
		Data:          antelope.AppendUint64(antelope.AppendUint64(antelope.AppendUint64(nil, uint64(l.alice)), uint64(l.svc)), uint64(ping))})
	if err == nil || !strings.Contains(err.Error(), "the owner of the linked permission needs to be the actor of the declared authorization") {
		t.Errorf("unlinkauth of alice's link by bob: %v", err)
	}
	// An unlink with nothing linked.
	err = l.native(t, l.aliceKey, "unlinkauth", active, l.alice, l.svc, ping)
	if err == nil || !strings.Contains(err.Error(), "cannot unlink non-existent permission link") {
		t.Errorf("unlinkauth of no link: %v", err)
	}
	if err := l.native(t, l.hotKey, "deleteauth", l.hot, l.alice, l.hot); err != nil {
		t.Errorf("deleteauth of hot by hot: %v", err)
	}
}

// An inline action is held to the same minimum: a contract sending an
// action with alice@hot that is not linked to it is refused, as on chain,
// even where alice's hot permission lists the contract's eosio.code.
func TestInlineActionHonoursLinks(t *testing.T) {
	l := newLinkChain(t)
	relay := antelope.MustName("relay")
	codePerm := chain.Authority{Threshold: 1, Accounts: []chain.PermissionLevelWeight{{Permission: antelope.PermissionLevel{Actor: relay, Permission: antelope.MustName("eosio.code")}, Weight: 1}}}
	if err := l.node.SetPermission(l.alice, l.hot, antelope.MustName("active"), codePerm); err != nil {
		t.Fatal(err)
	}
	const abi = `{"version":"eosio::abi/1.1","structs":[{"name":"go","base":"","fields":[]}],"actions":[{"name":"go","type":"go","ricardian_contract":""}]}`
	err := l.node.SetContract(relay, []byte(abi), func(x *chaintest.Context) error {
		return x.SendInline(antelope.Action{Account: l.svc, Name: antelope.MustName("ping"),
			Authorization: []antelope.PermissionLevel{{Actor: l.alice, Permission: l.hot}},
			Data:          antelope.AppendUint64(nil, uint64(l.alice))})
	})
	if err != nil {
		t.Fatal(err)
	}
	goAct := antelope.Action{Account: relay, Name: antelope.MustName("go"),
		Authorization: []antelope.PermissionLevel{antelope.Active(l.alice)}}
	_, err = l.c.Transact(t.Context(), l.aliceKey, goAct)
	wantIrrelevant(t, err, "inline alice@hot, unlinked", `{"actor":"alice","permission":"active"}`)
	if err := l.node.LinkPermission(l.alice, l.svc, antelope.MustName("ping"), l.hot); err != nil {
		t.Fatal(err)
	}
	l.node.Produce()
	if _, err := l.c.Transact(t.Context(), l.aliceKey, goAct); err != nil {
		t.Errorf("inline alice@hot, linked: %v", err)
	}
}
