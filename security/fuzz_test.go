package security_test

import (
	"path/filepath"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/security"
)

// FuzzSeccompLocalhostProfile checks that no localhost profile name yields a path outside the root.
func FuzzSeccompLocalhostProfile(f *testing.F) {
	for _, seed := range []string{"a.json", "../x", "/etc/passwd", "a/../../b", "..", ".", "a/./b/", "../seccomp/x", "x/../../seccomp/y"} {
		f.Add(seed)
	}
	const root = "/var/lib/kubelet/seccomp"
	f.Fuzz(func(t *testing.T, name string) {
		pod := testPod(nil, &v1.SecurityContext{SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr.To(name)}})
		got, err := security.SeccompProfile(pod, &pod.Spec.Containers[0], root, false)
		if err != nil {
			return
		}
		ref := got.GetLocalhostRef()
		if ref != filepath.Clean(ref) || (ref != root && !strings.HasPrefix(ref, root+"/")) {
			t.Fatalf("profile %q gave %q outside %q", name, ref, root)
		}
	})
}

// FuzzVerifyRunAsNonRoot checks that no runAsUser, image uid or image user name lets a container
// that asks for runAsNonRoot run with a uid that is root, or becomes root once narrowed to 32 bits.
func FuzzVerifyRunAsNonRoot(f *testing.F) {
	f.Add(int64(0), false, int64(0), true, "")
	f.Add(int64(1<<32), true, int64(1000), true, "")
	f.Add(int64(0), false, int64(-1), true, "")
	f.Add(int64(0), false, int64(0), false, "")
	f.Add(int64(0), false, int64(0), false, "0")
	f.Fuzz(func(t *testing.T, runAsUser int64, setRunAsUser bool, imageUID int64, setImageUID bool, username string) {
		sc := &v1.SecurityContext{RunAsNonRoot: ptr.To(true)}
		if setRunAsUser {
			sc.RunAsUser = ptr.To(runAsUser)
		}
		var uid *int64
		if setImageUID {
			uid = ptr.To(imageUID)
		}
		pod := testPod(nil, sc)
		if security.VerifyRunAsNonRoot(pod, &pod.Spec.Containers[0], uid, username) != nil {
			return
		}
		effective := imageUID
		if setRunAsUser {
			effective = runAsUser
		} else if !setImageUID {
			t.Fatalf("passed with no runAsUser and no image uid (user %q)", username)
		}
		if effective <= 0 || effective > 1<<31-1 {
			t.Fatalf("passed with effective uid %d", effective)
		}
	})
}
