"""The package's version: one number, CMakeLists.txt's project(facet VERSION ...), which the
module reports as facet.__version__ and pip's metadata reads through pyproject.toml's regex."""
import re
import sys

import pytest

import facet
from conftest import ROOT


def cmake_version():
    match = re.search(r"project\(facet VERSION ([0-9]+\.[0-9]+\.[0-9]+)", (ROOT / "CMakeLists.txt").read_text())
    assert match, "CMakeLists.txt sets no project(facet VERSION x.y.z)"
    return match.group(1)


def test_module_version_is_the_projects():
    assert facet.__version__ == cmake_version()


def test_pyproject_reads_the_version_from_cmakelists():
    if sys.version_info < (3, 11):
        pytest.skip("tomllib (Python 3.11) reads pyproject.toml")
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"], "pyproject.toml sets a version of its own"
    assert "version" in project["project"]["dynamic"]
    rule = project["tool"]["scikit-build"]["metadata"]["version"]
    assert rule["provider"] == "scikit_build_core.metadata.regex"
    assert rule["input"] == "CMakeLists.txt"
    match = re.search(rule["regex"], (ROOT / rule["input"]).read_text())
    assert match and match.group("value") == cmake_version()
