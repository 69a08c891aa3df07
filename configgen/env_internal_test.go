package configgen

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/internal/expansion"
)

// An object that gains keys between being counted and being read must not break the builder:
// the table grows and the result still holds every variable once, service variables after.
func TestEnvBuilderMoreDefinitionsThanReserved(t *testing.T) {
	b := &envBuilder{in: envCall{EnvInput: EnvInput{Pod: &v1.Pod{}, Container: &v1.Container{}}}}
	b.svcCount = 1
	b.reserve(1)
	b.all[1] = EnvVar{Name: "SVC", Value: "s"}
	b.svc = b.all[1:2]
	b.svcNames.add("SVC")
	var want []EnvVar
	for i := range 40 {
		name := fmt.Sprintf("V%02d", i)
		b.set(name, "x")
		want = append(want, EnvVar{Name: name, Value: "x"})
	}
	b.set("V07", "again")
	want[7].Value = "again"
	got := b.result()
	assert.Equal(t, append(want, EnvVar{Name: "SVC", Value: "s"}), got)
	for i := range 40 {
		v, ok := b.lookup(fmt.Sprintf("V%02d", i))
		assert.True(t, ok)
		assert.NotEmpty(t, v)
	}
}

// subPathEnv holds fewer variables than the whole environment, but every subPathExpr expands
// against it exactly as against the whole environment (kubelet's envVarsToMap, later duplicates
// winning): same result, same missing names.
func TestSubPathEnvExpandsAsTheWholeEnvironment(t *testing.T) {
	envs := []EnvVar{
		{Name: "A", Value: "first"}, {Name: "B", Value: "b"}, {Name: "EMPTY", Value: ""},
		{Name: "A", Value: "second"}, {Name: "A$(B", Value: "odd"}, {Name: "AB", Value: "ab"},
		{Name: "", Value: "noname"}, {Name: "C)", Value: "c"},
	}
	// The scratch's map is reused by every expression in turn, as GenerateContainerConfig's calls
	// reuse it: nothing of one may remain for the next.
	scratch := &envScratch{}
	for _, expr := range []string{
		"$(A)", "$(A)/$(B)", "$(A)$(A)", "x$(AB)y", "$$(A)", "$$$(A)", "$(A$(B))", "$(A", "$(A)$(B",
		"$()", "$(EMPTY)", "$(MISSING)", "$(C))", "$($(A))", "plain", "$", "$(", ")$(B)",
	} {
		t.Run(expr, func(t *testing.T) {
			c := &v1.Container{VolumeMounts: []v1.VolumeMount{{Name: "v", SubPathExpr: "unrelated/$(B)"}, {Name: "w", SubPathExpr: expr}}}
			small := subPathEnv(c, envs, nil)
			assert.LessOrEqual(t, len(small), len(envMap(envs)))
			lent := subPathEnv(c, envs, scratch)
			assert.Equal(t, small, lent, "the scratch's map holds what a fresh one does")
			for _, m := range c.VolumeMounts {
				wantOut, wantMissing, wantOK := expansion.ExpandStrictLimit(m.SubPathExpr, envMap(envs), 4096)
				out, missing, ok := expansion.ExpandStrictLimit(m.SubPathExpr, small, 4096)
				assert.Equal(t, wantOut, out)
				assert.Equal(t, wantMissing, missing)
				assert.Equal(t, wantOK, ok)
			}
		})
	}
	assert.Nil(t, subPathEnv(&v1.Container{VolumeMounts: []v1.VolumeMount{{Name: "v", SubPath: "x"}}}, envs, nil), "no subPathExpr, no map")
	assert.Nil(t, subPathEnv(&v1.Container{VolumeMounts: []v1.VolumeMount{{Name: "v", SubPath: "x"}}}, envs, scratch), "no subPathExpr, no map")
}

// nameHeads never says a name it holds is missing; names of another head are mostly told apart.
func TestNameHeads(t *testing.T) {
	var set nameHeads
	held := []string{"", "A", "AB", "KUBERNETES_PORT", "POSTGRES_SERVICE_HOST", "\xff\x00x", "é"}
	for _, n := range held {
		set.add(n)
	}
	for _, n := range held {
		assert.True(t, set.mayHold(n), "%q", n)
	}
	assert.True(t, set.mayHold("KUBxyz"), "the head is the first three bytes")
	assert.True(t, set.mayHold("POSTGRES"), "the head is the first three bytes")
	missed := 0
	for _, n := range []string{"POD_NAME", "B", "ABC", "LOG_LEVEL", "STRIPE_KEY", "DB_URL", "MODE", "NODE_NAME"} {
		if !set.mayHold(n) {
			missed++
		}
	}
	assert.GreaterOrEqual(t, missed, 6, "most other heads are not in the set")
}

// The command and args of a Generator's container are expanded with lookupResult instead of a
// scan of the environment: for every name, defined, shadowing a service variable, a service
// variable or none, it answers as the scan from the end does.
func TestLookupResultAnswersAsTheEnvironment(t *testing.T) {
	svc := func(ns, name, ip string, ports ...v1.ServicePort) *v1.Service {
		return &v1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: v1.ServiceSpec{ClusterIP: ip, Ports: ports}}
	}
	services := map[string][]*v1.Service{
		"default": {svc("default", "kubernetes", "10.96.0.1", v1.ServicePort{Name: "https", Port: 443})},
		"ns": {svc("ns", "db", "10.96.0.2", v1.ServicePort{Port: 5432}), svc("ns", "a", "10.96.0.3", v1.ServicePort{Name: "x", Port: 1}),
			svc("ns", "web-x", "10.96.0.4", v1.ServicePort{Name: "http", Port: 80}, v1.ServicePort{Name: "m", Port: 9090})},
	}
	lister := ServiceListerFunc(func(_ context.Context, ns string) ([]*v1.Service, error) { return services[ns], nil })
	env := []v1.EnvVar{
		{Name: "A", Value: "1"}, {Name: "DB_SERVICE_HOST", Value: "shadowed"}, {Name: "A", Value: "2"},
		{Name: "KUBERNETES_PORT", Value: "mine"}, {Name: "URL", Value: "$(DB_SERVICE_HOST):$(DB_SERVICE_PORT)"}, {Name: "EMPTY"},
	}
	for _, cached := range []bool{false, true} {
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"},
			Spec: v1.PodSpec{EnableServiceLinks: new(true), Containers: []v1.Container{{Name: "c", Env: env}}}}
		cache := &serviceEnvCache{}
		scratch := &envScratch{}
		in := envCall{EnvInput: EnvInput{Pod: pod, Container: &pod.Spec.Containers[0], Services: lister}, serviceCache: cache, scratch: scratch}
		if cached {
			_, _, _, _, err := makeEnvironmentVariablesWithin(context.Background(), in, ExpansionLimits{}.budget())
			assert.NoError(t, err)
		}
		out, _, _, _, err := makeEnvironmentVariablesWithin(context.Background(), in, ExpansionLimits{}.budget())
		assert.NoError(t, err)
		names := []string{"NOPE", "", "B", "DB_", "KUBERNETES", "WEB_X_PORT_80_TCP_PORTX", "A_SERVICE_PORT_X"}
		for _, e := range out {
			names = append(names, e.Name)
		}
		scan := envLookup(out, 0)
		for _, name := range names {
			want, wantOK := scan(name)
			got, ok := scratch.lookupEnv(name)
			assert.Equal(t, wantOK, ok, "cached %v: %q", cached, name)
			assert.Equal(t, want, got, "cached %v: %q", cached, name)
		}
	}
}
