"""facet from Python: load or build a mesh, render it on the CPU or the GPU into NumPy arrays,
and project vertices the way the seed's NumPy code does, without copies of the big arrays.

    import facet
    model = facet.load("scene.obj")
    camera = facet.Camera.framing(model, aspect=640 / 480)
    frame = facet.Renderer().render(model, camera, size=(640, 480))
    frame.color  # (480, 640, 4) uint8 RGBA, frame.depth (480, 640) float32, frame.stats

Several models at 4x4 poses (world from object, pose[row][column]) make a facet.Scene, which
renders and frames as a model does:

    scene = facet.Scene()
    scene.add(model)
    scene.add(model, pose=numpy.array([[1, 0, 0, 5], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]))
    frame = facet.Renderer().render(scene, facet.Camera.framing(scene, aspect=640 / 480), size=(640, 480))
"""
from ._facet import (  # noqa: F401
    Camera,
    Error,
    Frame,
    FrameStats,
    Instance,
    LoadWarning,
    Model,
    ParseError,
    Renderer,
    Scene,
    __version__,
    gpus,
    load_scene,
    model_extensions,
    project,
    read_image,
    write_png,
)

from ._facet import load as _load_model

# Formats that hold several objects at poses: facet.load gives them as a Scene.
_SCENE_FORMATS = (".gltf", ".glb")


def load(path):
    """Loads a file: a facet.Model for a format of one mesh (.obj, .ply, .stl), a facet.Scene for
    one that holds several objects at poses (.gltf, .glb: its node tree as instances). Loader
    warnings become facet.LoadWarning warnings; a rejected file raises facet.ParseError."""
    import os

    if os.fspath(path).lower().endswith(_SCENE_FORMATS):
        return load_scene(path)
    return _load_model(path)


__all__ = [
    "Camera", "Error", "Frame", "FrameStats", "Instance", "LoadWarning", "Model", "ParseError", "Renderer", "Scene",
    "gpus", "load", "load_scene", "model_extensions", "project", "read_image", "write_png",
]
