package validation

// Name resolution: the DNS policy, the pod's dnsConfig and its hostAliases.

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Limits of a pod's dnsConfig, those of the C library's resolver.
const (
	maxDNSNameservers     = 3
	maxDNSSearchPaths     = 32
	maxDNSSearchListChars = 2048
)

// validateDNSPolicy is the API server's validateDNSPolicy: one of the four policies.
func validateDNSPolicy(policy *v1.DNSPolicy, fldPath *field.Path) field.ErrorList {
	switch *policy {
	case v1.DNSClusterFirstWithHostNet, v1.DNSClusterFirst, v1.DNSDefault, v1.DNSNone:
		return nil
	case "":
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return field.ErrorList{field.NotSupported(fldPath, policy,
		[]v1.DNSPolicy{v1.DNSClusterFirstWithHostNet, v1.DNSClusterFirst, v1.DNSDefault, v1.DNSNone})}
}

// validatePodDNSConfig is the API server's validatePodDNSConfig: with dnsPolicy None a
// dnsConfig with a nameserver is required; at most 3 nameservers, each an IP address; at most
// 32 search domains of at most 2048 characters joined by spaces, each a DNS subdomain (which
// may hold '_' and end in '.'); each option named.
func validatePodDNSConfig(dc *v1.PodDNSConfig, policy *v1.DNSPolicy, fldPath *field.Path) field.ErrorList {
	if policy != nil && *policy == v1.DNSNone {
		if dc == nil {
			return field.ErrorList{field.Required(fldPath, fmt.Sprintf("must provide `dnsConfig` when `dnsPolicy` is %s", v1.DNSNone))}
		}
		if len(dc.Nameservers) == 0 {
			return field.ErrorList{field.Required(fldPath.Child("nameservers"), fmt.Sprintf("must provide at least one DNS nameserver when `dnsPolicy` is %s", v1.DNSNone))}
		}
	}
	if dc == nil {
		return nil
	}
	var allErrs field.ErrorList
	nsPath := fldPath.Child("nameservers")
	if len(dc.Nameservers) > maxDNSNameservers {
		allErrs = append(allErrs, field.Invalid(nsPath, dc.Nameservers, fmt.Sprintf("must not have more than %v nameservers", maxDNSNameservers)))
	}
	for i, ns := range dc.Nameservers {
		allErrs = append(allErrs, validateLegacyIP(nsPath.Index(i), ns)...)
	}
	allErrs = append(allErrs, validateDNSSearches(dc.Searches, fldPath.Child("searches"))...)
	for i, o := range dc.Options {
		if o.Name == "" {
			allErrs = append(allErrs, field.Required(fldPath.Child("options").Index(i), "must not be empty"))
		}
	}
	return allErrs
}

// validateDNSSearches checks the count, total length and form of the search domains. A search
// of "." is the root and passes; a trailing dot is dropped before the form is checked.
func validateDNSSearches(searches []string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if len(searches) > maxDNSSearchPaths {
		allErrs = append(allErrs, field.Invalid(fldPath, searches, fmt.Sprintf("must not have more than %v search paths", maxDNSSearchPaths)))
	}
	if len(strings.Join(searches, " ")) > maxDNSSearchListChars {
		allErrs = append(allErrs, field.Invalid(fldPath, searches, fmt.Sprintf("must not have more than %v characters (including spaces) in the search list", maxDNSSearchListChars)))
	}
	for i, search := range searches {
		if search == "." {
			continue
		}
		search = strings.TrimSuffix(search, ".")
		allErrs = append(allErrs, invalidFor(search, validation.IsDNS1123SubdomainWithUnderscore(search), fldPath.Index(i), "format=k8s-dns-subdomain-with-underscore")...)
	}
	return allErrs
}

// validateHostAliases is the API server's ValidateHostAliases: each alias an IP address and
// its hostnames DNS subdomains.
func validateHostAliases(aliases []v1.HostAlias, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i, alias := range aliases {
		allErrs = append(allErrs, validateLegacyIP(fldPath.Index(i).Child("ip"), alias.IP)...)
		for j, hostname := range alias.Hostnames {
			allErrs = append(allErrs, validateDNS1123Subdomain(hostname, fldPath.Index(i).Child("hostnames").Index(j))...)
		}
	}
	return allErrs
}

// validateLegacyIP is the API server's IsValidIPForLegacyField for a new object, with
// StrictIPCIDRValidation on as in v1.37: an IP address without leading zeros or an IPv4-mapped
// IPv6 form.
func validateLegacyIP(fldPath *field.Path, value string) field.ErrorList {
	return validation.IsValidIPForLegacyField(fldPath, value, true, nil)
}
