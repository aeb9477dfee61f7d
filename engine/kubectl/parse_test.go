package kubectl

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
)

func TestParseCommandLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
		err  string
	}{
		{"kubectl get pods", []string{"kubectl", "get", "pods"}, ""},
		{"  k   get\tpods  ", []string{"k", "get", "pods"}, ""},
		{"", nil, ""},
		{"get pods -l 'app in (a, b)'", []string{"get", "pods", "-l", "app in (a, b)"}, ""},
		{`get pods -l "app=x"`, []string{"get", "pods", "-l", "app=x"}, ""},
		{`echo "a \"b\" \\ \$x"`, []string{"echo", `a "b" \ $x`}, ""},
		{`echo "keep \n"`, []string{"echo", `keep \n`}, ""},
		{`echo 'no \escape'`, []string{"echo", `no \escape`}, ""},
		{`echo a\ b`, []string{"echo", "a b"}, ""},
		{`echo a'b'"c"d`, []string{"echo", "abcd"}, ""},
		{`echo '' ""`, []string{"echo", "", ""}, ""},
		{"get pods # comment", []string{"get", "pods"}, ""},
		{"label nodes n a#b=c", []string{"label", "nodes", "n", "a#b=c"}, ""},
		{"get pods 'oops", nil, "unterminated quoted string: missing closing ' (single quote)"},
		{`get pods "oops`, nil, `unterminated quoted string: missing closing " (double quote)`},
		{`get pods \`, nil, `unexpected end of line after \`},
		{"line\\\ncontinued", []string{"linecontinued"}, ""},
		{"get pods | grep x", nil, `shell operator "|" is not supported: the playground runs one kubectl command per line (quote the argument if "|" is part of it)`},
		{"get pods && echo", nil, `shell operator "&&" is not supported: the playground runs one kubectl command per line (quote the argument if "&&" is part of it)`},
		{"get nodes -l cpu>4", nil, `shell operator ">" is not supported: the playground runs one kubectl command per line (quote the argument if ">" is part of it)`},
		{"get pods $(cat x)", nil, `shell operator "$(" is not supported: the playground runs one kubectl command per line (quote the argument if "$(" is part of it)`},
		{"get nodes -l 'cpu>4' -o name", []string{"get", "nodes", "-l", "cpu>4", "-o", "name"}, ""},
		{"echo $HOME", []string{"echo", "$HOME"}, ""},
	} {
		got, err := ParseCommandLine(tc.line)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: unexpected error %v", tc.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestFlagParsing(t *testing.T) {
	defs := func() []*flagDef {
		return []*flagDef{
			stringFlag("output", "o", ""),
			boolFlag("all-namespaces", "A"),
			boolFlag("watch", "w"),
			{name: "cascade", kind: flagString, def: "background", noOptDef: "background"},
			{name: "grace-period", kind: flagInt, def: "-1"},
			{name: "filename", shorthand: "f", kind: flagStringSlice},
			stringFlag("namespace", "n", ""),
		}
	}
	for _, tc := range []struct {
		args []string
		pos  []string
		vals map[string]string
		err  string
	}{
		{[]string{"pods", "-o", "wide"}, []string{"pods"}, map[string]string{"output": "wide"}, ""},
		{[]string{"-owide", "pods"}, []string{"pods"}, map[string]string{"output": "wide"}, ""},
		{[]string{"-o=wide"}, nil, map[string]string{"output": "wide"}, ""},
		{[]string{"--output=name", "x"}, []string{"x"}, map[string]string{"output": "name"}, ""},
		{[]string{"--output", "name"}, nil, map[string]string{"output": "name"}, ""},
		{[]string{"-Aw"}, nil, map[string]string{"all-namespaces": "true", "watch": "true"}, ""},
		{[]string{"-An", "kube-system"}, nil, map[string]string{"all-namespaces": "true", "namespace": "kube-system"}, ""},
		{[]string{"--cascade", "orphan"}, []string{"orphan"}, map[string]string{"cascade": "background"}, ""},
		{[]string{"--cascade=orphan"}, nil, map[string]string{"cascade": "orphan"}, ""},
		{[]string{"--all-namespaces=false"}, nil, map[string]string{"all-namespaces": "false"}, ""},
		{[]string{"--grace-period=0x10"}, nil, map[string]string{"grace-period": "16"}, ""},
		{[]string{"-f", "a,b", "-f", "c"}, nil, map[string]string{"filename": "a,b,c"}, ""},
		{[]string{"--", "-o", "x"}, []string{"-o", "x"}, nil, ""},
		{[]string{"-"}, []string{"-"}, nil, ""},
		{[]string{"--nope"}, nil, nil, "unknown flag: --nope"},
		{[]string{"--nope=1"}, nil, nil, "unknown flag: --nope"},
		{[]string{"-Az"}, nil, nil, "unknown shorthand flag: 'z' in -z"},
		{[]string{"-o"}, nil, nil, "flag needs an argument: 'o' in -o"},
		{[]string{"--output"}, nil, nil, "flag needs an argument: --output"},
		{[]string{"--grace-period=x"}, nil, nil, `invalid argument "x" for "--grace-period" flag: strconv.ParseInt: parsing "x": invalid syntax`},
		{[]string{"-A=maybe"}, nil, nil, `invalid argument "maybe" for "-A, --all-namespaces" flag: strconv.ParseBool: parsing "maybe": invalid syntax`},
		{[]string{"--=x"}, nil, nil, "unknown flag: --"},
	} {
		fs := newFlagSet(defs())
		pos, err := fs.parse(tc.args)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if !reflect.DeepEqual(pos, tc.pos) {
			t.Errorf("%q: positional %q, want %q", tc.args, pos, tc.pos)
		}
		for k, v := range tc.vals {
			var got string
			switch k {
			case "filename":
				got = strings.Join(fs.Strings(k), ",")
			case "grace-period":
				got = strconv.Itoa(fs.Int(k))
			default:
				got = fs.String(k)
			}
			if got != v {
				t.Errorf("%q: %s=%q, want %q", tc.args, k, got, v)
			}
		}
	}
}

func TestSelectorParse(t *testing.T) {
	labels := map[string]string{"app": "web", "tier": "1", "env": "prod"}
	for _, tc := range []struct {
		sel   string
		match bool
		err   string
	}{
		{"", true, ""},
		{"app=web", true, ""},
		{"app==web", true, ""},
		{"app!=web", false, ""},
		{"app=db", false, ""},
		{"app", true, ""},
		{"!app", false, ""},
		{"!missing", true, ""},
		{"app in (web,db)", true, ""},
		{"app notin (web)", false, ""},
		{"missing notin (x)", true, ""},
		{"app=web,env=prod", true, ""},
		{"app=web,env=dev", false, ""},
		{"tier>0", true, ""},
		{"tier<1", false, ""},
		{"app=", false, ""},
		{" app = web ", true, ""},
		{"a b", false, "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"},
		{"app=web,", false, "found '', expected: identifier after ','"},
		{",", false, "found ',', expected: !, identifier, or 'end of string'"},
		{"app in web", false, "unable to parse requirement: found 'web' expected: '('"},
		{"app in (web", false, "unable to parse requirement: found '', expected: ',' or ')'"},
		{"tier>x", false, `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"app=web=x", false, "found '=', expected: ',' or 'end of string'"},
	} {
		s, err := parseSelector(tc.sel)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.sel, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.sel, err)
			continue
		}
		if got := s.matches(labels); got != tc.match {
			t.Errorf("%q: matches=%v, want %v", tc.sel, got, tc.match)
		}
	}
}

// TestDecisionsAndTimeAdded checks the side effects that the transcripts do
// not show: decisions recorded for user actions, NoExecute timeAdded.
func TestDecisionsAndTimeAdded(t *testing.T) {
	c := fixture()
	env := testEnv(c, nil)
	before := c.LastDecisionSeq()
	r := Run(env, []string{"kubectl", "taint", "nodes", "node-1", "k=v:NoExecute", "soft=x:NoSchedule"})
	if r.ExitCode != 0 {
		t.Fatalf("taint failed: %+v", r)
	}
	n := c.Node("node-1")
	for _, tt := range n.Spec.Taints {
		switch tt.Effect {
		case "NoExecute":
			if tt.TimeAdded == nil || !tt.TimeAdded.Equal(c.Now()) {
				t.Errorf("NoExecute taint TimeAdded = %v, want now", tt.TimeAdded)
			}
		default:
			if tt.TimeAdded != nil {
				t.Errorf("%s taint has TimeAdded", tt.Effect)
			}
		}
	}
	ds := c.Decisions(before)
	if len(ds) != 1 || ds[0].Component != cluster.ComponentUser || ds[0].Action != "taint" || ds[0].Node != "node-1" {
		t.Errorf("decisions after taint: %+v", ds)
	}
	// A failed command records nothing and does not write.
	rv := c.ResourceVersion()
	before = c.LastDecisionSeq()
	Run(env, []string{"taint", "nodes", "node-1", "k=v:NoExecute"})
	if c.ResourceVersion() != rv || c.LastDecisionSeq() != before {
		t.Errorf("failed taint wrote to the store")
	}
	// Graceful delete: deletionTimestamp = now + grace, removal by the kubelet.
	before = c.LastDecisionSeq()
	start := c.Now()
	r = Run(env, []string{"delete", "pod", "fluentd-bz9wd", "--wait=false"})
	p := c.Pod("default", "fluentd-bz9wd")
	if p == nil || p.DeletionTimestamp == nil || !p.DeletionTimestamp.Equal(start.Add(30*time.Second)) ||
		p.DeletionGracePeriodSeconds == nil || *p.DeletionGracePeriodSeconds != 30 {
		t.Fatalf("graceful delete: %+v", p)
	}
	if ds := c.Decisions(before); len(ds) != 1 || ds[0].Action != "delete" {
		t.Errorf("decisions after delete: %+v", ds)
	}
	// With --wait the command returns when the pod is gone, 30s later.
	r = Run(env, []string{"delete", "pod", "fluentd-bz9wd"})
	if r.ExitCode != 0 || c.Pod("default", "fluentd-bz9wd") != nil || !c.Now().Equal(start.Add(30*time.Second)) {
		t.Errorf("delete --wait: %+v, now %v", r, c.Now().Sub(start))
	}
	// An unbound pod is removed at once.
	c.Pod("default", "fluentd-q9z4m").Spec.NodeName = ""
	Run(env, []string{"delete", "pod", "fluentd-q9z4m", "--wait=false"})
	if c.Pod("default", "fluentd-q9z4m") != nil {
		t.Errorf("unbound pod not removed at once")
	}
}
