"""facet.Scene: models at 4x4 poses (world from object, pose[row][column] as NumPy prints it),
rendered and framed as a model is; a model added twice is one mesh; scenes pickle; poses the
renderer could not draw are refused at once; facet.load_scene reads files as scenes."""
import pickle

import numpy as np
import pytest

import facet
from conftest import DEFAULT_SCENE, ROOT
from shapes import box, translation

SIZE = (160, 120)


CAMERA = facet.Camera.look_at(eye=(0, 0, 10), target=(0, 0, 0))


def render(scene, camera=CAMERA):
    return facet.Renderer(stage="cpu", threads=2).render(scene, camera, size=SIZE)


def background():
    return render(facet.Scene()).color[0, 0]


def covered(frame):
    """The pixels something was drawn on."""
    return np.any(frame.color != background(), axis=2)


def centroid(frame):
    rows, columns = np.nonzero(covered(frame))
    assert rows.size > 0, "nothing was drawn"
    return columns.mean(), rows.mean()


def test_two_models_at_poses_render_into_one_picture():
    scene = facet.Scene()
    left = scene.add(box(), translation(x=-2.5), name="left")
    right = scene.add(box(2, 0.5, 0.5, name="bar"), translation(x=2.5))
    assert (left, right) != (0, 0) and left != right
    assert [i.name for i in scene.instances] == ["left", "bar"]
    assert len(scene) == 2 and len(scene.meshes) == 2 and scene.triangle_count == 24
    mask = covered(render(scene))
    w = SIZE[0]
    assert mask[:, : w // 2].any() and mask[:, w // 2 :].any()
    assert not mask[:, w // 2 - 2 : w // 2 + 2].any()  # the gap between them


def test_a_pose_moves_the_pixels():
    scene = facet.Scene()
    model = box()
    one = scene.add(model)
    x0, y0 = centroid(render(scene))
    scene.set_pose(one, translation(x=1.5))
    x1, y1 = centroid(render(scene))
    assert x1 > x0 + 10 and abs(y1 - y0) < 1  # right in world is right in the picture
    scene.set_pose(one, translation(y=1.5))
    x2, y2 = centroid(render(scene))
    assert y2 < y0 - 10 and abs(x2 - x0) < 1  # up in world is up: rows are top row first


def test_pose_is_row_major_with_the_translation_in_the_last_column():
    scene = facet.Scene()
    # A quarter turn about +z (x goes to y), then a move by (5, 6, 7).
    pose = [[0, -1, 0, 5], [1, 0, 0, 6], [0, 0, 1, 7], [0, 0, 0, 1]]
    i = scene.add(box(4, 2, 1), pose)
    (lo, hi) = scene.bounds
    assert np.allclose(lo, (5 - 1, 6 - 2, 7 - 0.5)) and np.allclose(hi, (5 + 1, 6 + 2, 7 + 0.5))
    got = scene.instance(i).pose
    assert got.shape == (4, 4) and got.dtype == np.float32 and np.array_equal(got, np.array(pose, dtype=np.float32))


def test_a_lone_identity_instance_draws_as_its_model(scene):
    world = facet.Scene()
    world.add(scene)
    camera = facet.Camera.framing(scene, SIZE[0] / SIZE[1])
    assert repr(facet.Camera.framing(world, SIZE[0] / SIZE[1])) == repr(camera)
    a = facet.Renderer(stage="cpu").render(scene, camera, size=SIZE)
    b = facet.Renderer(stage="cpu").render(world, camera, size=SIZE)
    assert a.color.tobytes() == b.color.tobytes() and a.depth.tobytes() == b.depth.tobytes()


def test_the_same_model_added_twice_is_one_mesh():
    scene = facet.Scene()
    model = box()
    a = scene.add(model, translation(x=-2))
    b = scene.add(model, translation(x=2))
    assert a != b and len(scene) == 2
    assert len(scene.meshes) == 1 and scene.meshes[0] is model
    assert [i.mesh for i in scene.instances] == [0, 0]
    assert scene.triangle_count == 2 * model.triangle_count
    scene.add(box())  # an equal model, but another object: a mesh of its own
    assert len(scene.meshes) == 2


def test_a_scene_keeps_its_models_alive():
    scene = facet.Scene()
    scene.add(box(name="kept"))  # no other reference to the model
    import gc

    gc.collect()
    assert scene.meshes[0].source == "kept" and covered(render(scene)).any()


def test_remove_hide_and_the_empty_scene():
    scene = facet.Scene()
    a = scene.add(box(), translation(x=-2))
    b = scene.add(box(), translation(x=2))
    scene.set_visible(a, False)
    assert scene.triangle_count == 12 and not scene.instance(a).visible
    scene.set_visible(b, False)
    frame = render(scene)
    assert not covered(frame).any() and "hidden" in frame.stats.scene_note
    scene.remove(a)
    assert [i.id for i in scene.instances] == [b] and len(scene.meshes) == 2  # its mesh stays
    with pytest.raises(KeyError, match=f"no instance with id {a}"):
        scene.remove(a)
    with pytest.raises(KeyError):
        scene.set_pose(a, None)
    scene.remove(b)
    assert scene.add(box()) not in (a, b)  # ids are never reused


def test_an_empty_scene_renders_the_background():
    frame = render(facet.Scene())
    assert np.all(frame.color == frame.color[0, 0]) and np.all(frame.depth == frame.depth[0, 0])
    assert "empty" in frame.stats.scene_note
    assert facet.Scene().bounds == (None, None) and len(facet.Scene()) == 0
    framing = facet.Camera.framing(facet.Scene(), 4 / 3)  # nothing to frame: still a camera
    assert isinstance(framing, facet.Camera)


def test_a_scene_pickles_and_renders_the_same():
    scene = facet.Scene()
    model = box()
    a = scene.add(model, translation(x=-2), name="a")
    scene.add(model, [[0, -1, 0, 2], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    scene.add(box(3, 1, 1), translation(y=2))
    scene.set_visible(a, False)
    copy = pickle.loads(pickle.dumps(scene))
    assert len(copy.meshes) == 2 and [i.mesh for i in copy.instances] == [0, 0, 1]
    assert [(i.id, i.name, i.visible) for i in copy.instances] == [(i.id, i.name, i.visible) for i in scene.instances]
    assert all(np.array_equal(x.pose, y.pose) for x, y in zip(copy.instances, scene.instances))
    assert render(copy).color.tobytes() == render(scene).color.tobytes()
    assert copy.add(model) == scene.add(model)  # ids number on alike


@pytest.mark.parametrize("pose, problem", [
    (np.eye(3), r"\(4, 4\)"),
    (np.eye(4)[None], r"\(4, 4\)"),
    ("not a pose", r"\(4, 4\)"),
    ([[1, 0, 0, float("nan")], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], r"finite.*\[0\]\[3\]"),
    (np.where(np.eye(4) > 0, np.inf, 0.0), "finite"),
    (np.eye(4) * 1e300, "finite"),  # beyond float32
    ([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]], "last row must be 0, 0, 0, 1"),
    (np.diag([1.0, 0.0, 1.0, 1.0]), "singular"),
])
def test_bad_poses_are_refused(pose, problem):
    scene = facet.Scene()
    with pytest.raises(ValueError, match=problem):
        scene.add(box(), pose)
    i = scene.add(box())
    with pytest.raises(ValueError, match=problem):
        scene.set_pose(i, pose)
    assert np.array_equal(scene.instance(i).pose, np.eye(4))  # unchanged


def test_poses_of_any_numeric_dtype_are_taken():
    scene = facet.Scene()
    for pose in (np.eye(4, dtype=np.int32), np.eye(4, dtype=np.float32), np.asfortranarray(translation(1, 2, 3))):
        i = scene.add(box(), pose)
        assert np.array_equal(scene.instance(i).pose, np.asarray(pose, dtype=np.float32))


def test_render_refuses_what_is_neither_model_nor_scene():
    with pytest.raises(TypeError, match="facet.Model or a facet.Scene"):
        facet.Renderer(stage="cpu").render("scene.obj", CAMERA, size=(8, 8))


def test_load_scene_gives_a_scene(tmp_path):
    scene = facet.load_scene(DEFAULT_SCENE)
    assert isinstance(scene, facet.Scene) and len(scene) == 1 and len(scene.meshes) == 1
    (only,) = scene.instances
    assert only.name == "scene.obj" and only.mesh == 0 and np.array_equal(only.pose, np.eye(4))
    assert scene.triangle_count == facet.load(DEFAULT_SCENE).triangle_count
    cube = ROOT / "tests" / "data" / "cube.obj"
    two = facet.load_scene([cube, str(cube)])
    assert [i.name for i in two.instances] == ["cube.obj", "cube.obj"] and len(two.meshes) == 2
    assert isinstance(facet.load(cube), facet.Model)  # facet.load still gives a model
    with pytest.raises(facet.Error, match="missing.obj: file not found"):
        facet.load_scene([cube, tmp_path / "missing.obj"])


def test_load_scene_warns_as_load_does(tmp_path):
    obj = tmp_path / "no_mtl.obj"
    obj.write_text("mtllib missing.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    with pytest.warns(facet.LoadWarning):
        scene = facet.load_scene(obj)
    assert scene.warnings and len(scene) == 1


def test_load_gives_a_scene_for_gltf_and_a_model_for_obj(tmp_path):
    # A one-triangle glTF with its buffer in a data: URI, written here.
    import base64
    import json
    import struct

    data = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [{"mesh": 0, "name": "left"}, {"mesh": 0, "name": "right", "translation": [2, 0, 0]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
    }
    path = tmp_path / "two.gltf"
    path.write_text(json.dumps(doc))
    scene = facet.load(str(path))
    assert isinstance(scene, facet.Scene)
    assert [i.name for i in scene.instances] == ["left", "right"]
    assert len(scene.meshes) == 1 and scene.triangle_count == 2
    obj = tmp_path / "t.obj"
    obj.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    assert isinstance(facet.load(obj), facet.Model)


def test_file_cameras_as_cameras(tmp_path):
    """A glTF file's perspective cameras: scene.cameras as facet.Camera at their nodes' poses,
    named by camera_names; they survive pickling, and one draws the scene."""
    import base64
    import json
    import struct

    square = struct.pack("<12f", -1, -1, 0, 1, -1, 0, -1, 1, 0, 1, 1, 0)
    doc = {
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": len(square), "uri": "data:application/octet-stream;base64," +
                     base64.b64encode(square).decode()}],
        "bufferViews": [{"buffer": 0, "byteLength": len(square)}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                       "min": [-1, -1, 0], "max": [1, 1, 0]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "mode": 5}]}],
        "cameras": [{"type": "perspective", "name": "front", "perspective": {"yfov": 0.8, "znear": 0.05}},
                    {"type": "perspective", "perspective": {"yfov": 0.5, "znear": 0.1, "zfar": 50}}],
        "nodes": [{"mesh": 0}, {"camera": 0, "translation": [0, 0, 4]}, {"camera": 1, "translation": [0, 0, -4],
                                                                          "rotation": [0, 1, 0, 0]}],
        "scenes": [{"nodes": [0, 1, 2]}],
    }
    path = tmp_path / "cameras.gltf"
    path.write_text(json.dumps(doc))
    scene = facet.load_scene(path)
    assert scene.camera_names == ["front", "camera 1"]
    front, back = scene.cameras
    assert np.allclose(front.eye, (0, 0, 4)) and np.allclose(front.forward, (0, 0, -1), atol=1e-6)
    assert np.allclose(back.eye, (0, 0, -4)) and np.allclose(back.forward, (0, 0, 1), atol=1e-6)
    assert front.fov == pytest.approx(np.degrees(0.8)) and front.near == pytest.approx(0.05)
    assert back.far == pytest.approx(50)
    again = pickle.loads(pickle.dumps(scene))
    assert again.camera_names == scene.camera_names
    assert np.allclose(again.cameras[1].pose, back.pose)
    frame = facet.Renderer(stage="cpu").render(scene, front, size=(32, 32), background=(0, 0, 0, 0))
    assert (frame.color[..., 3] == 255).mean() > 0.2  # the square fills the middle of the view
