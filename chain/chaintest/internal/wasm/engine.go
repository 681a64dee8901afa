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
	config     wazero.ModuleConfig
	// reuse is how an instance is reset for the next run (reuse.go); nil
	// when instances cannot be reused.
	reuse *layout

	mu   sync.Mutex
	free []*instance // reset instances, ready to run
}

// instance is an instance of a Module with what a run uses of it.
type instance struct {
	mod     api.Module
	apply   api.Function
	globals []api.MutableGlobal // as reuse.globals
}

// maxFree bounds the reset instances a module keeps: actions of one chain
// run one at a time, so more are only kept for chains sharing an engine.
const maxFree = 4

// noRandom is the random source of instances: contracts have no WASI, and
// without one wazero seeds a generator for each instance.
type noRandom struct{}

func (noRandom) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
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
	var cm wazero.CompiledModule
	var err error
	reuse := (*layout)(nil)
	if withExports, l, ok := prepareReuse(compiled); ok {
		if cm, err = e.rt.CompileModule(context.Background(), withExports); err == nil {
			reuse = l
		}
	}
	if reuse == nil {
		cm, err = e.rt.CompileModule(context.Background(), compiled)
	}
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
	m := &Module{e: e, hash: h, compiled: cm, depthBound: depth, reuse: reuse,
		config: wazero.NewModuleConfig().WithName("").WithStartFunctions().WithRandSource(noRandom{})}
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

// Run executes act in a fresh instance of the module — a new one, or one
// reset to look new (reuse.go): apply(receiver, code, action). ctx bounds
// it: past its deadline the run stops with tx_cpu_usage_exceeded. A trap,
// an assertion or a host error is returned; eosio_exit ends the action
// successfully.
func (m *Module) Run(ctx context.Context, host Host, act Action) (err error) {
	c := &call{act: act, host: host}
	ctx = context.WithValue(ctx, callKey{}, c)
	c.ctx = ctx
	inst, err := m.take(ctx)
	if err != nil {
		return runError(ctx, err)
	}
	_, err = inst.apply.Call(ctx, act.Receiver, act.Code, act.Name)
	if err != nil {
		if g := inst.mod.ExportedGlobal(depthGlobal); m.depthBound && g != nil && uint32(g.Get()) > MaxCallDepth {
			err = errExecution(fmt.Sprintf("stack overflow: call depth exceeds %d", MaxCallDepth))
		} else {
			err = runError(ctx, err)
		}
	}
	m.put(ctx, inst)
	return err
}

// take returns an instance to run: a reset one, or a new one.
func (m *Module) take(ctx context.Context) (*instance, error) {
	m.mu.Lock()
	if n := len(m.free); n > 0 {
		inst := m.free[n-1]
		m.free = m.free[:n-1]
		m.mu.Unlock()
		return inst, nil
	}
	m.mu.Unlock()
	mod, err := m.e.rt.InstantiateModule(ctx, m.compiled, m.config)
	if err != nil {
		return nil, err
	}
	inst := &instance{mod: mod, apply: mod.ExportedFunction("apply")}
	if m.reuse != nil {
		for _, g := range m.reuse.globals {
			mg, ok := mod.ExportedGlobal(g.export).(api.MutableGlobal)
			if !ok { // cannot be: prepareReuse exported it mutable
				inst.globals = nil
				break
			}
			inst.globals = append(inst.globals, mg)
		}
	}
	return inst, nil
}

// put resets inst after a run and keeps it for the next, or closes it: an
// instance that cannot look new again (its memory grew, it was closed,
// its run's deadline passed — wazero may close it at any moment after
// that), or one too many.
func (m *Module) put(ctx context.Context, inst *instance) {
	if ctx.Err() == nil && m.reset(inst) {
		m.mu.Lock()
		if len(m.free) < maxFree {
			m.free = append(m.free, inst)
			inst = nil
		}
		m.mu.Unlock()
	}
	if inst != nil {
		_ = inst.mod.Close(context.Background())
	}
}

// reset makes inst look as InstantiateModule leaves a new one: memory at
// its initial size, zero but for the data segments, globals at their
// initial values. It reports false when it cannot.
func (m *Module) reset(inst *instance) bool {
	l := m.reuse
	if l == nil || inst.mod.IsClosed() || len(inst.globals) != len(l.globals) {
		return false
	}
	if mem := inst.mod.Memory(); l.hasMemory {
		if mem == nil || mem.Size() != l.memBytes {
			return false
		}
		buf, ok := mem.Read(0, l.memBytes)
		if !ok {
			return false
		}
		clear(buf)
		for _, seg := range l.segments {
			copy(buf[seg.offset:], seg.data)
		}
	}
	for i, g := range inst.globals {
		g.Set(l.globals[i].value)
	}
	return true
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
