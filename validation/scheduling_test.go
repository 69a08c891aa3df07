package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/defaults"
)

// Messages apimachinery gives for names and label values, repeated in many expectations.
const (
	schNameMsg       = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	schLabelValueMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	schDNSLabelMsg   = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)

// schTexts returns the texts of errs, as the API server prints each.
func schTexts(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// schNodeAffinity is a required node affinity of the given terms.
func schNodeAffinity(terms ...v1.NodeSelectorTerm) *v1.Affinity {
	return &v1.Affinity{NodeAffinity: &v1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: terms},
	}}
}

// schExpr is a node selector term of one label requirement.
func schExpr(key string, op v1.NodeSelectorOperator, values ...string) v1.NodeSelectorTerm {
	return v1.NodeSelectorTerm{MatchExpressions: []v1.NodeSelectorRequirement{{Key: key, Operator: op, Values: values}}}
}

// schFieldExpr is a node selector term of one field requirement.
func schFieldExpr(key string, op v1.NodeSelectorOperator, values ...string) v1.NodeSelectorTerm {
	return v1.NodeSelectorTerm{MatchFields: []v1.NodeSelectorRequirement{{Key: key, Operator: op, Values: values}}}
}

// schPodAffinity is a required pod affinity of the given term.
func schPodAffinity(term v1.PodAffinityTerm) *v1.Affinity {
	return &v1.Affinity{PodAffinity: &v1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{term}}}
}

// schSelector selects the labels given as key, value pairs.
func schSelector(kv ...string) *metav1.LabelSelector {
	s := &metav1.LabelSelector{MatchLabels: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		s.MatchLabels[kv[i]] = kv[i+1]
	}
	return s
}

func TestValidateAffinity(t *testing.T) {
	const (
		required = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
		term     = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
	)
	tests := []struct {
		name     string
		affinity *v1.Affinity
		want     []string
	}{
		{name: "no affinity is valid", affinity: nil},
		{
			name:     "a node affinity whose terms all hold is valid",
			affinity: schNodeAffinity(schExpr("zone", v1.NodeSelectorOpIn, "a"), schFieldExpr("metadata.name", v1.NodeSelectorOpNotIn, "node-1")),
		},
		{
			name:     "a required node affinity needs at least one term",
			affinity: schNodeAffinity(),
			want:     []string{"spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term"},
		},
		{
			name:     "In needs values",
			affinity: schNodeAffinity(schExpr("zone", v1.NodeSelectorOpIn)),
			want:     []string{required + ".matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"},
		},
		{
			name:     "Exists takes no values",
			affinity: schNodeAffinity(schExpr("zone", v1.NodeSelectorOpExists, "a")),
			want:     []string{required + ".matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"},
		},
		{
			name:     "Gt takes exactly one value",
			affinity: schNodeAffinity(schExpr("cores", v1.NodeSelectorOpGt, "1", "2")),
			want:     []string{required + ".matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"},
		},
		{
			name:     "an unknown node selector operator is refused",
			affinity: schNodeAffinity(schExpr("zone", "Near", "a")),
			want:     []string{required + `.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator`},
		},
		{
			name:     "a node selector key must be a label name",
			affinity: schNodeAffinity(schExpr("bad key", v1.NodeSelectorOpExists)),
			want:     []string{required + `.matchExpressions[0].key: Invalid value: "bad key": ` + schNameMsg},
		},
		{
			name:     "a required term's values must be label values",
			affinity: schNodeAffinity(schExpr("zone", v1.NodeSelectorOpIn, "a", "b c")),
			want:     []string{required + `.matchExpressions[0].values[1]: Invalid value: "b c": ` + schLabelValueMsg},
		},
		{
			name: "a preferred term's values need not be label values, but its weight is 1 to 100",
			affinity: &v1.Affinity{NodeAffinity: &v1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.PreferredSchedulingTerm{
				{Weight: 0, Preference: schExpr("zone", v1.NodeSelectorOpIn, "b c")},
			}}},
			want: []string{"spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100"},
		},
		{
			name:     "a node field selector selects on metadata.name alone",
			affinity: schNodeAffinity(schFieldExpr("metadata.namespace", v1.NodeSelectorOpIn, "a")),
			want:     []string{required + `.matchFields[0].key: Invalid value: "metadata.namespace": not a valid field selector key`},
		},
		{
			name:     "a node field selector takes In or NotIn with one value",
			affinity: schNodeAffinity(schFieldExpr("metadata.name", v1.NodeSelectorOpExists)),
			want:     []string{required + `.matchFields[0].operator: Invalid value: "Exists": not a valid selector operator`},
		},
		{
			name:     "a node field selector's In takes exactly one value",
			affinity: schNodeAffinity(schFieldExpr("metadata.name", v1.NodeSelectorOpIn, "a", "b")),
			want:     []string{required + ".matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector"},
		},
		{
			name:     "a node field selector's value must be a node name",
			affinity: schNodeAffinity(schFieldExpr("metadata.name", v1.NodeSelectorOpIn, "Node_1")),
			want:     []string{required + `.matchFields[0].values[0]: Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		},
		{
			name:     "a pod affinity term needs a topology key",
			affinity: schPodAffinity(v1.PodAffinityTerm{LabelSelector: schSelector("app", "web")}),
			want: []string{
				term + ".topologyKey: Required value: can not be empty",
				term + `.topologyKey: Invalid value: "": name part must be non-empty`,
				term + `.topologyKey: Invalid value: "": ` + schNameMsg,
			},
		},
		{
			name:     "a pod affinity term's namespaces are DNS labels, refused at namespace",
			affinity: schPodAffinity(v1.PodAffinityTerm{TopologyKey: "zone", Namespaces: []string{"default", "Kube_System"}}),
			want:     []string{term + `.namespace: Invalid value: "Kube_System": ` + schDNSLabelMsg},
		},
		{
			name: "a pod affinity term's label and namespace selectors are checked, values too",
			affinity: schPodAffinity(v1.PodAffinityTerm{TopologyKey: "zone",
				LabelSelector:     &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"a b"}}}},
				NamespaceSelector: schSelector("bad key", "x"),
			}),
			want: []string{
				term + `.labelSelector.matchExpressions[0].values[0]: Invalid value: "a b": ` + schLabelValueMsg,
				term + `.namespaceSelector.matchLabels: Invalid value: "bad key": ` + schNameMsg,
			},
		},
		{
			name:     "matchLabelKeys need a label selector",
			affinity: schPodAffinity(v1.PodAffinityTerm{TopologyKey: "zone", MatchLabelKeys: []string{"app"}, MismatchLabelKeys: []string{"tier"}}),
			want: []string{
				term + ".matchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
				term + ".mismatchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
			},
		},
		{
			name:     "matchLabelKeys are label names",
			affinity: schPodAffinity(v1.PodAffinityTerm{TopologyKey: "zone", LabelSelector: schSelector(), MatchLabelKeys: []string{"app", "a b"}}),
			want:     []string{term + `.matchLabelKeys[1]: Invalid value: "a b": ` + schNameMsg},
		},
		{
			name:     "a key in both matchLabelKeys and mismatchLabelKeys is refused",
			affinity: schPodAffinity(v1.PodAffinityTerm{TopologyKey: "zone", LabelSelector: schSelector(), MatchLabelKeys: []string{"app"}, MismatchLabelKeys: []string{"app"}}),
			want:     []string{term + `.matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and mismatchLabelKeys`},
		},
		{
			name: "a matchLabelKeys key the selector names twice is refused at the term's own index, as the API server places it",
			affinity: schPodAffinity(v1.PodAffinityTerm{TopologyKey: "zone", MatchLabelKeys: []string{"tier", "app"},
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpExists}}},
			}),
			want: []string{term + `[1]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`},
		},
		{
			name: "a weighted pod anti-affinity term's weight is 1 to 100",
			affinity: &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{
				{Weight: 101, PodAffinityTerm: v1.PodAffinityTerm{TopologyKey: "zone"}},
			}}},
			want: []string{"spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, schTexts(validateAffinity(tt.affinity, field.NewPath("spec", "affinity"))))
		})
	}
}

func TestValidateTolerations(t *testing.T) {
	tests := []struct {
		name       string
		toleration v1.Toleration
		want       []string
	}{
		{name: "a toleration of a key's value for an effect is valid", toleration: v1.Toleration{Key: "dedicated", Operator: v1.TolerationOpEqual, Value: "gpu", Effect: v1.TaintEffectNoSchedule}},
		{name: "an empty key with Exists tolerates everything", toleration: v1.Toleration{Operator: v1.TolerationOpExists}},
		{
			name:       "an empty key needs operator Exists",
			toleration: v1.Toleration{Operator: v1.TolerationOpEqual},
			want:       []string{"spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\""},
		},
		{
			name:       "a toleration key must be a label name",
			toleration: v1.Toleration{Key: "a b", Operator: v1.TolerationOpExists},
			want:       []string{`spec.tolerations[0].key: Invalid value: "a b": ` + schNameMsg},
		},
		{
			name:       "tolerationSeconds need effect NoExecute",
			toleration: v1.Toleration{Key: "k", Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule, TolerationSeconds: ptr.To[int64](30)},
			want:       []string{"spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"},
		},
		{
			name:       "an Equal toleration's value must be a label value, refused at operator",
			toleration: v1.Toleration{Key: "k", Value: "a b"},
			want:       []string{`spec.tolerations[0].operator: Invalid value: "a b": ` + schLabelValueMsg},
		},
		{
			name:       "an Exists toleration takes no value",
			toleration: v1.Toleration{Key: "k", Operator: v1.TolerationOpExists, Value: "v"},
			want:       []string{"spec.tolerations[0].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'"},
		},
		{
			name:       "Lt is refused while TaintTolerationComparisonOperators is off, listing all four operators",
			toleration: v1.Toleration{Key: "k", Operator: v1.TolerationOpLt, Value: "5"},
			want:       []string{`spec.tolerations[0].operator: Unsupported value: "Lt": supported values: "Equal", "Exists", "Lt", "Gt"`},
		},
		{
			name:       "an unknown operator is refused",
			toleration: v1.Toleration{Key: "k", Operator: "In"},
			want:       []string{`spec.tolerations[0].operator: Unsupported value: "In": supported values: "Equal", "Exists"`},
		},
		{
			name:       "an unknown effect is refused",
			toleration: v1.Toleration{Key: "k", Operator: v1.TolerationOpExists, Effect: "NoScheduleNoAdmit"},
			want:       []string{`spec.tolerations[0].effect: Unsupported value: "NoScheduleNoAdmit": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, schTexts(validateTolerations([]v1.Toleration{tt.toleration}, field.NewPath("spec", "tolerations"))))
		})
	}
}

// schConstraint is a valid topology spread constraint on zones.
func schConstraint() v1.TopologySpreadConstraint {
	return v1.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: v1.DoNotSchedule, LabelSelector: schSelector("app", "web")}
}

func TestValidateTopologySpreadConstraints(t *testing.T) {
	const c0 = "spec.topologySpreadConstraints[0]"
	with := func(edit func(*v1.TopologySpreadConstraint)) []v1.TopologySpreadConstraint {
		c := schConstraint()
		edit(&c)
		return []v1.TopologySpreadConstraint{c}
	}
	tests := []struct {
		name        string
		constraints []v1.TopologySpreadConstraint
		want        []string
	}{
		{name: "a constraint on a topology key with a positive skew is valid", constraints: with(func(*v1.TopologySpreadConstraint) {})},
		{
			name:        "maxSkew must be above zero",
			constraints: with(func(c *v1.TopologySpreadConstraint) { c.MaxSkew = 0 }),
			want:        []string{c0 + ".maxSkew: Invalid value: 0: must be greater than zero"},
		},
		{
			name:        "the topology key is required",
			constraints: with(func(c *v1.TopologySpreadConstraint) { c.TopologyKey = "" }),
			want:        []string{c0 + ".topologyKey: Required value: can not be empty"},
		},
		{
			name:        "whenUnsatisfiable is DoNotSchedule or ScheduleAnyway",
			constraints: with(func(c *v1.TopologySpreadConstraint) { c.WhenUnsatisfiable = "Never" }),
			want:        []string{c0 + `.whenUnsatisfiable: Unsupported value: "Never": supported values: "DoNotSchedule", "ScheduleAnyway"`},
		},
		{
			name:        "a topology key and whenUnsatisfiable pair given twice is refused at the first",
			constraints: append(with(func(*v1.TopologySpreadConstraint) {}), schConstraint()),
			want:        []string{c0 + `.{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"`},
		},
		{
			name:        "each constraint a later one repeats is a duplicate, the last is not",
			constraints: append(with(func(*v1.TopologySpreadConstraint) {}), schConstraint(), schConstraint()),
			want: []string{
				c0 + `.{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"`,
				`spec.topologySpreadConstraints[1].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"`,
			},
		},
		{
			name:        "minDomains must be above zero",
			constraints: with(func(c *v1.TopologySpreadConstraint) { c.MinDomains = ptr.To[int32](0) }),
			want:        []string{c0 + ".minDomains: Invalid value: 0: must be greater than zero"},
		},
		{
			name: "minDomains needs whenUnsatisfiable DoNotSchedule",
			constraints: with(func(c *v1.TopologySpreadConstraint) {
				c.MinDomains = ptr.To[int32](2)
				c.WhenUnsatisfiable = v1.ScheduleAnyway
			}),
			want: []string{c0 + ".minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"},
		},
		{
			name: "the node inclusion policies are Honor or Ignore",
			constraints: with(func(c *v1.TopologySpreadConstraint) {
				c.NodeAffinityPolicy = ptr.To[v1.NodeInclusionPolicy]("Always")
				c.NodeTaintsPolicy = ptr.To[v1.NodeInclusionPolicy]("")
			}),
			want: []string{
				c0 + `.nodeAffinityPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore"`,
				c0 + `.nodeTaintsPolicy: Unsupported value: "": supported values: "Honor", "Ignore"`,
			},
		},
		{
			name: "matchLabelKeys need a label selector",
			constraints: with(func(c *v1.TopologySpreadConstraint) {
				c.LabelSelector = nil
				c.MatchLabelKeys = []string{"pod-template-hash"}
			}),
			want: []string{c0 + ".matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"},
		},
		{
			name: "a matchLabelKeys key the selector names twice is refused at the constraint's own index",
			constraints: with(func(c *v1.TopologySpreadConstraint) {
				c.MatchLabelKeys = []string{"app"}
				c.LabelSelector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"web"}}}
			}),
			want: []string{c0 + `[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`},
		},
		{
			name:        "the label selector is checked",
			constraints: with(func(c *v1.TopologySpreadConstraint) { c.LabelSelector = schSelector("app", "a b") }),
			want:        []string{c0 + `.labelSelector.matchLabels: Invalid value: "a b": ` + schLabelValueMsg},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, schTexts(validateTopologySpreadConstraints(tt.constraints, field.NewPath("spec", "topologySpreadConstraints"))))
		})
	}
}

func TestValidateGates(t *testing.T) {
	tests := []struct {
		name string
		errs field.ErrorList
		want []string
	}{
		{
			name: "a readiness gate's condition type is a qualified name",
			errs: validateReadinessGates([]v1.PodReadinessGate{{ConditionType: "example.com/ready"}, {ConditionType: "not ready"}}, field.NewPath("spec", "readinessGates")),
			want: []string{`spec.readinessGates[1].conditionType: Invalid value: "not ready": ` + schNameMsg},
		},
		{
			name: "a scheduling gate's name is a qualified name",
			errs: validateSchedulingGates([]v1.PodSchedulingGate{{Name: "-gate"}}, field.NewPath("spec", "schedulingGates")),
			want: []string{`spec.schedulingGates[0]: Invalid value: "-gate": ` + schNameMsg},
		},
		{
			name: "a scheduling gate named twice is a duplicate at its second place",
			errs: validateSchedulingGates([]v1.PodSchedulingGate{{Name: "a"}, {Name: "b"}, {Name: "a"}}, field.NewPath("spec", "schedulingGates")),
			want: []string{`spec.schedulingGates[2]: Duplicate value: "a"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, schTexts(tt.errs))
		})
	}
}

// schLabelKeyPod is a pod labeled app=web with the given affinity and spread constraints.
func schLabelKeyPod(affinity *v1.Affinity, constraints ...v1.TopologySpreadConstraint) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: map[string]string{"app": "web"}},
		Spec:       v1.PodSpec{Affinity: affinity, TopologySpreadConstraints: constraints},
	}
}

func TestMergedLabelKeysRefuseAKeyTheSelectorNames(t *testing.T) {
	// The API server's create strategy (defaults.PrepareForCreate) merges app In [web] into the
	// selector before it validates, so a key named both in matchLabelKeys and in matchLabels is
	// found twice.
	pod := schLabelKeyPod(schPodAffinity(v1.PodAffinityTerm{TopologyKey: "zone", LabelSelector: schSelector("app", "web"), MatchLabelKeys: []string{"app"}}))
	assert.Empty(t, validateAffinity(pod.Spec.Affinity, field.NewPath("spec", "affinity")), "unmerged, the key is named once")
	merged := pod.DeepCopy()
	defaults.PrepareForCreate(merged)
	assert.Equal(t,
		[]string{`spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`},
		schTexts(validateAffinity(merged.Spec.Affinity, field.NewPath("spec", "affinity"))))
}
