"""Shared fixtures: where the checkout, the build and the OBJ corpus are. scripts/test.sh runs
these with PYTHONPATH=build/python and the interpreter the module was built for; FACET_BUILD_DIR
names another build tree and FACET_MODELS_DIR another corpus, as for the C++ tests."""
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("FACET_BUILD_DIR", ROOT / "build"))
DEFAULT_SCENE = ROOT / "assets" / "default_scene" / "scene.obj"
MODELS = pathlib.Path(os.environ.get("FACET_MODELS_DIR", ROOT.parent / "shared" / "models"))


def skip_unless_required(variable, why, **skip):
    """Skips saying why, or fails where the environment requires what is missing (variable=1, as
    scripts/test.sh sets under CI=true): as the C++ tests' FACET_SKIP_UNLESS_REQUIRED."""
    if os.environ.get(variable) == "1":
        pytest.fail(f"{why} (and {variable}=1 requires it)", pytrace=False)
    pytest.skip(why, **skip)


@pytest.fixture(scope="session")
def facet_render():
    path = BUILD / "apps" / "facet-render"
    if not path.exists():
        pytest.skip(f"facet-render is not built at {path} (cmake --build {BUILD} --target facet-render)")
    return path


@pytest.fixture(scope="session")
def scene():
    import facet

    return facet.load(DEFAULT_SCENE)


@pytest.fixture(scope="session")
def models_dir():
    if not MODELS.is_dir():
        skip_unless_required("FACET_REQUIRE_CORPUS", f"the shared OBJ corpus is not at {MODELS} (FACET_MODELS_DIR names it)")
    return MODELS
