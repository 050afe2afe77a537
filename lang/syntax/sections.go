package syntax

import "github.com/alecthomas/participle/v2/lexer"

// sectionPath continues a projection or index section, `(.a` or `(.[i]`,
// with more fields and indices, as Futhark allows (`(.a[1:3])`,
// `(.[0].f)`): the section becomes the lambda `\x -> x.a[1:3]`, so the
// checker and lowering need nothing new. A section with no more path is
// returned as it is. Its parameter is sectionParam, as a right section's.
func (p *parser) sectionPath(lex *lexer.PeekingLexer, at At, sec Expr) (Expr, error) {
	t := lex.Peek()
	if t.Type != p.lx.tProj && t.Type != p.lx.tIndexOpen {
		return sec, nil
	}
	x := Expr(&Var{At: at, Name: sectionParam})
	switch s := sec.(type) {
	case *ProjectSection:
		for i, f := range s.Fields {
			name := ""
			if s.Names != nil {
				name = s.Names[i]
			}
			x = &Project{At: at, X: x, Field: f, Name: name}
		}
	case *IndexSection:
		x = &Index{At: at, X: x, Indices: s.Indices}
	}
	for {
		t := lex.Peek()
		switch t.Type {
		case p.lx.tIndexOpen:
			idx, err := p.bracketIndices(lex, false)
			if err != nil {
				return nil, err
			}
			x = &Index{At: at, X: x, Indices: idx.List}
			continue
		case p.lx.tProj:
			lex.Next()
			if name := t.Value[1:]; !isDigit(name[0]) {
				x = &Project{At: at, X: x, Field: -1, Name: name}
				continue
			}
			n, err := p.fieldNumber(t)
			if err != nil {
				return nil, err
			}
			x = &Project{At: at, X: x, Field: n}
			continue
		}
		return &Lambda{At: at, Params: []Pat{&IdPat{At: at, Name: sectionParam}}, Body: x}, nil
	}
}
