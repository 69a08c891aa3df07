package conformance

import (
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podconfig/podconfig/conformance/internal/validationside"
	"github.com/podconfig/podconfig/validation"
)

// Sizes of a TestValidation run: about 6,000 pods and 500 workloads in under a minute.
const (
	randomValidationPods      = 1000
	mutatedValidationPods     = 5000
	randomValidationWorkloads = 400
	minValidationPods         = 5000
)

// TestValidation runs package validation beside the API server's own create validation
// (validationside) on the kubelet and admission corpora's pods, the real manifests' Pods and
// workloads, random pods, valid random pods with fields changed to values likely refused, and
// random workloads, each defaulted and prepared by its registry strategy as the API server
// prepares an object before it validates it: each must be accepted by both, or refused by both
// with the same errors (type, field, detail and text) in the same order. A mismatch is a failure unless a
// ValidationDeviation explains it. The seed is new on every run and printed;
// PODCONFIG_CONFORMANCE_SEED replays it. PODCONFIG_VALIDATION_REPORT=1 (with -v) prints every
// group of mismatches with an example.
func TestValidation(t *testing.T) {
	start := time.Now()
	seed := validationSeed(t)
	t.Logf("seed %d (replay with PODCONFIG_CONFORMANCE_SEED=%d)", seed, seed)
	random, mutated, workloads := randomValidationPods, mutatedValidationPods, randomValidationWorkloads
	if testing.Short() {
		random, mutated, workloads = 100, 500, 40
	}
	inputs := corpusValidationInputs(t)
	realInputs, files := realworldValidationInputs(t)
	if files == 0 {
		t.Logf("no real manifests in %s: their Pods and workloads are not compared", realworldDir)
	} else {
		t.Logf("%d real manifests in %s", files, realworldDir)
	}
	inputs = append(inputs, realInputs...)
	inputs = append(inputs, randomValidationInputs(seed, random)...)
	inputs = append(inputs, mutatedValidationInputs(t, seed, mutated)...)
	inputs = append(inputs, randomWorkloadInputs(t, seed, workloads)...)

	report := NewValidationReport()
	tolerated := map[string]int{}
	pods := 0
	for _, in := range inputs {
		validationside.Default(in.obj)
		obj, err := validationside.Prepare(in.obj)
		if err != nil {
			t.Fatalf("%s: %v", in.name, err)
		}
		var ms []*ValidationMismatch
		var apiRefused bool
		if pod, ok := obj.(*v1.Pod); ok {
			pods++
			ms, apiRefused = comparePodValidation(t, pod)
		} else {
			ms, apiRefused = compareObjectValidation(t, obj)
		}
		var unexplained []*ValidationMismatch
		for _, m := range ms {
			if name := ExplainValidation(m); name != "" {
				tolerated[name]++
			} else {
				unexplained = append(unexplained, m)
			}
		}
		if len(unexplained) == 0 {
			report.Add(in.class, apiRefused, ValidationExample{})
			continue
		}
		js, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		report.Add(in.class, apiRefused, ValidationExample{Name: in.name, Changes: in.changes, Object: js}, unexplained...)
	}
	t.Logf("%d objects compared in %v, deviations tolerated %v:\n%s", len(inputs), time.Since(start).Round(time.Millisecond), tolerated, report.Counts())
	if !testing.Short() && pods < minValidationPods {
		t.Errorf("only %d pods compared, want at least %d", pods, minValidationPods)
	}
	if os.Getenv("PODCONFIG_VALIDATION_REPORT") != "" {
		t.Logf("report:\n%s", report.Summary(report.Groups(), true))
	}
	if report.Groups() > 0 {
		t.Errorf("package validation differs from the API server in %d groups (seed %d; every group with an example: PODCONFIG_VALIDATION_REPORT=1 go test -v -run TestValidation):\n%s",
			report.Groups(), seed, report.Summary(40, report.Groups() <= 5))
	}
}

// validationSeed is PODCONFIG_CONFORMANCE_SEED, or a new seed.
func validationSeed(t *testing.T) uint64 {
	s := os.Getenv("PODCONFIG_CONFORMANCE_SEED")
	if s == "" {
		return uint64(time.Now().UnixNano())
	}
	seed, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("PODCONFIG_CONFORMANCE_SEED: %v", err)
	}
	return seed
}

var podKind = schema.GroupKind{Kind: "Pod"}

// comparePodValidation compares the validations of a prepared pod: ValidatePodCreate with the pod
// strategy's; for a pod holding ephemeral containers, ValidateEphemeralContainers on the pod the
// ephemeralcontainers subresource stores with that subresource's validation of them; and, when
// those agree, ValidateObject with the API server's refusal of the pod as a client reads it back
// (created without its ephemeral containers, then given them), or as created. It reports whether
// the API server refuses the pod's create.
func comparePodValidation(t *testing.T, pod *v1.Pod) ([]*ValidationMismatch, bool) {
	t.Helper()
	apiCreate := apiServerValidate(t, pod)
	var ms []*ValidationMismatch
	if m := CompareValidation(CheckCreate, apiCreate, validation.ValidatePodCreate(pod.DeepCopy())); m != nil {
		ms = append(ms, m)
	}
	want, readBack := apiCreate, pod
	if len(pod.Spec.EphemeralContainers) > 0 {
		apiEphemeral, stored, err := validationside.EphemeralContainers(pod.DeepCopy())
		if err != nil {
			t.Fatal(err)
		}
		if m := CompareValidation(CheckEphemeral, apiEphemeral, validation.ValidateEphemeralContainers(stored.DeepCopy())); m != nil {
			ms = append(ms, m)
		}
		created := pod.DeepCopy()
		created.Spec.EphemeralContainers = nil
		want, readBack = append(apiServerValidate(t, created), apiEphemeral...), stored
	}
	if len(ms) == 0 {
		if m := compareRefusal(podKind, pod.Name, want, validation.ValidateObject(readBack.DeepCopy())); m != nil {
			ms = append(ms, m)
		}
	}
	return ms, len(apiCreate) > 0
}

// compareObjectValidation compares ValidateObject on a prepared workload with the API server's
// create validation of its kind, and reports whether the API server refuses it.
func compareObjectValidation(t *testing.T, obj runtime.Object) ([]*ValidationMismatch, bool) {
	t.Helper()
	want, kind, err := validationside.Validate(obj.DeepCopyObject())
	if err != nil {
		t.Fatal(err)
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		t.Fatal(err)
	}
	if mm := compareRefusal(kind, m.GetName(), want, validation.ValidateObject(obj.DeepCopyObject())); mm != nil {
		return []*ValidationMismatch{mm}, len(want) > 0
	}
	return nil, len(want) > 0
}

// compareRefusal compares ValidateObject's error with the API server's refusal of an object of
// kind and name for want: the error lists, then the texts.
func compareRefusal(kind schema.GroupKind, name string, want field.ErrorList, got error) *ValidationMismatch {
	var gotErrs field.ErrorList
	var verr *validation.Error
	if errors.As(got, &verr) {
		gotErrs = verr.Errs
	} else if got != nil {
		gotErrs = field.ErrorList{field.InternalError(nil, got)}
	}
	if m := CompareValidation(CheckObject, want, gotErrs); m != nil {
		return m
	}
	wantText, gotText := "", ""
	if len(want) > 0 {
		wantText = apierrors.NewInvalid(kind, name, want).Error()
	}
	if got != nil {
		gotText = got.Error()
	}
	if wantText == gotText {
		return nil
	}
	return &ValidationMismatch{Check: CheckObject, APIServer: want, Podconfig: gotErrs, APIServerText: wantText, PodconfigText: gotText}
}

// apiServerValidate is the API server's create validation of a prepared pod.
func apiServerValidate(t *testing.T, pod *v1.Pod) field.ErrorList {
	t.Helper()
	errs, _, err := validationside.Validate(pod.DeepCopy())
	if err != nil {
		t.Fatal(err)
	}
	return errs
}
