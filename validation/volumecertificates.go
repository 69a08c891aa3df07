package validation

// The certificate sources of a projected volume: clusterTrustBundle and podCertificate (both GA and
// on in v1.37), and the signer and ClusterTrustBundle names they use.

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// clusterTrustBundleBadValue is a clusterTrustBundle source as the API server reports it in an
// error: its internal type, which prints as JSON under the Go field names and without omitempty.
type clusterTrustBundleBadValue struct {
	Name          *string
	SignerName    *string
	LabelSelector *metav1.LabelSelector
	Optional      *bool
	Path          string
	User          *int64
}

// validateClusterTrustBundleProjection requires either a ClusterTrustBundle's name or a signer
// name with an optional label selector, and a path inside the volume.
func validateClusterTrustBundleProjection(ctb *v1.ClusterTrustBundleProjection, userKept bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case ctb.Name != nil && ctb.SignerName != nil:
		bad := &clusterTrustBundleBadValue{Name: ctb.Name, SignerName: ctb.SignerName, LabelSelector: ctb.LabelSelector,
			Optional: ctb.Optional, Path: ctb.Path}
		if userKept {
			bad.User = ctb.User
		}
		errs = append(errs, field.Invalid(fldPath, bad, "only one of name and signerName may be used"))
	case ctb.Name != nil:
		errs = append(errs, validateClusterTrustBundleRef(*ctb.Name, fldPath.Child("name"))...)
		if ctb.LabelSelector != nil {
			errs = append(errs, field.Invalid(fldPath.Child("labelSelector"), ctb.LabelSelector, "labelSelector must be unset if name is specified"))
		}
	case ctb.SignerName != nil:
		if *ctb.SignerName == "" {
			errs = append(errs, field.Required(fldPath.Child("signerName"), "must be a valid signer name"))
		}
		errs = append(errs, validateSignerName(*ctb.SignerName, fldPath.Child("signerName"))...)
		errs = append(errs, validateSortedLabelSelector(ctb.LabelSelector, fldPath.Child("labelSelector"))...)
	default:
		errs = append(errs, field.Required(fldPath, "either name or signerName must be specified"))
	}
	if ctb.Path == "" {
		errs = append(errs, field.Required(fldPath.Child("path"), ""))
	}
	if userKept {
		errs = append(errs, validateUserField(ctb.User, fldPath.Child("user"))...)
	}
	return append(errs, validateLocalNonReservedPath(ctb.Path, fldPath.Child("path"))...)
}

// validateClusterTrustBundleRef checks the name of a ClusterTrustBundle: one with a ":" belongs to
// the signer its part before the last ":" names (with ":" for "/") and must start with that.
func validateClusterTrustBundleRef(name string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.Required(fldPath, "must be a valid object name"))
	}
	signer := ""
	if i := strings.LastIndex(name, ":"); i >= 0 {
		signer = strings.ReplaceAll(name[:i], ":", "/")
	}
	for _, msg := range clusterTrustBundleNameErrors(signer, name) {
		errs = append(errs, field.Invalid(fldPath, name, "not a valid clustertrustbundlename: "+msg))
	}
	return errs
}

// clusterTrustBundleNameErrors is the API server's ValidateClusterTrustBundleName for signer: a
// bundle without a signer has no ":" in its name; one with a signer is named with the signer's
// prefix and then a DNS subdomain.
func clusterTrustBundleNameErrors(signer, name string) []string {
	if signer == "" {
		if strings.Contains(name, ":") {
			return []string{`ClusterTrustBundle without signer name must not have ":" in its name`}
		}
		return apimachineryvalidation.NameIsDNSSubdomain(name, false)
	}
	prefix := strings.ReplaceAll(signer, "/", ":") + ":"
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return []string{fmt.Sprintf("ClusterTrustBundle for signerName %s must be named with prefix %s", signer, prefix)}
	}
	return apimachineryvalidation.NameIsDNSSubdomain(rest, false)
}

// The longest signer name: a DNS subdomain, "/", then a DNS label, "." and a DNS subdomain.
const maxSignerNameLength = validation.DNS1123SubdomainMaxLength + 1 + validation.DNS1123LabelMaxLength + 1 + validation.DNS1123SubdomainMaxLength

// validateSignerName is the API server's ValidateSignerName: "example.com/signer-name", a domain
// of at least two DNS labels, "/", and a path of DNS subdomains separated by dots. Only the first
// bad label of each part is reported.
func validateSignerName(signerName string, fldPath *field.Path) field.ErrorList {
	if signerName == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	domain, signerPath, ok := strings.Cut(signerName, "/")
	if !ok || strings.Contains(signerPath, "/") {
		return field.ErrorList{field.Invalid(fldPath, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")}
	}
	var errs field.ErrorList
	if len(domain) > validation.DNS1123SubdomainMaxLength {
		errs = append(errs, field.TooLong(fldPath, "", validation.DNS1123SubdomainMaxLength))
	}
	labels := strings.Split(domain, ".")
	errs = append(errs, firstBadSignerLabel(domain, labels, validation.IsDNS1123Label, fldPath)...)
	if len(labels) < 2 {
		errs = append(errs, field.Invalid(fldPath, domain, "should be a domain with at least two segments separated by dots"))
	}
	errs = append(errs, firstBadSignerLabel(signerPath, strings.Split(signerPath, "."), validation.IsDNS1123Subdomain, fldPath)...)
	if len(signerName) > maxSignerNameLength {
		errs = append(errs, field.TooLong(fldPath, "", maxSignerNameLength))
	}
	return errs
}

// firstBadSignerLabel reports every message of the first label of part that check refuses.
func firstBadSignerLabel(part string, labels []string, check func(string) []string, fldPath *field.Path) field.ErrorList {
	for _, lbl := range labels {
		msgs := check(lbl)
		if len(msgs) == 0 {
			continue
		}
		errs := make(field.ErrorList, 0, len(msgs))
		for _, msg := range msgs {
			errs = append(errs, field.Invalid(fldPath, part, fmt.Sprintf("validating label %q: %s", lbl, msg)))
		}
		return errs
	}
	return nil
}

// isKubernetesSignerName reports whether a signer is one the Kubernetes project reserves (its
// domain is kubernetes.io or below it).
func isKubernetesSignerName(signerName string) bool {
	host, _, _ := strings.Cut(signerName, "/")
	return host == "kubernetes.io" || strings.HasSuffix(host, ".kubernetes.io")
}

// The longest certificate lifetimes a pod may ask for: 91 days, or 24 hours from a Kubernetes
// signer.
const (
	podCertificateMaxExpirationSeconds           = 91 * 24 * 60 * 60
	podCertificateKubernetesMaxExpirationSeconds = 24 * 60 * 60
)

// podCertificateKeyTypes are the key types kubelet can generate for a pod certificate.
var podCertificateKeyTypes = []string{"RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519"}

// validatePodCertificateProjection requires a signer, a known key type, a lifetime bound from an
// hour to the signer's maximum, and at least one of the three file paths, each inside the volume
// and new to it.
func validatePodCertificateProjection(pc *v1.PodCertificateProjection, userKept bool, seen sets.Set[string], projPath, fldPath *field.Path) field.ErrorList {
	errs := validateSignerName(pc.SignerName, fldPath.Child("signerName"))
	if pc.UserAnnotations != nil {
		errs = append(errs, validateUserAnnotations(pc.UserAnnotations, fldPath.Child("userAnnotations"))...)
	}
	if userKept {
		errs = append(errs, validateUserField(pc.User, fldPath.Child("user"))...)
	}
	known := false
	for _, t := range podCertificateKeyTypes {
		known = known || pc.KeyType == t
	}
	if !known {
		errs = append(errs, field.NotSupported(fldPath.Child("keyType"), pc.KeyType, podCertificateKeyTypes))
	}
	if maxExp := pc.MaxExpirationSeconds; maxExp != nil {
		if *maxExp < 3600 {
			errs = append(errs, field.Invalid(fldPath.Child("maxExpirationSeconds"), *maxExp, "if provided, maxExpirationSeconds must be >= 3600"))
		}
		limit := podCertificateMaxExpirationSeconds
		if isKubernetesSignerName(pc.SignerName) {
			limit = podCertificateKubernetesMaxExpirationSeconds
		}
		if *maxExp > int32(limit) {
			errs = append(errs, field.Invalid(fldPath.Child("maxExpirationSeconds"), *maxExp, fmt.Sprintf("if provided, maxExpirationSeconds must be <= %d", limit)))
		}
	}
	paths := 0
	for _, p := range []struct {
		value string
		name  string
	}{{pc.CredentialBundlePath, "credentialBundlePath"}, {pc.KeyPath, "keyPath"}, {pc.CertificateChainPath, "certificateChainPath"}} {
		if p.value == "" {
			continue
		}
		paths++
		errs = append(errs, validateLocalNonReservedPath(p.value, fldPath.Child(p.name))...)
		errs = append(errs, claimProjectedPath(p.value, p.value, seen, projPath)...)
	}
	if paths == 0 {
		errs = append(errs, field.Required(fldPath, "specify at least one of credentialBundlePath, keyPath, and certificateChainPath"))
	}
	return errs
}

// validateUserAnnotations is the API server's ValidateUserAnnotations: keys are domain-prefixed
// label keys once lowercased (checked in key order; the API server's order is a map's), and the
// whole fits the annotations' size limit.
func validateUserAnnotations(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range sets.List(sets.KeySet(annotations)) {
		errs = append(errs, validation.IsDomainPrefixedKey(fldPath, strings.ToLower(k))...)
	}
	if apimachineryvalidation.ValidateAnnotationsSize(annotations) != nil {
		errs = append(errs, field.TooLong(fldPath, "", apimachineryvalidation.TotalAnnotationSizeLimitB))
	}
	return errs
}

// validateSortedLabelSelector is apimachinery's ValidateLabelSelector without invalid label values
// allowed, with matchLabels checked in key order (apimachinery's order is a map's).
func validateSortedLabelSelector(ps *metav1.LabelSelector, fldPath *field.Path) field.ErrorList {
	if ps == nil {
		return nil
	}
	errs := validateSortedLabels(ps.MatchLabels, fldPath.Child("matchLabels"))
	opts := metav1validation.LabelSelectorValidationOptions{}
	for i, req := range ps.MatchExpressions {
		errs = append(errs, metav1validation.ValidateLabelSelectorRequirement(req, opts, fldPath.Child("matchExpressions").Index(i))...)
	}
	return errs
}

// validateSortedLabels is apimachinery's ValidateLabels, in key order.
func validateSortedLabels(labels map[string]string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range sets.List(sets.KeySet(labels)) {
		errs = append(errs, metav1validation.ValidateLabels(map[string]string{k: labels[k]}, fldPath)...)
	}
	return errs
}
