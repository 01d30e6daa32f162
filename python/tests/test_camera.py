"""Cameras as users give them (#26): OpenCV's intrinsics and poses round-trip exactly, a point
projected by hand with K and the pose lands on the pixel facet draws, look_at takes any up, and
the OpenGL matrices are the projection facet draws with; what is not a camera is refused."""
import pickle

import numpy as np
import pytest

import facet
from conftest import DEFAULT_SCENE


def random_pose(rng):
    """A rigid camera-to-world pose in float32: a rotation from a random unit quaternion."""
    w, x, y, z = rng.normal(size=4) / 1.0
    n = np.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    pose = np.eye(4, dtype=np.float32)
    pose[:3, :3] = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    pose[:3, 3] = rng.uniform(-20, 20, size=3)
    return pose


@pytest.mark.parametrize("convention", ["opencv", "opengl"])
def test_intrinsics_and_pose_round_trip_exactly(convention):
    rng = np.random.default_rng(26)
    for _ in range(50):
        fx, fy = rng.uniform(50, 2000, size=2).astype(np.float32)
        cx, cy = rng.uniform(-50, 700, size=2).astype(np.float32)
        pose = random_pose(rng)
        camera = facet.Camera.from_intrinsics(fx, fy, cx, cy, 640, 480, pose=pose, convention=convention)
        K = np.array([[fx, 0, cx], [0, fy, cy], [0, 0, 1]], np.float32)
        assert camera.K.dtype == np.float32 and np.array_equal(camera.K, K)
        assert np.array_equal(camera.intrinsics_for(640, 480), K)
        assert camera.convention == convention and camera.size == (640, 480)
        assert camera.pose.dtype == np.float32 and np.array_equal(camera.pose, pose)
        # The other convention's pose names the same camera.
        camera.convention = "opengl" if convention == "opencv" else "opencv"
        again = facet.Camera.from_intrinsics(fx, fy, cx, cy, 640, 480, pose=camera.pose, convention=camera.convention)
        again.convention = convention
        assert np.array_equal(again.pose, pose)
        copy = pickle.loads(pickle.dumps(again))
        assert np.array_equal(copy.pose, pose) and np.array_equal(copy.K, K) and copy.convention == convention


def cv_to_own(p, convention):
    return p if convention == "opencv" else p * np.array([1, -1, -1])


@pytest.mark.parametrize("convention", ["opencv", "opengl"])
def test_a_point_lands_on_the_pixel_opencv_names(convention):
    """A square a fifth of a pixel across around a point projected by hand with K and the pose:
    off-centre principal point, non-square pixels; exactly that pixel is drawn."""
    w, h = 64, 48
    fx, fy, cx, cy = 50.5, 37.25, 20.25, 30.5
    rng = np.random.default_rng(5)
    renderer = facet.Renderer(stage="cpu", threads=1)
    for (u0, v0) in [(41, 12), (3, 44), (63, 0)]:
        pose = random_pose(rng)
        camera = facet.Camera.from_intrinsics(fx, fy, cx, cy, w, h, pose=pose, convention=convention, near=0.5,
                                              far=50)
        corners = []
        for du, dv in [(-0.1, -0.1), (0.1, -0.1), (0.1, 0.1), (-0.1, 0.1)]:
            z = 5.0
            p = np.array([(u0 + du - cx) * z / fx, (v0 + dv - cy) * z / fy, z])
            corners.append((pose.astype(np.float64) @ np.append(cv_to_own(p, convention), 1.0))[:3])
        model = facet.Model.from_arrays(np.array(corners, np.float32), np.array([[0, 1, 2], [0, 2, 3]], np.uint32))
        frame = renderer.render(model, camera, size=(w, h))
        drawn = np.argwhere(frame.depth < 1.0)
        assert drawn.tolist() == [[v0, u0]], f"{convention}: pixel {(u0, v0)}"
        # The same by the OpenGL matrices: clip position to facet's window, row 0 at the top.
        world = np.append(np.mean(corners, axis=0), 1.0)
        clip = camera.projection(w, h).astype(np.float64) @ camera.view_matrix.astype(np.float64) @ world
        ndc = clip[:3] / clip[3]
        assert np.allclose([(ndc[0] + 1) * w / 2 - 0.5, (1 - ndc[1]) * h / 2 - 0.5], [u0, v0], atol=1e-3)


def test_another_size_of_the_same_shape_scales_k_and_another_shape_is_refused(scene):
    camera = facet.Camera.from_intrinsics(90, 100, 70.5, 40.25, 160, 120, pose=None, near=0.5, far=200)
    assert np.allclose(camera.intrinsics_for(320, 240), [[180, 0, 141.5], [0, 200, 81], [0, 0, 1]])
    renderer = facet.Renderer(stage="cpu", threads=2)
    renderer.render(scene, camera, size=(320, 240))
    with pytest.raises((ValueError, facet.Error), match="intrinsics are for a 160x120 image"):
        renderer.render(scene, camera, size=(100, 100))
    with pytest.raises(ValueError, match="would stretch them"):
        camera.projection(100, 100)


def test_fov_camera_has_k_for_a_size_and_opengl_matrices():
    camera = facet.Camera(eye=(1, 2, 3), yaw=30, pitch=-10, fov=60)
    with pytest.raises(ValueError, match="intrinsics_for"):
        camera.K
    K = camera.intrinsics_for(640, 480)
    focal = 240 / np.tan(np.radians(30))
    assert np.allclose(K, [[focal, 0, 319.5], [0, focal, 239.5], [0, 0, 1]], rtol=1e-5)
    assert np.allclose(camera.pose[:3, 3], (1, 2, 3)) and camera.convention == "opengl"
    assert np.allclose(camera.pose[:3, 2], -np.array(camera.forward), atol=1e-6)  # OpenGL: looking down -Z
    assert np.allclose(np.linalg.inv(camera.pose), camera.view_matrix, atol=1e-5)
    P = camera.projection(640, 480)
    assert np.isclose(P[0, 0], P[1, 1] * 480 / 640) and P[3, 2] == -1 and P[0, 2] == 0 and P[1, 2] == 0


def test_look_at_up_z_and_straight_down():
    camera = facet.Camera.look_at(eye=(10, 0, 0), target=(0, 0, 0), up=(0, 0, 1))
    assert np.allclose(camera.up, (0, 0, 1), atol=1e-6) and np.allclose(camera.forward, (-1, 0, 0), atol=1e-6)
    down = facet.Camera.look_at(eye=(0, 10, 0), target=(0, 0, 0), up=(0, 0, -1))
    assert np.allclose(down.forward, (0, -1, 0), atol=1e-6) and np.allclose(down.up, (0, 0, -1), atol=1e-6)
    assert down.pitch == pytest.approx(-90)
    copy = pickle.loads(pickle.dumps(down))
    assert np.array_equal(copy.rotation, down.rotation)
    down.yaw = 10  # turns it upright, as the fly camera does
    assert down.pitch == pytest.approx(-89) and abs(down.right[1]) < 1e-7


def test_intrinsic_camera_matches_facet_render(facet_render, scene, tmp_path):
    w, h = 120, 80
    pose = facet.Camera.look_at(eye=(8, 5, 14), target=(0, 1, 0), up=(0.2, 1, 0)).pose  # OpenGL axes
    text = ",".join(f"{v:.9g}" for v in pose.ravel())
    png, depth = tmp_path / "cli.png", tmp_path / "cli.depth"
    import subprocess
    subprocess.run([str(facet_render), str(DEFAULT_SCENE), "--stage", "cpu", "--size", f"{w}x{h}", "-o", str(png),
                    "--depth", str(depth), "--intrinsics", "70,82.5,50.25,45.5", "--pose", text,
                    "--convention", "opengl", "--near", "0.5", "--far", "200"], check=True, capture_output=True)
    camera = facet.Camera.from_intrinsics(70, 82.5, 50.25, 45.5, w, h, pose=pose, convention="opengl", near=0.5,
                                          far=200)
    frame = facet.Renderer(stage="cpu").render(scene, camera, size=(w, h))
    assert np.array_equal(frame.color, facet.read_image(png))
    assert frame.depth.tobytes() == np.fromfile(depth, dtype="<f4").tobytes()


@pytest.mark.parametrize("pose, message", [
    (np.diag([1.1, 1, 1, 1]), "not orthonormal"),
    (np.diag([-1.0, 1, 1, 1]), r"mirrors \(determinant -1\)"),
    (np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]]), r"last row is \(0, 0, 1, 1\)"),
    (np.eye(3), r"pose must be a \(4, 4\) array"),
])
def test_what_is_not_a_rigid_pose_is_refused_saying_which(pose, message):
    with pytest.raises(ValueError, match=message):
        facet.Camera.from_intrinsics(500, 500, 320, 240, 640, 480, pose=pose)


def test_bad_intrinsics_and_look_at_are_refused_saying_which():
    with pytest.raises(ValueError, match="fx must be positive, got 0"):
        facet.Camera.from_intrinsics(0, 500, 320, 240, 640, 480)
    with pytest.raises(ValueError, match="fy must be positive, got -1"):
        facet.Camera.from_intrinsics(500, -1, 320, 240, 640, 480)
    with pytest.raises(ValueError, match="convention must be opencv or opengl, got 'vulkan'"):
        facet.Camera.from_intrinsics(500, 500, 320, 240, 640, 480, convention="vulkan")
    with pytest.raises(ValueError, match="must differ from the eye"):
        facet.Camera.look_at(eye=(1, 2, 3), target=(1, 2, 3))
    with pytest.raises(ValueError, match="lens is its intrinsics"):
        facet.Camera.from_intrinsics(500, 500, 320, 240, 640, 480).fov = 50
