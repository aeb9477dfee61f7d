package manifest

import (
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
)

// Expected messages below are the API server's (pkg/apis/apps/validation,
// pkg/apis/core/validation, apimachinery field.Error with the v1.34+ value
// rendering) as kubectl prints them (cmdutil.checkErr: one cause on the
// first line, several as a `* field: msg` list after a line ending ": ").

const (
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	dns1123LabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	labelValueMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	dsInvalid           = `The DaemonSet "web" is invalid: `
	tpl                 = "spec.template.spec."
)

// withContainer replaces minimalDS's container (name web, image nginx:1.25)
// with the given container lines (indented for `containers:`).
func withContainer(lines string) [2]string {
	return [2]string{"      - name: web\n        image: nginx:1.25\n", lines}
}

// inSpec inserts pod spec lines before `containers:`.
func inSpec(lines string) [2]string {
	return [2]string{"      containers:\n", lines + "      containers:\n"}
}

// inDSSpec inserts DaemonSet spec lines before `template:`.
func inDSSpec(lines string) [2]string { return [2]string{"  template:\n", lines + "  template:\n"} }

// TestValidateDaemonSetRules checks ValidateDaemonSet's rules, one case
// per rule, with the exact text kubectl prints.
func TestValidateDaemonSetRules(t *testing.T) {
	tests := []struct {
		name  string
		edits [][2]string // replacements in minimalDS, in order
		want  string      // "" when the manifest is valid
	}{
		// ValidateObjectMeta / NameIsDNSSubdomain
		{"no name", [][2]string{{"  name: web\n", ""}},
			`The DaemonSet "" is invalid: metadata.name: Required value: name or generateName is required`},
		{"generateName alone is valid", [][2]string{{"  name: web\n", "  generateName: web-\n"}}, ""},
		{"bad generateName", [][2]string{{"  name: web\n", "  generateName: Web_\n"}},
			`The DaemonSet "" is invalid: metadata.generateName: Invalid value: "Web_": ` + dns1123SubdomainMsg},
		{"name too long", [][2]string{{"  name: web\n", "  name: " + strings.Repeat("a", 254) + "\n"}},
			`The DaemonSet "` + strings.Repeat("a", 254) + `" is invalid: metadata.name: Invalid value: "` + strings.Repeat("a", 254) + `": must be no more than 253 characters`},
		{"namespace not a label", [][2]string{{"  name: web\n", "  name: web\n  namespace: my.logs\n"}},
			`The DaemonSet "web" is invalid: metadata.namespace: Invalid value: "my.logs": must not contain dots`},
		// selector and template labels
		{"template without labels", [][2]string{{"    metadata:\n      labels:\n        app: web\n", "    metadata: {}\n"}},
			dsInvalid + "spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`"},
		{"matchLabels before matchExpressions", [][2]string{{"    matchLabels:\n      app: web\n", "    matchLabels:\n      app: a b\n    matchExpressions:\n    - {key: tier, operator: Within}\n"}},
			dsInvalid + "\n* spec.selector.matchLabels: Invalid value: \"a b\": " + labelValueMsg + "\n* spec.selector.matchExpressions[0].operator: Invalid value: \"Within\": not a valid selector operator"},
		{"Exists with values", [][2]string{{"    matchLabels:\n      app: web\n", "    matchLabels:\n      app: web\n    matchExpressions:\n    - {key: tier, operator: Exists, values: [a]}\n"}},
			dsInvalid + "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"},
		// restartPolicy: ValidatePodSpec's own check, then the DaemonSet's
		{"restartPolicy Never", [][2]string{inSpec("      restartPolicy: Never\n")},
			dsInvalid + tpl + `restartPolicy: Unsupported value: "Never": supported values: "Always"`},
		{"restartPolicy unknown", [][2]string{inSpec("      restartPolicy: Sometimes\n")},
			dsInvalid + "\n* " + tpl + `restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"` + "\n* " + tpl + `restartPolicy: Unsupported value: "Sometimes": supported values: "Always"`},
		{"activeDeadlineSeconds 0", [][2]string{inSpec("      activeDeadlineSeconds: 0\n")},
			dsInvalid + "\n* " + tpl + "activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive\n* " + tpl + "activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported"},
		// updateStrategy (ValidateDaemonSetUpdateStrategy, ValidateRollingUpdateDaemonSet)
		{"OnDelete", [][2]string{inDSSpec("  updateStrategy:\n    type: OnDelete\n")}, ""},
		{"surge with maxUnavailable 0", [][2]string{inDSSpec("  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: 0\n      maxSurge: 1\n")}, ""},
		{"maxSurge percent alone", [][2]string{inDSSpec("  updateStrategy:\n    rollingUpdate:\n      maxSurge: 20%\n")},
			dsInvalid + `spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "20%": may not be set when maxUnavailable is non-zero`},
		{"both 0%", [][2]string{inDSSpec("  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: 0%\n      maxSurge: 0\n")},
			dsInvalid + "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"},
		{"negative maxUnavailable", [][2]string{inDSSpec("  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: -1\n")},
			dsInvalid + "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"},
		{"percent without %", [][2]string{inDSSpec("  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: \"50\"\n")},
			dsInvalid + `spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "50": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{"Recreate with rollingUpdate", [][2]string{inDSSpec("  updateStrategy:\n    type: Recreate\n    rollingUpdate:\n      maxSurge: 1\n")},
			dsInvalid + `spec.updateStrategy: Unsupported value: {"Type":"Recreate","RollingUpdate":{"MaxUnavailable":0,"MaxSurge":1}}: supported values: "RollingUpdate", "OnDelete"`},
		{"revisionHistoryLimit 0", [][2]string{inDSSpec("  revisionHistoryLimit: 0\n")}, ""},
		// containers (validateContainers, validateContainerCommon)
		{"duplicate container", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n      - name: web\n        image: busybox:1.36\n")},
			dsInvalid + tpl + `containers[1].name: Duplicate value: "web"`},
		{"container name", [][2]string{withContainer("      - name: Web\n        image: nginx:1.25\n")},
			dsInvalid + tpl + `containers[0].name: Invalid value: "Web": ` + dns1123LabelMsg},
		{"empty image", [][2]string{withContainer("      - name: web\n        image: \"\"\n        imagePullPolicy: Always\n")},
			dsInvalid + tpl + "containers[0].image: Required value"},
		{"image spaces allowed in a template", [][2]string{withContainer("      - name: web\n        image: \"nginx:1.25 \"\n")}, ""},
		{"container restartPolicy", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        restartPolicy: Always\n")},
			dsInvalid + tpl + "containers[0].restartPolicy: Forbidden: may not be set for non-init containers"},
		{"init container restartPolicy", [][2]string{inSpec("      initContainers:\n      - name: init\n        image: busybox:1.36\n        restartPolicy: OnFailure\n")},
			dsInvalid + tpl + `initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`},
		{"init container probe", [][2]string{inSpec("      initContainers:\n      - name: init\n        image: busybox:1.36\n        readinessProbe:\n          exec: {command: [\"true\"]}\n")},
			dsInvalid + tpl + "initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always"},
		{"sidecar probe", [][2]string{inSpec("      initContainers:\n      - name: init\n        image: busybox:1.36\n        restartPolicy: Always\n        readinessProbe:\n          exec: {command: [\"true\"]}\n")}, ""},
		{"init name clashes", [][2]string{inSpec("      initContainers:\n      - name: web\n        image: busybox:1.36\n")},
			dsInvalid + tpl + `initContainers[0].name: Duplicate value: "web"`},
		// ports
		{"port out of range", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        ports:\n        - containerPort: 70000\n")},
			dsInvalid + tpl + "containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive"},
		{"port name too long", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        ports:\n        - name: metrics-exporter-http\n          containerPort: 9100\n")},
			dsInvalid + tpl + `containers[0].ports[0].name: Invalid value: "metrics-exporter-http": must be no more than 15 characters`},
		{"port name digits", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        ports:\n        - name: \"9100\"\n          containerPort: 9100\n")},
			dsInvalid + tpl + `containers[0].ports[0].name: Invalid value: "9100": must contain at least one letter (a-z)`},
		{"host port twice", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        ports:\n        - {containerPort: 80, hostPort: 8080}\n      - name: side\n        image: nginx:1.25\n        ports:\n        - {containerPort: 81, hostPort: 8080}\n")},
			dsInvalid + tpl + `containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"`},
		{"hostNetwork port mismatch", [][2]string{inSpec("      hostNetwork: true\n"), withContainer("      - name: web\n        image: nginx:1.25\n        ports:\n        - {containerPort: 80, hostPort: 8080}\n")},
			dsInvalid + tpl + "containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true"},
		// resources (validateResourceRequirements)
		{"requests over limits", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        resources:\n          limits: {cpu: \"0.1\", memory: 1Gi}\n          requests: {cpu: \"0.2\", memory: 2048Mi}\n")},
			dsInvalid + "\n* " + tpl + `containers[0].resources.requests: Invalid value: "200m": must be less than or equal to cpu limit of 100m` + "\n* " + tpl + `containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi`},
		{"negative limit", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        resources:\n          limits: {cpu: \"-1\"}\n")},
			dsInvalid + tpl + `containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`},
		{"unprefixed resource", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        resources:\n          limits: {gpu: 1}\n")},
			dsInvalid + "\n* " + tpl + `containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified` + "\n* " + tpl + `containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers`},
		{"extended request without limit", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        resources:\n          requests: {nvidia.com/gpu: 1}\n")},
			dsInvalid + tpl + "containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"},
		{"extended request below limit", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        resources:\n          limits: {nvidia.com/gpu: 2}\n          requests: {nvidia.com/gpu: 1}\n")},
			dsInvalid + tpl + `containers[0].resources.requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2`},
		{"fractional gpu", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        resources:\n          limits: {nvidia.com/gpu: \"0.5\"}\n")},
			dsInvalid + tpl + `containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "500m": must be an integer`},
		// env (ValidateEnv, validateEnvVarValueFrom)
		{"fieldRef typo", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        env:\n        - name: NODE_NAME\n          valueFrom:\n            fieldRef: {fieldPath: spec.nodename}\n")},
			dsInvalid + tpl + `containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "spec.nodename": error converting fieldPath: field label not supported: spec.nodename`},
		{"fieldRef not for env", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        env:\n        - name: PHASE\n          valueFrom:\n            fieldRef: {fieldPath: status.phase}\n")},
			dsInvalid + tpl + `containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"`},
		{"fieldRef label", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        env:\n        - name: APP\n          valueFrom:\n            fieldRef: {apiVersion: v1, fieldPath: \"metadata.labels['app']\"}\n")}, ""},
		{"value and valueFrom", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        env:\n        - name: NODE_NAME\n          value: x\n          valueFrom:\n            fieldRef: {fieldPath: spec.nodeName}\n")},
			dsInvalid + tpl + "containers[0].env[0].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty"},
		{"env name with =", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        env:\n        - {name: \"A=B\", value: x}\n")},
			dsInvalid + tpl + `containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`},
		// volumes and mounts
		{"two volume types", [][2]string{inSpec("      volumes:\n      - name: v\n        configMap: {name: cfg}\n        hostPath: {path: /var/log}\n")},
			dsInvalid + tpl + "volumes[0].configMap: Forbidden: may not specify more than 1 volume type"},
		{"hostPath type", [][2]string{inSpec("      volumes:\n      - name: v\n        hostPath: {path: /var/log, type: Dir}\n")},
			dsInvalid + tpl + `volumes[0].hostPath.type: Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"`},
		{"hostPath backsteps", [][2]string{inSpec("      volumes:\n      - name: v\n        hostPath: {path: /var/log/../../etc}\n")},
			dsInvalid + tpl + `volumes[0].hostPath.path: Invalid value: "/var/log/../../etc": must not contain '..'`},
		{"null volume source", [][2]string{inSpec("      volumes:\n      - name: v\n        emptyDir:\n")},
			dsInvalid + tpl + "volumes[0]: Required value: must specify a volume type"},
		{"configMap without name", [][2]string{inSpec("      volumes:\n      - name: v\n        configMap: {}\n")},
			dsInvalid + tpl + "volumes[0].configMap.name: Required value"},
		{"duplicate volume", [][2]string{inSpec("      volumes:\n      - {name: v, emptyDir: {}}\n      - {name: v, emptyDir: {}}\n")},
			dsInvalid + tpl + `volumes[1].name: Duplicate value: "v"`},
		{"mount of a missing volume", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        volumeMounts:\n        - {name: logs, mountPath: /var/log}\n")},
			dsInvalid + tpl + `containers[0].volumeMounts[0].name: Not found: "logs"`},
		{"mountPath twice", [][2]string{inSpec("      volumes:\n      - {name: a, emptyDir: {}}\n      - {name: b, emptyDir: {}}\n"), withContainer("      - name: web\n        image: nginx:1.25\n        volumeMounts:\n        - {name: a, mountPath: /data}\n        - {name: b, mountPath: /data}\n")},
			dsInvalid + tpl + `containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique`},
		// probes
		{"probe without handler", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        livenessProbe:\n          periodSeconds: 5\n")},
			dsInvalid + tpl + "containers[0].livenessProbe: Required value: must specify a handler type"},
		{"liveness successThreshold", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        livenessProbe:\n          tcpSocket: {port: 80}\n          successThreshold: 2\n")},
			dsInvalid + tpl + "containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1"},
		{"two handlers", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        readinessProbe:\n          httpGet: {path: /, port: http}\n          tcpSocket: {port: 80}\n")},
			dsInvalid + tpl + "containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type"},
		{"probe port 0", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        readinessProbe:\n          httpGet: {path: /healthz}\n")},
			dsInvalid + tpl + "containers[0].readinessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive"},
		// fields kept as written: dnsConfig, lifecycle, startupProbe
		{"dnsPolicy None", [][2]string{inSpec("      dnsPolicy: None\n")},
			dsInvalid + tpl + "dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"},
		{"dnsPolicy None with servers", [][2]string{inSpec("      dnsPolicy: None\n      dnsConfig:\n        nameservers: [1.1.1.1]\n")}, ""},
		{"preStop without handler", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        lifecycle:\n          preStop: {}\n")},
			dsInvalid + tpl + "containers[0].lifecycle.preStop: Required value: must specify a handler type"},
		{"preStop exec without command", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        lifecycle:\n          preStop:\n            exec: {}\n")},
			dsInvalid + tpl + "containers[0].lifecycle.preStop.exec.command: Required value"},
		{"startupProbe successThreshold", [][2]string{withContainer("      - name: web\n        image: nginx:1.25\n        startupProbe:\n          tcpSocket: {port: 80}\n          successThreshold: 3\n")},
			dsInvalid + tpl + "containers[0].startupProbe.successThreshold: Invalid value: 3: must be 1"},
		{"init container lifecycle", [][2]string{inSpec("      initContainers:\n      - name: init\n        image: busybox:1.36\n        lifecycle:\n          postStart:\n            exec: {command: [\"true\"]}\n")},
			dsInvalid + tpl + "initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always"},
		// tolerations (ValidateTolerations)
		{"Exists with a value", [][2]string{inSpec("      tolerations:\n      - {key: dedicated, operator: Exists, value: gpu}\n")},
			dsInvalid + tpl + "tolerations[0].operator: Invalid value: \"gpu\": value must be empty when `operator` is 'Exists'"},
		{"empty key without operator", [][2]string{inSpec("      tolerations:\n      - {effect: NoSchedule}\n")},
			dsInvalid + tpl + "tolerations[0].operator: Invalid value: \"\": operator must be Exists when `key` is empty, which means \"match all values and all keys\""},
		{"toleration value", [][2]string{inSpec("      tolerations:\n      - {key: a, operator: Equal, value: \"a b\"}\n")},
			dsInvalid + tpl + `tolerations[0].operator: Invalid value: "a b": ` + labelValueMsg},
		{"tolerate everything", [][2]string{inSpec("      tolerations:\n      - operator: Exists\n")}, ""},
		// nodeSelector and node affinity
		{"nodeSelector value", [][2]string{inSpec("      nodeSelector:\n        disk: a b\n")},
			dsInvalid + tpl + `nodeSelector: Invalid value: "a b": ` + labelValueMsg},
		{"no node selector terms", [][2]string{inSpec("      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms: []\n")},
			dsInvalid + tpl + "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term"},
		{"node selector operator", [][2]string{inSpec("      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n            - matchExpressions:\n              - {key: disk, operator: Equals, values: [ssd]}\n")},
			dsInvalid + tpl + `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator`},
		{"required value checked", [][2]string{inSpec("      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n            - matchExpressions:\n              - {key: disk, operator: In, values: [\"a b\"]}\n")},
			dsInvalid + tpl + `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: "a b": ` + labelValueMsg},
		{"preferred value not checked, weight is", [][2]string{inSpec("      affinity:\n        nodeAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n          - weight: 0\n            preference:\n              matchExpressions:\n              - {key: disk, operator: In, values: [\"a b\"]}\n")},
			dsInvalid + tpl + "affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100"},
		// names in the pod spec
		{"serviceAccountName", [][2]string{inSpec("      serviceAccountName: Fluent_Bit\n")},
			dsInvalid + tpl + `serviceAccountName: Invalid value: "Fluent_Bit": ` + dns1123SubdomainMsg},
		{"priorityClassName", [][2]string{inSpec("      priorityClassName: System-Node-Critical\n")},
			dsInvalid + tpl + `priorityClassName: Invalid value: "System-Node-Critical": ` + dns1123SubdomainMsg},
		// several errors, in the API server's order
		{"several errors", [][2]string{{"  name: web\n", "  name: Web\n"}, inSpec("      restartPolicy: OnFailure\n"), inDSSpec("  updateStrategy:\n    rollingUpdate:\n      maxSurge: 1\n")},
			"The DaemonSet \"Web\" is invalid: \n* metadata.name: Invalid value: \"Web\": " + dns1123SubdomainMsg +
				"\n* " + tpl + `restartPolicy: Unsupported value: "OnFailure": supported values: "Always"` +
				"\n* spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := minimalDS
			for _, e := range tc.edits {
				if !strings.Contains(text, e[0]) {
					t.Fatalf("%q not in the manifest", e[0])
				}
				text = strings.Replace(text, e[0], e[1], 1)
			}
			if tc.want == "" {
				mustDecode(t, text)
				return
			}
			checkDecodeErr(t, text, tc.want)
		})
	}
}

// TestValidatePodAndNodeRules covers rules that differ for pods and nodes.
func TestValidatePodAndNodeRules(t *testing.T) {
	const pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n"
	tests := []struct{ name, text, want string }{
		// validateContainerOnlyForPod: only pods refuse spaces around the image
		{"pod image spaces", pod + "  containers:\n  - name: c\n    image: \"nginx \"\n",
			`The Pod "p" is invalid: spec.containers[0].image: Invalid value: "nginx ": must not have leading or trailing whitespace`},
		// ValidateNode hands validateNodeTaints metadata's path
		{"duplicate taint", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nspec:\n  taints:\n  - {key: gpu, effect: NoSchedule}\n  - {key: gpu, value: \"true\", effect: NoSchedule}\n",
			`The Node "n1" is invalid: metadata.taints[1]: Duplicate value: {"Key":"gpu","Value":"true","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair`},
		{"taint value", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nspec:\n  taints:\n  - {key: gpu, value: \"a b\", effect: NoSchedule}\n",
			`The Node "n1" is invalid: metadata.taints[0].value: Invalid value: "a b": ` + labelValueMsg},
		{"node namespace", "apiVersion: v1\nkind: Namespace\nmetadata:\n  generateName: Team-\n",
			`The Namespace "" is invalid: metadata.generateName: Invalid value: "Team-": ` + dns1123LabelMsg},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := decodeErr(t, tc.text).Error(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestValidationPositions checks that errors reported at a map or a list
// (resources.requests, metadata.taints) keep the line of what was written.
func TestValidationPositions(t *testing.T) {
	tests := []struct {
		name, text, field string
		line, col         int
	}{
		{"request over limit", strings.Replace(minimalDS, "        image: nginx:1.25\n", "        image: nginx:1.25\n        resources:\n          limits:\n            cpu: 100m\n          requests:\n            cpu: 200m\n", 1),
			"spec.template.spec.containers[0].resources.requests", 21, 18},
		{"taint effect", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nspec:\n  taints:\n  - key: gpu\n    effect: NoSchedul\n",
			"metadata.taints[0].effect", 8, 13},
		{"Exists value", strings.Replace(minimalDS, "      containers:\n", "      tolerations:\n      - key: a\n        operator: Exists\n        value: b\n      containers:\n", 1),
			"spec.template.spec.tolerations[0].operator", 17, 16},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := decodeErr(t, tc.text)
			d := e.Diagnostics[0]
			if d.Field != tc.field || d.Line != tc.line || d.Column != tc.col {
				t.Errorf("got %s at %d:%d, want %s at %d:%d", d.Field, d.Line, d.Column, tc.field, tc.line, tc.col)
			}
		})
	}
}

// TestCanonicalQuantity checks resource.Quantity.String's forms used in
// the resource messages.
func TestCanonicalQuantity(t *testing.T) {
	for in, want := range map[string]string{
		"0.5": "500m", "100m": "100m", "1000m": "1", "2000": "2k", "1500": "1500",
		"1024Mi": "1Gi", "1.5Gi": "1536Mi", "512Ki": "512Ki", "1e3": "1e3", "129e6": "129e6",
		"200M": "200M", "0": "0", "-1": "-1",
	} {
		if got := canonicalQuantity(api.MustParseQuantity(in)); got != want {
			t.Errorf("canonicalQuantity(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestValidateVolumeModes checks validateConfigMapVolumeSource's
// defaultMode range (0644 in YAML is octal: 420).
func TestValidateVolumeModes(t *testing.T) {
	ok := strings.Replace(minimalDS, "      containers:\n", "      volumes:\n      - name: cfg\n        configMap: {name: cfg, defaultMode: 0644}\n      containers:\n", 1)
	mustDecode(t, ok)
	bad := strings.Replace(ok, "defaultMode: 0644", "defaultMode: 777", 1)
	want := dsInvalid + tpl + "volumes[0].configMap.defaultMode: Invalid value: 777: must be a number between 0 and 0777 (octal), both inclusive"
	if got := decodeErr(t, bad).Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
