"""Every test here gets its own on-disk cache directory (the cache is otherwise off
under pytest), so nothing is written outside pytest's temporary directories."""

import pytest


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    path = tmp_path / "srcgrad-cache"
    monkeypatch.setenv("SRCGRAD_CACHE_DIR", str(path))
    monkeypatch.delenv("SRCGRAD_CACHE", raising=False)
    return path
