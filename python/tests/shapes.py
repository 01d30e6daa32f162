"""Small meshes and poses the tests build scenes from."""
import numpy as np

import facet


def box(sx=1.0, sy=1.0, sz=1.0, name="box"):
    """An axis-aligned box centred on the origin, sx by sy by sz."""
    corners = np.array([[x, y, z] for z in (-1, 1) for y in (-1, 1) for x in (-1, 1)], dtype=np.float32)
    corners *= np.array([sx / 2, sy / 2, sz / 2], dtype=np.float32)
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    triangles = np.array([t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))], dtype=np.uint32)
    return facet.Model.from_arrays(corners, triangles, name=name)


def translation(x=0.0, y=0.0, z=0.0):
    """The pose that moves by (x, y, z)."""
    pose = np.eye(4)
    pose[:3, 3] = (x, y, z)
    return pose
