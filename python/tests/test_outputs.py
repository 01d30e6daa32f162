"""The outputs for vision users: render(..., outputs=(...)) gives metric depth, instance ids and
normals, checked against the pinhole model by hand (a plane's depth and normal at each pixel
are its ray's), alike with multisampling, against pyrender where it is installed (optional, as
the benchmark's comparisons are), and as facet-render's --save writes them. Also the Python
door's limits and warnings in facet-render's and the OBJ loader's words."""
import subprocess
import warnings

import numpy as np
import pytest

import facet
from shapes import box, translation

K = dict(fx=300.0, fy=280.0, cx=150.3, cy=100.7, width=320, height=240)
SIZE = (K["width"], K["height"])
ALL = ("color", "depth", "metric_depth", "instance", "normal")


def quad(corners, name="quad"):
    return facet.Model.from_arrays(np.array(corners, dtype=np.float32),
                                   np.array([[0, 1, 2], [0, 2, 3]], dtype=np.uint32), name=name)


def camera(pose=None):
    """The pinhole camera of these tests, OpenCV axes (x right, y down, z forward)."""
    c = facet.Camera.from_intrinsics(**K, pose=np.eye(4) if pose is None else pose, convention="opencv")
    c.near, c.far = 0.1, 100.0
    return c


def two_boxes():
    """A scene of two posed boxes, one partly in front of the other."""
    scene = facet.Scene()
    far = scene.add(box(2, 2, 2, name="far"), translation(0.3, 0.2, 8.0))
    near = scene.add(box(name="near"), translation(-0.4, -0.1, 5.0) @ rotation_y(0.5))
    return scene, far, near


def rotation_y(angle):
    pose = np.eye(4)
    pose[0, 0] = pose[2, 2] = np.cos(angle)
    pose[0, 2], pose[2, 0] = np.sin(angle), -np.sin(angle)
    return pose


def test_outputs_are_there_only_when_asked():
    renderer = facet.Renderer(stage="cpu", threads=2)
    plain = renderer.render(quad([[-1, -1, 5], [1, -1, 5], [1, 1, 5], [-1, 1, 5]]), camera(), size=SIZE)
    assert plain.metric_depth is None and plain.instance is None and plain.normal is None
    frame = renderer.render(quad([[-1, -1, 5], [1, -1, 5], [1, 1, 5], [-1, 1, 5]]), camera(), size=SIZE, outputs=ALL)
    assert frame.metric_depth.dtype == np.float32 and frame.metric_depth.shape == (240, 320)
    assert frame.instance.dtype == np.uint32 and frame.instance.shape == (240, 320)
    assert frame.normal.dtype == np.float32 and frame.normal.shape == (240, 320, 3)
    np.testing.assert_array_equal(frame.color, plain.color)  # the picture is the same


def test_a_tilted_planes_depth_and_normal_are_its_rays():
    n = np.array([0.3, -0.2, -1.0])
    n /= np.linalg.norm(n)
    p0 = np.array([0.0, 0.0, 6.0])
    s = np.cross(n, [0.0, 1.0, 0.0])
    s /= np.linalg.norm(s)
    t = np.cross(n, s)
    corners = [p0 - 40 * s - 40 * t, p0 + 40 * s - 40 * t, p0 + 40 * s + 40 * t, p0 - 40 * s + 40 * t]
    if np.dot(np.cross(corners[1] - corners[0], corners[2] - corners[0]), n) < 0:
        corners = corners[::-1]
    frame = facet.Renderer(stage="cpu", threads=2).render(quad(corners), camera(), size=SIZE, outputs=ALL)
    x, y = np.meshgrid(np.arange(320), np.arange(240))
    rays = np.stack([(x - K["cx"]) / K["fx"], (y - K["cy"]) / K["fy"], np.ones_like(x, dtype=float)], axis=2)
    want = np.dot(n, p0) / (rays @ n)
    assert (frame.instance == 1).all()
    np.testing.assert_allclose(frame.metric_depth, want, rtol=2e-5)
    np.testing.assert_allclose(frame.normal, np.broadcast_to(n, frame.normal.shape), atol=1e-5)


def test_two_posed_boxes_give_their_ids_with_and_without_multisampling():
    scene, far, near = two_boxes()
    renderer = facet.Renderer(stage="cpu", threads=2)
    one = renderer.render(scene, camera(), size=SIZE, outputs=ALL)
    assert set(np.unique(one.instance)) == {0, far, near}
    drawn = one.instance != 0
    assert ((one.metric_depth > 0) == drawn).all() and (one.depth[drawn] < 1).all()
    np.testing.assert_allclose(np.linalg.norm(one.normal[drawn], axis=1), 1.0, atol=1e-6)
    assert (one.normal[~drawn] == 0).all()
    # The near box's front faces are nearer than anything of the far box.
    assert one.metric_depth[one.instance == near].max() < one.metric_depth[one.instance == far].min()
    four = renderer.render(scene, camera(), size=SIZE, msaa=4, outputs=ALL)
    for name in ("metric_depth", "instance", "normal"):
        np.testing.assert_array_equal(getattr(four, name), getattr(one, name), err_msg=name)


def test_bad_output_names_are_refused_naming_the_choices():
    model = quad([[-1, -1, 5], [1, -1, 5], [1, 1, 5], [-1, 1, 5]])
    renderer = facet.Renderer(stage="cpu")
    with pytest.raises(ValueError, match="outputs must be color, depth, metric_depth, instance or normal, got 'mask'"):
        renderer.render(model, camera(), size=SIZE, outputs=("color", "mask"))
    with pytest.raises(TypeError, match="not a string"):
        renderer.render(model, camera(), size=SIZE, outputs="instance")


def test_sizes_are_refused_in_facet_renders_words(facet_render, tmp_path):
    model = quad([[-1, -1, 5], [1, -1, 5], [1, 1, 5], [-1, 1, 5]])
    for size, flag in (((100000, 100000), "100000x100000"), ((640, 0), "640x0")):
        cli = subprocess.run([str(facet_render), "--size", flag, "-o", str(tmp_path / "x.png")], capture_output=True,
                             text=True)
        assert cli.returncode == 2
        words = cli.stderr.strip().removeprefix("facet-render: --")
        with pytest.raises(ValueError) as refused:
            facet.Renderer(stage="cpu").render(model, facet.Camera(), size=size)
        assert str(refused.value) == words


def test_non_finite_positions_drop_their_triangles_with_a_load_warning():
    positions = np.array([[-1, -1, 5], [1, -1, np.nan], [1, 1, 5], [-1, 1, 5], [0, 0, np.inf]], dtype=np.float32)
    triangles = np.array([[0, 1, 2], [0, 2, 3], [3, 4, 0]], dtype=np.uint32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = facet.Model.from_arrays(positions, triangles)
    assert [str(w.message) for w in caught if w.category is facet.LoadWarning] == [
        "positions row 1 (and 1 more) has a non-finite coordinate; the 2 triangles using them are dropped"]
    assert model.triangle_count == 1
    frame = facet.Renderer(stage="cpu").render(model, camera(), size=SIZE, outputs=("instance",))
    assert (frame.instance != 0).any()


def test_facet_render_save_matches_the_module(facet_render, tmp_path):
    files = {name: tmp_path / f"{name}.npy" for name in ("metric_depth", "instance", "normal")}
    args = [str(facet_render), "--size", "160x90", "--stage", "cpu", "--eye", "7,4,9", "--look-at", "0,0.5,0",
            "--near", "0.5", "--far", "40", "-o", str(tmp_path / "c.png")]
    for name, path in files.items():
        args += ["--save", f"{name}={path}"]
    subprocess.run(args, check=True, capture_output=True)
    c = facet.Camera.look_at(eye=(7, 4, 9), target=(0, 0.5, 0))
    c.near, c.far = 0.5, 40.0
    from conftest import DEFAULT_SCENE
    frame = facet.Renderer(stage="cpu").render(facet.load(DEFAULT_SCENE), c, size=(160, 90), outputs=ALL)
    for name, path in files.items():
        np.testing.assert_array_equal(np.load(path), getattr(frame, name), err_msg=name)


def pyrender_frame(scene_meshes, width, height):
    """pyrender's depth and segmentation of meshes (trimesh, pose) seen by the tests' camera."""
    pyrender = pytest.importorskip("pyrender", reason="pyrender is optional (pip install pyrender)")
    import trimesh

    scene = pyrender.Scene()
    nodes = {}
    for key, (vertices, faces, pose) in scene_meshes.items():
        # Both sides drawn, as facet draws them (no culling unless asked).
        material = pyrender.MetallicRoughnessMaterial(doubleSided=True)
        mesh = pyrender.Mesh.from_trimesh(trimesh.Trimesh(vertices, faces, process=False), material=material,
                                          smooth=False)
        nodes[scene.add(mesh, pose=pose)] = key
    # pyrender's camera looks down -z with y up (OpenGL): OpenCV's axes turned about x. Its
    # principal point counts pixel centres at +0.5 (OpenGL's window coordinates), OpenCV's at
    # whole numbers.
    flip = np.diag([1.0, -1.0, -1.0, 1.0])
    scene.add(pyrender.IntrinsicsCamera(K["fx"], K["fy"], K["cx"] + 0.5, K["cy"] + 0.5, znear=0.1, zfar=100.0),
              pose=flip)
    try:
        renderer = pyrender.OffscreenRenderer(width, height)
    except Exception as e:  # no display or GL context for pyglet
        pytest.skip(f"pyrender cannot open an offscreen context here: {e}")
    try:
        segmentation = {node: (i + 1,) * 3 for i, node in enumerate(nodes)}
        flags = pyrender.RenderFlags.SEG | pyrender.RenderFlags.SKIP_CULL_FACES
        colors, depth = renderer.render(scene, flags=flags, seg_node_map=segmentation)
    finally:
        renderer.delete()
    ids = np.zeros((height, width), dtype=np.uint32)
    for i, node in enumerate(nodes):
        ids[colors[..., 0] == i + 1] = nodes[node]
    return depth, ids


def test_metric_depth_and_instance_masks_equal_pyrenders():
    scene, far, near = two_boxes()
    meshes = {}
    for instance in scene.instances:
        model = scene.meshes[instance.mesh]
        meshes[instance.id] = (model.positions, model.triangles, np.asarray(instance.pose))
    depth, ids = pyrender_frame(meshes, *SIZE)
    frame = facet.Renderer(stage="cpu", threads=2).render(scene, camera(), size=SIZE, outputs=ALL)
    agree = (frame.instance == ids).mean()
    assert agree >= 0.999, f"instance masks agree on {agree:.5%} of pixels"
    # Depth where both draw the same surface (an edge pixel may show one box in one renderer and
    # the other behind it in the other).
    same = (frame.instance == ids) & (ids != 0)
    assert same.sum() > 1000
    np.testing.assert_allclose(frame.metric_depth[same], depth[same], rtol=1e-4)
