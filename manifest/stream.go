package manifest

import "iter"

// Stream is a set of manifests read by Open. Its workloads, ConfigMaps and Secrets are kept as
// the compact JSON they were checked as: Pods makes a workload's Pods when a loop reaches it, and
// GetConfigMap and GetSecret decode an object when it is asked for. Decoded, a workload and its
// Pods take many times the size of their YAML, and so does a small ConfigMap; a Stream holds
// about the input's size, and one workload's Pods at a time. A Stream is safe for concurrent use.
type Stream struct {
	bundle              *Bundle
	opts                Options
	workloads           []workload
	configMaps, secrets storedObjects
}

// Open reads every input as Read does, but makes no Pod: the Node, the RenderContext, the
// objects other than ConfigMaps and Secrets, and the warnings and errors of reading are in
// Bundle; Pods makes the Pods as a loop asks for them, and GetConfigMap and GetSecret serve the
// ConfigMaps and Secrets. The first error stops it, and nothing is returned with it, unless
// Options.ContinueOnError is set.
func Open(opts Options, inputs ...Input) (*Stream, error) {
	r := &reader{opts: opts, bundle: &Bundle{}}
	for _, in := range inputs {
		if err := r.readInput(in); err != nil {
			if err = r.failed(err); err != nil {
				return nil, err
			}
		}
	}
	return &Stream{bundle: r.bundle, opts: opts, workloads: r.workloads, configMaps: r.configMaps, secrets: r.secrets}, nil
}

// Bundle is what Open read: the Node and RenderContext, the Services, ServiceAccounts,
// LimitRanges, PriorityClasses and RuntimeClasses, the warnings, and the errors of reading with
// Options.ContinueOnError. Its Pods, ConfigMaps and Secrets are empty: Pods yields the Pods, and
// GetConfigMap and GetSecret serve the others by name.
func (s *Stream) Bundle() *Bundle { return s.bundle }

// Pods yields the Pods in the order Read returns them, making a workload's Pods when the loop
// reaches it, so that one workload's Pods are held at a time. In place of the Pods of a
// workload that cannot make them it yields one *DocumentError naming the document, and in place
// of a Pod with the UID, or the namespace and name, of a Pod yielded before, an error naming
// both documents that matches ErrDuplicatePod (see CheckPods); the loop may go on past either.
// Each Pod is the caller's own. Every loop over Pods starts from the first workload and makes the
// same Pods.
func (s *Stream) Pods() iter.Seq2[Pod, error] {
	return func(yield func(Pod, error) bool) {
		if s == nil || s.bundle == nil {
			return // a zero Stream holds nothing
		}
		e := &expansion{opts: s.opts, node: s.nodeName(), scheduled: s.bundle.Context.ScheduledTime}
		seen := newPodSet(0) // grown as Pods come: a workload may make none, or many
		for i := range s.workloads {
			w := &s.workloads[i]
			pods, err := e.pods(w)
			if err != nil {
				if !yield(Pod{}, &DocumentError{Document: w.source, Err: err}) {
					return
				}
				continue
			}
			for _, p := range pods {
				pod := Pod{Pod: p, Source: w.source, Kind: w.kind}
				if err := seen.add(pod); err != nil {
					if !yield(Pod{}, err) {
						return
					}
					continue
				}
				if !yield(pod, nil) {
					return
				}
			}
		}
	}
}

// nodeName is what binds Pods with no spec.nodeName: Options.NodeName, else the Node document's
// name, else "node".
func (s *Stream) nodeName() string {
	switch {
	case s.opts.NodeName != "":
		return s.opts.NodeName
	case s.bundle.Node != nil && s.bundle.Node.Name != "":
		return s.bundle.Node.Name
	}
	return "node"
}
