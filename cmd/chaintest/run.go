package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/internal/atomicfile"
	"github.com/spf13/pflag"
)

// config is what the flags say.
type config struct {
	addr, authAddr string
	fork           chaintest.Remote
	apiKeyEnv      string
	accounts       []string
	keysFile       string
	token          string
	hyperionAddr   string
	hyperionURL    string // where the Hyperion API is served, once listening
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	var c config
	fl := pflag.NewFlagSet("chaintest", pflag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprint(stderr, `chaintest serves an in-process Antelope chain with nodeos's rules, fresh or forked
from a live chain, for cleos, wharfkit or a program in any language: the chain
API, the state service and state history (/ship) at --addr, the state service's
token service at --auth-addr (it accepts the API key chaintest-key), and with
--hyperion-addr a Hyperion v2 API. See docs/fork.md.

Usage:
  chaintest --account alice --keys-file keys.txt [--token eosio.token]
  chaintest --fork-url URL [--state-url URL --auth-url URL --block N] [--cache DIR [--offline]] ...

Flags:
`)
		fl.PrintDefaults()
	}
	fl.StringVar(&c.addr, "addr", "127.0.0.1:8888", "address of the chain API, the state service and state history (/ship)")
	fl.StringVar(&c.authAddr, "auth-addr", "127.0.0.1:8889", "address of the state service's token service")
	fl.StringVar(&c.hyperionAddr, "hyperion-addr", "", "also serve the chain's Hyperion v2 history API at this address (e.g. 127.0.0.1:8890)")
	fl.StringVar(&c.fork.NodeURL, "fork-url", "", "fork the live chain whose nodeos chain API is at this URL")
	fl.StringVar(&c.fork.StateURL, "state-url", "", "read the fork's tables from this state service, at --block")
	fl.StringVar(&c.fork.AuthURL, "auth-url", "", "the state service's token service")
	fl.StringVar(&c.apiKeyEnv, "api-key-env", "STATE_API_KEY", "environment variable holding the state service's API key")
	fl.Uint32Var(&c.fork.Block, "block", 0, "the fork block (0: the node's head)")
	fl.StringVar(&c.fork.Cache, "cache", "", "fork cache directory: answers recorded there are replayed")
	fl.BoolVar(&c.fork.Offline, "offline", false, "fork from --cache only, with no network")
	fl.StringArrayVar(&c.accounts, "account", nil, "an account to hold a new key (repeatable)")
	fl.StringVar(&c.keysFile, "keys-file", "", "file the accounts' private keys are written to (needed with --account)")
	fl.StringVar(&c.token, "token", "", "deploy eosio.token (chaintest's Go contract) at this account of a fresh chain")
	if err := fl.Parse(args); err != nil {
		return nil, err
	}
	if fl.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fl.Args())
	}
	if len(c.accounts) > 0 && c.keysFile == "" {
		return nil, errors.New("--account needs --keys-file: private keys are written there, never printed")
	}
	if c.fork.StateURL != "" {
		c.fork.APIKey = os.Getenv(c.apiKeyEnv)
	}
	if (c.fork.StateURL != "" || c.fork.Block != 0) && c.fork.NodeURL == "" && !c.fork.Offline {
		return nil, errors.New("--state-url and --block fork a live chain: give its --fork-url")
	}
	return &c, nil
}

// run serves the chain until ctx is done; the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, pflag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "chaintest:", err)
		return 2
	}
	node, err := start(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "chaintest:", err)
		return 1
	}
	defer node.Close()
	if cfg.hyperionAddr != "" {
		stopHyperion, err := serveHyperion(node, cfg)
		if err != nil {
			fmt.Fprintln(stderr, "chaintest:", err)
			return 1
		}
		defer stopHyperion()
	}
	if err := setUp(node, cfg, stdout); err != nil {
		fmt.Fprintln(stderr, "chaintest:", err)
		return 1
	}
	<-ctx.Done()
	fmt.Fprintln(stdout, "stopping")
	return 0
}

// start listens on the addresses and starts the chain, forked when asked.
func start(cfg *config) (*chaintest.Chain, error) {
	api, err := listen("--addr", cfg.addr)
	if err != nil {
		return nil, err
	}
	auth, err := listen("--auth-addr", cfg.authAddr)
	if err != nil {
		_ = api.Close()
		return nil, err
	}
	opts := []chaintest.Option{chaintest.WithListeners(api, auth)}
	if cfg.fork.NodeURL == "" && !cfg.fork.Offline {
		return chaintest.New(opts...), nil
	}
	node, err := chaintest.NewFork(cfg.fork, opts...)
	if err != nil {
		_, _ = api.Close(), auth.Close()
	}
	return node, err
}

// setUp makes the accounts (writing their keys), deploys the token, and
// prints where everything is.
func setUp(node *chaintest.Chain, cfg *config, stdout io.Writer) error {
	var keys strings.Builder
	for _, a := range cfg.accounts {
		name, err := antelope.ParseName(a)
		if err != nil {
			return fmt.Errorf("--account %q: %v", a, err)
		}
		key, err := accountKey(node, name)
		if err != nil {
			return err
		}
		pub, _ := key.PublicKey()
		fmt.Fprintf(&keys, "%s %s %s\n", name, pub, key.RevealString())
		fmt.Fprintf(stdout, "account %s: key %s\n", name, pub)
	}
	if cfg.keysFile != "" {
		// Readable by its owner only, whatever the mode of a keys file
		// an earlier run left.
		if err := atomicfile.Write(cfg.keysFile, []byte(keys.String()), 0o600); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "private keys: %s\n", cfg.keysFile)
	}
	if cfg.token != "" {
		name, err := antelope.ParseName(cfg.token)
		if err != nil {
			return fmt.Errorf("--token %q: %v", cfg.token, err)
		}
		if err := node.DeployToken(name); err != nil {
			return err
		}
	}
	if b := node.ForkBlock(); b != 0 {
		fmt.Fprintf(stdout, "fork block: %d\n", b)
	}
	fmt.Fprintf(stdout, "head block: %d\n", node.Head().Num)
	fmt.Fprintf(stdout, "chain id: %s\n", node.ChainID())
	fmt.Fprintf(stdout, "chain API and state service: %s\n", node.URL())
	fmt.Fprintf(stdout, "state history: %s\n", node.SHiPURL())
	fmt.Fprintf(stdout, "token service: %s\n", node.AuthURL())
	if cfg.hyperionURL != "" {
		fmt.Fprintf(stdout, "hyperion: %s\n", cfg.hyperionURL)
	}
	fmt.Fprintln(stdout, "ready (Ctrl-C stops)")
	return nil
}

// accountKey gives account name a new key: a new account, or (on a fork)
// the live chain's, whose owner and active are replaced by the key.
func accountKey(node *chaintest.Chain, name antelope.Name) (antelope.PrivateKey, error) {
	if !node.AccountExists(name) {
		return node.NewAccount(name), nil
	}
	key, err := antelope.GeneratePrivateKey(nil)
	if err != nil {
		return antelope.PrivateKey{}, err
	}
	pub, _ := key.PublicKey()
	auth := chain.Authority{Threshold: 1, Keys: []chain.KeyWeight{{Key: pub, Weight: 1}}}
	if err := node.SetPermission(name, antelope.MustName("owner"), 0, auth); err != nil {
		return antelope.PrivateKey{}, err
	}
	return key, node.SetPermission(name, antelope.MustName("active"), antelope.MustName("owner"), auth)
}

// serveHyperion serves node's Hyperion v2 API at --hyperion-addr, recording
// its URL in cfg; the function returned stops it.
func serveHyperion(node *chaintest.Chain, cfg *config) (func(), error) {
	ln, err := listen("--hyperion-addr", cfg.hyperionAddr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: node.Hyperion(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	cfg.hyperionURL = "http://" + ln.Addr().String()
	return func() { _ = srv.Close() }, nil
}

// listen listens at addr, which flag chose: an address in use (another
// chaintest, a nodeos) is named with the flag that moves it.
func listen(flag, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w (choose another address with %s)", flag, addr, err, flag)
	}
	return ln, nil
}
