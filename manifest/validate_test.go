package manifest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podconfig/podconfig/manifest"
)

func TestValidateWorkloadAsCheckWorkload(t *testing.T) {
	tests := []struct {
		name, doc, wantErr string
	}{
		{"a Deployment as users write it is accepted once defaulted", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}`, ""},
		{"a Job with only a generateName is named and its selector generated, as the API server does", `apiVersion: batch/v1
kind: Job
metadata: {generateName: migrate-}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: m, image: busybox}]}`, ""},
		{"a Deployment whose selector does not match its template's labels is refused", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: other}}
    spec: {containers: [{name: web, image: nginx}]}`,
			"stdin: document 1 (Deployment web): Deployment.apps \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels`"},
		{"a Job whose template restarts Always is refused", `apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  template:
    spec: {containers: [{name: m, image: busybox}]}`,
			`stdin: document 1 (Job j): Job.batch "j" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`},
		{"a CronJob with a schedule that is not cron is refused", `apiVersion: batch/v1
kind: CronJob
metadata: {name: c}
spec:
  schedule: "every day"
  jobTemplate:
    spec:
      template:
        spec: {restartPolicy: Never, containers: [{name: m, image: busybox}]}`,
			`stdin: document 1 (CronJob c): CronJob.batch "c" is invalid: spec.schedule: Invalid value: "every day": expected exactly 5 fields, found 2: [every day]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := manifest.Options{DefaultTemplates: true, CheckWorkload: func(o runtime.Object) error { return manifest.ValidateWorkload(o) }}
			b, err := manifest.Read(opts, manifest.Input{Reader: strings.NewReader(tt.doc)})
			if tt.wantErr == "" {
				require.NoError(t, err)
				assert.Len(t, b.Pods, 1)
				return
			}
			require.EqualError(t, err, tt.wantErr)
		})
	}
}
