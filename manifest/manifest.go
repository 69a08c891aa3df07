package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podconfig/podconfig/internal/errkind"
)

// MaxInputSize is the largest input Read accepts, 64 MiB.
const MaxInputSize = 64 << 20

// ErrTooLarge: an input is larger than MaxInputSize.
var ErrTooLarge = errkind.Sentinel(errkind.InvalidPod, "input larger than 64 MiB")

// Input is one manifest stream.
type Input struct {
	// Name names the input in errors and warnings, e.g. a file name; empty means "stdin".
	Name string
	// Reader holds the manifests: YAML documents separated by "---", or JSON.
	Reader io.Reader
}

// Options chooses which Pods Read makes from each workload.
type Options struct {
	// Replicas is how many Pods to make per workload, counting from the first (ordinal
	// spec.ordinals.start of a StatefulSet, completion index 0 of an Indexed Job); it is capped by
	// the workload's own count (spec.replicas, a Job's parallelism or completions, one node for a
	// DaemonSet). Zero means one.
	Replicas int
	// Ordinal, when set, makes only that Pod of each workload: a StatefulSet's ordinal, an
	// Indexed Job's completion index, or the replica number of the other kinds. Outside the
	// workload's range it is an error.
	Ordinal *int
	// NodeName binds Pods with no spec.nodeName; empty means the Node document's name, or "node".
	NodeName string
	// DefaultTemplates applies the API server's defaults to every workload's pod template
	// (defaults.SetDefaultsPodTemplateSpec) before its Pods are made, as the API server does when
	// the workload is created. The controllers' hashes (pod-template-hash,
	// controller-revision-hash) are then those a cluster computes. Pods themselves are not
	// defaulted here: apply defaults.SetObjectDefaultsPod to them, as the API server does again
	// when a controller creates one.
	DefaultTemplates bool
	// ContinueOnError makes an input or document that fails not stop Read: its error goes to
	// Bundle.Errors and the next document is read, as kubectl apply goes on past a bad document.
	// A document that does not split from the next (bad YAML or JSON) ends its input.
	ContinueOnError bool
	// CheckWorkload, when set, is called with each workload other than a Pod as decoded (a
	// *appsv1.Deployment, *batchv1.Job, ...), before its Pods are made; an error stands in the
	// place of its Pods, as a *DocumentError naming the document. It must not change the object.
	// podconfig render validates each workload there as the API server would on create.
	CheckWorkload func(obj runtime.Object) error
}

// Bundle is what a set of manifests holds, ready to render.
type Bundle struct {
	// Pods are the Pods in document order; a workload's Pods are in replica order.
	Pods []Pod
	// ConfigMaps, Secrets and Services are the objects the Pods may refer to, in their namespace
	// as written (empty when the manifest names none; kubectl would use "default"). A Secret's
	// stringData is folded into data, as the API server does.
	ConfigMaps []*v1.ConfigMap
	Secrets    []*v1.Secret
	Services   []*v1.Service
	// ServiceAccounts, LimitRanges, PriorityClasses and RuntimeClasses are what the API server's
	// admission plugins read when a Pod is created (package admission), as written.
	ServiceAccounts []*v1.ServiceAccount
	LimitRanges     []*v1.LimitRange
	PriorityClasses []*schedulingv1.PriorityClass
	RuntimeClasses  []*nodev1.RuntimeClass
	// Node is the Node document, if any (at most one).
	Node *v1.Node
	// Context is the RenderContext document, if any (at most one).
	Context RenderContext
	// Warnings name the documents skipped and why.
	Warnings []string
	// Errors are the documents and inputs that failed, with Options.ContinueOnError; each is a
	// *DocumentError or names its input.
	Errors []error
}

// Pod is one Pod to render and the document it came from.
type Pod struct {
	Pod *v1.Pod
	// Source names the document, e.g. `app.yaml: document 2 (Deployment web)`.
	Source string
	// Kind is the kind of the document the Pod comes from: Pod, Deployment, CronJob, ...
	Kind string
}

// RenderContext is the node state a real kubelet knows and a manifest cannot hold. It comes as a
// document of kind RenderContext, with any apiVersion or none; every field is optional:
//
//	kind: RenderContext
//	podIPs: [10.1.0.5]
//	imageUsers:
//	  nginx:1.27: 101           # a uid
//	  registry.example/app:2: {uid: 1000}
//	  busybox: "1000:1000"      # uid:gid (the group is the runtime's to resolve)
//	  redis:*: redis            # a user name, for every tag and digest of redis
//	defaultImageUser: 65532     # every other image's
//	restartCount: 0
type RenderContext struct {
	// PodIPs are the IPs the network plugin gives every Pod.
	PodIPs []string `json:"podIPs,omitempty"`
	// ImageUsers maps images to the user they run as. A key is an image reference, matched once
	// normalised as kubelet and the runtime read it (nginx is docker.io/library/nginx:latest; a
	// reference with a digest is that digest, whatever its tag), or NAME:* for every tag and
	// digest of a repository (images.ParsePattern); an image takes its reference's user, else its
	// repository's. Two keys of one image with different users are an error.
	ImageUsers map[string]ImageUser `json:"imageUsers,omitempty"`
	// DefaultImageUser is the user of the images ImageUsers does not match. Nil runs them as
	// root, as kubelet does an image that names no user.
	DefaultImageUser *ImageUser `json:"defaultImageUser,omitempty"`
	// RestartCount is the restart count of every container.
	RestartCount int `json:"restartCount,omitempty"`
	// ScheduledTime is the time a CronJob's Job is scheduled for, which names the Job; zero means
	// the Unix epoch (Jobs named <cronjob>-0).
	ScheduledTime time.Time `json:"scheduledTime,omitempty"`
}

// ImageUser is the user an image runs as: a uid, or a user name. In a RenderContext it is an
// object {uid: N} or {username: NAME}, a number (the uid) or a string (ParseImageUser).
type ImageUser struct {
	UID      *int64 `json:"uid,omitempty"`
	Username string `json:"username,omitempty"`
}

// ParseImageUser reads an image's user as an image's USER instruction gives it: a uid, a user
// name, or either followed by ":group". The group is accepted and dropped: kubelet takes only
// the user from the image, and the runtime resolves the group.
func ParseImageUser(s string) (ImageUser, error) {
	user, _, _ := strings.Cut(s, ":")
	if user == "" {
		return ImageUser{}, fmt.Errorf("image user %q: want UID[:GID] or NAME[:GROUP]", s)
	}
	if uid, err := strconv.ParseInt(user, 10, 64); err == nil {
		if uid < 0 {
			return ImageUser{}, fmt.Errorf("image user %q: a uid is not negative", s)
		}
		return ImageUser{UID: &uid}, nil
	}
	return ImageUser{Username: user}, nil
}

// UnmarshalJSON reads an object, a number or a string.
func (u *ImageUser) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) > 0 && data[0] == '{':
		type plain ImageUser
		var p plain
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return fmt.Errorf("image user: %w (want {uid: N}, {username: NAME}, N or \"UID[:GID]\")", err)
		}
		*u = ImageUser(p)
		return nil
	case len(data) > 0 && data[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		parsed, err := ParseImageUser(s)
		if err != nil {
			return err
		}
		*u = parsed
		return nil
	default:
		var uid int64
		if err := json.Unmarshal(data, &uid); err != nil || uid < 0 {
			return fmt.Errorf("image user %s: want {uid: N}, {username: NAME}, N or \"UID[:GID]\"", data)
		}
		*u = ImageUser{UID: &uid}
		return nil
	}
}

// DocumentError is an error in one document.
type DocumentError struct {
	// Document names it, e.g. `app.yaml: document 2 (Deployment web)`.
	Document string
	Err      error
}

// Error names the document, then the problem.
func (e *DocumentError) Error() string {
	if e.Err == nil {
		return e.Document
	}
	return e.Document + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *DocumentError) Unwrap() error { return e.Err }

// Read reads every input and returns the Pods their documents make, with the objects they refer
// to. Two Pods with one UID, or one namespace and name, are an error (see CheckPods). The first
// error stops it, and nothing is returned with it, unless Options.ContinueOnError is set (then a
// duplicate Pod is left out and its error recorded).
//
// Read holds every Pod at once; Open makes them one workload at a time, for inputs too large
// for that.
func Read(opts Options, inputs ...Input) (*Bundle, error) {
	s, err := Open(opts, inputs...)
	if err != nil {
		return nil, err
	}
	b := s.bundle
	if err := s.decodeAll(b); err != nil {
		return nil, err
	}
	// Errors come as Read has always given them: those of making Pods in document order, then
	// the duplicates.
	var made, duplicates []error
	for p, err := range s.Pods() {
		switch {
		case err == nil:
			b.Pods = append(b.Pods, p)
		case errors.Is(err, ErrDuplicatePod):
			duplicates = append(duplicates, err)
		default:
			made = append(made, err)
		}
	}
	for _, err := range append(made, duplicates...) {
		if !opts.ContinueOnError {
			return nil, err
		}
		b.Errors = append(b.Errors, err)
	}
	return b, nil
}

// failed records err and returns nil when reading goes on past errors, else returns err.
func (r *reader) failed(err error) error {
	if !r.opts.ContinueOnError {
		return err
	}
	r.bundle.Errors = append(r.bundle.Errors, err)
	return nil
}

// docName names a document in errors and warnings.
func docName(input string, index int, item int, kind, name string) string {
	s := fmt.Sprintf("%s: document %d", input, index)
	if item > 0 {
		s += fmt.Sprintf(" item %d", item)
	}
	switch {
	case kind != "" && name != "":
		s += fmt.Sprintf(" (%s %s)", kind, name)
	case kind != "":
		s += fmt.Sprintf(" (%s)", kind)
	}
	return s
}
