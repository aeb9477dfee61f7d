package kubelet

import (
	"strconv"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// What a simulated container's process does. A real container runs the
// image's ENTRYPOINT and CMD unless the pod overrides them: command replaces
// the ENTRYPOINT (and drops the CMD), args replaces the CMD
// (kuberuntime.makeContainerCommand / the CRI merge with the image config).
// The simulation knows the default command of a few well-known images
// (imageDefaultCmd) and decides from the resulting command line whether the
// process exits, when, and with which code (processExit); any other
// command, and any image it does not know, keeps running.

// imageDefaultCmd is the default command (CMD, no ENTRYPOINT) of well-known
// base images, by repository name without registry, namespace or tag. Each
// is an interactive shell, which exits 0 at once when its standard input is
// not attached (no `stdin: true`) and no terminal is allocated (no
// `tty: true`): a pod running `busybox` with no command completes and
// restarts (CrashLoopBackOff) on a real node.
//
// Sources: the images' Dockerfiles on Docker Hub (busybox: CMD ["sh"];
// alpine: CMD ["/bin/sh"]; ubuntu, debian, centos, fedora, amazonlinux,
// rockylinux, almalinux, oraclelinux, archlinux: CMD ["/bin/bash"] or
// ["bash"]; opensuse/leap: ["/bin/bash"]).
var imageDefaultCmd = map[string][]string{
	"busybox":     {"sh"},
	"alpine":      {"/bin/sh"},
	"ubuntu":      {"/bin/bash"},
	"debian":      {"bash"},
	"centos":      {"/bin/bash"},
	"fedora":      {"/bin/bash"},
	"amazonlinux": {"/bin/bash"},
	"rockylinux":  {"/bin/bash"},
	"almalinux":   {"/bin/bash"},
	"oraclelinux": {"/bin/bash"},
	"archlinux":   {"/usr/bin/bash"},
	"leap":        {"/bin/bash"},
}

// imageRepo is the last path element of an image reference without tag or
// digest: "docker.io/library/busybox:1.36" -> "busybox".
func imageRepo(image string) string {
	if i := strings.Index(image, "@"); i >= 0 {
		image = image[:i]
	}
	if i := strings.LastIndex(image, "/"); i >= 0 {
		image = image[i+1:]
	}
	if i := strings.Index(image, ":"); i >= 0 {
		image = image[:i]
	}
	return image
}

// effectiveArgv is the command line a container runs: command then args
// when command is set; otherwise the image's ENTRYPOINT (none for the
// images of imageDefaultCmd) followed by args, or by the image's CMD when
// args is empty. It is nil when the image is unknown and the pod sets
// neither command nor args.
func effectiveArgv(c *api.Container) []string {
	if len(c.Command) > 0 {
		return containerArgv(c)
	}
	if len(c.Args) > 0 {
		if _, known := imageDefaultCmd[imageRepo(c.Image)]; known {
			return append([]string(nil), c.Args...)
		}
		return nil // unknown ENTRYPOINT: assume a server
	}
	return imageDefaultCmd[imageRepo(c.Image)]
}

// containerExtraBool reads a boolean Container field the engine keeps
// unmodeled (stdin, tty) from the pod's Extra: key "spec.containers[i]"
// or "spec.initContainers[i]".
func containerExtraBool(p *api.Pod, init bool, i int, field string) bool {
	key := "spec.containers[" + strconv.Itoa(i) + "]"
	if init {
		key = "spec.initContainers[" + strconv.Itoa(i) + "]"
	}
	v, _ := p.Extra[key][field].(bool)
	return v
}

// processExit decides what container i of pod p (an init container when
// init is true) does once started: exits reports whether its process ends
// by itself, after how long it runs and with which exit code. A shell with
// no script (`sh`, `/bin/bash`) exits 0 at once unless stdin or tty is
// set; see commandRun for commands.
func processExit(p *api.Pod, init bool, i int) (code int32, after time.Duration, exits bool) {
	c := specContainer(p, init, i)
	argv := effectiveArgv(c)
	if len(argv) == 1 && isShell(argv[0]) {
		if containerExtraBool(p, init, i, "stdin") || containerExtraBool(p, init, i, "tty") {
			return 0, 0, false // the shell waits for input
		}
		return 0, CrashExitAfter, true
	}
	return commandRun(argv)
}

func isShell(arg0 string) bool {
	switch arg0[strings.LastIndex(arg0, "/")+1:] {
	case "sh", "bash", "ash", "dash", "zsh":
		return true
	}
	return false
}

// commandRun decides what a command line does: `true`, `echo ...`,
// `printf ...` and `exit N` end at once (0, or N); `false` exits 1;
// `sleep N` (seconds, or a Ns/Nm/Nh/Nd suffix) exits 0 after N;
// `sleep infinity` and `tail -f FILE` never end; a shell's -c SCRIPT does
// what the script does (evalScript, shellscript.go): `sh -c "echo hi;
// sleep 5"` ends after 5 s, `sh -c "for i in 1 2 3; do echo $i; done"`
// ends, `sh -c "while true; do sleep 5; done"` never does. Exits run at
// least CrashExitAfter. exits is false for any other command (it keeps
// running).
func commandRun(argv []string) (code int32, after time.Duration, exits bool) {
	code, after, exits = simpleRun(argv)
	if exits {
		after = max(after, CrashExitAfter)
	}
	return code, after, exits
}

// simpleRun is commandRun without the CrashExitAfter floor: what one
// command of a script takes.
func simpleRun(argv []string) (code int32, after time.Duration, exits bool) {
	if len(argv) == 0 {
		return 0, 0, false
	}
	base := argv[0][strings.LastIndex(argv[0], "/")+1:]
	switch base {
	case "false":
		return 1, 0, true
	case "true", "echo", "printf", ":":
		return 0, 0, true
	case "exit":
		if len(argv) == 1 {
			return 0, 0, true
		}
		n, err := strconv.ParseInt(argv[1], 10, 32)
		if err != nil {
			return 0, 0, false // exit $VAR: the simulation cannot tell
		}
		return int32(n & 255), 0, true
	case "sleep":
		// busybox (and coreutils) sleep: no operand prints the usage,
		// an operand that is not a number (`abc`, `-1`) "invalid
		// number"; both exit 1 at once. Several operands add up.
		// `infinity` never ends; `$VAR` cannot be told, so it keeps
		// running.
		if len(argv) == 1 {
			return 1, 0, true
		}
		var total time.Duration
		for _, a := range argv[1:] {
			if a == "infinity" || strings.HasPrefix(a, "$") {
				return 0, 0, false
			}
			d, ok := sleepDuration(a)
			if !ok {
				return 1, 0, true
			}
			total += d
		}
		return 0, total, true
	case "sh", "bash", "ash", "dash", "zsh":
		if len(argv) < 3 || argv[1] != "-c" {
			return 0, 0, false
		}
		r, ok := evalScript(argv[2])
		if !ok {
			return lastStatementRun(argv[2])
		}
		if r.state != shEnds {
			return 0, 0, false
		}
		return r.code, r.after, true
	}
	return 0, 0, false
}

// lastStatementRun is what a script evalScript cannot read does: what its
// last statement (after the last `;`, `&&`, `||`, `&`, `|` or newline)
// does.
func lastStatementRun(script string) (code int32, after time.Duration, exits bool) {
	script = strings.TrimSpace(script)
	if i := strings.LastIndexAny(script, ";&|\n"); i >= 0 {
		script = strings.TrimSpace(script[i+1:])
	}
	f := strings.Fields(script)
	if len(f) == 0 {
		return 0, 0, true // an empty script
	}
	return simpleRun(f)
}

// sleepDuration parses sleep's operand: seconds with an optional s, m, h
// or d suffix. "infinity" (and anything unparsable) is not a duration.
func sleepDuration(s string) (time.Duration, bool) {
	unit := time.Second
	switch {
	case strings.HasSuffix(s, "s"):
		s = s[:len(s)-1]
	case strings.HasSuffix(s, "m"):
		s, unit = s[:len(s)-1], time.Minute
	case strings.HasSuffix(s, "h"):
		s, unit = s[:len(s)-1], time.Hour
	case strings.HasSuffix(s, "d"):
		s, unit = s[:len(s)-1], 24*time.Hour
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > 1e9 {
		return 0, false
	}
	return time.Duration(f * float64(unit)), true
}

// runsForever reports whether a command line is known never to end:
// `sleep infinity`, `tail -f ...`, or a shell -c script that never ends
// (evalScript: a `while true` / `while :` / `until false` loop without
// break or exit, or one of those commands not in the background). A for
// loop over a finite list ends.
func runsForever(argv []string) bool {
	if simpleForever(argv) {
		return true
	}
	if len(argv) >= 3 && isShell(argv[0]) && argv[1] == "-c" {
		if r, ok := evalScript(argv[2]); ok {
			return r.state == shForever
		}
		script := strings.TrimSpace(argv[2])
		if i := strings.LastIndexAny(script, ";&|\n"); i >= 0 {
			script = strings.TrimSpace(script[i+1:])
		}
		return simpleForever(strings.Fields(script))
	}
	return false
}

// simpleForever reports whether one command never ends: `sleep infinity`
// or `tail -f` / `tail -F`.
func simpleForever(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	switch argv[0][strings.LastIndex(argv[0], "/")+1:] {
	case "sleep":
		return len(argv) == 2 && argv[1] == "infinity"
	case "tail":
		return len(argv) >= 2 && (argv[1] == "-f" || argv[1] == "-F")
	}
	return false
}
