"""The source distribution: it builds, installs srcgrad (package, C source, LICENSE) and
ships no tests (the suite needs the repository's examples, benchmarks and golden files;
MANIFEST.in prunes it)."""

import importlib.util
import pathlib
import subprocess
import sys
import tarfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _built_sdist(out):
    if importlib.util.find_spec("build") is None:
        pytest.skip("the 'build' package is not installed (pip install -e '.[test]')")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--no-isolation", "-o", str(out), str(ROOT)],
        cwd=out, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (archive,) = out.glob("srcgrad-*.tar.gz")
    with tarfile.open(archive) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
        metadata = tar.extractfile(f"{archive.name[:-len('.tar.gz')]}/PKG-INFO").read()
    return names, metadata.decode()


@pytest.fixture(scope="module")
def sdist(tmp_path_factory):
    return _built_sdist(tmp_path_factory.mktemp("sdist"))


def test_the_sdist_holds_the_package_and_its_license(sdist):
    sdist_files, metadata = sdist
    package = {path.relative_to(ROOT).as_posix() for path in (ROOT / "srcgrad").rglob("*")
               if path.suffix in (".py", ".c", ".pyi", ".typed")}
    assert package - sdist_files == set()
    assert {"LICENSE", "README.md", "pyproject.toml", "setup.py"} <= sdist_files
    assert "License-Expression: Apache-2.0" in metadata.splitlines()
    assert "License-File: LICENSE" in metadata.splitlines()


def test_the_sdist_ships_no_tests_and_no_build_products(sdist):
    sdist_files, _ = sdist
    assert not [name for name in sdist_files if name.startswith("tests")]
    assert not [name for name in sdist_files if name.endswith((".so", ".pyc"))]


def test_the_metadata_is_spdx_apache_with_its_license_file():
    lines = (ROOT / "pyproject.toml").read_text().splitlines()
    assert 'license = "Apache-2.0"' in lines
    assert 'license-files = ["LICENSE"]' in lines
    license_text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in license_text and "Version 2.0, January 2004" in license_text
    assert "END OF TERMS AND CONDITIONS" in license_text
    # SPDX license expressions need setuptools 77 (PEP 639).
    assert 'requires = ["setuptools>=77"]' in lines


def _project():
    tomllib = pytest.importorskip("tomllib")   # Python 3.11+

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_classifiers_are_known_and_agree_with_the_metadata():
    classifiers = _project()["classifiers"]
    assert len(classifiers) == len(set(classifiers))
    if importlib.util.find_spec("trove_classifiers") is not None:
        from trove_classifiers import classifiers as known

        assert [c for c in classifiers if c not in known] == []
    # PEP 639: the SPDX expression says the license; a License classifier would contradict
    assert not [c for c in classifiers if c.startswith("License ::")]
    minimum = _project()["requires-python"].removeprefix(">=")
    versions = [c.rsplit(" ", 1)[1] for c in classifiers
                if c.startswith("Programming Language :: Python :: 3.")]
    assert versions[0] == minimum
    assert versions == [f"3.{minor}" for minor in range(10, 10 + len(versions))]
    assert "Typing :: Typed" in classifiers and (ROOT / "srcgrad" / "py.typed").exists()


def test_no_project_url_is_claimed_while_there_is_no_public_home():
    assert "urls" not in _project()
    readme = (ROOT / "README.md").read_text()
    assert "no public home page, repository or issue tracker yet" in readme.replace("\n", " ")
