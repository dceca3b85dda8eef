"""Storage names and options as the CLI takes them: plain file paths, refused shapes with the
allowed ones, a warning when a reopened study's settings change, module options as JSON text, and the
closest keyword for a misspelt one."""
import os

import pytest

import kbo


def test_a_plain_path_is_a_sqlite_study_shared_with_the_cli(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = kbo.Study("plain.db", "p", bounds=[(0, 1)], init=2)
    s.tell(s.ask(), 0.5)
    assert s.storage == "sqlite:plain.db"
    shown = run_cli("show", "--storage", str(tmp_path / "plain.db"), "--study", "p", "--json")
    assert shown["n_complete"] == 1


@pytest.mark.parametrize("storage, expected", [
    ("memroy", "did you mean 'memory'"),
    ("sqlite://x.db", "sqlite:///ABSOLUTE/PATH"),
    ("sqlite:", "no file path"),
    ("mysql://h/db", "unknown storage scheme"),
])
def test_malformed_storage_is_refused_naming_the_allowed_shapes(tmp_path, monkeypatch, storage, expected):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(kbo.InputError, match=expected.replace("?", r"\?")):
        kbo.Study(storage, "s", bounds=[(0, 1)])
    assert os.listdir(tmp_path) == []  # nothing created


def test_storage_errors_are_oserrors():
    assert issubclass(kbo.StorageError, OSError)


def test_reopening_with_other_settings_warns_what_changed(tmp_path):
    url = f"sqlite:{tmp_path / 'w.db'}"
    kbo.Study(url, "s", bounds=[(0, 1)], kernel="rbf", seed=3)
    with pytest.warns(UserWarning, match="kernel rbf -> matern52"):
        kbo.Study(url, "s", bounds=[(0, 1)], seed=3)


def test_module_options_as_a_dict_or_as_json_text_are_the_same_study():
    a = kbo.Study(bounds=[(0, 1)], options={"bo": {"prior_mean": "gls"}})
    b = kbo.Study(bounds=[(0, 1)], options='{"bo": {"prior_mean": "gls"}}')
    assert a.config == b.config and a.config["module_options"] == {"bo": {"prior_mean": "gls"}}
    with pytest.raises(kbo.InputError, match="JSON object or a table"):
        kbo.Study(bounds=[(0, 1)], options='{"bo": ')


def test_a_misspelt_keyword_names_the_closest():
    with pytest.raises(TypeError, match=r"unexpected keyword 'kernal' \(did you mean 'kernel'\?\)"):
        kbo.Study(bounds=[(0, 1)], kernal="rbf")


def test_a_config_file_storage_is_relative_to_the_file(tmp_path, monkeypatch):
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "c.toml").write_text('storage = "s.db"\nstudy = "c"\nbounds = "0:1"\n')
    monkeypatch.chdir(tmp_path)
    s = kbo.Study(config="proj/c.toml")
    assert (tmp_path / "proj" / "s.db").exists() and not (tmp_path / "s.db").exists()
    assert s.storage == f"sqlite:{tmp_path / 'proj' / 's.db'}"
