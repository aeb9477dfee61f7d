package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func setFlags() []*flagDef {
	return []*flagDef{
		{name: "all", kind: flagBool, def: "false"},
		{name: "local", kind: flagBool, def: "false"},
		boolFlag("record", ""),
		stringFlag("selector", "l", ""),
		stringFlag("output", "o", ""),
		dryRunFlag(),
		{name: "filename", shorthand: "f", kind: flagStringSlice},
	}
}

// setHelp is `kubectl set` without a subcommand as kubectl 1.37 prints it
// (pkg/cmd/set/set.go: setLong after templates.LongDesc, the subcommands
// in cobra's alphabetical order, names padded to the longest,
// "serviceaccount", plus three spaces, then MainUsageTemplate's footer,
// whose SectionTipsHelp names the command's parents: "kubectl set
// <command> --help", as for rollout; templates.go).
const setHelp = "Configure application resources.\n" +
	"\n" +
	" These commands help you make changes to existing application resources.\n" +
	"\n" +
	"Available Commands:\n" +
	"  env              Update environment variables on a pod template\n" +
	"  image            Update the image of a pod template\n" +
	"  resources        Update resource requests/limits on objects with pod templates\n" +
	"  selector         Set the selector on a resource\n" +
	"  serviceaccount   Update the service account of a resource\n" +
	"  subject          Update the user, group, or service account in a role binding or cluster role binding\n" +
	"\n" +
	"Usage:\n" +
	"  kubectl set SUBCOMMAND [options]\n" +
	"\n" +
	"Use \"kubectl set <command> --help\" for more information about a given command.\n" +
	"Use \"kubectl options\" for a list of global command-line options (applies to all commands).\n"

// runSet dispatches kubectl set SUBCOMMAND; only `set image` is simulated.
func runSet(inv *invocation) error {
	if len(inv.args) == 0 {
		// cmdutil.DefaultSubCommandRun(streams.ErrOut): the help goes to
		// standard error, then CheckErr(ErrExit): exit 1, no message.
		inv.errOut.WriteString(setHelp)
		return errExit
	}
	switch sub := inv.args[0]; sub {
	case "image":
		return inv.setImage(inv.args[1:])
	case "env", "resources", "selector", "serviceaccount", "subject":
		return fmt.Errorf("%q is not simulated in the playground", "kubectl set "+sub)
	default:
		return &usageError{msg: fmt.Sprintf("unknown command %q", strings.Join(inv.args, " ")), cmdPath: "kubectl set"}
	}
}

// setImage mirrors SetImageOptions (staging/src/k8s.io/kubectl/pkg/cmd/set/set_image.go):
// --record (deprecated) writes the command line into the DaemonSet's
// kubernetes.io/change-cause annotation, and without --record an existing
// change-cause is rewritten all the same (genericclioptions.RecordFlags,
// ChangeCauseUpdateRecorder); the controller copies it into the new
// ControllerRevision, so rollout history shows it.
// the arguments are resources first (cmdutil.GetResourcesAndPairs), then
// CONTAINER=IMAGE pairs ("*" names every container); Validate's errors;
// every pair is applied to the pod template (setImage), a name no
// container has gives `error: unable to find container named "x"`; an
// object whose template did not change is skipped silently (empty patch),
// any other is patched and printed as "daemonset.apps/NAME image updated".
// Changing the template starts a rollout under the DaemonSet's update
// strategy, as any template change does.
func (inv *invocation) setImage(args []string) error {
	const path = "kubectl set image"
	if len(inv.flags.Strings("filename")) > 0 || inv.flags.String("selector") != "" || inv.flags.Bool("local") || inv.flags.Bool("all") {
		return &plainError{"set image -f, -l, --all and --local are not simulated in the playground"}
	}
	if o := inv.flags.String("output"); o != "" && o != "name" {
		return &plainError{fmt.Sprintf("-o %s is not simulated in the playground for set image (only -o name)", o)}
	}
	dry, err := dryRunStrategy(inv.flags)
	if err != nil {
		return err
	}
	record, cause := inv.recordFlag()
	if !record && !inv.flags.Changed("record") {
		// RecordFlags.ToRecorder: without --record the
		// ChangeCauseUpdateRecorder still rewrites a change-cause the
		// object already has.
		cause = changeCause(inv)
	}
	// cmdutil.GetResourcesAndPairs
	var resources []string
	images := map[string]string{}
	var order []string
	sawPair := false
	for _, a := range args {
		if strings.Contains(a, "=") {
			sawPair = true
			k, v, _ := strings.Cut(a, "=")
			if k == "" || v == "" {
				return &plainError{fmt.Sprintf("invalid image format: %s", a)}
			}
			if _, dup := images[k]; !dup {
				order = append(order, k)
			}
			images[k] = v
			continue
		}
		if sawPair {
			return &plainError{fmt.Sprintf("all resources must be specified before image changes: %s", a)}
		}
		resources = append(resources, a)
	}
	// Validate
	var verrs []error
	if len(resources) < 1 {
		verrs = append(verrs, &plainError{"one or more resources must be specified as <resource> <name> or <resource>/<name>"})
	}
	if len(images) < 1 {
		verrs = append(verrs, &plainError{"at least one image update is required"})
	} else if _, star := images["*"]; star && len(images) > 1 {
		verrs = append(verrs, &plainError{"all containers are already specified by *, but saw more than one container_name=container_image pairs"})
	}
	if len(verrs) > 0 {
		return visitErr(verrs)
	}
	rargs, err := parseResourceArgs(resources)
	if err != nil {
		return err
	}
	sort.Strings(order) // o.ContainerImages is a map: kubectl's order varies
	c := inv.env.Cluster
	var errs []error
	for _, ra := range rargs {
		if ra.rt != rtDaemonSets {
			return &plainError{fmt.Sprintf("set image is simulated for daemonsets only in the playground, not %s", ra.rt.resource)}
		}
		if len(ra.names) == 0 {
			return &usageError{msg: "resource(s) were provided, but no name was specified", cmdPath: path}
		}
		for _, name := range ra.names {
			ds := c.DaemonSet(inv.namespace, name)
			if ds == nil {
				errs = append(errs, cluster.NotFound("daemonsets.apps", name))
				continue
			}
			changed := false
			cs := ds.Spec.Template.Spec.Containers
			ics := ds.Spec.Template.Spec.InitContainers
			for _, cname := range order {
				img := images[cname]
				found := false
				for i := range cs {
					if cs[i].Name == cname || cname == "*" {
						found = true
						changed = changed || cs[i].Image != img
					}
				}
				for i := range ics {
					if ics[i].Name == cname || cname == "*" {
						found = true
						changed = changed || ics[i].Image != img
					}
				}
				if !found {
					errs = append(errs, &plainError{fmt.Sprintf("error: unable to find container named %q", cname)})
				}
			}
			// The recorder runs inside the patch calculation, so a new
			// change-cause alone makes the patch non-empty.
			newCause, hasCause := ds.Annotations[api.ChangeCauseAnnotation]
			if record || (hasCause && !inv.flags.Changed("record")) {
				newCause = cause
			}
			if newCause != ds.Annotations[api.ChangeCauseAnnotation] {
				changed = true
			}
			if !changed {
				continue // the patch is {}: nothing is sent, nothing printed
			}
			if dry == "" {
				var changes []string
				for _, cname := range order {
					for i := range cs {
						if (cs[i].Name == cname || cname == "*") && cs[i].Image != images[cname] {
							changes = append(changes, cs[i].Name+"="+images[cname])
							cs[i].Image = images[cname]
						}
					}
					for i := range ics {
						if (ics[i].Name == cname || cname == "*") && ics[i].Image != images[cname] {
							changes = append(changes, ics[i].Name+"="+images[cname])
							ics[i].Image = images[cname]
						}
					}
				}
				if newCause != ds.Annotations[api.ChangeCauseAnnotation] {
					if ds.Annotations == nil {
						ds.Annotations = map[string]string{}
					}
					ds.Annotations[api.ChangeCauseAnnotation] = newCause
				}
				if len(changes) == 0 {
					// only the change-cause moved: generation stays
					if err := c.UpdateDaemonSet(ds); err != nil {
						errs = append(errs, err)
					}
					nameOutput(inv, rtDaemonSets, ds.Name, "image updated"+dryRunSuffix(dry))
					continue
				}
				if err := inv.updateTemplate(ds); err != nil {
					errs = append(errs, err)
					continue
				}
				c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "SetImageOptions.Run",
					Object: "daemonset/" + ds.Namespace + "/" + ds.Name, Action: "set-image",
					Reason: inv.line + ": pod template images " + strings.Join(changes, ", ") + "; the controller rolls it out under " + ds.Spec.UpdateStrategy.Type})
			}
			nameOutput(inv, rtDaemonSets, ds.Name, "image updated"+dryRunSuffix(dry))
		}
	}
	return visitErr(errs)
}

// changeCause is parseCommandArguments' text for this command line:
// "kubectl", the positional arguments, then every flag given as
// --name=value in command-line order (as recordFlag words it).
func changeCause(inv *invocation) string {
	cause := "kubectl " + inv.cmd.name
	if len(inv.args) > 0 {
		cause += " " + strings.Join(inv.args, " ")
	}
	for _, fv := range inv.flags.order {
		cause += " --" + fv.name + "=" + fv.value
	}
	return cause
}
