package kubectl

import (
	"github.com/dsplayground/dsplay/engine/cluster"
)

func scaleFlags() []*flagDef {
	return []*flagDef{
		{name: "replicas", kind: flagInt, def: "-1"},
		{name: "current-replicas", kind: flagInt, def: "-1"},
		stringFlag("resource-version", "", ""),
		{name: "timeout", kind: flagDuration, def: "0s"},
		boolFlag("all", ""),
		stringFlag("selector", "l", ""),
		{name: "filename", shorthand: "f", kind: flagStringSlice},
		boolFlag("recursive", "R"),
		{name: "kustomize", shorthand: "k", kind: flagString},
		stringFlag("output", "o", ""),
		dryRunFlag(),
		boolFlag("record", ""),
	}
}

// runScale is kubectl scale (cmd/scale/scale.go). --replicas is required
// (cobra's MarkFlagRequired) and not negative (Validate); the objects are
// read through the resource builder (NotFound for a missing one); then
// each is scaled through its scale subresource (kubectl/pkg/scale
// genericScaler.ScaleSimple: a merge patch of {"spec":{"replicas":N}} to
// .../NAME/scale). None of the playground's resources (DaemonSets, Pods,
// Nodes ...) has a scale subresource: a DaemonSet runs one pod per
// eligible node, so the API server answers the PATCH with its generic 404,
// which kubectl prints as `Error from server (NotFound): the server could
// not find the requested resource`.
func runScale(inv *invocation) error {
	f := inv.flags
	if !f.Changed("replicas") {
		return &plainError{`required flag(s) "replicas" not set`}
	}
	if _, err := dryRunStrategy(f); err != nil {
		return err
	}
	if f.Int("replicas") < 0 {
		return &plainError{"The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"}
	}
	if f.Int("current-replicas") < -1 {
		return &plainError{"The --current-replicas must specify an integer of -1 or greater"}
	}
	if len(f.Strings("filename")) > 0 || f.String("kustomize") != "" {
		return &plainError{"scale -f is not simulated in the playground"}
	}
	ts, err := inv.targets(inv.args, targetSelector{label: f.String("selector"), all: f.Bool("all")})
	if err != nil {
		return err
	}
	var objs int
	var infoErrs []error
	for _, t := range ts {
		if t.err != nil {
			infoErrs = append(infoErrs, t.err)
			continue
		}
		objs++
	}
	if objs == 0 {
		if err := visitErr(infoErrs); err != nil {
			return err
		}
		return &plainError{"no objects passed to scale"}
	}
	if f.String("resource-version") != "" && objs > 1 {
		return &plainError{"cannot use --resource-version with multiple resources"}
	}
	// the first object's scale request fails: no resource here has /scale
	return &cluster.StatusError{Reason: "NotFound", Message: "the server could not find the requested resource"}
}
