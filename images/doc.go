// Package images holds the image decisions kubelet makes before it creates a container: whether
// to pull an image by its pull policy (ShouldPullImage) and the image reference the runtime
// resolved, which the container's CRI config names (GetImageRef).
package images
