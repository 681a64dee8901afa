package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/antelopego/abigen/fetch"
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
	client := &fetch.Client{}
	switch {
	case f.chainURL != "" && (f.baseURL != "" || f.authURL != ""):
		return nil, "", &usageError{"both a chain API (--chain-url) and a state API (--base-url/--auth-url) are set: choose one"}
	case f.chainURL != "":
		if f.blockNum != 0 {
			return nil, "", &usageError{"--block-num needs the state API: nodeos serves only the current ABI"}
		}
		return fetch.ChainSource{API: &fetch.ChainAPI{Client: client, URL: f.chainURL}, Account: account, Packed: packed}, hostOf(f.chainURL), nil
	case f.baseURL != "" && f.authURL != "":
		key, err := apiKey(f.apiKeyFile)
		if err != nil {
			return nil, "", err
		}
		state := &fetch.StateAPI{Client: client, BaseURL: f.baseURL, AuthURL: f.authURL, APIKey: key}
		if !f.noTokenCache {
			if dir := os.Getenv("ABIGEN_TOKEN_CACHE_DIR"); dir != "" {
				state.Cache = &fetch.TokenCache{Dir: dir}
			} else if state.Cache, err = fetch.DefaultTokenCache(); err != nil {
				state.Cache = nil // no cache dir: a token per run
			}
		}
		return fetch.StateSource{API: state, Account: account, BlockNum: f.blockNum, Packed: packed}, hostOf(f.baseURL), nil
	case f.baseURL != "" || f.authURL != "":
		return nil, "", &usageError{"the state API needs both --base-url (state service) and --auth-url (token service)"}
	default:
		return nil, "", &usageError{"--account needs a source: --base-url and --auth-url (state API), or --chain-url (nodeos); or give --abi FILE"}
	}
}

// fetchWithNote runs src within the timeout, printing a one-line note when
// it takes longer than a second, so fast runs stay silent.
func fetchWithNote(ctx context.Context, src fetch.Source, what string, timeout time.Duration, quiet bool, stderr io.Writer) (*fetch.Fetched, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if !quiet {
		done := make(chan struct{})
		t := time.AfterFunc(time.Second, func() {
			defer close(done)
			fmt.Fprintf(stderr, "abigen: fetching %s…\n", what)
		})
		// A note already being written finishes before run writes again.
		defer func() {
			if !t.Stop() {
				<-done
			}
		}()
	}
	return src.Fetch(ctx)
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
	if err := fetch.CheckAPIKey(key); err != nil {
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
	case errors.Is(err, fetch.ErrAuth):
		return exitAuth
	}
	return exitFetch
}
