"""The battlefield: positions, facings, footprints, distances and arcs (pure geometry)."""

from rules_run.space.geometry import (
    MM_PER_INCH,
    Footprint,
    Pose,
    advance,
    arc_of,
    axes,
    corners,
    edge_distance,
    far_apart,
    heading_to,
    point_distance,
)
from rules_run.space.shapes import Sweep

__all__ = ["MM_PER_INCH", "Footprint", "Pose", "advance", "arc_of", "axes", "corners",
           "edge_distance", "far_apart", "heading_to", "point_distance", "Sweep"]
