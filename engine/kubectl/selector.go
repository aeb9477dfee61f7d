package kubectl

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// selector is a parsed label selector (labels.Selector): requirements ANDed.
type selector []requirement

// requirement mirrors labels.Requirement. op is one of "=", "==", "!=",
// "in", "notin", "exists", "!", "gt", "lt".
type requirement struct {
	key    string
	op     string
	values []string
}

// matches reports whether the labels satisfy every requirement
// (labels.Requirement.Matches).
func (s selector) matches(labels map[string]string) bool {
	for _, r := range s {
		v, has := labels[r.key]
		switch r.op {
		case "=", "==", "in":
			if !has || !contains(r.values, v) {
				return false
			}
		case "!=", "notin":
			if has && contains(r.values, v) {
				return false
			}
		case "exists":
			if !has {
				return false
			}
		case "!":
			if has {
				return false
			}
		case "gt", "lt":
			if !has {
				return false
			}
			lv, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return false
			}
			rv, _ := strconv.ParseInt(r.values[0], 10, 64)
			if (r.op == "gt" && !(lv > rv)) || (r.op == "lt" && !(lv < rv)) {
				return false
			}
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Lexer tokens of apimachinery's labels parser.
type tokenKind int

const (
	tokErr tokenKind = iota
	tokEnd
	tokIdent
	tokComma
	tokEquals
	tokDoubleEquals
	tokNotEquals
	tokNot
	tokOpen
	tokClose
	tokIn
	tokNotIn
	tokGT
	tokLT
)

type token struct {
	kind tokenKind
	lit  string
}

func isSpecialSymbol(c byte) bool {
	switch c {
	case '=', '!', '(', ')', ',', '>', '<':
		return true
	}
	return false
}

func isWhitespace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

var specialTokens = map[string]tokenKind{
	"!": tokNot, "!=": tokNotEquals, "(": tokOpen, ")": tokClose, ",": tokComma,
	"=": tokEquals, "==": tokDoubleEquals, ">": tokGT, "<": tokLT,
}

// lexSelector mirrors labels.Lexer: identifiers, keywords (in, notin) and
// the special symbols.
func lexSelector(s string) []token {
	var toks []token
	i := 0
	for {
		for i < len(s) && isWhitespace(s[i]) {
			i++
		}
		if i >= len(s) {
			toks = append(toks, token{tokEnd, ""})
			return toks
		}
		c := s[i]
		if isSpecialSymbol(c) {
			lit := ""
			kind := tokErr
			j := i
			for j < len(s) && isSpecialSymbol(s[j]) {
				if k, ok := specialTokens[lit+string(s[j])]; ok {
					lit += string(s[j])
					kind = k
					j++
					continue
				}
				break
			}
			if kind == tokErr {
				toks = append(toks, token{tokErr, fmt.Sprintf("error expected: keyword found '%s'", string(c))})
				return toks
			}
			toks = append(toks, token{kind, lit})
			i = j
			continue
		}
		j := i
		for j < len(s) && !isWhitespace(s[j]) && !isSpecialSymbol(s[j]) {
			j++
		}
		lit := s[i:j]
		switch lit {
		case "in":
			toks = append(toks, token{tokIn, lit})
		case "notin":
			toks = append(toks, token{tokNotIn, lit})
		default:
			toks = append(toks, token{tokIdent, lit})
		}
		i = j
	}
}

type selParser struct {
	toks []token
	pos  int
	// values is the "Values" parse context: in/notin are identifiers.
}

func (p *selParser) lookahead(values bool) token {
	t := p.toks[p.pos]
	if values && (t.kind == tokIn || t.kind == tokNotIn) {
		t.kind = tokIdent
	}
	return t
}

func (p *selParser) consume(values bool) token {
	t := p.lookahead(values)
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

// parseSelector mirrors labels.Parse, with its error wording.
func parseSelector(s string) (selector, error) {
	p := &selParser{toks: lexSelector(s)}
	var reqs selector
	for {
		t := p.lookahead(true)
		switch t.kind {
		case tokIdent, tokNot:
			r, err := p.parseRequirement()
			if err != nil {
				return nil, fmt.Errorf("unable to parse requirement: %v", err)
			}
			reqs = append(reqs, *r)
			t2 := p.consume(true)
			switch t2.kind {
			case tokEnd:
				sortRequirements(reqs)
				return reqs, nil
			case tokComma:
				t3 := p.lookahead(true)
				if t3.kind != tokIdent && t3.kind != tokNot {
					return nil, fmt.Errorf("found '%s', expected: identifier after ','", t3.lit)
				}
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or 'end of string'", t2.lit)
			}
		case tokEnd:
			sortRequirements(reqs)
			return reqs, nil
		default:
			return nil, fmt.Errorf("found '%s', expected: !, identifier, or 'end of string'", t.lit)
		}
	}
}

func sortRequirements(r selector) {
	sort.SliceStable(r, func(i, j int) bool { return r[i].key < r[j].key })
}

func (p *selParser) parseRequirement() (*requirement, error) {
	op := ""
	t := p.consume(true)
	if t.kind == tokNot {
		op = "!"
		t = p.consume(true)
	}
	if t.kind != tokIdent {
		return nil, fmt.Errorf("found '%s', expected: identifier", t.lit)
	}
	key := t.lit
	if errs := api.IsQualifiedName(key); len(errs) > 0 {
		return nil, fmt.Errorf("key: Invalid value: %q: %s", key, strings.Join(errs, "; "))
	}
	if la := p.lookahead(true); la.kind == tokEnd || la.kind == tokComma {
		if op != "!" {
			op = "exists"
		}
		return &requirement{key: key, op: op}, nil
	}
	if op == "!" {
		// "!key" must be followed by the end or a comma.
		la := p.lookahead(false)
		return nil, fmt.Errorf("found '%s', expected: %s", la.lit, strings.Join(binaryOperators, ", "))
	}
	ot := p.consume(false)
	switch ot.kind {
	case tokIn:
		op = "in"
	case tokNotIn:
		op = "notin"
	case tokEquals:
		op = "="
	case tokDoubleEquals:
		op = "=="
	case tokNotEquals:
		op = "!="
	case tokGT:
		op = "gt"
	case tokLT:
		op = "lt"
	default:
		return nil, fmt.Errorf("found '%s', expected: %s", ot.lit, strings.Join(binaryOperators, ", "))
	}
	var values []string
	var err error
	if op == "in" || op == "notin" {
		values, err = p.parseValues()
	} else {
		values, err = p.parseExactValue()
	}
	if err != nil {
		return nil, err
	}
	for i, v := range values {
		if op == "gt" || op == "lt" {
			if _, perr := strconv.ParseInt(v, 10, 64); perr != nil {
				return nil, fmt.Errorf("values[%d]: Invalid value: %q: for 'Gt', 'Lt' operators, the value must be an integer", i, v)
			}
			continue
		}
		if errs := api.IsValidLabelValue(v); len(errs) > 0 {
			return nil, fmt.Errorf("values[%d][%s]: Invalid value: %q: %s", i, key, v, strings.Join(errs, "; "))
		}
	}
	return &requirement{key: key, op: op, values: values}, nil
}

var binaryOperators = []string{"in", "notin", "=", "==", "!=", "gt", "lt"}

func (p *selParser) parseValues() ([]string, error) {
	t := p.consume(true)
	if t.kind != tokOpen {
		return nil, fmt.Errorf("found '%s' expected: '('", t.lit)
	}
	t = p.lookahead(true)
	switch t.kind {
	case tokIdent, tokComma:
		s, err := p.parseIdentifiersList()
		if err != nil {
			return s, err
		}
		if t2 := p.consume(true); t2.kind != tokClose {
			return nil, fmt.Errorf("found '%s', expected: ')'", t.lit)
		}
		return s, nil
	case tokClose:
		p.consume(true)
		return []string{""}, nil
	default:
		return nil, fmt.Errorf("found '%s', expected: ',', ')' or identifier", t.lit)
	}
}

func (p *selParser) parseIdentifiersList() ([]string, error) {
	set := map[string]bool{}
	list := func() []string {
		out := make([]string, 0, len(set))
		for k := range set {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	for {
		t := p.consume(true)
		switch t.kind {
		case tokIdent:
			set[t.lit] = true
			t2 := p.lookahead(true)
			switch t2.kind {
			case tokComma:
				continue
			case tokClose:
				return list(), nil
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or ')'", t2.lit)
			}
		case tokComma:
			if len(set) == 0 {
				set[""] = true
			}
			t2 := p.lookahead(true)
			if t2.kind == tokClose {
				set[""] = true
				return list(), nil
			}
			if t2.kind == tokComma {
				p.consume(true)
				set[""] = true
			}
		default:
			return list(), fmt.Errorf("found '%s', expected: ',', or identifier", t.lit)
		}
	}
}

func (p *selParser) parseExactValue() ([]string, error) {
	t := p.lookahead(true)
	if t.kind == tokEnd || t.kind == tokComma {
		return []string{""}, nil
	}
	t = p.consume(true)
	if t.kind == tokIdent {
		return []string{t.lit}, nil
	}
	return nil, fmt.Errorf("found '%s', expected: identifier", t.lit)
}

// formatLabels mirrors labels.FormatLabels: sorted "k=v" joined by ",", or "<none>".
func formatLabels(m map[string]string) string {
	if len(m) == 0 {
		return "<none>"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, ",")
}

// labelSelectorError is the API server's answer to a list whose label
// selector does not parse: the list handler's DecodeParameters fails with
// a BadRequest carrying labels.Parse's error, and kubectl's
// EnhanceListError (cli-runtime resource/selector.go, kubectl cmd/util)
// names the resource and both selectors: `Unable to find "/v1,
// Resource=pods" that match label selector "a b", field selector "":
// unable to parse requirement: ...`. The resource is the first TYPE listed
// (the builder stops at the first failing list); err itself is returned
// when no TYPE is listed.
func labelSelectorError(rargs []resourceArg, selStr, fieldStr string, err error) error {
	for _, ra := range rargs {
		if len(ra.names) == 0 {
			return &cluster.StatusError{Reason: "BadRequest", Message: fmt.Sprintf("Unable to find %q that match label selector %q, field selector %q: %v",
				ra.rt.gvrString(), selStr, fieldStr, err)}
		}
	}
	return err
}
