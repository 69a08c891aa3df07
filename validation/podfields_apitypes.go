package validation

// The API server validates its internal types (k8s.io/kubernetes/pkg/apis/core), which have the
// v1 types' fields but no json tags, and prints a struct given as a bad value with
// encoding/json: {"Name":"a","ResourceClaimName":null}, every field present, under its Go name.
// The types below have those fields and no tags, so an error here prints the same text; the v1
// types would print {"name":"a"}. Field types that are strings, numbers or lists of them print
// alike under either and stay v1's.

import (
	"encoding/json"
	"errors"
	"reflect"

	v1 "k8s.io/api/core/v1"
)

// apiPodResourceClaim is the internal PodResourceClaim.
type apiPodResourceClaim struct {
	Name                      string
	ResourceClaimName         *string
	ResourceClaimTemplateName *string
}

// apiLocalObjectReference is the internal LocalObjectReference.
type apiLocalObjectReference struct {
	Name string
}

// apiSecurityContext is the internal (container) SecurityContext.
type apiSecurityContext struct {
	Capabilities             *apiCapabilities
	Privileged               *bool
	SELinuxOptions           *apiSELinuxOptions
	WindowsOptions           *apiWindowsSecurityContextOptions
	RunAsUser                *int64
	RunAsGroup               *int64
	RunAsNonRoot             *bool
	ReadOnlyRootFilesystem   *bool
	AllowPrivilegeEscalation *bool
	ProcMount                *v1.ProcMountType
	SeccompProfile           *apiSeccompProfile
	AppArmorProfile          *apiAppArmorProfile
}

// apiCapabilities is the internal Capabilities.
type apiCapabilities struct {
	Add  []v1.Capability
	Drop []v1.Capability
}

// apiSELinuxOptions is the internal SELinuxOptions.
type apiSELinuxOptions struct {
	User  string
	Role  string
	Type  string
	Level string
}

// apiWindowsSecurityContextOptions is the internal WindowsSecurityContextOptions.
type apiWindowsSecurityContextOptions struct {
	GMSACredentialSpecName *string
	GMSACredentialSpec     *string
	RunAsUserName          *string
	HostProcess            *bool
}

// apiSeccompProfile is the internal SeccompProfile.
type apiSeccompProfile struct {
	Type             v1.SeccompProfileType
	LocalhostProfile *string
}

// apiAppArmorProfile is the internal AppArmorProfile.
type apiAppArmorProfile struct {
	Type             v1.AppArmorProfileType
	LocalhostProfile *string
}

// apiToleration is the internal Toleration, the type the API server decodes the tolerations
// annotation into: its untagged fields decide which JSON keys match and how a decoding error
// names the field ("Toleration.TolerationSeconds").
type apiToleration struct {
	Key               string
	Operator          v1.TolerationOperator
	Value             string
	Effect            v1.TaintEffect
	TolerationSeconds *int64
}

func apiPodResourceClaimOf(c v1.PodResourceClaim) apiPodResourceClaim {
	return apiPodResourceClaim{Name: c.Name, ResourceClaimName: c.ResourceClaimName, ResourceClaimTemplateName: c.ResourceClaimTemplateName}
}

func apiSecurityContextOf(sc *v1.SecurityContext) *apiSecurityContext {
	if sc == nil {
		return nil
	}
	out := &apiSecurityContext{
		Privileged:               sc.Privileged,
		RunAsUser:                sc.RunAsUser,
		RunAsGroup:               sc.RunAsGroup,
		RunAsNonRoot:             sc.RunAsNonRoot,
		ReadOnlyRootFilesystem:   sc.ReadOnlyRootFilesystem,
		AllowPrivilegeEscalation: sc.AllowPrivilegeEscalation,
		ProcMount:                sc.ProcMount,
		SeccompProfile:           apiSeccompProfileOf(sc.SeccompProfile),
	}
	if c := sc.Capabilities; c != nil {
		out.Capabilities = &apiCapabilities{Add: c.Add, Drop: c.Drop}
	}
	if o := sc.SELinuxOptions; o != nil {
		out.SELinuxOptions = &apiSELinuxOptions{User: o.User, Role: o.Role, Type: o.Type, Level: o.Level}
	}
	if w := sc.WindowsOptions; w != nil {
		out.WindowsOptions = &apiWindowsSecurityContextOptions{
			GMSACredentialSpecName: w.GMSACredentialSpecName,
			GMSACredentialSpec:     w.GMSACredentialSpec,
			RunAsUserName:          w.RunAsUserName,
			HostProcess:            w.HostProcess,
		}
	}
	if a := sc.AppArmorProfile; a != nil {
		out.AppArmorProfile = &apiAppArmorProfile{Type: a.Type, LocalhostProfile: a.LocalhostProfile}
	}
	return out
}

func apiSeccompProfileOf(sp *v1.SeccompProfile) *apiSeccompProfile {
	if sp == nil {
		return nil
	}
	return &apiSeccompProfile{Type: sp.Type, LocalhostProfile: sp.LocalhostProfile}
}

func (t apiToleration) v1() v1.Toleration {
	return v1.Toleration{Key: t.Key, Operator: t.Operator, Value: t.Value, Effect: t.Effect, TolerationSeconds: t.TolerationSeconds}
}

// apiTypeNames are the API server's names of the types its tolerations annotation decodes into,
// as encoding/json prints them in a type error.
var apiTypeNames = map[reflect.Type]string{
	reflect.TypeFor[[]apiToleration]():       "[]core.Toleration",
	reflect.TypeFor[apiToleration]():         "core.Toleration",
	reflect.TypeFor[v1.TolerationOperator](): "core.TolerationOperator",
	reflect.TypeFor[v1.TaintEffect]():        "core.TaintEffect",
}

// apiJSONErrorText is the text of a decoding error of the tolerations annotation as the API
// server, decoding into its internal types, prints it: a type error names core.Toleration where
// ours names the local mirror. Other errors (syntax, end of input) name no type.
func apiJSONErrorText(err error) string {
	var typeErr *json.UnmarshalTypeError
	if !errors.As(err, &typeErr) {
		return err.Error()
	}
	typeName, ok := apiTypeNames[typeErr.Type]
	if !ok {
		typeName = typeErr.Type.String()
	}
	if typeErr.Struct != "" || typeErr.Field != "" {
		structName := typeErr.Struct
		if structName == reflect.TypeFor[apiToleration]().Name() {
			structName = "Toleration"
		}
		return "json: cannot unmarshal " + typeErr.Value + " into Go struct field " + structName + "." + typeErr.Field + " of type " + typeName
	}
	return "json: cannot unmarshal " + typeErr.Value + " into Go value of type " + typeName
}
