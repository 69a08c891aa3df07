package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/images"
	"github.com/podconfig/podconfig/manifest"
	"github.com/podconfig/podconfig/security"
)

// imageUserRule is one way of giving images' users: an --image-user or a RenderContext's
// imageUsers entry, or a default.
type imageUserRule struct {
	user manifest.ImageUser
	// name is how the warnings name the rule: "--image-user nginx:*".
	name string
	// pattern is an entry's; a default has none.
	pattern   images.Pattern
	isDefault bool
}

// imageUserRules finds the user an image runs as offline: the rule of its reference (by digest,
// else by tag), else of its repository (NAME:*), else the default; at each of these, --image-user
// and --default-image-user win over the RenderContext.
type imageUserRules struct {
	patterns images.PatternMap[*imageUserRule]
	fallback *imageUserRule
}

// imageUsers are the render's image-user rules, built the first time they are needed.
func (r *renderer) imageUsers() *imageUserRules {
	if r.users == nil {
		r.users = newImageUserRules(r.cfg, r.bundle.Context)
	}
	return r.users
}

func newImageUserRules(cfg *renderConfig, rc manifest.RenderContext) *imageUserRules {
	rules := &imageUserRules{}
	for _, key := range slices.Sorted(maps.Keys(rc.ImageUsers)) {
		// manifest refused the keys that are no pattern.
		if p, err := images.ParsePattern(key); err == nil {
			rules.patterns.Set(p, &imageUserRule{user: rc.ImageUsers[key], name: "the RenderContext's imageUsers " + key, pattern: p})
		}
	}
	for _, f := range cfg.imageUsers {
		rules.patterns.Set(f.pattern, &imageUserRule{user: f.user, name: "--image-user " + f.image, pattern: f.pattern})
	}
	switch {
	case cfg.defaultUser.user != nil:
		rules.fallback = &imageUserRule{user: *cfg.defaultUser.user, name: "--default-image-user", isDefault: true}
	case rc.DefaultImageUser != nil:
		rules.fallback = &imageUserRule{user: *rc.DefaultImageUser, name: "the RenderContext's defaultImageUser", isDefault: true}
	}
	return rules
}

// match returns image normalised (as written when it does not parse: kubelet would refuse it) and
// the rule that gives its user, nil when none does.
func (rules *imageUserRules) match(image string) (string, *imageUserRule) {
	ref, err := images.ParseReference(image)
	if err != nil {
		return image, rules.fallback
	}
	if rule, ok := rules.patterns.Match(ref); ok {
		return ref.String(), rule
	}
	return ref.String(), rules.fallback
}

var _ security.ImageUserResolver = (*imageUserRules)(nil)

// ImageUser is the offline node's security.ImageUserResolver: an image no rule names runs as
// uid 0, as kubelet runs an image that names no user.
func (rules *imageUserRules) ImageUser(_ context.Context, image string) (*int64, string, error) {
	_, rule := rules.match(image)
	switch {
	case rule != nil && rule.user.UID != nil:
		uid := *rule.user.UID
		return &uid, "", nil
	case rule != nil && rule.user.Username != "":
		return nil, rule.user.Username, nil
	}
	return new(int64), "", nil
}

// unknownImageUserHint says how to give the user of an image no rule names, for the error of a
// runAsNonRoot container that runs as root for want of it.
func unknownImageUserHint(image string) string {
	ref, err := images.ParseReference(image)
	if err != nil {
		return fmt.Sprintf("the user of image %q is not known offline: give it with --default-image-user UID or a RenderContext's defaultImageUser", image)
	}
	return fmt.Sprintf("the user of image %q (%s) is not known offline: give it with --image-user %s=UID, --image-user %s=UID for every tag and digest, --default-image-user UID, or in a RenderContext's imageUsers",
		image, ref, image, ref.Name()+images.RepositorySuffix)
}

// imageUserUse is a container whose user comes from its image's: the image, normalised, and the
// rule that gave the user (nil: none did, it runs as uid 0).
type imageUserUse struct {
	image string
	rule  *imageUserRule
}

// imageUserUses are the containers of p whose image's user decides whom they run as (no
// runAsUser of their own or of the pod), one per container.
func (r *renderer) imageUserUses(p *podResult) []imageUserUse {
	rules := r.imageUsers()
	// The pod's containers by name, found once: a lookup per item would make a pod's cost
	// quadratic in its containers.
	entries := containersOf(p.Pod)
	byName := make(map[string]*v1.Container, len(entries))
	for i := range entries {
		byName[entries[i].c.Name] = &entries[i].c
	}
	var uses []imageUserUse
	for _, item := range p.Items {
		c := byName[item.Name]
		if c == nil {
			continue
		}
		if c.SecurityContext != nil && c.SecurityContext.RunAsUser != nil {
			continue
		}
		if sc := p.Pod.Spec.SecurityContext; sc != nil && sc.RunAsUser != nil {
			continue
		}
		image, rule := rules.match(c.Image)
		uses = append(uses, imageUserUse{image: image, rule: rule})
	}
	return uses
}

// imageUserSummary gathers, over the render, the containers whose user a rule of many images
// gave (a repository's or the default) and those no rule named, for one warning line each.
type imageUserSummary struct {
	byRule map[*imageUserRule]*imagesCount
	root   imagesCount
}

// imagesCount is how many containers, and which images.
type imagesCount struct {
	containers int
	images     map[string]bool
}

func (c *imagesCount) add(image string) {
	if c.images == nil {
		c.images = map[string]bool{}
	}
	c.containers++
	c.images[image] = true
}

func (c *imagesCount) list() string { return strings.Join(slices.Sorted(maps.Keys(c.images)), ", ") }

// add counts the uses of one pod. A rule of one reference is not summarised: it names the image.
func (s *imageUserSummary) add(uses []imageUserUse) {
	for _, u := range uses {
		switch {
		case u.rule == nil:
			s.root.add(u.image)
		case u.rule.isDefault || u.rule.pattern.Repository:
			if s.byRule == nil {
				s.byRule = map[*imageUserRule]*imagesCount{}
			}
			if s.byRule[u.rule] == nil {
				s.byRule[u.rule] = &imagesCount{}
			}
			s.byRule[u.rule].add(u.image)
		}
	}
}

// warnings are the summary's lines: a repository's rules by name, the default, then the images
// rendered as uid 0.
func (s *imageUserSummary) warnings() []string {
	var out []string
	rules := slices.SortedFunc(maps.Keys(s.byRule), func(a, b *imageUserRule) int {
		if a.isDefault != b.isDefault {
			if a.isDefault {
				return 1
			}
			return -1
		}
		return strings.Compare(a.name, b.name)
	})
	for _, rule := range rules {
		n := s.byRule[rule]
		covers := "every image no --image-user or imageUsers names"
		if !rule.isDefault {
			covers = "every tag and digest of " + rule.pattern.Ref.Name()
		}
		out = append(out, fmt.Sprintf("%d containers rendered as %s, from %s for %s (%s)", n.containers, describeUser(rule.user), rule.name, covers, n.list()))
	}
	if s.root.containers > 0 {
		out = append(out, fmt.Sprintf("%d containers rendered as uid 0: the user of their images is not known offline (%s); kubelet runs them as the image's USER: give it with --image-user IMAGE=UID[:GID] (IMAGE a reference, or NAME:* for every tag and digest), --default-image-user UID[:GID], or a RenderContext's imageUsers and defaultImageUser", s.root.containers, s.root.list()))
	}
	return out
}

// describeUser is "uid N" or "user NAME"; a user of neither is uid 0, as the resolver says.
func describeUser(u manifest.ImageUser) string {
	switch {
	case u.UID != nil:
		return fmt.Sprintf("uid %d", *u.UID)
	case u.Username != "":
		return "user " + u.Username
	}
	return "uid 0"
}
