package sigsyaml

import (
	"strings"
	"unicode/utf8"
)

// This file is the part of goyaml.v2's encoder (encode.go) and libyaml
// emitter (emitterc.go) that the output of JSONToYAML reaches: block
// mappings and sequences, "{}" and "[]" for empty ones (the only flow
// collections), and plain, single-quoted, double-quoted and literal
// scalars; no anchors, tags or document markers. Widths and columns count
// characters, as the emitter's do; lines are folded past column 80
// (best_width) and indents are two spaces (best_indent).

const (
	bestIndent = 2
	bestWidth  = 80
)

// scalar styles, as goyaml.v2 names them.
type scalarStyle int

const (
	plainStyle scalarStyle = iota
	singleQuotedStyle
	doubleQuotedStyle
	literalStyle
)

// plain is a scalar the encoder writes as it is (numbers, booleans, null).
type plain string

// mapping is a mapping with its keys in the encoder's order.
type mapping struct {
	keys   []string
	values []any
}

// emitter holds the libyaml emitter state that matters here.
type emitter struct {
	out        []byte
	column     int
	indent     int
	indents    []int
	whitespace bool
	indention  bool
	flowLevel  int

	// the context of the node being emitted (yaml_emitter_emit_node's
	// mapping and simple_key; its root and sequence change nothing here)
	mapping, simpleKey bool
}

// emitDocument writes v as goyaml.v2's Marshal does: one implicit
// document (stream start, document start, the node, document end).
func emitDocument(v any) []byte {
	e := &emitter{indent: -1, whitespace: true, indention: true}
	e.node(v, false, false)
	e.writeIndent() // yaml_emitter_emit_document_end
	return e.out
}

// put writes one ASCII byte.
func (e *emitter) put(b byte) {
	e.out = append(e.out, b)
	e.column++
}

func (e *emitter) putBreak() {
	e.out = append(e.out, '\n')
	e.column = 0
}

// write copies the character of s at *i.
func (e *emitter) write(s string, i *int) {
	w := charWidth(s[*i])
	e.out = append(e.out, s[*i:*i+w]...)
	e.column++
	*i += w
}

func (e *emitter) writeAll(s string) {
	for i := 0; i < len(s); {
		e.write(s, &i)
	}
}

// writeBreak copies the line break of s at *i (write_break).
func (e *emitter) writeBreak(s string, i *int) {
	if s[*i] == '\n' {
		e.putBreak()
		*i++
		return
	}
	e.write(s, i)
	e.column = 0
}

// increaseIndent mirrors yaml_emitter_increase_indent.
func (e *emitter) increaseIndent(flow, indentless bool) {
	e.indents = append(e.indents, e.indent)
	if e.indent < 0 {
		if flow {
			e.indent = bestIndent
		} else {
			e.indent = 0
		}
	} else if !indentless {
		e.indent += bestIndent
	}
}

func (e *emitter) popIndent() {
	e.indent = e.indents[len(e.indents)-1]
	e.indents = e.indents[:len(e.indents)-1]
}

// writeIndent mirrors yaml_emitter_write_indent.
func (e *emitter) writeIndent() {
	indent := max(e.indent, 0)
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.putBreak()
	}
	for e.column < indent {
		e.put(' ')
	}
	e.whitespace = true
	e.indention = true
}

// writeIndicator mirrors yaml_emitter_write_indicator.
func (e *emitter) writeIndicator(ind string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	e.writeAll(ind)
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

// node mirrors yaml_emitter_emit_node and the states it leads to.
func (e *emitter) node(v any, inMapping, simpleKey bool) {
	e.mapping, e.simpleKey = inMapping, simpleKey
	switch v := v.(type) {
	case *mapping:
		if e.flowLevel > 0 || len(v.keys) == 0 {
			e.emptyFlow("{", "}")
			return
		}
		e.blockMapping(v)
	case []any:
		if e.flowLevel > 0 || len(v) == 0 {
			e.emptyFlow("[", "]")
			return
		}
		e.blockSequence(v)
	case plain:
		e.scalar(string(v), plainStyle)
	case string:
		e.scalar(v, stringStyle(v))
	}
}

// stringStyle is the style goyaml.v2's encoder asks for a string
// (encoder.stringv): literal when it holds a newline, plain when it reads
// back as a string, double-quoted otherwise.
func stringStyle(s string) scalarStyle {
	switch {
	case strings.Contains(s, "\n"):
		return literalStyle
	case canUsePlain(s):
		return plainStyle
	}
	return doubleQuotedStyle
}

func canUsePlain(s string) bool {
	rtag, _ := resolvePlain("", s)
	return rtag == tagStr && !isBase60Float(s)
}

// emptyFlow writes an empty flow collection, "{}" or "[]"
// (yaml_emitter_emit_flow_mapping_key / _flow_sequence_item when the end
// event follows the start at once).
func (e *emitter) emptyFlow(open, close string) {
	e.writeIndicator(open, true, true, false)
	e.writeIndicator(close, false, false, false)
}

// blockSequence mirrors yaml_emitter_emit_block_sequence_item: a
// sequence that is a mapping's value is not indented under its key.
func (e *emitter) blockSequence(items []any) {
	e.increaseIndent(false, e.mapping && !e.indention)
	for _, it := range items {
		e.writeIndent()
		e.writeIndicator("-", true, false, true)
		e.node(it, false, false)
	}
	e.popIndent()
}

// blockMapping mirrors yaml_emitter_emit_block_mapping_key and _value: a
// key that is not simple (more than 128 bytes, or several lines) is
// written as a complex key, "? key" and ": value" on lines of their own.
func (e *emitter) blockMapping(m *mapping) {
	e.increaseIndent(false, false)
	for i, k := range m.keys {
		e.writeIndent()
		if a := analyze(k); !a.multiline && len(k) <= 128 {
			e.node(k, true, true)
			e.writeIndicator(":", false, false, false)
		} else {
			e.writeIndicator("?", true, false, true)
			e.node(k, true, false)
			e.writeIndent()
			e.writeIndicator(":", true, false, true)
		}
		e.node(m.values[i], true, false)
	}
	e.popIndent()
}

// analysis is libyaml's scalar_data: what a scalar may be written as.
type analysis struct {
	multiline         bool
	flowPlainAllowed  bool
	blockPlainAllowed bool
	singleQuoted      bool
	blockAllowed      bool
}

// analyze mirrors yaml_emitter_analyze_scalar (with unicode output on).
func analyze(s string) analysis {
	if s == "" {
		return analysis{blockPlainAllowed: true, singleQuoted: true}
	}
	var blockInd, flowInd, lineBreaks, special bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	var prevSpace, prevBreak bool
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		blockInd, flowInd = true, true
	}
	precededByWS := true
	for i, w := 0, 0; i < len(s); i += w {
		w = charWidth(s[i])
		followedByWS := i+w >= len(s) || isBlank(s, i+w)
		if i == 0 {
			switch s[i] {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				flowInd, blockInd = true, true
			case '?', ':':
				flowInd = true
				if followedByWS {
					blockInd = true
				}
			case '-':
				if followedByWS {
					flowInd, blockInd = true, true
				}
			}
		} else {
			switch s[i] {
			case ',', '?', '[', ']', '{', '}':
				flowInd = true
			case ':':
				flowInd = true
				if followedByWS {
					blockInd = true
				}
			case '#':
				if precededByWS {
					flowInd, blockInd = true, true
				}
			}
		}
		if !isPrintable(s, i) {
			special = true
		}
		switch {
		case s[i] == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i+w == len(s) {
				trailingSpace = true
			}
			if prevBreak {
				breakSpace = true
			}
			prevSpace, prevBreak = true, false
		case isBreak(s, i):
			lineBreaks = true
			if i == 0 {
				leadingBreak = true
			}
			if i+w == len(s) {
				trailingBreak = true
			}
			if prevSpace {
				spaceBreak = true
			}
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		precededByWS = isBlank(s, i) || isBreak(s, i) || s[i] == 0
	}
	a := analysis{multiline: lineBreaks, flowPlainAllowed: true, blockPlainAllowed: true, singleQuoted: true, blockAllowed: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		a.flowPlainAllowed, a.blockPlainAllowed = false, false
	}
	if trailingSpace {
		a.blockAllowed = false
	}
	if breakSpace {
		a.flowPlainAllowed, a.blockPlainAllowed, a.singleQuoted = false, false, false
	}
	if spaceBreak || special {
		a.flowPlainAllowed, a.blockPlainAllowed, a.singleQuoted, a.blockAllowed = false, false, false, false
	}
	if lineBreaks {
		a.flowPlainAllowed, a.blockPlainAllowed = false, false
	}
	if flowInd {
		a.flowPlainAllowed = false
	}
	if blockInd {
		a.blockPlainAllowed = false
	}
	return a
}

// scalar mirrors yaml_emitter_emit_scalar: the style is chosen
// (yaml_emitter_select_scalar_style, implicit and untagged), then written.
func (e *emitter) scalar(s string, style scalarStyle) {
	a := analyze(s)
	if e.simpleKey && a.multiline {
		style = doubleQuotedStyle
	}
	if style == plainStyle {
		if e.flowLevel > 0 && !a.flowPlainAllowed || e.flowLevel == 0 && !a.blockPlainAllowed {
			style = singleQuotedStyle
		}
		if s == "" && (e.flowLevel > 0 || e.simpleKey) {
			style = singleQuotedStyle
		}
	}
	if style == singleQuotedStyle && !a.singleQuoted {
		style = doubleQuotedStyle
	}
	if style == literalStyle && (!a.blockAllowed || e.flowLevel > 0 || e.simpleKey) {
		style = doubleQuotedStyle
	}
	e.increaseIndent(true, false)
	allowBreaks := !e.simpleKey
	switch style {
	case plainStyle:
		e.writePlain(s, allowBreaks)
	case singleQuotedStyle:
		e.writeSingleQuoted(s, allowBreaks)
	case doubleQuotedStyle:
		e.writeDoubleQuoted(s, allowBreaks)
	case literalStyle:
		e.writeLiteral(s)
	}
	e.popIndent()
}

// writePlain mirrors yaml_emitter_write_plain_scalar.
func (e *emitter) writePlain(s string, allowBreaks bool) {
	if !e.whitespace {
		e.put(' ')
	}
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && !isSpaceAt(s, i+1) {
				e.writeIndent()
				i++
			} else {
				e.write(s, &i)
			}
			spaces = true
		case isBreak(s, i):
			if !breaks && s[i] == '\n' {
				e.putBreak()
			}
			e.writeBreak(s, &i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			e.write(s, &i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.whitespace = false
	e.indention = false
}

// writeSingleQuoted mirrors yaml_emitter_write_single_quoted_scalar.
func (e *emitter) writeSingleQuoted(s string, allowBreaks bool) {
	e.writeIndicator("'", true, false, false)
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(s)-1 && !isSpaceAt(s, i+1) {
				e.writeIndent()
				i++
			} else {
				e.write(s, &i)
			}
			spaces = true
		case isBreak(s, i):
			if !breaks && s[i] == '\n' {
				e.putBreak()
			}
			e.writeBreak(s, &i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			if s[i] == '\'' {
				e.put('\'')
			}
			e.write(s, &i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.writeIndicator("'", false, false, false)
	e.whitespace = false
	e.indention = false
}

// doubleQuotedEscapes are the short escapes of
// yaml_emitter_write_double_quoted_scalar.
var doubleQuotedEscapes = map[rune]byte{
	0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0A: 'n', 0x0B: 'v', 0x0C: 'f', 0x0D: 'r',
	0x1B: 'e', '"': '"', '\\': '\\', 0x85: 'N', 0xA0: '_', 0x2028: 'L', 0x2029: 'P',
}

// writeDoubleQuoted mirrors yaml_emitter_write_double_quoted_scalar,
// including its is_bom check, which looks at the start of the value (so a
// value that begins with U+FEFF has every character escaped).
func (e *emitter) writeDoubleQuoted(s string, allowBreaks bool) {
	e.writeIndicator(`"`, true, false, false)
	bom := strings.HasPrefix(s, "\uFEFF")
	spaces := false
	for i := 0; i < len(s); {
		switch {
		case !isPrintable(s, i) || bom || isBreak(s, i) || s[i] == '"' || s[i] == '\\':
			v, w := utf8.DecodeRuneInString(s[i:])
			i += w
			e.put('\\')
			if c, ok := doubleQuotedEscapes[v]; ok {
				e.put(c)
			} else {
				digits, c := 2, byte('x')
				if v > 0xFFFF {
					digits, c = 8, 'U'
				} else if v > 0xFF {
					digits, c = 4, 'u'
				}
				e.put(c)
				for k := (digits - 1) * 4; k >= 0; k -= 4 {
					e.put("0123456789ABCDEF"[(v>>uint(k))&0x0F])
				}
			}
			spaces = false
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(s)-1 {
				e.writeIndent()
				if isSpaceAt(s, i+1) {
					e.put('\\')
				}
				i++
			} else {
				e.write(s, &i)
			}
			spaces = true
		default:
			e.write(s, &i)
			spaces = false
		}
	}
	e.writeIndicator(`"`, false, false, false)
	e.whitespace = false
	e.indention = false
}

// writeLiteral mirrors yaml_emitter_write_literal_scalar with its block
// scalar hints: an indentation indicator when the text starts with a space
// or a break, "-" when it does not end with a break, "+" when it ends with
// two (or is one), nothing (clip) for one final break.
func (e *emitter) writeLiteral(s string) {
	e.writeIndicator("|", true, false, false)
	if s != "" && (s[0] == ' ' || isBreak(s, 0)) {
		e.writeIndicator(string(rune('0'+bestIndent)), false, false, false)
	}
	chomp := ""
	if s == "" {
		chomp = "-"
	} else {
		i := lastCharStart(s, len(s))
		switch {
		case !isBreak(s, i):
			chomp = "-"
		case i == 0:
			chomp = "+"
		default:
			if isBreak(s, lastCharStart(s, i)) {
				chomp = "+"
			}
		}
	}
	if chomp != "" {
		e.writeIndicator(chomp, false, false, false)
	}
	e.putBreak()
	e.indention = true
	e.whitespace = true
	breaks := true
	for i := 0; i < len(s); {
		if isBreak(s, i) {
			e.writeBreak(s, &i)
			e.indention = true
			breaks = true
			continue
		}
		if breaks {
			e.writeIndent()
		}
		e.write(s, &i)
		e.indention = false
		breaks = false
	}
}

// lastCharStart is the index of the first byte of the character that
// ends before end.
func lastCharStart(s string, end int) int {
	i := end - 1
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// charWidth is libyaml's width: the length of the UTF-8 sequence a lead
// byte starts.
func charWidth(b byte) int {
	switch {
	case b&0x80 == 0:
		return 1
	case b&0xE0 == 0xC0:
		return 2
	case b&0xF0 == 0xE0:
		return 3
	case b&0xF8 == 0xF0:
		return 4
	}
	return 1
}

func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isSpaceAt(s string, i int) bool { return at(s, i) == ' ' }

func isBlank(s string, i int) bool { c := at(s, i); return c == ' ' || c == '\t' }

// isBreak is libyaml's is_break: CR, LF, NEL, LS or PS.
func isBreak(s string, i int) bool {
	c := at(s, i)
	return c == '\r' || c == '\n' ||
		c == 0xC2 && at(s, i+1) == 0x85 ||
		c == 0xE2 && at(s, i+1) == 0x80 && (at(s, i+2) == 0xA8 || at(s, i+2) == 0xA9)
}

// isPrintable is libyaml's is_printable: LF, printable ASCII and the BMP
// from U+00A0 but for surrogates, U+FEFF, U+FFFE and U+FFFF (so tabs,
// other controls and characters outside the BMP are not).
func isPrintable(s string, i int) bool {
	c, c1, c2 := at(s, i), at(s, i+1), at(s, i+2)
	return c == 0x0A ||
		c >= 0x20 && c <= 0x7E ||
		c == 0xC2 && c1 >= 0xA0 ||
		c > 0xC2 && c < 0xED ||
		c == 0xED && c1 < 0xA0 ||
		c == 0xEE ||
		c == 0xEF && !(c1 == 0xBB && c2 == 0xBF) && !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF))
}
