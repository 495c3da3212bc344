"""Where --runs battles are fought: a Dask cluster gives the results of one process, from a
self-contained run spec that the worker checks."""

from __future__ import annotations

import contextlib
import io
import json
import shutil

import attrs
import pytest

from rules_run.diagnostics import UsageError
from rules_run.editions.bundle import pack, unpack
from rules_run.editions.loader import load_edition
from rules_run.engine.stats import open_executor
from rules_run.paths import RULESETS_DIR

DUEL = str(RULESETS_DIR / "wfb8" / "battles" / "duel.yaml")


def _stdout(main, argv) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        yield local.scheduler_address


def test_runs_on_a_dask_cluster_equal_one_process(cluster):
    from rules_run.cli.run import main

    argv = ["--edition", "wfb8", DUEL, "--runs", "12", "--seed", "5", "--json"]
    alone = _stdout(main, argv + ["--workers", "1"])
    on_dask = _stdout(main, argv + ["--executor", f"dask={cluster}"])
    assert on_dask == alone
    assert json.loads(alone)["outcomes"]["orcs"]["count"] > 0


def test_rules_diff_on_a_dask_cluster_equals_one_process(cluster):
    from rules_run.cli.diff import main

    argv = ["wfb8", str(RULESETS_DIR / "examples" / "wfb8-no-steadfast"), DUEL, "--runs", "6",
            "--no-behaviour", "--json"]
    assert (_stdout(main, argv + ["--executor", f"dask={cluster}"])
            == _stdout(main, argv + ["--workers", "1"]))


def test_an_unknown_executor_is_a_usage_error():
    with pytest.raises(UsageError, match="process, dask or dask=ADDRESS"):
        with open_executor("spark", 2):
            pass


def test_a_bundle_carries_a_patch_with_its_base_and_checks_them(tmp_path):
    patch = load_edition("aos4-gh2025")
    bundle = pack([patch], RULESETS_DIR / "aos4" / "battles" / "duel.yaml")
    names = {name.split("/")[0] for name, _ in bundle.files}
    assert names == {"aos4", "aos4-gh2025", "battle"}
    (folder,), battle = unpack(bundle)
    assert folder.name == "aos4-gh2025" and battle is not None and battle.is_file()
    assert load_edition(folder).fingerprint == patch.fingerprint
    # files that do not give what was packed (changed on the way) are refused
    with pytest.raises(UsageError, match="fingerprint"):
        unpack(attrs.evolve(bundle, rulesets=(("aos4-gh2025", "0" * 64),)))
    with pytest.raises(UsageError, match="not the one that sent"):
        unpack(attrs.evolve(bundle, interpreter="another"))


def test_a_bundle_needs_no_file_of_the_submitter(tmp_path):
    shutil.copytree(RULESETS_DIR / "wfb8", tmp_path / "wfb8")
    bundle = pack([load_edition(tmp_path / "wfb8")], tmp_path / "wfb8" / "battles" / "duel.yaml")
    shutil.rmtree(tmp_path / "wfb8")
    (folder,), battle = unpack(bundle)
    assert (folder / "index.yaml").is_file() and battle is not None and battle.is_file()
