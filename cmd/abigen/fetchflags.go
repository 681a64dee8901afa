package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/antelopego/abigen/chain/state"
	"github.com/antelopego/abigen/fetch"
	"github.com/spf13/pflag"
)

// Exit codes of fetching, beside those in run.go.
const (
	exitFetch = 6 // the ABI could not be fetched: network, service, no such account or ABI
	exitAuth  = 7 // the API key or token was refused
)

// fetchOptions are the flags and variables that choose a network source.
type fetchOptions struct {
	baseURL, authURL, chainURL string
	blockNum                   uint64
	apiKeyFile                 string
	timeout                    time.Duration
	noTokenCache               bool
	encoding                   string // "json" or "packed"
}

// register defines the flags every command that fetches has, with one
// meaning everywhere.
func (f *fetchOptions) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.baseURL, "base-url", "", "state service `URL` (or ABIGEN_BASE_URL): fetch --account's ABI through the state API")
	fl.StringVar(&f.authURL, "auth-url", "", "token service `URL` (or ABIGEN_AUTH_URL) issuing the state API's tokens;\nthe API key comes from ABIGEN_API_KEY or --api-key-file")
	fl.StringVar(&f.chainURL, "chain-url", "", "nodeos chain API `URL` (or ABIGEN_CHAIN_URL): fetch --account's current ABI with get_abi")
	fl.StringVar(&f.apiKeyFile, "api-key-file", "", "read the state API key from this `file` instead of ABIGEN_API_KEY")
	fl.DurationVar(&f.timeout, "timeout", 30*time.Second, "give up fetching after this `duration`, retries included (0: no limit)")
	fl.BoolVar(&f.noTokenCache, "no-token-cache", false, "issue a new token instead of reusing the cached one (cache: ABIGEN_TOKEN_CACHE_DIR,\nor abigen/tokens in the user cache directory)")
}

// fetchOnly are the flags that mean something only when abigen fetches the
// ABI; with --abi they would be silently ignored, so they are refused.
var fetchOnly = []string{"block-num", "abi-encoding", "api-key-file", "timeout", "no-token-cache"}

// fetchOnlyFlag returns the first fetch-only flag set on the command line,
// or "".
func fetchOnlyFlag(fl *pflag.FlagSet) string { return changedFlag(fl, fetchOnly) }

// changedFlag returns the first of names set on the command line (even to
// its default value), or "". A name fl does not define is never set.
func changedFlag(fl *pflag.FlagSet, names []string) string {
	for _, name := range names {
		if fl.Changed(name) {
			return name
		}
	}
	return ""
}

// fromEnv fills what the flags left empty from ABIGEN_BASE_URL,
// ABIGEN_AUTH_URL and ABIGEN_CHAIN_URL.
func (f *fetchOptions) fromEnv() {
	if f.baseURL == "" {
		f.baseURL = os.Getenv("ABIGEN_BASE_URL")
	}
	if f.authURL == "" {
		f.authURL = os.Getenv("ABIGEN_AUTH_URL")
	}
	if f.chainURL == "" {
		f.chainURL = os.Getenv("ABIGEN_CHAIN_URL")
	}
}

// usageError is a fetch configuration problem (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// networkSource builds the Source the fetch flags describe for account.
func networkSource(account string, f fetchOptions) (src fetch.Source, host string, err error) {
	if f.encoding != "json" && f.encoding != "packed" {
		return nil, "", &usageError{fmt.Sprintf("--abi-encoding %q: use json or packed", f.encoding)}
	}
	packed := f.encoding == "packed"
	switch {
	case f.chainURL != "" && (f.baseURL != "" || f.authURL != ""):
		return nil, "", &usageError{"both a chain API (--chain-url) and a state API (--base-url/--auth-url) are set: choose one"}
	case f.chainURL != "":
		if f.blockNum != 0 {
			return nil, "", &usageError{"--block-num needs the state API: nodeos serves only the current ABI"}
		}
		if f.apiKeyFile != "" || f.noTokenCache {
			return nil, "", &usageError{"--api-key-file and --no-token-cache apply only to the state API (--base-url, --auth-url); nodeos's chain API needs no key: leave them out"}
		}
		return fetch.ChainSource{API: &fetch.ChainAPI{URL: f.chainURL}, Account: account, Packed: packed}, hostOf(f.chainURL), nil
	case f.baseURL != "" && f.authURL != "":
		key, err := apiKey(f.apiKeyFile)
		if err != nil {
			return nil, "", err
		}
		api := &fetch.StateAPI{BaseURL: f.baseURL, AuthURL: f.authURL, APIKey: key}
		if !f.noTokenCache {
			if dir := os.Getenv("ABIGEN_TOKEN_CACHE_DIR"); dir != "" {
				api.Cache = &fetch.TokenCache{Dir: dir}
			} else if cache, err := fetch.DefaultTokenCache(); err == nil {
				api.Cache = cache
			} // no cache directory: a token per run
		}
		return fetch.StateSource{API: api, Account: account, BlockNum: f.blockNum, Packed: packed}, hostOf(f.baseURL), nil
	case f.baseURL != "" || f.authURL != "":
		return nil, "", &usageError{"the state API needs both --base-url (state service) and --auth-url (token service)"}
	default:
		return nil, "", &usageError{"--account needs a source: --base-url and --auth-url (state API), or --chain-url (nodeos); or give --abi FILE"}
	}
}

// slowNote is the progress callback of a fetch: a one-line note on stderr
// when it takes longer than a second, so fast runs stay silent; nil when
// quiet.
func slowNote(stderr io.Writer, what string, quiet bool) func() {
	if quiet {
		return nil
	}
	return func() { fmt.Fprintf(stderr, "abigen: fetching %s…\n", what) }
}

func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host
	}
	return "the service"
}

// apiKey reads the key from ABIGEN_API_KEY or a file: never from a flag,
// which other users can read in the process list.
func apiKey(file string) (string, error) {
	key := os.Getenv("ABIGEN_API_KEY")
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--api-key-file: %w", err)
		}
		key = strings.TrimSpace(string(data))
	}
	switch err := state.CheckAPIKey(key); {
	case errors.Is(err, state.ErrNoAPIKey):
		return "", &usageError{"no API key: set ABIGEN_API_KEY or use --api-key-file"}
	case errors.Is(err, state.ErrAPIKeyIsToken):
		return "", &usageError{state.ErrAPIKeyIsToken.Error() + "; abigen issues and caches tokens"}
	case err != nil:
		return "", &usageError{err.Error()}
	}
	return key, nil
}

// fetchExitCode maps a fetch error to an exit code.
func fetchExitCode(err error) int {
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		return exitUsage
	case errors.Is(err, state.ErrAuth):
		return exitAuth
	}
	return exitFetch
}
