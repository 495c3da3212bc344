"""The battlefield: positions, facings, footprints, shapes, distances, arcs and lines (pure
geometry, below every other layer: it imports nothing of the package above it).

- :mod:`~rules_run.space.geometry`: poses and footprints (corners, axes, arcs, moves, grid
  points);
- :mod:`~rules_run.space.convex`: the one shape (:class:`Convex`), the one distance
  (:func:`distance`) and the one tolerance (:data:`TOLERANCE`) every contact is judged by;
- :mod:`~rules_run.space.lines`: straight lines between shapes past obstacles;
- :mod:`~rules_run.space.shapes`: markers and templates laid on the table (:class:`Sweep`).
"""

from rules_run.space.convex import (
    DIGITS,
    TOLERANCE,
    Convex,
    apart,
    closest_points,
    distance,
    edge_distance,
    far_apart,
    hull,
    overlap,
    point_distance,
    segment_distance,
    touching,
)
from rules_run.space.geometry import (
    MM_PER_INCH,
    Footprint,
    Pose,
    advance,
    arc_of,
    axes,
    corners,
    edge_reach,
    grid_points,
    heading_to,
    on_table,
    points_near,
)
from rules_run.space.lines import Band, band, behind, clear_line, segment_clear, until_clear
from rules_run.space.shapes import Sweep

__all__ = ["DIGITS", "MM_PER_INCH", "TOLERANCE", "Band", "Convex", "Footprint", "Pose", "Sweep",
           "advance", "apart", "arc_of", "axes", "band", "behind", "clear_line",
           "closest_points", "corners", "distance", "edge_distance", "edge_reach", "far_apart",
           "grid_points", "heading_to", "hull", "on_table", "overlap", "point_distance",
           "points_near", "segment_clear",
           "segment_distance", "touching", "until_clear"]
