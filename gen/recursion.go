package gen

import (
	"github.com/antelopego/abigen/model"
	"github.com/dave/jennifer/jen"
)

// Decoders guard their depth (Decoder.Enter, JSONReader.Enter) only where
// input can make them recurse: in the structs and variants that can contain
// themselves, through any path of fields, members, arrays and optionals.
// Every other type nests at most as deep as the ABI spells it, so the guard
// would cost each decode a few nanoseconds for nothing.

// recursive reports whether the struct or variant node (a *model.Struct or
// *model.Variant) can contain itself.
func (g *generator) recursive(node any) bool {
	if r, ok := g.recursion[node]; ok {
		return r
	}
	seen := map[any]bool{}
	var reaches func(t *model.Type) bool
	var fromNode func(n any) bool
	fromNode = func(n any) bool {
		switch n := n.(type) {
		case *model.Struct:
			if n.Base != nil && visit(n.Base, node, seen, fromNode) {
				return true
			}
			for _, f := range n.Fields {
				if reaches(f.Type) {
					return true
				}
			}
		case *model.Variant:
			for _, m := range n.Members {
				if reaches(m) {
					return true
				}
			}
		}
		return false
	}
	reaches = func(t *model.Type) bool {
		for t.Elem != nil { // typedefs, arrays, optionals
			t = t.Elem
		}
		switch t.Kind {
		case model.StructKind:
			return visit(t.Struct, node, seen, fromNode)
		case model.VariantKind:
			return visit(t.Variant, node, seen, fromNode)
		}
		return false
	}
	r := fromNode(node)
	g.recursion[node] = r
	return r
}

// visit reports whether n is target or leads to it, visiting each node once.
func visit(n, target any, seen map[any]bool, from func(any) bool) bool {
	if n == target {
		return true
	}
	if seen[n] {
		return false
	}
	seen[n] = true
	return from(n)
}

// depthGuard is the start of a decoder of node: Enter and a deferred Leave
// on its Decoder ("d", with what) or JSONReader ("r"), where node can
// recurse; nothing elsewhere.
func (g *generator) depthGuard(node any, reader string, what ...jen.Code) []jen.Code {
	if !g.recursive(node) {
		return nil
	}
	return []jen.Code{
		jen.If(jen.Err().Op("=").Id(reader).Dot("Enter").Call(what...), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Defer().Id(reader).Dot("Leave").Call(),
	}
}
