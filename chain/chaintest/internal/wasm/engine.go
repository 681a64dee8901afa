package wasm

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"
)

// MaxPages is nodeos's memory cap: 528 pages of 64 KiB (33 MiB).
const MaxPages = 528

// Engine compiles and runs contracts. It is safe for concurrent use; Close
// releases it.
type Engine struct {
	rt  wazero.Runtime
	cfg Config

	mu      sync.Mutex
	modules map[[32]byte]*Module
}

// Config chooses how an Engine runs code.
type Config struct {
	// Interpreter runs wazero's interpreter instead of its compiler:
	// compiling costs almost nothing, executing is several times slower.
	Interpreter bool
	// PrivateCache keeps compiled code to this engine instead of sharing
	// it with the process's other engines (to measure compilation).
	PrivateCache bool
}

// compilationCaches share compiled machine code between the engines of a
// process (many chains in one test binary compile eosio.token once).
var compilationCaches = map[bool]wazero.CompilationCache{
	false: wazero.NewCompilationCache(),
	true:  wazero.NewCompilationCache(),
}

// NewEngine makes an engine with every nodeos intrinsic bound.
func NewEngine(cfg Config) (*Engine, error) {
	ctx := context.Background()
	rc := wazero.NewRuntimeConfigCompiler()
	if cfg.Interpreter {
		rc = wazero.NewRuntimeConfigInterpreter()
	}
	rc = rc.WithMemoryLimitPages(MaxPages).WithCloseOnContextDone(true).WithCoreFeatures(api.CoreFeaturesV1)
	if !cfg.PrivateCache {
		rc = rc.WithCompilationCache(compilationCaches[cfg.Interpreter])
	}
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	b := rt.NewHostModuleBuilder("env")
	for _, in := range intrinsics {
		fn := in.fn
		if fn == nil {
			fn = unimplemented(in.name)
		}
		b.NewFunctionBuilder().WithGoModuleFunction(bind(fn), in.params, in.results).Export(in.name)
	}
	if _, err := b.Instantiate(ctx); err != nil {
		_ = rt.Close(ctx)
		return nil, fmt.Errorf("wasm: binding the intrinsics: %v", err)
	}
	return &Engine{rt: rt, cfg: cfg, modules: map[[32]byte]*Module{}}, nil
}

// Close releases the engine and its compiled modules.
func (e *Engine) Close() error { return e.rt.Close(context.Background()) }

// Module is a compiled contract.
type Module struct {
	e          *Engine
	hash       [32]byte
	compiled   wazero.CompiledModule
	depthBound bool // instrumented with the call-depth count
}

// CallDepthBounded reports whether the module runs with nodeos's call depth
// bound (MaxCallDepth); a module with instructions the rewriter does not
// know runs with wazero's (far deeper) stack bound only.
func (m *Module) CallDepthBounded() bool { return m.depthBound }

// Hash is the sha256 of the code.
func (m *Module) Hash() [32]byte { return m.hash }

// Compile validates and compiles code, once per code hash for the engine's
// life. It refuses what nodeos's setcode refuses: code that is not
// WebAssembly, imports that are not nodeos intrinsics (or have another
// signature), and no apply(receiver, code, action) export.
func (e *Engine) Compile(code []byte) (*Module, error) {
	h := sha256.Sum256(code)
	e.mu.Lock()
	defer e.mu.Unlock()
	if m := e.modules[h]; m != nil {
		return m, nil
	}
	compiled := code
	depth := false
	if inst, err := instrumentDepth(code); err == nil {
		compiled, depth = inst, true
	}
	cm, err := e.rt.CompileModule(context.Background(), compiled)
	if err != nil && depth { // the rewrite's fault, not the code's: run it unbounded
		compiled, depth = code, false
		cm, err = e.rt.CompileModule(context.Background(), compiled)
	}
	if err != nil {
		return nil, newException(3070003, "wasm_serialization_error", "Serialization Error Processing WASM", err.Error())
	}
	if err := checkModule(cm); err != nil {
		_ = cm.Close(context.Background())
		return nil, err
	}
	m := &Module{e: e, hash: h, compiled: cm, depthBound: depth}
	e.modules[h] = m
	return m, nil
}

func checkModule(cm wazero.CompiledModule) error {
	for _, f := range cm.ImportedFunctions() {
		mod, name, _ := f.Import()
		in, ok := intrinsicByName[name]
		if mod != "env" || !ok {
			return newException(3070000, "wasm_exception", "WASM Exception", fmt.Sprintf("%s.%s unresolveable", mod, name))
		}
		if !sameTypes(f.ParamTypes(), in.params) || !sameTypes(f.ResultTypes(), in.results) {
			return newException(3070000, "wasm_exception", "WASM Exception", fmt.Sprintf("%s.%s has the wrong signature", mod, name))
		}
	}
	if len(cm.ImportedMemories()) > 0 {
		return newException(3070000, "wasm_exception", "WASM Exception", "a contract may not import memory")
	}
	apply, ok := cm.ExportedFunctions()["apply"]
	if !ok || !sameTypes(apply.ParamTypes(), []api.ValueType{i64, i64, i64}) || len(apply.ResultTypes()) != 0 {
		return newException(3070000, "wasm_exception", "WASM Exception", "the contract does not export apply(i64, i64, i64)")
	}
	for _, mem := range cm.ExportedMemories() {
		if mem.Min() > MaxPages {
			return newException(3070000, "wasm_exception", "WASM Exception", fmt.Sprintf("the contract's memory starts at %d pages, over the %d allowed", mem.Min(), MaxPages))
		}
	}
	return nil
}

func sameTypes(a, b []api.ValueType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

type callKey struct{}

// call is one run: the action, its host and its instance's memory.
type call struct {
	act  Action
	host Host
	mem  api.Memory
	ctx  context.Context // the run's: its deadline is the transaction's
}

// checktime is nodeos's transaction_context::checktime for intrinsics that
// work long in Go (wazero checks the deadline only between instructions):
// past the deadline the run ends with tx_cpu_usage_exceeded, before the
// intrinsic goes on to raise anything of its own.
func (c *call) checktime() {
	if c.ctx == nil {
		return
	}
	switch err := c.ctx.Err(); {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded):
		raise(errDeadline())
	default:
		raise(err)
	}
}

// Run executes act in a fresh instance of the module: apply(receiver,
// code, action). ctx bounds it: past its deadline the run stops with
// tx_cpu_usage_exceeded. A trap, an assertion or a host error is returned;
// eosio_exit ends the action successfully.
func (m *Module) Run(ctx context.Context, host Host, act Action) (err error) {
	c := &call{act: act, host: host}
	ctx = context.WithValue(ctx, callKey{}, c)
	c.ctx = ctx
	inst, err := m.e.rt.InstantiateModule(ctx, m.compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return runError(ctx, err)
	}
	defer inst.Close(context.Background())
	if _, err := inst.ExportedFunction("apply").Call(ctx, act.Receiver, act.Code, act.Name); err != nil {
		if g := inst.ExportedGlobal(depthGlobal); m.depthBound && g != nil && uint32(g.Get()) > MaxCallDepth {
			return errExecution(fmt.Sprintf("stack overflow: call depth exceeds %d", MaxCallDepth))
		}
		return runError(ctx, err)
	}
	return nil
}

// exitSignal is eosio_exit's way out of the contract.
type exitSignal struct{}

func (exitSignal) Error() string { return "eosio_exit" }

// runError turns what wazero returned into nodeos's exception.
func runError(ctx context.Context, err error) error {
	var exit exitSignal
	if errors.As(err, &exit) {
		return nil
	}
	var ex *Exception
	if errors.As(err, &ex) {
		return ex
	}
	var hostErr *hostError
	if errors.As(err, &hostErr) {
		return hostErr.err
	}
	var se *sys.ExitError
	if errors.As(err, &se) && (se.ExitCode() == sys.ExitCodeDeadlineExceeded || se.ExitCode() == sys.ExitCodeContextCanceled) {
		if ctx.Err() == context.Canceled {
			return ctx.Err()
		}
		return errDeadline()
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimPrefix(msg, "wasm error: ")
	if strings.Contains(msg, "out of bounds memory access") {
		return errAccessViolation()
	}
	return errExecution(msg)
}

// hostError carries an error a Host method returned through wazero's
// panic recovery, so that Run returns it unchanged.
type hostError struct{ err error }

func (h *hostError) Error() string { return h.err.Error() }
func (h *hostError) Unwrap() error { return h.err }

// raise ends the run with err: an intrinsic's own *Exception or a host's
// error.
func raise(err error) {
	if _, ok := err.(*Exception); ok {
		panic(err)
	}
	panic(&hostError{err})
}

func bind(fn func(c *call, stack []uint64)) api.GoModuleFunc {
	return func(ctx context.Context, mod api.Module, stack []uint64) {
		c := ctx.Value(callKey{}).(*call)
		if c.mem == nil {
			c.mem = mod.Memory()
		}
		fn(c, stack)
	}
}

func unimplemented(name string) func(*call, []uint64) {
	return func(*call, []uint64) { raise(errUnimplemented(name)) }
}
