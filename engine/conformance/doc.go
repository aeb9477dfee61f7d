// Package conformance holds the conformance suite of the simulator: txtar
// scenarios under testdata/ that replay, in our own words, the upstream
// Kubernetes tests listed in section 6 of the project's reference notes
// (k8s-semantics.md) and the node situations, toleration rules and taint
// effects of its sections 3.2 and 3.6, each asserting what a learner would
// observe on a real cluster: pods per node (`kubectl get pods -o wide`),
// which pods were deleted, `kubectl get ds` counts, events.
//
// conformance_test.go runs every testdata/*.txtar through engine/scenario,
// exactly as the examples are run (scenario.Parse, then Run on a fresh
// seed-1 simulation; every assertion must hold), one subtest per file. No
// golden transcript is kept: the assertions are the contract, so a change
// of unrelated output (an AGE column, an event's wording elsewhere) does not
// churn the suite.
//
// Header rule: every file starts with comment lines (before its first
// command), and one of them must name what it mirrors:
//
//	# upstream: DC TestDealsWithExistingPods        (a Go test; DC, UP, IT as in §6)
//	# reference: k8s-semantics.md §3.6              (a section of the notes)
//
// A file without such a line fails the suite.
//
// File name prefixes say which part of the notes a file covers: placement-,
// taints-, tolerations-, existing-, failed-, status-, history- (DaemonSet
// controller); nodes-, lifecycle-, sched- (scheduler and node lifecycle);
// validation-, realworld- (API validation, real manifests); update- (rolling
// updates); objects- (ServiceAccounts, ConfigMaps and Secrets: ServiceAccount
// admission, volume mounts, the objects every namespace gets); apply-
// (kubectl apply, create and replace -f: kinds the API server does not
// serve, multi-document files that partly fail, re-applied dumps). A file
// with another prefix fails the suite.
//
// Run one file: go test ./engine/conformance -run 'TestConformance/<file stem>'.
// Or headless with its transcript: go run ./cmd/dsplay run engine/conformance/testdata/<file>.
//
// Upstream cases that cannot be observed through kubectl are Go tests
// instead (§6 case numbers):
//
//	 3, 7, 17, 18, 20  engine/controller TestPlacementTable: nodes with a condition
//	                   but no taint, or only the not-ready/unreachable NoExecute
//	                   taint (states the node controller does not leave a node in)
//	13                 engine/controller TestNodeShouldRunDaemonPod
//	28                 engine/controller TestEmptySelectorDoesNothing (SelectingAll;
//	                   the API server refuses an empty selector, so kubectl cannot
//	                   create one)
//	29                 engine/controller TestDontDoAnythingIfBeingDeleted (the
//	                   observable half is existing-delete-cascade-foreground)
//	30                 engine/controller TestAddPodOrphan, TestUpdatePodChangeControllerRef
//	                   (enqueue decisions: there is no work queue, every DaemonSet
//	                   syncs on every change; the outcomes are checked)
//	31                 engine/controller TestShouldIgnoreNodeUpdate, TestNodeEventHandlers
//	                   (which DaemonSets addNode/updateNode and syncNodeUpdate
//	                   enqueue; the observable part is
//	                   nodes-syncnodeupdate-noschedule-stale-status)
//	37                 engine/controller TestStoreDaemonSetStatus (the store never
//	                   refuses a status write, so there is no retry path)
//	51                 engine/controller TestLaunchWithHashCollision
//	52                 engine/controller TestDSCUpdatesPodLabelAfterDedupCurHistories
//	53                 engine/controller TestControlledHistories (kubectl cannot
//	                   create ControllerRevisions here; the observable part,
//	                   orphaned revisions adopted by a re-created DaemonSet, is in
//	                   existing-delete-cascade-orphan-readopt and
//	                   history-controlled-histories)
//
// Expectations are modelled as observed at once (engine/controller package
// comment), as the upstream unit tests' fakePodControl does; case 35's
// "API accepts only N creates" needs a ResourceQuota, which the playground
// does not simulate, so status-pod-create-errors refuses every create
// through the Priority admission plugin instead.
package conformance
