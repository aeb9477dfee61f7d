package manifest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
)

// TestStrictUnknownFields: unknown fields anywhere in a DaemonSet, Pod or
// Node are rejected as the API server's strict decoding reports them
// (several in one error, in the order of the sorted JSON kubectl sends),
// and each diagnostic points at its key with a hint.
func TestStrictUnknownFields(t *testing.T) {
	tests := []struct {
		name, text string
		kubectl    string
		diags      []string // "line:col field | hint substring", in file order
	}{
		{"misspelt container field", strings.Replace(minimalDS, "        image: nginx:1.25\n", "        image: nginx:1.25\n        imagePullPolic: Always\n", 1),
			`Error from server (BadRequest): error when creating "test.yaml": DaemonSet in version "v1" cannot be handled as a DaemonSet: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolic"`,
			[]string{`17:9 spec.template.spec.containers[0].imagePullPolic | did you mean "imagePullPolicy"?`}},
		{"several, sorted depth first", strings.Replace(strings.Replace(minimalDS, "spec:\n  selector:", "spec:\n  zeta: 1\n  selector:", 1), "metadata:\n  name: web\n", "metadata:\n  name: web\n  lables: {a: b}\n", 1),
			`Error from server (BadRequest): error when creating "test.yaml": DaemonSet in version "v1" cannot be handled as a DaemonSet: strict decoding error: unknown field "metadata.lables", unknown field "spec.zeta"`,
			[]string{`5:3 metadata.lables | did you mean "labels"?`, `7:3 spec.zeta | DaemonSetSpec has no field "zeta"; ` + "`kubectl explain daemonsets.spec`"}},
		{"wrong case", strings.Replace(minimalDS, "  selector:", "  Selector:", 1),
			`Error from server (BadRequest): error when creating "test.yaml": DaemonSet in version "v1" cannot be handled as a DaemonSet: strict decoding error: unknown field "spec.Selector"`,
			[]string{`6:3 spec.Selector | did you mean "selector"?`}},
		{"field of a child", strings.Replace(minimalDS, "  template:\n", "  hostNetwork: true\n  template:\n", 1),
			`Error from server (BadRequest): error when creating "test.yaml": DaemonSet in version "v1" cannot be handled as a DaemonSet: strict decoding error: unknown field "spec.hostNetwork"`,
			[]string{"9:3 spec.hostNetwork | belongs under `template.spec:`"}},
		{"field of the parent", strings.Replace(minimalDS, "        image: nginx:1.25\n", "        image: nginx:1.25\n        hostNetwork: true\n", 1),
			`Error from server (BadRequest): error when creating "test.yaml": DaemonSet in version "v1" cannot be handled as a DaemonSet: strict decoding error: unknown field "spec.template.spec.containers[0].hostNetwork"`,
			[]string{"17:9 spec.template.spec.containers[0].hostNetwork | is a field of PodSpec, the mapping around this one: it is indented too far"}},
		{"item of a List", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n    labelz: {a: b}\n",
			`Error from server (BadRequest): error when creating "test.yaml": Node in version "v1" cannot be handled as a Node: strict decoding error: unknown field "metadata.labelz"`,
			[]string{`8:5 metadata.labelz | did you mean "labels"?`}},
		{"unknown in status", minimalDS + "status:\n  numberRedy: 1\n",
			`Error from server (BadRequest): error when creating "test.yaml": DaemonSet in version "v1" cannot be handled as a DaemonSet: strict decoding error: unknown field "status.numberRedy"`,
			[]string{`18:3 status.numberRedy | did you mean "numberReady"?`}},
		{"pod", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: i\n    securityContext:\n      privileged: true\n      runAsUsr: 0\n",
			`Error from server (BadRequest): error when creating "test.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].securityContext.runAsUsr"`,
			[]string{`11:7 spec.containers[0].securityContext.runAsUsr | did you mean "runAsUser"?`}},
		{"node", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nspec:\n  taints:\n  - key: k\n    effect: NoSchedule\n    efect: NoExecute\n",
			`Error from server (BadRequest): error when creating "test.yaml": Node in version "v1" cannot be handled as a Node: strict decoding error: unknown field "spec.taints[0].efect"`,
			[]string{`9:5 spec.taints[0].efect | did you mean "effect"?`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := decodeErr(t, tc.text)
			if got := e.Error(); got != tc.kubectl {
				t.Errorf("Error() =\n%s\nwant\n%s", got, tc.kubectl)
			}
			var got []Diagnostic
			for _, d := range e.Diagnostics {
				if strings.HasPrefix(d.Message, "strict decoding error: ") {
					got = append(got, d)
				}
			}
			if len(got) != len(tc.diags) {
				t.Fatalf("%d strict diagnostics, want %d:\n%s", len(got), len(tc.diags), e.Detailed())
			}
			for i, w := range tc.diags {
				pos, hint, _ := strings.Cut(w, " | ")
				d := got[i]
				if at := fmt.Sprintf("%d:%d %s", d.Line, d.Column, d.Field); at != pos || !strings.Contains(d.Hint, hint) {
					t.Errorf("diagnostic %d = %s %q, want %s with hint containing %q", i, at, d.Hint, pos, hint)
				}
			}
		})
	}
}

// TestStrictTypeErrors: a value of the wrong JSON type in a field the engine
// does not model is rejected with encoding/json's message, and a type
// error wins over unknown fields (the decoder stops there).
func TestStrictTypeErrors(t *testing.T) {
	pod := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: i\n"
	prefix := `Error from server (BadRequest): error when creating "test.yaml": Pod in version "v1" cannot be handled as a Pod: `
	tests := []struct{ name, add, want string }{
		{"string for int64", "  securityContext:\n    runAsUser: \"1000\"\n",
			"json: cannot unmarshal string into Go struct field PodSecurityContext.spec.securityContext.runAsUser of type int64"},
		{"map for list", "    securityContext:\n      capabilities:\n        add: {NET_ADMIN: true}\n",
			"json: cannot unmarshal object into Go struct field Capabilities.spec.containers.securityContext.capabilities.add of type []v1.Capability"},
		{"list for struct", "  dnsConfig:\n  - nameservers: [1.1.1.1]\n",
			"json: cannot unmarshal array into Go struct field PodSpec.spec.dnsConfig of type v1.PodDNSConfig"},
		{"number out of int32", "  overhead: {}\n  enableServiceLinks: yes\n  hostAliases:\n  - ip: 10.0.0.1\n    hostnames: [a]\n  readinessGates: []\n  shareProcessNamespace: true\n  topologySpreadConstraints:\n  - maxSkew: 3000000000\n    topologyKey: k\n    whenUnsatisfiable: DoNotSchedule\n",
			"json: cannot unmarshal number 3000000000 into Go struct field TopologySpreadConstraint.spec.topologySpreadConstraints.maxSkew of type int32"},
		{"bool for string in a map", "  nodeSelector:\n    disk: yes\n",
			"json: cannot unmarshal bool into Go struct field PodSpec.spec.nodeSelector of type string"},
		{"bad quantity", "  volumes:\n  - name: v\n    emptyDir:\n      sizeLimit: 1Gb\n",
			"unable to parse quantity's suffix"},
		{"type error wins over unknown field", "  securityContext:\n    runAsUser: \"1000\"\n    runAsUsr: 1\n",
			"json: cannot unmarshal string into Go struct field PodSecurityContext.spec.securityContext.runAsUser of type int64"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := pod
			if strings.HasPrefix(tc.add, "    ") {
				text += tc.add
			} else {
				text = strings.Replace(pod, "spec:\n", "spec:\n"+tc.add, 1)
			}
			e := decodeErr(t, text)
			if got := e.Error(); got != prefix+tc.want {
				t.Errorf("Error() =\n%s\nwant\n%s%s\n%s", got, prefix, tc.want, e.Detailed())
			}
		})
	}
}

// TestStrictAcceptsWholeAPI: a DaemonSet using fields from all over the
// 1.37 API (a CNI agent: hostNetwork, many volume types, probes, security
// contexts, init and sidecar containers, topology spread, priority) is
// accepted; the fields the engine does not model are kept in Extra.
func TestStrictAcceptsWholeAPI(t *testing.T) {
	text := `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: cni
  namespace: kube-system
  labels: {k8s-app: cni}
  annotations: {deprecated.daemonset.template.generation: "1"}
spec:
  minReadySeconds: 5
  revisionHistoryLimit: 3
  selector:
    matchLabels: {k8s-app: cni}
    matchExpressions:
    - {key: tier, operator: NotIn, values: [test]}
  updateStrategy:
    type: RollingUpdate
    rollingUpdate: {maxUnavailable: 10%, maxSurge: 0}
  template:
    metadata:
      labels: {k8s-app: cni}
      annotations: {prometheus.io/scrape: "true"}
    spec:
      hostNetwork: true
      hostPID: false
      dnsPolicy: ClusterFirstWithHostNet
      priorityClassName: system-node-critical
      serviceAccountName: cni
      automountServiceAccountToken: true
      terminationGracePeriodSeconds: 10
      enableServiceLinks: false
      preemptionPolicy: PreemptLowerPriority
      nodeSelector: {kubernetes.io/os: linux}
      securityContext:
        seccompProfile: {type: RuntimeDefault}
        fsGroup: 0
        sysctls: [{name: net.ipv4.ip_forward, value: "1"}]
      tolerations:
      - operator: Exists
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64, arm64]}]
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: kubernetes.io/hostname
        whenUnsatisfiable: ScheduleAnyway
        labelSelector: {matchLabels: {k8s-app: cni}}
      initContainers:
      - name: install-cni
        image: cni:1.0
        command: [/install.sh]
        volumeMounts: [{name: cni-bin, mountPath: /host/opt/cni/bin}]
        securityContext: {privileged: true}
      - name: sidecar
        image: log:1
        restartPolicy: Always
      containers:
      - name: agent
        image: cni:1.0
        imagePullPolicy: IfNotPresent
        args: [--v=2]
        env:
        - name: NODE_NAME
          valueFrom: {fieldRef: {fieldPath: spec.nodeName}}
        - name: LIMIT
          valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1Mi}}
        envFrom: [{configMapRef: {name: cni-config, optional: true}}]
        ports: [{containerPort: 9090, hostPort: 9090, name: metrics, protocol: TCP}]
        resources:
          requests: {cpu: 100m, memory: 128Mi}
          limits: {memory: 256Mi}
        livenessProbe:
          httpGet: {path: /healthz, port: 9090, scheme: HTTP, httpHeaders: [{name: X, value: "y"}]}
          initialDelaySeconds: 10
          periodSeconds: 10
        readinessProbe:
          exec: {command: [cat, /ready]}
        startupProbe:
          grpc: {port: 9091}
          failureThreshold: 30
        lifecycle:
          preStop: {exec: {command: [/stop.sh]}}
        securityContext:
          privileged: true
          capabilities: {add: [NET_ADMIN, SYS_ADMIN], drop: [ALL]}
          seLinuxOptions: {type: spc_t}
        terminationMessagePolicy: FallbackToLogsOnError
        volumeMounts:
        - {name: cni-bin, mountPath: /host/opt/cni/bin}
        - {name: xtables-lock, mountPath: /run/xtables.lock}
        - {name: bpf, mountPath: /sys/fs/bpf, mountPropagation: Bidirectional}
        - {name: config, mountPath: /etc/config, readOnly: true}
        - {name: token, mountPath: /var/run/secrets/tokens}
      volumes:
      - {name: cni-bin, hostPath: {path: /opt/cni/bin, type: DirectoryOrCreate}}
      - {name: xtables-lock, hostPath: {path: /run/xtables.lock, type: FileOrCreate}}
      - {name: bpf, hostPath: {path: /sys/fs/bpf}}
      - {name: config, configMap: {name: cni-config, defaultMode: 420, items: [{key: a, path: a}]}}
      - {name: secret, secret: {secretName: s, optional: true}}
      - {name: scratch, emptyDir: {medium: Memory, sizeLimit: 64Mi}}
      - {name: data, persistentVolumeClaim: {claimName: pvc}}
      - {name: csi, csi: {driver: secrets-store.csi.k8s.io, readOnly: true, volumeAttributes: {a: b}}}
      - name: token
        projected:
          sources:
          - serviceAccountToken: {path: token, expirationSeconds: 3600, audience: vault}
          - downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}
      - {name: img, image: {reference: "busybox:1", pullPolicy: IfNotPresent}}
`
	docs := mustDecode(t, text)
	ds := docs[0].Object.(*api.DaemonSet)
	// topologySpreadConstraints is modelled (the scheduler's PodTopologySpread filter).
	if tsc := ds.Spec.Template.Spec.TopologySpreadConstraints; len(tsc) != 1 || tsc[0].TopologyKey != "kubernetes.io/hostname" || tsc[0].WhenUnsatisfiable != "ScheduleAnyway" {
		t.Errorf("topologySpreadConstraints not decoded: %+v (Extra %v)", tsc, ds.Extra)
	}
}
