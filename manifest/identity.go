package manifest

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"

	"github.com/podconfig/podconfig/defaults"
	"github.com/podconfig/podconfig/internal/errkind"
)

// ErrDuplicatePod: two Pods share a UID, or a namespace and name.
var ErrDuplicatePod = errkind.Sentinel(errkind.InvalidPod, "two pods with one identity")

// duplicatePodError names both Pods' documents; it is ErrDuplicatePod.
type duplicatePodError struct{ msg string }

func (e duplicatePodError) Error() string        { return e.msg }
func (e duplicatePodError) Is(target error) bool { return target == ErrDuplicatePod }

// CheckPods returns an error naming both documents when two of pods have one UID, or one
// namespace and name: kubelet keys a pod's directories, volumes and containers by its UID, so two
// such pods would share them, and a pod naming another's UID could reach into it. A Pod with no
// namespace counts as in "default" and one with no UID as having the UID
// defaults.SetRenderIdentity gives it, as podconfig renders them. Read checks what it returns;
// a node agent that takes pods from elsewhere as well checks them all together.
func CheckPods(pods []Pod) error {
	if _, errs := uniquePods(pods); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// uniquePods returns pods without those that repeat an earlier one's UID or namespace and name,
// and an error for each left out.
func uniquePods(pods []Pod) ([]Pod, []error) {
	seen := newPodSet(len(pods))
	kept := pods[:0:0]
	var errs []error
	for _, p := range pods {
		if err := seen.add(p); err != nil {
			errs = append(errs, err)
			continue
		}
		kept = append(kept, p)
	}
	return kept, errs
}

// podSet is the identities of the Pods kept so far: namespace/name and UID, with the document
// of each. Its maps hold indexes into seen, whose key shares its bytes with byName's key.
type podSet struct {
	byName map[string]int32
	byUID  map[types.UID]int32
	seen   []seenPod
}

type seenPod struct {
	source, key string
}

func newPodSet(size int) *podSet {
	return &podSet{byName: make(map[string]int32, size), byUID: make(map[types.UID]int32, size)}
}

// add keeps p, or returns an error naming both documents when it repeats the identity of a Pod
// kept before.
func (s *podSet) add(p Pod) error {
	if p.Pod == nil {
		return fmt.Errorf("%s: no pod", p.Source)
	}
	ns := p.Pod.Namespace
	if ns == "" {
		ns = defaults.DefaultNamespace
	}
	uid := p.Pod.UID
	if uid == "" {
		uid = defaults.RenderUID(ns, p.Pod.Name)
	}
	key := ns + "/" + p.Pod.Name
	if i, ok := s.byName[key]; ok {
		first := s.seen[i]
		return duplicatePodError{fmt.Sprintf("%s and %s: two pods named %s", first.source, p.Source, key)}
	}
	if i, ok := s.byUID[uid]; ok {
		first := s.seen[i]
		return duplicatePodError{fmt.Sprintf("%s and %s: two pods with UID %s (%s and %s)", first.source, p.Source, uid, first.key, key)}
	}
	i := int32(len(s.seen))
	s.seen = append(s.seen, seenPod{p.Source, key})
	s.byName[key] = i
	s.byUID[uid] = i
	return nil
}
