"""The who-wins benchmark (``benchmarks/outcome.py``): its self-check passes, and a table run
whose routes disagree exits 1 naming the disagreement."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _load_outcome_module():
    spec = importlib.util.spec_from_file_location("outcome_benchmark", BENCHMARKS / "outcome.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_self_check_passes() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "outcome.py"), "--self-check"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "MCGS_BIN": ""},
    )
    assert done.returncode == 0, done.stderr
    assert "self-check passed" in done.stdout


def test_a_disagreement_fails_the_run(monkeypatch, capsys) -> None:
    bench = _load_outcome_module()
    monkeypatch.setattr(bench, "startup_cpu", lambda: 0.0)
    monkeypatch.setattr(bench, "cgf_has_option", lambda sub, option: True)

    def forged(inst, timeout, binary, routes):
        return [
            bench.Result("outcome", "N", 1.0, 10),
            bench.Result("canonical", "P", 2.0, 20),
            bench.Result("MCGS", "N", 0.5, 5),
        ]

    monkeypatch.setattr(bench, "run_instance", forged)
    assert bench.main(["--only", "xo-10"]) == 1
    err = capsys.readouterr().err
    assert "DISAGREEMENT: xo-10: canonical says P, published N" in err
    assert "xo-10: outcome says N, canonical P" in err


def test_agreeing_routes_pass(monkeypatch, capsys) -> None:
    bench = _load_outcome_module()
    monkeypatch.setattr(bench, "startup_cpu", lambda: 0.0)
    monkeypatch.setattr(bench, "cgf_has_option", lambda sub, option: True)
    monkeypatch.setattr(
        bench,
        "run_instance",
        lambda inst, timeout, binary, routes: [
            bench.Result("outcome", "N", 1.0, 10),
            bench.Result("canonical", None, 60.0, None, "> 60 s"),
            bench.Result("MCGS", "N", 0.5, 5),
        ],
    )
    assert bench.main(["--only", "xo-1[01]"]) == 0
    out = capsys.readouterr().out
    row = "| xo-10 | " + "xo" * 10 + " | N | N | 1.00 | 10 | - | > 60 s | - | N | 0.50 | 5 |"
    assert row in out
    assert "| xo-11 |" in out


@pytest.mark.parametrize("only", ["nothing-like-this", "xo-99"])
def test_an_unknown_instance_is_refused(only, monkeypatch) -> None:
    bench = _load_outcome_module()
    assert bench.main(["--only", only]) == 2
