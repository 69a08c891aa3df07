package manifest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/utils/dump"
)

// The API server's generateName rules (names.SimpleNameGenerator): the base is cut to 58
// characters and 5 characters from this alphabet are appended.
const (
	maxGeneratedNameLength = 58
	randomLength           = 5
	nameAlphabet           = "bcdfghjklmnpqrstvwxz2456789"
)

// generatedName is the name the API server gives an object with generateName base, with the five
// random characters chosen deterministically from seed.
func generatedName(base, seed string) string {
	if len(base) > maxGeneratedNameLength {
		base = base[:maxGeneratedNameLength]
	}
	sum := sha256.Sum256([]byte("generateName\x00" + base + "\x00" + seed))
	suffix := make([]byte, randomLength)
	for i := range suffix {
		suffix[i] = nameAlphabet[int(sum[i])%len(nameAlphabet)]
	}
	return base + string(suffix)
}

// podsPrefix is a controller's generateName for its Pods (controller.getPodsPrefix): the
// controller's name and a dash.
func podsPrefix(controllerName string) string {
	return controllerName + "-"
}

// objectUID is a stable UID for an object the input names but gives no UID, in UUID form.
func objectUID(kind, namespace, name string) types.UID {
	if namespace == "" {
		namespace = "default"
	}
	sum := sha256.Sum256([]byte("uid\x00" + kind + "\x00" + namespace + "\x00" + name))
	sum[6] = sum[6]&0x0f | 0x50 // version 5 layout: name-based
	sum[8] = sum[8]&0x3f | 0x80
	return types.UID(fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16]))
}

// computeHash is the controllers' hash of a pod template (controller.ComputeHash): FNV-1a over
// the template's deep print, then the collision count, safely encoded. It names a Deployment's
// ReplicaSets (pod-template-hash) and a DaemonSet's revisions (controller-revision-hash).
func computeHash(template *v1.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%v", dump.ForHash(*template))
	if collisionCount != nil {
		b := make([]byte, 8)
		binary.LittleEndian.PutUint32(b, uint32(*collisionCount))
		h.Write(b)
	}
	return rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
}

// statefulSetRevision is the name of a StatefulSet's current ControllerRevision, its Pods'
// controller-revision-hash: the set's name and the FNV-1 hash of the revision's data, a patch
// replacing spec.template (the StatefulSet controller's getPatch and HashControllerRevision).
func statefulSetRevision(set *appsv1.StatefulSet) (string, error) {
	data, err := json.Marshal(set)
	if err != nil {
		return "", err
	}
	var raw map[string]interface{}
	if err := json.Unmarshal(data, &raw); err != nil {
		return "", err
	}
	spec, _ := raw["spec"].(map[string]interface{})
	template, _ := spec["template"].(map[string]interface{})
	if template == nil {
		template = map[string]interface{}{}
	}
	template["$patch"] = "replace"
	patch, err := json.Marshal(map[string]interface{}{"spec": map[string]interface{}{"template": template}})
	if err != nil {
		return "", err
	}
	h := fnv.New32()
	h.Write(patch)
	if cc := set.Status.CollisionCount; cc != nil {
		h.Write([]byte(strconv.FormatInt(int64(*cc), 10)))
	}
	name := set.Name
	if len(name) > 223 {
		name = name[:223]
	}
	return name + "-" + rand.SafeEncodeString(fmt.Sprint(h.Sum32())), nil
}
