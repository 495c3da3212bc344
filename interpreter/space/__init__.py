"""The battlefield: positions, facings, footprints, distances and arcs (pure geometry)."""

from interpreter.space.geometry import (
    MM_PER_INCH,
    Footprint,
    Pose,
    advance,
    arc_of,
    at_least,
    axes,
    corners,
    edge_distance,
    heading_to,
)

__all__ = ["MM_PER_INCH", "Footprint", "Pose", "advance", "arc_of", "at_least", "axes",
           "corners", "edge_distance", "heading_to"]
