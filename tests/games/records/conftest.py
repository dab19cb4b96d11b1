import pytest

from tests.paths import CORPUS


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def valid_bytes():
    return (CORPUS / "gnubg" / "standard_0001_3p.mat").read_bytes()


@pytest.fixture
def flawed_bytes():
    return (CORPUS / "flawed" / "resign_cube2_wrong_points.mat").read_bytes()
