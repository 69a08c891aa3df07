package offline_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/offline"
)

// The store must satisfy every getter a Generator takes.
var (
	_ configgen.ConfigMapGetter = (*offline.Objects)(nil)
	_ configgen.SecretGetter    = (*offline.Objects)(nil)
	_ configgen.ServiceLister   = (*offline.Objects)(nil)
	_ configgen.NodeGetter      = (*offline.Objects)(nil)
)

func TestObjects(t *testing.T) {
	ctx := context.Background()
	meta := func(ns, name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: ns, Name: name} }
	o := offline.NewObjects(
		&v1.ConfigMap{ObjectMeta: meta("a", "cm")},
		&v1.Secret{ObjectMeta: meta("a", "s")},
		&v1.Service{ObjectMeta: meta("a", "zeta")}, &v1.Service{ObjectMeta: meta("a", "alpha")},
		&v1.Service{ObjectMeta: meta("default", "kubernetes")},
	)

	t.Run("found objects are returned", func(t *testing.T) {
		cm, err := o.GetConfigMap(ctx, "a", "cm")
		require.NoError(t, err)
		assert.Equal(t, "cm", cm.Name)
		s, err := o.GetSecret(ctx, "a", "s")
		require.NoError(t, err)
		assert.Equal(t, "s", s.Name)
	})
	t.Run("missing objects are the API's NotFound, in the right namespace only", func(t *testing.T) {
		_, err := o.GetConfigMap(ctx, "b", "cm")
		assert.True(t, apierrors.IsNotFound(err))
		assert.EqualError(t, err, `configmaps "cm" not found`)
		_, err = o.GetSecret(ctx, "a", "nope")
		assert.True(t, apierrors.IsNotFound(err))
		assert.EqualError(t, err, `secrets "nope" not found`)
	})
	t.Run("services are listed per namespace, sorted by name", func(t *testing.T) {
		svcs, err := o.ListServices(ctx, "a")
		require.NoError(t, err)
		require.Len(t, svcs, 2)
		assert.Equal(t, []string{"alpha", "zeta"}, []string{svcs[0].Name, svcs[1].Name})
		all, err := o.ListServices(ctx, "")
		require.NoError(t, err)
		assert.Len(t, all, 3)
	})
	t.Run("adding an object of the same name replaces it", func(t *testing.T) {
		o.Add(&v1.Service{ObjectMeta: meta("a", "alpha"), Spec: v1.ServiceSpec{ClusterIP: "10.0.0.1"}})
		svcs, err := o.ListServices(ctx, "a")
		require.NoError(t, err)
		require.Len(t, svcs, 2)
		assert.Equal(t, "10.0.0.1", svcs[0].Spec.ClusterIP)
	})
	t.Run("services added in any order, replaced and listed in between, are listed sorted", func(t *testing.T) {
		o := offline.NewObjects()
		names := func(ns string) []string {
			svcs, err := o.ListServices(ctx, ns)
			require.NoError(t, err)
			var out []string
			for _, s := range svcs {
				out = append(out, s.Name+"="+s.Spec.ClusterIP)
			}
			return out
		}
		for _, n := range []string{"c", "a", "d"} {
			o.Add(&v1.Service{ObjectMeta: meta("x", n)})
		}
		o.Add(&v1.Service{ObjectMeta: meta("y", "b")})
		assert.Equal(t, []string{"a=", "c=", "d="}, names("x"))
		o.Add(&v1.Service{ObjectMeta: meta("x", "a"), Spec: v1.ServiceSpec{ClusterIP: "10.0.0.2"}})
		o.Add(&v1.Service{ObjectMeta: meta("x", "b")})
		o.Add(&v1.Service{ObjectMeta: meta("x", "d"), Spec: v1.ServiceSpec{ClusterIP: "10.0.0.4"}})
		assert.Equal(t, []string{"a=10.0.0.2", "b=", "c=", "d=10.0.0.4"}, names("x"))
		assert.Equal(t, []string{"a=10.0.0.2", "b=", "c=", "d=10.0.0.4", "b="}, names(""))
		assert.Empty(t, names("none"))
	})
	t.Run("no node added: a node with no addresses", func(t *testing.T) {
		n, err := o.GetNode(ctx)
		require.NoError(t, err)
		assert.Empty(t, n.Status.Addresses)
	})
}

// BenchmarkObjectsAddServices loads 20,000 Services of one namespace, as a manifest holds them,
// and lists them once.
func BenchmarkObjectsAddServices(b *testing.B) {
	svcs := make([]*v1.Service, 20000)
	for i := range svcs {
		svcs[i] = &v1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("svc-%05d", len(svcs)-i)}}
	}
	for b.Loop() {
		o := offline.NewObjects()
		for _, s := range svcs {
			o.Add(s)
		}
		if _, err := o.ListServices(context.Background(), "default"); err != nil {
			b.Fatal(err)
		}
	}
}
