package validation

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"
)

// wlFiller fills objects at random, with the values the workload and scheduling rules turn on:
// empty and unknown enum values, schedules, percentages, negative and zero counts, nil pointers and
// IntOrStrings of a type JSON never gives.
func wlFiller(seed int64) *randfill.Filler {
	strs := []string{"", "", "a", "app", "web", "a b", "-x", "RollingUpdate", "OnDelete", "Recreate", "Indexed", "In", "Exists",
		"Equal", "Lt", "DoNotSchedule", "*/5 * * * *", "TZ=UTC", "CRON_TZ=x y", "@every 1s", "60 * * * *", "0%", "150%",
		"Europe/Berlin", "../x", "Local", "0-2,1", "metadata.name", "controller-uid", "job-name", "Always", "Never"}
	return randfill.NewWithSeed(seed).NilChance(0.3).NumElements(0, 3).Funcs(
		func(s *string, c randfill.Continue) { *s = strs[c.Intn(len(strs))] },
		func(i *int32, c randfill.Continue) { *i = int32(c.Intn(5) - 2) },
		func(i *int64, c randfill.Continue) { *i = int64(c.Intn(5) - 2) },
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse([]string{"0", "-1", "1Gi"}[c.Intn(3)])
		},
		func(v *intstr.IntOrString, c randfill.Continue) {
			*v = intstr.IntOrString{Type: intstr.Type(c.Intn(3)), IntVal: int32(c.Intn(3) - 1), StrVal: strs[c.Intn(len(strs))]}
		},
	)
}

func TestValidateObjectNeverPanicsOnRandomObjects(t *testing.T) {
	kinds := []func() runtime.Object{
		func() runtime.Object { return &appsv1.Deployment{} },
		func() runtime.Object { return &appsv1.ReplicaSet{} },
		func() runtime.Object { return &appsv1.StatefulSet{} },
		func() runtime.Object { return &appsv1.DaemonSet{} },
		func() runtime.Object { return &batchv1.Job{} },
		func() runtime.Object { return &batchv1.CronJob{} },
		func() runtime.Object { return &v1.ReplicationController{} },
		func() runtime.Object { return &v1.PodTemplate{} },
		func() runtime.Object { return &v1.Pod{} },
	}
	for _, newObj := range kinds {
		t.Run(fmt.Sprintf("%T", newObj()), func(t *testing.T) {
			f := wlFiller(1)
			for i := 0; i < 80; i++ {
				obj := newObj()
				f.Fill(obj)
				var err error
				assert.NotPanics(t, func() { err = ValidateObject(obj) }, "object %d", i)
				if err != nil {
					var invalid *Error
					assert.True(t, errors.As(err, &invalid) || apierrors.IsBadRequest(err), "an *Error or a Bad Request: %v", err)
				}
			}
		})
	}
}
