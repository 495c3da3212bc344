"""The space/ code as it was before one Convex, one distance and one tolerance: references
that tests/space compares the unified functions against (frozen; never imported by the
package)."""
