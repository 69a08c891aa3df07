// Package images holds the image decisions kubelet makes before it creates a container: whether
// to pull an image by its pull policy (ShouldPullImage), the image reference the runtime
// resolved, which the container's CRI config names (GetImageRef), and how a container's image
// names an image once normalised as kubelet and the runtime read it (ParseReference, and
// ParsePattern and PatternMap to find what is known of an image by its reference or repository).
package images
