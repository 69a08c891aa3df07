// Package securitytest held in-memory implementations of the security package's interfaces.
// They were never test doubles: they are the offline node's, and moved to where the product
// that uses them lives. Each name here is an alias of its new home.
//
// Deprecated: use security.ImageUserMap and security.ImageUser for image users, and
// offline.FixedUserNamespaces, offline.AllocatingUserNamespaces, offline.RuntimeClasses and
// offline.ThermalPaths for the rest.
package securitytest
