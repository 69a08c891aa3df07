// Package pin_test keeps the module's planned dependencies in go.mod while the packages that use
// them are being written. Remove once every one has a real importer.
package pin_test

import (
	_ "github.com/cyphar/filepath-securejoin"
	_ "github.com/stretchr/testify/require"
	_ "golang.org/x/sys/unix"
	_ "google.golang.org/grpc"
	_ "google.golang.org/grpc/test/bufconn"
	_ "k8s.io/api/core/v1"
	_ "k8s.io/apimachinery/pkg/api/resource"
	_ "k8s.io/apimachinery/pkg/util/validation"
	_ "k8s.io/cri-api/pkg/apis/runtime/v1"
	_ "k8s.io/mount-utils"
	_ "k8s.io/utils/ptr"
	_ "sigs.k8s.io/yaml"
)
