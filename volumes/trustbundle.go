package volumes

import (
	"bytes"
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"slices"

	certificatesv1 "k8s.io/api/certificates/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// maxLabelSelectorLength bounds a clusterTrustBundle projection's selector, as kubelet does.
const maxLabelSelectorLength = 100 * 1024

// trustAnchors is a clusterTrustBundle projection's content (kubelet: the ClusterTrustBundle
// manager's GetTrustAnchorsByName and GetTrustAnchorsBySigner): by name, one bundle; by signer,
// every bundle of that signer the label selector matches (a nil selector matches none, an empty
// one all). Optional makes a missing bundle, or no match, an empty file. Each call reads the
// lister: nothing is cached here. Kubelet keeps each result 5 minutes and drops it on the
// informer's events, except a bundle that has a signer and is read by name, whose old (or
// deleted) certificates it goes on serving until the 5 minutes pass.
func (s Sources) trustAnchors(ctx context.Context, ctb *v1.ClusterTrustBundleProjection) ([]byte, error) {
	allowMissing := ctb.Optional != nil && *ctb.Optional
	if ctb.Name == nil && ctb.SignerName == nil {
		return nil, errors.New("ClusterTrustBundle projection requires either name or signerName to be set")
	}
	if s.TrustBundles == nil {
		return nil, fmt.Errorf("%w: no ClusterTrustBundleLister for a clusterTrustBundle projection", ErrMissingDependency)
	}
	if ctb.Name != nil {
		b, err := s.TrustBundles.GetClusterTrustBundle(ctx, *ctb.Name)
		if err != nil {
			if allowMissing && isNotFound(err) {
				return []byte{}, nil
			}
			return nil, fmt.Errorf("while getting ClusterTrustBundle: %w", err)
		}
		return normalizeTrustAnchors([]*certificatesv1.ClusterTrustBundle{b}), nil
	}
	selector, err := metav1.LabelSelectorAsSelector(ctb.LabelSelector)
	if err != nil {
		return nil, fmt.Errorf("while parsing label selector: %w", err)
	}
	if n := len(selector.String()); n > maxLabelSelectorLength {
		return nil, fmt.Errorf("label selector length (%d) is larger than %d", n, maxLabelSelectorLength)
	}
	all, err := s.TrustBundles.ListClusterTrustBundles(ctx, selector)
	if err != nil {
		return nil, fmt.Errorf("while listing ClusterTrustBundles matching label selector %v: %w", ctb.LabelSelector, err)
	}
	var matched []*certificatesv1.ClusterTrustBundle
	for _, b := range all {
		// The lister may answer more than asked; the selector is applied here as well.
		if b.Spec.SignerName == *ctb.SignerName && selector.Matches(labels.Set(b.Labels)) {
			matched = append(matched, b)
		}
	}
	if len(matched) == 0 {
		if allowMissing {
			return []byte{}, nil
		}
		return nil, errors.New("combination of signerName and labelSelector matched zero ClusterTrustBundles")
	}
	return normalizeTrustAnchors(matched), nil
}

// normalizeTrustAnchors decodes every PEM block of the bundles, drops duplicates and re-encodes
// each as a CERTIFICATE block (kubelet: normalizeTrustAnchors). Kubelet shuffles the
// certificates at random, once per kubelet process; they come out here sorted by their DER bytes,
// so the file is the same on every node and every run.
func normalizeTrustAnchors(bundles []*certificatesv1.ClusterTrustBundle) []byte {
	var ders [][]byte
	for _, b := range bundles {
		rest := []byte(b.Spec.TrustBundle)
		for {
			var block *pem.Block
			block, rest = pem.Decode(rest)
			if block == nil {
				break
			}
			ders = append(ders, block.Bytes)
		}
	}
	slices.SortFunc(ders, bytes.Compare)
	ders = slices.CompactFunc(ders, bytes.Equal)
	out := []byte{}
	for _, d := range ders {
		out = append(out, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: d})...)
	}
	return out
}
