package kubelet

import (
	"strconv"
	"strings"
	"time"
)

// What a shell's -c SCRIPT does, for processExit and runsForever. The
// script is read as busybox ash (the shell of busybox and alpine, and of
// most `sh -c` one-liners in manifests) reads it: statements separated by
// `;`, newlines, `&&`, `||`, `|` and `&`, and the compound commands
// `for NAME [in WORDS]; do LIST; done`, `while LIST; do LIST; done`,
// `until LIST; do LIST; done` and `if LIST; then LIST; [elif ...;] [else
// LIST;] fi`. Evaluation mirrors ash.c's evaltree: evalfor runs the body
// once per word of a finite list, so `for i in 1 2 3; do echo $i; done`
// ends; evalloop runs `while true` / `while :` / `until false` until a
// `break` or `exit`, so without one such a loop never ends; a statement
// that never ends (`sleep infinity`, `tail -f`, such a loop) keeps the
// script from going further, unless it is put in the background with `&`
// (then `wait` waits for it). A command the simulation does not know
// (`nginx`, `cp`, `apk add`) is taken to finish at once when more of the
// script follows, and to keep running when it is the script's last
// statement (a server); `exec CMD` ends the script with CMD.

// shState is what a piece of script does.
type shState int

const (
	shEnds    shState = iota // ends, with code after some time
	shForever                // never ends
	shUnknown                // the simulation cannot tell (a server, `sleep $T`)
)

// shResult is the outcome of evaluating a piece of script: brk is set by
// `break` (the enclosing loop ends), exit by `exit` and `exec` (the
// script ends).
type shResult struct {
	state     shState
	code      int32
	after     time.Duration
	brk, exit bool
}

// shToken is one token of a script: a word (quoted parts unquoted), an
// operator (; && || | & and newline as ;), or a redirection (> >> < >&2 ...).
type shToken struct {
	s     string
	op    bool
	redir bool
}

// tokenizeShell splits script into tokens as ash's lexer does for the
// constructs evalScript reads: quotes ('...', "...", \x) join a word, $(...)
// and `...` stay inside their word, # starts a comment. ok is false for
// what evalScript does not read (subshells, groups, functions, case,
// unbalanced quotes).
func tokenizeShell(script string) (toks []shToken, ok bool) {
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			toks = append(toks, shToken{s: cur.String()})
			cur.Reset()
			inWord = false
		}
	}
	rs := []rune(script)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\'':
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j >= len(rs) {
				return nil, false
			}
			cur.WriteString(string(rs[i+1 : j]))
			inWord, i = true, j
		case r == '"':
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				if rs[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(rs) {
				return nil, false
			}
			cur.WriteString(string(rs[i+1 : j]))
			inWord, i = true, j
		case r == '\\' && i+1 < len(rs):
			if rs[i+1] != '\n' {
				cur.WriteRune(rs[i+1])
				inWord = true
			}
			i++
		case r == '$' && i+1 < len(rs) && rs[i+1] == '(', r == '`':
			// command substitution: to its end, nesting counted
			j, depth := i+1, 0
			if r == '`' {
				for j < len(rs) && rs[j] != '`' {
					j++
				}
			} else {
				for ; j < len(rs); j++ {
					if rs[j] == '(' {
						depth++
					} else if rs[j] == ')' {
						if depth--; depth == 0 {
							break
						}
					}
				}
			}
			if j >= len(rs) {
				return nil, false
			}
			cur.WriteString(string(rs[i : j+1]))
			inWord, i = true, j
		case r == '#' && !inWord:
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
			i--
		case r == ' ' || r == '\t':
			flush()
		case r == '\n' || r == ';':
			flush()
			if r == ';' && i+1 < len(rs) && rs[i+1] == ';' {
				return nil, false // case ... ;;
			}
			toks = append(toks, shToken{s: ";", op: true})
		case r == '&' || r == '|':
			if r == '&' && i+1 < len(rs) && rs[i+1] == '>' { // &> file
				flush()
				toks = append(toks, shToken{s: "&>", redir: true})
				i++
				continue
			}
			flush()
			if i+1 < len(rs) && rs[i+1] == r {
				toks = append(toks, shToken{s: string([]rune{r, r}), op: true})
				i++
			} else {
				toks = append(toks, shToken{s: string(r), op: true})
			}
		case r == '>' || r == '<':
			// a redirection: an fd number just before it belongs to it,
			// and >&N / <&N carry their target
			fd := ""
			if inWord && isDigits(cur.String()) {
				fd = cur.String()
				cur.Reset()
				inWord = false
			}
			flush()
			op := fd + string(r)
			if i+1 < len(rs) && (rs[i+1] == '>' || rs[i+1] == '&') {
				op += string(rs[i+1])
				i++
			}
			if strings.HasSuffix(op, "&") {
				for i+1 < len(rs) && (rs[i+1] >= '0' && rs[i+1] <= '9' || rs[i+1] == '-') {
					i++
					op += string(rs[i])
				}
				toks = append(toks, shToken{s: op, redir: true, op: true}) // target included
				continue
			}
			toks = append(toks, shToken{s: op, redir: true})
		case r == '(' || r == ')' || (r == '{' || r == '}') && !inWord && (i+1 == len(rs) || rs[i+1] == ' ' || rs[i+1] == '\n' || rs[i+1] == ';'):
			return nil, false
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	flush()
	return toks, true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// shCmd is one command of a pipeline: a simple command (argv) or a loop or
// conditional with its lists.
type shCmd struct {
	kind  string // "simple", "for", "while", "until", "if"
	argv  []string
	words []string // for: the word list (nil with no `in`: "$@", empty)
	cond  []shItem // while, until, if
	body  []shItem // the loop body, or if's then-list
	alt   []shItem // if's else-list (elif as a nested if)
	neg   bool     // `! CMD`
}

// shItem is a pipeline and the operator after it (";", "&&", "||", "&").
type shItem struct {
	pipe []shCmd
	op   string
}

type shParser struct {
	toks []shToken
	i    int
	bad  bool
}

func (p *shParser) peekWord() string {
	if p.i < len(p.toks) && !p.toks[p.i].op && !p.toks[p.i].redir {
		return p.toks[p.i].s
	}
	return ""
}

func (p *shParser) skipSeps() {
	for p.i < len(p.toks) && p.toks[p.i].s == ";" {
		p.i++
	}
}

// list parses statements up to one of the reserved words in ends (at
// the start of a command), which it consumes and returns ("" at the end
// of the script).
func (p *shParser) list(ends ...string) ([]shItem, string) {
	var items []shItem
	for !p.bad {
		p.skipSeps()
		if p.i >= len(p.toks) {
			if len(ends) > 0 {
				p.bad = true
			}
			return items, ""
		}
		w := p.peekWord()
		for _, e := range ends {
			if w == e {
				p.i++
				return items, e
			}
		}
		var it shItem
		for {
			c := p.command()
			if p.bad {
				return items, ""
			}
			it.pipe = append(it.pipe, c)
			if p.i < len(p.toks) && p.toks[p.i].s == "|" {
				p.i++
				continue
			}
			break
		}
		if p.i < len(p.toks) && p.toks[p.i].op {
			it.op = p.toks[p.i].s
			p.i++
		}
		items = append(items, it)
	}
	return items, ""
}

// redirections skips the redirections after a command.
func (p *shParser) redirections() {
	for p.i < len(p.toks) && p.toks[p.i].redir {
		if p.toks[p.i].op { // >&2: the target is part of it
			p.i++
			continue
		}
		p.i += 2
	}
}

func (p *shParser) command() shCmd {
	switch w := p.peekWord(); w {
	case "for":
		p.i++
		c := shCmd{kind: "for"}
		if p.peekWord() == "" {
			p.bad = true
			return c
		}
		p.i++ // the variable
		if p.peekWord() == "in" {
			p.i++
			c.words = []string{}
			for p.peekWord() != "" {
				c.words = append(c.words, p.toks[p.i].s)
				p.i++
			}
		}
		p.skipSeps()
		if p.peekWord() != "do" {
			p.bad = true
			return c
		}
		p.i++
		c.body, _ = p.list("done")
		p.redirections()
		return c
	case "while", "until":
		p.i++
		c := shCmd{kind: w}
		c.cond, _ = p.list("do")
		c.body, _ = p.list("done")
		p.redirections()
		return c
	case "if":
		p.i++
		return p.ifRest()
	case "!":
		// `! CMD` inverts CMD's exit code (ash evaltree NNOT)
		p.i++
		c := p.command()
		c.neg = !c.neg
		return c
	case "case", "select", "function", "then", "do", "done", "fi", "elif", "else", "esac":
		p.bad = true
		return shCmd{}
	case "":
		if p.i < len(p.toks) && p.toks[p.i].redir {
			p.redirections()
			return p.command()
		}
		p.bad = true
		return shCmd{}
	}
	c := shCmd{kind: "simple"}
	for p.i < len(p.toks) && !p.toks[p.i].op {
		if p.toks[p.i].redir {
			p.redirections()
			continue
		}
		c.argv = append(c.argv, p.toks[p.i].s)
		p.i++
	}
	return c
}

// ifRest parses an if after its `if` (or an elif after its `elif`).
func (p *shParser) ifRest() shCmd {
	c := shCmd{kind: "if"}
	c.cond, _ = p.list("then")
	var end string
	c.body, end = p.list("elif", "else", "fi")
	switch end {
	case "elif":
		c.alt = []shItem{{pipe: []shCmd{p.ifRest()}}}
		return c
	case "else":
		c.alt, _ = p.list("fi")
	}
	p.redirections()
	return c
}

// evalScript evaluates a shell's -c script; ok is false when it uses
// something tokenizeShell or the parser does not read.
func evalScript(script string) (r shResult, ok bool) {
	toks, ok := tokenizeShell(script)
	if !ok {
		return shResult{}, false
	}
	p := &shParser{toks: toks}
	items, _ := p.list()
	if p.bad {
		return shResult{}, false
	}
	return evalList(items, true), true
}

// evalList runs a list of statements (ash evaltree for ND_SEMI, ND_AND,
// ND_OR, ND_BACKGND): last marks the script's top level, where a final
// unknown command keeps running.
func evalList(items []shItem, last bool) shResult {
	res := shResult{state: shEnds}
	var bgForever bool
	var bgLongest time.Duration
	prevOp := ";"
	for i, it := range items {
		if (prevOp == "&&" && res.code != 0) || (prevOp == "||" && res.code == 0) {
			prevOp = it.op
			continue
		}
		prevOp = it.op
		if len(it.pipe) == 1 && it.pipe[0].kind == "simple" && len(it.pipe[0].argv) > 0 && it.pipe[0].argv[0] == "wait" {
			if bgForever {
				return shResult{state: shForever}
			}
			res.after, res.code = max(res.after, bgLongest), 0
			continue
		}
		r := evalPipe(it.pipe, last && i == len(items)-1 && it.op != "&")
		if it.op == "&" {
			bgForever = bgForever || r.state == shForever
			if r.state == shEnds {
				bgLongest = max(bgLongest, res.after+r.after)
			}
			res.code = 0
			continue
		}
		if r.state != shEnds {
			return r
		}
		res.after += r.after
		res.code = r.code
		if r.brk || r.exit {
			res.brk, res.exit = r.brk, r.exit
			return res
		}
	}
	return res
}

// evalPipe runs a pipeline: it ends when its last command does, and never
// when one of its commands never ends (`tail -f log | grep x`).
func evalPipe(cmds []shCmd, last bool) shResult {
	if len(cmds) == 1 {
		return evalCmd(cmds[0], last)
	}
	for _, c := range cmds[:len(cmds)-1] {
		if evalCmd(c, false).state == shForever {
			return shResult{state: shForever}
		}
	}
	r := evalCmd(cmds[len(cmds)-1], last)
	r.brk, r.exit = false, false // a pipeline's commands run in subshells
	return r
}

// literalCond tells a loop or if condition that is always true (`true`,
// `:`) or always false (`false`); known is false for any other.
func literalCond(cond []shItem) (value, known bool) {
	if len(cond) != 1 || len(cond[0].pipe) != 1 || cond[0].pipe[0].kind != "simple" || len(cond[0].pipe[0].argv) != 1 {
		return false, false
	}
	c := cond[0].pipe[0]
	switch c.argv[0] {
	case "true", ":":
		return !c.neg, true
	case "false":
		return c.neg, true
	}
	return false, false
}

// forCount is how many times a for loop runs: one per word, $(seq N) and
// $(seq A B) counted; another expansion counts once.
func forCount(words []string) int {
	n := 0
	for _, w := range words {
		if strings.HasPrefix(w, "$(seq ") && strings.HasSuffix(w, ")") {
			f := strings.Fields(strings.TrimSuffix(strings.TrimPrefix(w, "$(seq "), ")"))
			a, b := 1, 0
			var err1, err2 error
			switch len(f) {
			case 1:
				b, err1 = strconv.Atoi(f[0])
			case 2:
				a, err1 = strconv.Atoi(f[0])
				b, err2 = strconv.Atoi(f[1])
			default:
				err1 = strconv.ErrSyntax
			}
			if err1 == nil && err2 == nil {
				n += max(0, b-a+1)
				continue
			}
		}
		n++
	}
	return n
}

func evalCmd(c shCmd, last bool) shResult {
	if c.neg {
		c.neg = false
		r := evalCmd(c, last)
		if r.state == shEnds && !r.exit {
			r.code = map[bool]int32{true: 1, false: 0}[r.code == 0]
		}
		return r
	}
	switch c.kind {
	case "for": // ash evalfor
		n := forCount(c.words)
		if n == 0 {
			return shResult{state: shEnds}
		}
		b := evalList(c.body, false)
		switch {
		case b.state != shEnds:
			return b
		case b.exit:
			return b
		case b.brk:
			return shResult{state: shEnds, code: b.code, after: b.after}
		}
		return shResult{state: shEnds, code: b.code, after: time.Duration(n) * b.after}
	case "while", "until": // ash evalloop
		v, known := literalCond(c.cond)
		if !known {
			if last {
				return shResult{state: shUnknown}
			}
			return shResult{state: shEnds}
		}
		if v != (c.kind == "while") {
			return shResult{state: shEnds} // the body never runs
		}
		b := evalList(c.body, false)
		switch {
		case b.state != shEnds, b.exit:
			return b
		case b.brk:
			return shResult{state: shEnds, code: b.code, after: b.after}
		}
		return shResult{state: shForever}
	case "if": // ash evalif
		if v, known := literalCond(c.cond); known {
			if v {
				return evalList(c.body, last)
			}
			return evalList(c.alt, last)
		}
		t, e := evalList(c.body, last), evalList(c.alt, last)
		if t.state == shForever && e.state == shForever {
			return t
		}
		if last {
			return shResult{state: shUnknown}
		}
		return shResult{state: shEnds}
	}
	return evalSimple(c.argv, last)
}

// evalSimple runs a simple command in a script: the shell's builtins
// (break, exit, exec, and those that return at once), then commandRun's
// commands; an unknown command ends at once unless last.
func evalSimple(argv []string, last bool) shResult {
	for len(argv) > 0 && strings.Contains(argv[0], "=") && !strings.HasPrefix(argv[0], "=") {
		argv = argv[1:] // VAR=value assignments
	}
	if len(argv) == 0 {
		return shResult{state: shEnds}
	}
	switch argv[0] {
	case "break":
		return shResult{state: shEnds, brk: true}
	case "exit":
		r := shResult{state: shEnds, exit: true}
		if len(argv) > 1 {
			n, err := strconv.ParseInt(argv[1], 10, 32)
			if err != nil {
				return shResult{state: shUnknown} // exit $VAR
			}
			r.code = int32(n & 255)
		}
		return r
	case "exec":
		r := evalSimple(argv[1:], true)
		r.exit = true
		return r
	case "continue", "trap", "set", "export", "cd", "shift", "local", "unset", "umask", "read":
		return shResult{state: shEnds, code: map[bool]int32{true: 1, false: 0}[argv[0] == "read"]}
	}
	if simpleForever(argv) {
		return shResult{state: shForever}
	}
	code, after, exits := simpleRun(argv)
	switch {
	case exits:
		return shResult{state: shEnds, code: code, after: after}
	case last:
		return shResult{state: shUnknown}
	}
	return shResult{state: shEnds}
}
